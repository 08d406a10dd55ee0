package io.logproducer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The declaration of every producer setting, once: name, type, unit, default, bounds and a one-line
 * meaning (as Kafka's {@code ConfigDef}, small). {@link ProducerConfig.Builder} validates with it;
 * the appenders' settings (logback's {@code <producer>}, log4j2's {@code <ProducerSettings>}), the
 * examples' command line and docs/configuration.md's table ({@link #markdownTable()}) are derived
 * from it or checked against it by tests, so a setting added here fails those tests until it is
 * exposed everywhere. Immutable; thread-safe.
 */
public final class ProducerConfigDef {

  /** What a setting's value is. */
  public enum Type {
    /** A 64-bit integer. */
    LONG,
    /** A 32-bit integer. */
    INT,
    /** {@code true} or {@code false}. */
    BOOLEAN,
    /** A {@link BufferFullPolicy} name, any case. */
    BUFFER_FULL_POLICY,
    /**
     * A {@link Compression} name ({@code none}, {@code gzip}, {@code lz4}, {@code zstd}), any case.
     */
    COMPRESSION,
    /** Text. */
    STRING
  }

  /** Applies a parsed value to a builder (the builder's setter). */
  interface Applier {
    void apply(ProducerConfig.Builder builder, Object value);
  }

  /** One setting. Immutable; thread-safe. */
  public static final class Setting {
    private final String name;
    private final Type type;
    private final String unit;
    private final String defaultText;
    private final long min;
    private final long max;
    private final String doc;
    private final Applier applier;

    Setting(
        String name,
        Type type,
        String unit,
        String defaultText,
        long min,
        long max,
        String doc,
        Applier applier) {
      this.name = name;
      this.type = type;
      this.unit = unit;
      this.defaultText = defaultText;
      this.min = min;
      this.max = max;
      this.doc = doc;
      this.applier = applier;
    }

    /**
     * {@return the name, as {@code ProducerConfig.Builder}'s setter, the XML and the docs spell it}
     */
    public String name() {
      return name;
    }

    /** {@return the value's type} */
    public Type type() {
      return type;
    }

    /**
     * {@return the unit: {@code bytes}, {@code ms}, {@code records}, {@code threads}, {@code
     * count}, {@code chars}, or "—"}
     */
    public String unit() {
      return unit;
    }

    /** {@return the default as the docs show it (for numbers, the value first)} */
    public String defaultText() {
      return defaultText;
    }

    /** {@return the least value of a number setting (LONG, INT); 0 for the others} */
    public long min() {
      return min;
    }

    /** {@return the greatest value of a number setting (LONG, INT); 0 for the others} */
    public long max() {
      return max;
    }

    /** {@return what the setting means, one line of Markdown} */
    public String doc() {
      return doc;
    }

    /**
     * Checks a number setting's value against its bounds.
     *
     * @param value the value
     * @return {@code value}
     * @throws IllegalArgumentException "name must be in [min, max], was value" if outside them
     */
    public long check(long value) {
      if (value < min || value > max) {
        throw new IllegalArgumentException(
            name + " must be in [" + min + ", " + max + "], was " + value);
      }
      return value;
    }

    /**
     * Parses {@code text} as the setting's type and sets it on {@code builder}, which validates it.
     *
     * @param builder the builder
     * @param text the value as configuration files and command lines give it (surrounding
     *     whitespace ignored)
     * @throws IllegalArgumentException naming the setting, if the text does not parse or the value
     *     is out of bounds
     */
    public void apply(ProducerConfig.Builder builder, String text) {
      applier.apply(builder, parse(text));
    }

    private Object parse(String text) {
      String v = text == null ? null : text.trim();
      switch (type) {
        case LONG:
          try {
            return Long.parseLong(v);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be an integer, was '" + text + "'", e);
          }
        case INT:
          try {
            return Integer.parseInt(v);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                name + " must be an integer (32 bits), was '" + text + "'", e);
          }
        case BOOLEAN:
          if ("true".equalsIgnoreCase(v) || "false".equalsIgnoreCase(v)) {
            return Boolean.valueOf(v);
          }
          throw new IllegalArgumentException(name + " must be true or false, was '" + text + "'");
        case BUFFER_FULL_POLICY:
          for (BufferFullPolicy p : BufferFullPolicy.values()) {
            if (p.name().equalsIgnoreCase(v)) {
              return p;
            }
          }
          throw new IllegalArgumentException(
              name + " must be one of BLOCK, DROP, was '" + text + "'");
        case COMPRESSION:
          return Compression.fromName(v);
        default:
          return v;
      }
    }

    /** {@return the setting's row of {@link #markdownTable()}} */
    String markdownRow() {
      return "| `" + name + "` | " + unit + " | " + defaultText + " | " + doc + " |";
    }

    @Override
    public String toString() {
      return name + " (" + type.name().toLowerCase(Locale.ROOT) + ", " + unit + ")";
    }
  }

  private static final Map<String, Setting> SETTINGS = new LinkedHashMap<String, Setting>();

  /** {@code totalSizeInBytes}. */
  public static final Setting TOTAL_SIZE_IN_BYTES =
      number(
          "totalSizeInBytes",
          Type.LONG,
          "bytes",
          ProducerConfig.DEFAULT_TOTAL_SIZE_IN_BYTES + " (100 MiB)",
          1024,
          1L << 40,
          "hard bound on the heap batches hold (open, sealed, in flight, retrying, pooled chunks), charged by what is "
              + "allocated",
          (b, v) -> b.setTotalSizeInBytes((Long) v));

  /** {@code maxBlockMillis}. */
  public static final Setting MAX_BLOCK_MILLIS =
      number(
          "maxBlockMillis",
          Type.LONG,
          "ms",
          String.valueOf(ProducerConfig.DEFAULT_MAX_BLOCK_MILLIS),
          0,
          Integer.MAX_VALUE,
          "how long `send` waits for budget under `BLOCK`",
          (b, v) -> b.setMaxBlockMillis((Long) v));

  /** {@code bufferFullPolicy}. */
  public static final Setting BUFFER_FULL_POLICY =
      other(
          "bufferFullPolicy",
          Type.BUFFER_FULL_POLICY,
          "`BLOCK`",
          "`BLOCK` or `DROP` (report `DROPPED`, never wait)",
          (b, v) -> b.setBufferFullPolicy((BufferFullPolicy) v));

  /** {@code batchSizeInBytes}. */
  public static final Setting BATCH_SIZE_IN_BYTES =
      number(
          "batchSizeInBytes",
          Type.INT,
          "bytes",
          ProducerConfig.DEFAULT_BATCH_SIZE_IN_BYTES + " (1 MiB)",
          1,
          ProducerConfig.MAX_BATCH_SIZE_IN_BYTES,
          "a batch is sealed when its records reach this size",
          (b, v) -> b.setBatchSizeInBytes((Integer) v));

  /** {@code batchCountThreshold}. */
  public static final Setting BATCH_COUNT_THRESHOLD =
      number(
          "batchCountThreshold",
          Type.INT,
          "records",
          String.valueOf(ProducerConfig.DEFAULT_BATCH_COUNT_THRESHOLD),
          1,
          10_000_000,
          "a batch is sealed when it holds this many records",
          (b, v) -> b.setBatchCountThreshold((Integer) v));

  /** {@code lingerMillis}. */
  public static final Setting LINGER_MILLIS =
      number(
          "lingerMillis",
          Type.LONG,
          "ms",
          String.valueOf(ProducerConfig.DEFAULT_LINGER_MILLIS),
          0,
          3_600_000,
          "a batch is sealed this long after its first record",
          (b, v) -> b.setLingerMillis((Long) v));

  /** {@code sendThreads}. */
  public static final Setting SEND_THREADS =
      number(
          "sendThreads",
          Type.INT,
          "threads",
          String.valueOf(ProducerConfig.DEFAULT_SEND_THREADS),
          1,
          256,
          "threads that compress and export sealed batches (keep requests in flight while others wait for the "
              + "receiver)",
          (b, v) -> b.setSendThreads((Integer) v));

  /** {@code compression}. */
  public static final Setting COMPRESSION =
      other(
          "compression",
          Type.COMPRESSION,
          "unset: the exporter's default (OTLP: `OTEL_EXPORTER_OTLP_COMPRESSION` or `NONE`; GSE: `NONE`)",
          "`NONE`, `GZIP`, `LZ4` (frame format), `ZSTD`; the start-up line and `toString()` show "
              + "`<the exporter's default>` while unset",
          (b, v) -> b.setCompression((Compression) v));

  /** {@code compressionLevel}. */
  public static final Setting COMPRESSION_LEVEL =
      number(
          "compressionLevel",
          Type.INT,
          "—",
          "0 (the codec's default: gzip "
              + ProducerConfig.DEFAULT_GZIP_LEVEL
              + ", zstd "
              + ProducerConfig.DEFAULT_ZSTD_LEVEL
              + ")",
          0,
          22,
          "0, or gzip 1–9, zstd 1–22; a non-zero level with `LZ4` or `NONE` (which have no levels) is refused, at "
              + "`build()` or, when the compression is the exporter's default, by the `Producer` constructor",
          (b, v) -> b.setCompressionLevel((Integer) v));

  /** {@code retries}. */
  public static final Setting RETRIES =
      number(
          "retries",
          Type.INT,
          "count",
          String.valueOf(ProducerConfig.DEFAULT_RETRIES),
          0,
          Integer.MAX_VALUE,
          "re-sends after retryable failures (time-bounded by `deliveryTimeoutMillis`)",
          (b, v) -> b.setRetries((Integer) v));

  /** {@code initialRetryBackoffMillis}. */
  public static final Setting INITIAL_RETRY_BACKOFF_MILLIS =
      number(
          "initialRetryBackoffMillis",
          Type.LONG,
          "ms",
          String.valueOf(ProducerConfig.DEFAULT_INITIAL_RETRY_BACKOFF_MILLIS),
          1,
          3_600_000,
          "first backoff; doubles per retry, ±20 % jitter; `Retry-After` is a floor",
          (b, v) -> b.setInitialRetryBackoffMillis((Long) v));

  /** {@code maxRetryBackoffMillis}. */
  public static final Setting MAX_RETRY_BACKOFF_MILLIS =
      number(
          "maxRetryBackoffMillis",
          Type.LONG,
          "ms",
          String.valueOf(ProducerConfig.DEFAULT_MAX_RETRY_BACKOFF_MILLIS),
          1,
          3_600_000,
          "backoff cap",
          (b, v) -> b.setMaxRetryBackoffMillis((Long) v));

  /** {@code deliveryTimeoutMillis}. */
  public static final Setting DELIVERY_TIMEOUT_MILLIS =
      number(
          "deliveryTimeoutMillis",
          Type.LONG,
          "ms",
          String.valueOf(ProducerConfig.DEFAULT_DELIVERY_TIMEOUT_MILLIS),
          1,
          Integer.MAX_VALUE,
          "bound on a batch's delivery, retries included, from its creation",
          (b, v) -> b.setDeliveryTimeoutMillis((Long) v));

  /** {@code maxAttributesPerRecord}. */
  public static final Setting MAX_ATTRIBUTES_PER_RECORD =
      number(
          "maxAttributesPerRecord",
          Type.INT,
          "count",
          ProducerConfig.DEFAULT_MAX_ATTRIBUTES_PER_RECORD + " (OpenTelemetry's default)",
          0,
          Integer.MAX_VALUE,
          "attributes a record keeps at `send`: the first ones in order; the rest are dropped and "
              + "counted in its `dropped_attributes_count`",
          (b, v) -> b.setMaxAttributesPerRecord((Integer) v));

  /** {@code maxAttributeValueLength}. */
  public static final Setting MAX_ATTRIBUTE_VALUE_LENGTH =
      number(
          "maxAttributeValueLength",
          Type.INT,
          "chars",
          ProducerConfig.DEFAULT_MAX_ATTRIBUTE_VALUE_LENGTH + " (unlimited)",
          0,
          Integer.MAX_VALUE,
          "longer attribute strings (also inside arrays and key/value lists) are truncated at "
              + "`send`, never inside a surrogate pair; byte arrays likewise, in bytes",
          (b, v) -> b.setMaxAttributeValueLength((Integer) v));

  /** {@code clientId}. */
  public static final Setting CLIENT_ID =
      other(
          "clientId",
          Type.STRING,
          "`logproducer-N` (+ `-<loader hash>` outside the system class loader)",
          "names the threads (`<clientId>-sender-1`, `<clientId>-linger`) and the JMX bean",
          (b, v) -> b.setClientId((String) v));

  /** {@code jmxEnabled}. */
  public static final Setting JMX_ENABLED =
      other(
          "jmxEnabled",
          Type.BOOLEAN,
          "true",
          "register the metrics MBean",
          (b, v) -> b.setJmxEnabled((Boolean) v));

  /** {@code shutdownHookEnabled}. */
  public static final Setting SHUTDOWN_HOOK_ENABLED =
      other(
          "shutdownHookEnabled",
          Type.BOOLEAN,
          "true",
          "close the producer from a JVM shutdown hook if the application did not",
          (b, v) -> b.setShutdownHookEnabled((Boolean) v));

  /** {@code shutdownHookTimeoutMillis}. */
  public static final Setting SHUTDOWN_HOOK_TIMEOUT_MILLIS =
      number(
          "shutdownHookTimeoutMillis",
          Type.LONG,
          "ms",
          String.valueOf(ProducerConfig.DEFAULT_SHUTDOWN_HOOK_TIMEOUT_MILLIS),
          0,
          3_600_000,
          "the hook's grace period (the JVM's exit waits at most this + 1 s)",
          (b, v) -> b.setShutdownHookTimeoutMillis((Long) v));

  private ProducerConfigDef() {}

  private static Setting number(
      String name,
      Type type,
      String unit,
      String defaultText,
      long min,
      long max,
      String doc,
      Applier applier) {
    return add(new Setting(name, type, unit, defaultText, min, max, doc, applier));
  }

  private static Setting other(
      String name, Type type, String defaultText, String doc, Applier applier) {
    return add(new Setting(name, type, "—", defaultText, 0, 0, doc, applier));
  }

  private static Setting add(Setting s) {
    SETTINGS.put(s.name(), s);
    return s;
  }

  /** {@return every setting, in the order of the docs' table} */
  public static List<Setting> all() {
    return Collections.unmodifiableList(new ArrayList<Setting>(SETTINGS.values()));
  }

  /**
   * The setting named {@code name}.
   *
   * @param name a setting's name, as {@link Setting#name()}
   * @return the setting
   * @throws IllegalArgumentException if there is none of that name (the message lists them)
   */
  public static Setting setting(String name) {
    Setting s = SETTINGS.get(name);
    if (s == null) {
      throw new IllegalArgumentException(
          "no producer setting named '" + name + "'; the settings are " + SETTINGS.keySet());
    }
    return s;
  }

  /**
   * The settings table of docs/configuration.md: {@code | name | unit | default | meaning |}, one
   * row per setting, lines separated by {@code \n}.
   *
   * @return the Markdown table, ending with a line separator
   */
  public static String markdownTable() {
    StringBuilder sb =
        new StringBuilder("| name | unit | default | meaning |\n|---|---|---|---|\n");
    for (Setting s : SETTINGS.values()) {
      sb.append(s.markdownRow()).append('\n');
    }
    return sb.toString();
  }
}
