package io.logproducer.examples;

import io.logproducer.ProducerConfig;
import io.logproducer.ProducerConfigDef;
import io.logproducer.gse.GseExporter;
import io.logproducer.otlp.OtlpHttpExporter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options every sub-command shares (a picocli {@code @Mixin}), so that {@code otlp}, {@code
 * gse}, … behave alike. The producer settings are kept as given (text) and parsed and validated by
 * their declarations ({@link ProducerConfigDef.Setting#apply}), so that an error names the setting;
 * the others are checked against their bounds when read ({@link IllegalArgumentException} naming
 * the option and the bounds). Not thread-safe: filled by one parse, then read.
 */
public final class CommonOptions {

  /** Each option that sets a producer setting, and the setting, in the order they are applied. */
  static final Map<String, ProducerConfigDef.Setting> SETTINGS = new LinkedHashMap<>();

  static {
    SETTINGS.put("--compression", ProducerConfigDef.COMPRESSION);
    SETTINGS.put("--compression-level", ProducerConfigDef.COMPRESSION_LEVEL);
    SETTINGS.put("--send-threads", ProducerConfigDef.SEND_THREADS);
    SETTINGS.put("--batch-size-bytes", ProducerConfigDef.BATCH_SIZE_IN_BYTES);
    SETTINGS.put("--total-size-bytes", ProducerConfigDef.TOTAL_SIZE_IN_BYTES);
    SETTINGS.put("--linger-ms", ProducerConfigDef.LINGER_MILLIS);
    SETTINGS.put("--delivery-timeout-ms", ProducerConfigDef.DELIVERY_TIMEOUT_MILLIS);
    SETTINGS.put("--max-block-ms", ProducerConfigDef.MAX_BLOCK_MILLIS);
    SETTINGS.put("--max-attributes", ProducerConfigDef.MAX_ATTRIBUTES_PER_RECORD);
    SETTINGS.put("--max-attribute-value-length", ProducerConfigDef.MAX_ATTRIBUTE_VALUE_LENGTH);
  }

  /**
   * The mixin's own model: where {@link #producerConfig()} finds the values of {@link #SETTINGS}.
   */
  @Spec CommandSpec spec;

  @Option(
      names = "--records",
      paramLabel = "N",
      description = "records to send in all (default ${DEFAULT-VALUE})")
  long records = 1_000_000;

  @Option(
      names = "--threads",
      paramLabel = "T",
      description = "application threads calling send() (default ${DEFAULT-VALUE})")
  long threads = 10;

  @Option(
      names = "--compression",
      paramLabel = "C",
      description = "none|gzip|lz4|zstd (default the exporter's)")
  String compression;

  @Option(
      names = "--compression-level",
      paramLabel = "L",
      description = "0 for the codec's default, gzip 1-9, zstd 1-22 (default 0)")
  String compressionLevel;

  @Option(
      names = "--send-threads",
      paramLabel = "S",
      description = "producer send threads (default " + ProducerConfig.DEFAULT_SEND_THREADS + ")")
  String sendThreads;

  @Option(
      names = "--batch-size-bytes",
      paramLabel = "B",
      description = "batchSizeInBytes (default " + ProducerConfig.DEFAULT_BATCH_SIZE_IN_BYTES + ")")
  String batchSizeBytes;

  @Option(
      names = "--total-size-bytes",
      paramLabel = "M",
      description =
          "totalSizeInBytes: the producer's buffer (default "
              + ProducerConfig.DEFAULT_TOTAL_SIZE_IN_BYTES
              + ")")
  String totalSizeBytes;

  @Option(
      names = "--linger-ms",
      paramLabel = "MS",
      description = "lingerMillis (default " + ProducerConfig.DEFAULT_LINGER_MILLIS + ")")
  String lingerMs;

  @Option(
      names = "--delivery-timeout-ms",
      paramLabel = "MS",
      description =
          "deliveryTimeoutMillis: how long a record may take to be delivered, retries included; at"
              + " least --linger-ms plus --request-timeout-ms (default "
              + ProducerConfig.DEFAULT_DELIVERY_TIMEOUT_MILLIS
              + ")")
  String deliveryTimeoutMs;

  @Option(
      names = "--request-timeout-ms",
      paramLabel = "MS",
      description =
          "the exporter's timeout per attempt: otlp timeoutMillis (default "
              + OtlpHttpExporter.DEFAULT_TIMEOUT_MILLIS
              + " or OTEL_EXPORTER_OTLP_TIMEOUT), gse writeTimeoutMillis (default "
              + GseExporter.DEFAULT_WRITE_TIMEOUT_MILLIS
              + "), kafka the client's request.timeout.ms, delivery.timeout.ms and max.block.ms")
  Long requestTimeoutMs;

  @Option(
      names = "--max-block-ms",
      paramLabel = "MS",
      description =
          "maxBlockMillis: how long send() waits for buffer space before it refuses a record"
              + " (default "
              + ProducerConfig.DEFAULT_MAX_BLOCK_MILLIS
              + ")")
  String maxBlockMs;

  @Option(
      names = "--max-attributes",
      paramLabel = "N",
      description =
          "maxAttributesPerRecord: attributes a record keeps; the rest are dropped and counted in"
              + " its dropped_attributes_count (default "
              + ProducerConfig.DEFAULT_MAX_ATTRIBUTES_PER_RECORD
              + ")")
  String maxAttributes;

  @Option(
      names = "--max-attribute-value-length",
      paramLabel = "CHARS",
      description =
          "maxAttributeValueLength: longer attribute values are truncated (2147483647: no limit)"
              + " (default "
              + ProducerConfig.DEFAULT_MAX_ATTRIBUTE_VALUE_LENGTH
              + ")")
  String maxAttributeValueLength;

  @Option(names = "--quiet", description = "no progress lines")
  boolean quiet;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "this text")
  boolean help;

  /**
   * Records to send in all ({@code --records}).
   *
   * @param zeroAllowed whether 0 is allowed (the {@code otlp} sub-command with a spool: drain only)
   * @return the number, in [1 (or 0), 2^62 - 1]
   * @throws IllegalArgumentException naming {@code --records}, if out of bounds
   */
  public long records(boolean zeroAllowed) {
    return within("--records", records, zeroAllowed ? 0 : 1, Long.MAX_VALUE / 2);
  }

  /**
   * Records to send in all ({@code --records}), at least 1.
   *
   * @return the number, in [1, 2^62 - 1]
   * @throws IllegalArgumentException naming {@code --records}, if out of bounds
   */
  public long records() {
    return records(false);
  }

  /**
   * Application threads ({@code --threads}).
   *
   * @return the number, in [1, 1024]
   * @throws IllegalArgumentException naming {@code --threads}, if out of bounds
   */
  public int threads() {
    return (int) within("--threads", threads, 1, 1024);
  }

  /** {@return whether {@code --quiet} was given: no progress lines} */
  public boolean quiet() {
    return quiet;
  }

  /** {@return the {@code --compression} given (not validated here), or null when not given} */
  public String compression() {
    return compression;
  }

  /**
   * The exporter's timeout per attempt ({@code --request-timeout-ms}). Each sub-command applies it
   * to its exporter.
   *
   * @return the timeout in ms, in [1, 3600000], or empty when not given
   * @throws IllegalArgumentException naming the option, if out of bounds
   */
  public OptionalLong requestTimeoutMillis() {
    return requestTimeoutMs == null
        ? OptionalLong.empty()
        : OptionalLong.of(within("--request-timeout-ms", requestTimeoutMs, 1, 3_600_000));
  }

  /**
   * The producer configuration the options describe: each producer option given is parsed and
   * validated by the setting it is declared for ({@link #SETTINGS}); the others keep the producer's
   * defaults.
   *
   * @return a builder, to which the sub-command adds its client id (and spool)
   * @throws IllegalArgumentException naming the option and the setting, if a value does not parse
   *     or is out of bounds
   */
  public ProducerConfig.Builder producerConfig() {
    ProducerConfig.Builder b = ProducerConfig.builder();
    SETTINGS.forEach(
        (option, setting) -> {
          String value = spec.findOption(option).getValue();
          if (value != null) {
            try {
              setting.apply(b, value.replace("_", ""));
            } catch (IllegalArgumentException e) {
              throw new IllegalArgumentException(option + ": " + e.getMessage(), e);
            }
          }
        });
    return b;
  }

  /**
   * Checks an option's value against its bounds (inclusive).
   *
   * @param option the option's name, for the message, e.g. {@code --threads}
   * @return {@code value}
   * @throws IllegalArgumentException naming {@code option} and the bounds, if {@code value} is out
   *     of [{@code min}, {@code max}]
   */
  public static long within(String option, long value, long min, long max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          option + " must be in [" + min + ", " + max + "], was " + value);
    }
    return value;
  }
}
