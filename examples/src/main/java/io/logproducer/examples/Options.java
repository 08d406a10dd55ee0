package io.logproducer.examples;

import io.logproducer.ProducerConfig;
import io.logproducer.ProducerConfigDef;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.SpoolFullPolicy;
import io.logproducer.gse.GseExporter;
import io.logproducer.otlp.OtlpHttpExporter;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parsed command-line options: {@code --name VALUE} (or {@code --name=VALUE}) for options that take
 * a value, and bare {@code --flag}s. Only options the sub-command declares are accepted; anything
 * else fails with a message naming it. The common options every sub-command shares are declared and
 * read here, so that {@code otlp} and {@code gse} behave alike.
 */
public final class Options {

  /** Options every sub-command accepts. */
  public static final List<OptionSpec> COMMON =
      List.of(
          OptionSpec.value("records", "N", "records to send in all", 1_000_000),
          OptionSpec.value("threads", "T", "application threads calling send()", 10),
          OptionSpec.producer(
              "compression",
              "C",
              ProducerConfigDef.COMPRESSION,
              "none|gzip|lz4|zstd",
              "the exporter's"),
          OptionSpec.producer(
              "compression-level",
              "L",
              ProducerConfigDef.COMPRESSION_LEVEL,
              "0 for the codec's default, gzip 1-9, zstd 1-22",
              null),
          OptionSpec.producer(
              "send-threads", "S", ProducerConfigDef.SEND_THREADS, "producer send threads", null),
          OptionSpec.producer(
              "batch-size-bytes",
              "B",
              ProducerConfigDef.BATCH_SIZE_IN_BYTES,
              "batchSizeInBytes",
              null),
          OptionSpec.producer(
              "total-size-bytes",
              "M",
              ProducerConfigDef.TOTAL_SIZE_IN_BYTES,
              "totalSizeInBytes: the producer's buffer",
              null),
          OptionSpec.producer(
              "linger-ms", "MS", ProducerConfigDef.LINGER_MILLIS, "lingerMillis", null),
          OptionSpec.producer(
              "delivery-timeout-ms",
              "MS",
              ProducerConfigDef.DELIVERY_TIMEOUT_MILLIS,
              "deliveryTimeoutMillis: how long a record may take to be delivered, retries included; at least "
                  + "--linger-ms plus --request-timeout-ms",
              null),
          OptionSpec.value(
              "request-timeout-ms",
              "MS",
              "the exporter's timeout per attempt: otlp timeoutMillis "
                  + "(default "
                  + OtlpHttpExporter.DEFAULT_TIMEOUT_MILLIS
                  + " or OTEL_EXPORTER_OTLP_TIMEOUT), gse "
                  + "writeTimeoutMillis (default "
                  + GseExporter.DEFAULT_WRITE_TIMEOUT_MILLIS
                  + "), kafka the client's "
                  + "request.timeout.ms, delivery.timeout.ms and max.block.ms",
              null),
          OptionSpec.producer(
              "max-block-ms",
              "MS",
              ProducerConfigDef.MAX_BLOCK_MILLIS,
              "maxBlockMillis: how long "
                  + "send() waits for buffer space before it refuses a record",
              null),
          OptionSpec.producer(
              "max-attributes",
              "N",
              ProducerConfigDef.MAX_ATTRIBUTES_PER_RECORD,
              "maxAttributesPerRecord: attributes a record keeps; the rest are dropped and counted "
                  + "in its dropped_attributes_count",
              null),
          OptionSpec.producer(
              "max-attribute-value-length",
              "CHARS",
              ProducerConfigDef.MAX_ATTRIBUTE_VALUE_LENGTH,
              "maxAttributeValueLength: longer attribute values are truncated (2147483647: no limit)",
              null),
          OptionSpec.flag("quiet", "no progress lines"));

