package io.logproducer.examples;

import io.logproducer.Compression;
import io.logproducer.ProducerConfig;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Parsed {@code --name value} options. Unknown or malformed options fail with a message naming them. The common
 * options every sub-command shares are read here, so that {@code otlp}, {@code gse} and {@code kafka} behave alike.
 */
public final class Options {

  /** Options every sub-command accepts, with their meaning, for usage text. */
  public static final String COMMON_USAGE = String.join("\n",
      "  --records N            records to send in all (default 1000000)",
      "  --threads T            application threads calling send() (default 10)",
      "  --compression C        none|gzip|lz4|zstd (default: the exporter's)",
      "  --compression-level L  gzip 1-9, zstd 1-22 (default 1)",
      "  --send-threads S       producer send threads (default " + ProducerConfig.DEFAULT_SEND_THREADS + ")",
      "  --batch-size-bytes B   batchSizeInBytes (default " + ProducerConfig.DEFAULT_BATCH_SIZE_IN_BYTES + ")",
      "  --total-size-bytes M   totalSizeInBytes (default " + ProducerConfig.DEFAULT_TOTAL_SIZE_IN_BYTES + ")",
      "  --linger-ms L          lingerMillis (default " + ProducerConfig.DEFAULT_LINGER_MILLIS + ")",
      "  --quiet                no progress lines");

  private static final Set<String> COMMON = Set.of("records", "threads", "compression", "compression-level",
      "send-threads", "batch-size-bytes", "total-size-bytes", "linger-ms", "quiet");

  private final Map<String, String> values;
  private final Set<String> used = new HashSet<>();

  private Options(Map<String, String> values) {
    this.values = values;
  }

  /**
   * Parses {@code --name value} pairs and bare {@code --flag}s.
   *
   * @throws IllegalArgumentException on anything else
   */
  public static Options parse(String[] args, int from) {
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = from; i < args.length; i++) {
      String a = args[i];
      if (!a.startsWith("--") || a.length() == 2) {
        throw new IllegalArgumentException("expected an option like --records, got '" + a + "'");
      }
      String name = a.substring(2);
      String value = "true";
      int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
        value = args[++i];
      }
      values.put(name, value);
    }
    return new Options(values);
  }

  public String string(String name, String defaultValue) {
    used.add(name);
    return values.getOrDefault(name, defaultValue);
  }

  public boolean has(String name) {
    used.add(name);
    return values.containsKey(name);
  }

  public long longValue(String name, long defaultValue, long min, long max) {
    used.add(name);
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
      throw new IllegalArgumentException("--" + name + " must be in [" + min + ", " + max + "], was " + n);
    }
    return n;
  }

  public int intValue(String name, int defaultValue, int min, int max) {
    return (int) longValue(name, defaultValue, min, max);
  }

  /** Records to send in all. */
  public long records() {
    return longValue("records", 1_000_000, 1, Long.MAX_VALUE / 2);
  }

  /** Application threads. */
  public int threads() {
    return intValue("threads", 10, 1, 1024);
  }

  public boolean quiet() {
    return has("quiet");
  }

  /** The producer configuration the common options describe. */
  public ProducerConfig.Builder producerConfig() {
    ProducerConfig.Builder b = ProducerConfig.builder();
    if (has("compression")) {
      b.setCompression(Compression.fromName(string("compression", "none")));
    }
    b.setCompressionLevel(intValue("compression-level", 0, 0, 22));
    b.setSendThreads(intValue("send-threads", ProducerConfig.DEFAULT_SEND_THREADS, 1, 256));
    b.setBatchSizeInBytes(intValue("batch-size-bytes", ProducerConfig.DEFAULT_BATCH_SIZE_IN_BYTES, 1,
        ProducerConfig.MAX_BATCH_SIZE_IN_BYTES));
    b.setTotalSizeInBytes(longValue("total-size-bytes", ProducerConfig.DEFAULT_TOTAL_SIZE_IN_BYTES, 1024, 1L << 40));
    b.setLingerMillis(longValue("linger-ms", ProducerConfig.DEFAULT_LINGER_MILLIS, 0, 3_600_000));
    return b;
  }

  /** Fails if an option was given that nothing read. Call after the command has read all it knows. */
  public void rejectUnknown(String command) {
    for (String name : values.keySet()) {
      if (!used.contains(name) && !COMMON.contains(name)) {
        throw new IllegalArgumentException("unknown option --" + name + " for '" + command + "'");
      }
    }
  }
}