  /**
   * The disk spool's options ({@link SpoolConfig}), for the sub-commands whose exporter can use a
   * spool: {@code --spool-dir} turns it on, the others tune it (ignored without it).
   */
  public static final List<OptionSpec> SPOOL =
      List.of(
          OptionSpec.value(
              "spool-dir",
              "DIR",
              "write each batch ahead to a disk spool in DIR; what is not delivered within "
                  + "--delivery-timeout-ms (or by the end) is SPOOLED and delivered by the next run on DIR; "
                  + "with --records 0, only drain DIR",
              null),
          OptionSpec.value(
              "spool-max-bytes",
              "BYTES",
              "every byte the spool may take on disk; at least 2 x --spool-segment-bytes + 1 MiB",
              1L << 30),
          OptionSpec.value(
              "spool-segment-bytes", "BYTES", "the size of one spool segment file", 64L << 20),
          OptionSpec.value(
              "spool-durability",
              "D",
              "none (survives a process kill) | group-commit (an fsync every "
                  + "--spool-group-commit-ms: survives a power loss after that) | every-batch "
                  + "(an fsync per batch)",
              "group-commit"),
          OptionSpec.value("spool-group-commit-ms", "MS", "the group-commit interval", 200),
          OptionSpec.value(
              "spool-full-policy",
              "P",
              "when the spool is full: drop-newest (the batch stays in memory only) | drop-oldest "
                  + "(delete the oldest segment, counted) | block (wait up to --spool-max-block-ms)",
              "drop-newest"),
          OptionSpec.value(
              "spool-max-block-ms", "MS", "how long block waits for room in the spool", 0),
          OptionSpec.value(
              "spool-max-age-ms",
              "MS",
              "stored batches older than this are expired (counted), not sent",
              7L * 24 * 3600 * 1000),
          OptionSpec.value(
              "drain-timeout-ms",
              "MS",
              "with --records 0: how long to wait for the spool to drain before giving up (exit 1)",
              60_000));

  /** How the final line accounts for every record, for the usage text. */
  public static final String SUMMARY_USAGE =
      String.join(
          "\n",
          "The last line (stdout) accounts for every record: delivered + failed + spooled + refused + not_sent = --records.",
          "  delivered  the receiver accepted them",
          "  failed     send() accepted them but they were not delivered (receiver unreachable or refusing them,",
          "             deliveryTimeoutMillis passed, ...)",
          "  spooled    send() accepted them, they were not delivered yet, and they are stored in the --spool-dir",
          "             spool: the next run on that directory delivers them",
          "  refused    send() did not accept them (no buffer space within --max-block-ms, record too large, ...)",
          "  not_sent   never passed to send(): a thread stops at the first record refused for want of buffer",
          "             space, as waiting --max-block-ms for each further record would not help",
          "Exit code: 0 when every record was delivered (and the embedded receiver, agent or broker counted them all),",
          "1 when not, 2 for a usage error.",
          "With --records 0 --spool-dir DIR the otlp sub-command only drains DIR and prints drained=N: exit 0 once",
          "the spool is empty and every drained record was delivered, 1 if it is not within --drain-timeout-ms.");

  private final Map<String, String> values;

  private Options(Map<String, String> values) {
    this.values = values;
  }

  /**
   * Parses {@code args[from..]} knowing only the {@link #COMMON} options (the {@code otlp}
   * sub-command's set).
   */
  public static Options parse(String[] args, int from) {
    return parse(args, from, "otlp", List.of());
  }

  /**
   * Parses {@code args[from..]}.
   *
   * @param command the sub-command's name, for messages
   * @param commandOptions the sub-command's own options, besides the {@link #COMMON} ones
   * @throws IllegalArgumentException naming the option, if one is unknown, lacks its value, or is a
   *     flag given a value, or if an argument is not an option
   */
  public static Options parse(
      String[] args, int from, String command, List<OptionSpec> commandOptions) {
    Map<String, OptionSpec> known = new LinkedHashMap<>();
    List<OptionSpec> all = new ArrayList<>(COMMON);
    all.addAll(commandOptions);
    for (OptionSpec spec : all) {
      known.put(spec.name(), spec);
    }
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = from; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--") || a.length() == 2) {
        throw new IllegalArgumentException("expected an option like --records, got '" + a + "'");
      }
      String name = a.substring(2);
      String value = null;
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      OptionSpec spec = known.get(name);
      if (spec == null) {
        throw new IllegalArgumentException("unknown option --" + name + " for '" + command + "'");
      }
      if (spec.isFlag()) {
        if (value != null) {
          throw new IllegalArgumentException(
              "--" + name + " takes no value (" + spec.description() + ")");
        }
        value = "true";
      } else if (value == null && i + 1 < args.length && !args[i + 1].startsWith("--")) {
        value = args[++i];
      }
      if (value == null || value.isEmpty()) {
        throw new IllegalArgumentException(
            "--" + name + " needs a value (" + spec.description() + ")");
      }
      values.put(name, value);
    }
    return new Options(values);
  }

  public String string(String name, String defaultValue) {
    return values.getOrDefault(name, defaultValue);
  }

  public boolean has(String name) {
    return values.containsKey(name);
  }

  public long longValue(String name, long defaultValue, long min, long max) {
    String v = values.get(name);
    if (v == null) {
      return defaultValue;
    }
    long n;
    try {
      n = Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + name + " must be a whole number, was '" + v + "'");
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException(
          "--" + name + " must be in [" + min + ", " + max + "], was " + n);
    }
    return n;
  }

  public int intValue(String name, int defaultValue, int min, int max) {
    return (int) longValue(name, defaultValue, min, max);
  }

  /** Records to send in all; 0 only with {@code --spool-dir} (drain the spool). */
  public long records() {
    return longValue("records", 1_000_000, has("spool-dir") ? 0 : 1, Long.MAX_VALUE / 2);
  }

  /** Application threads. */
  public int threads() {
    return intValue("threads", 10, 1, 1024);
  }

  public boolean quiet() {
    return has("quiet");
  }

  /**
   * The exporter's timeout per attempt ({@code --request-timeout-ms}), or {@code defaultValue} when
   * not given. Each sub-command applies it to its exporter.
   */
  public long requestTimeoutMillis(long defaultValue) {
    return longValue("request-timeout-ms", defaultValue, 1, 3_600_000);
  }

  /**
   * The spool the {@link #SPOOL} options describe, or null without {@code --spool-dir}.
   *
   * @throws IllegalArgumentException naming the option, if a value does not parse or the spool
   *     refuses it
   */
  public SpoolConfig spoolConfig() {
    if (!has("spool-dir")) {
      return null;
    }
    SpoolConfig.Builder b = SpoolConfig.builder(Paths.get(string("spool-dir", null)));
    String option = "spool-max-bytes";
    try {
      b.setMaxBytes(longValue(option, 1L << 30, 1, Long.MAX_VALUE));
      option = "spool-segment-bytes";
      b.setSegmentBytes(longValue(option, 64L << 20, 1, Long.MAX_VALUE));
      option = "spool-durability";
      b.setDurability(enumOption(option, SpoolDurability.class, string(option, "group-commit")));
      option = "spool-group-commit-ms";
      b.setGroupCommitMillis(longValue(option, 200, 1, Long.MAX_VALUE));
      option = "spool-full-policy";
      SpoolFullPolicy policy =
          enumOption(option, SpoolFullPolicy.class, string(option, "drop-newest"));
      option = "spool-max-block-ms";
      b.setFullPolicy(policy, longValue(option, 0, 0, Long.MAX_VALUE));
      option = "spool-max-age-ms";
      b.setMaxAgeMillis(longValue(option, 7L * 24 * 3600 * 1000, 1, Long.MAX_VALUE));
      option = "spool-max-bytes";
      return b.build();
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("--")) {
        throw e;
      }
      throw new IllegalArgumentException("--" + option + ": " + e.getMessage(), e);
    }
  }

  /** How long {@code --records 0} waits for the spool to drain, ms. */
  public long drainTimeoutMillis() {
    return longValue("drain-timeout-ms", 60_000, 1, 86_400_000);
  }

  /** {@code value} as a constant of {@code type}: any case, {@code -} for {@code _}. */
  private static <E extends Enum<E>> E enumOption(String option, Class<E> type, String value) {
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(value.replace('-', '_'))) {
        return e;
      }
    }
    List<String> names = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      names.add(e.name().toLowerCase(Locale.ROOT).replace('_', '-'));
    }
    throw new IllegalArgumentException(
        "--" + option + " must be " + String.join("|", names) + ", was '" + value + "'");
  }

  /**
   * The producer configuration the common options describe: each option given is parsed and
   * validated by the setting it is declared for ({@link ProducerConfigDef}); the others keep the
   * producer's defaults. With {@code --spool-dir}, the {@link #spoolConfig() spool} too.
   *
   * @throws IllegalArgumentException naming the option and the setting, if a value does not parse
   *     or is out of bounds
   */
  public ProducerConfig.Builder producerConfig() {
    ProducerConfig.Builder b = ProducerConfig.builder().setSpool(spoolConfig());
    for (OptionSpec spec : COMMON) {
      if (spec.setting() != null && has(spec.name())) {
        try {
          spec.setting().apply(b, string(spec.name(), null).replace("_", ""));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("--" + spec.name() + ": " + e.getMessage(), e);
        }
      }
    }
    return b;
  }
}
