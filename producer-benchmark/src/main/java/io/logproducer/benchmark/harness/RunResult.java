package io.logproducer.benchmark.harness;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one end-to-end run measured, as the child JVM reported it ({@code RESULT key=value …} on its
 * stdout) plus what the suite added from the sink. All counters cover the measured phase only.
 * Keys:
 *
 * <ul>
 *   <li>{@code emitted} — send/emit calls that returned; {@code accepted} — records the client took
 *       in; {@code delivered} — records the client counted as delivered; {@code failed}; {@code
 *       dropped} (never accepted: OTel's full queue, logproducer's DROP policy);
 *   <li>{@code seconds} — first send to the end of flush; {@code sendSeconds} — first to last send;
 *   <li>{@code rawBytes} — UTF-8 bytes of keys and values sent (the reference's "raw"); {@code
 *       encodedBytes} — encoded records delivered; {@code wireBytes} — request bodies after
 *       compression;
 *   <li>{@code cpuNanos} — process CPU time of the producer JVM; {@code cpu.<group>} — CPU time of
 *       its Java threads by group (app, sender, linger, http, other), of the JVM's own threads from
 *       {@code /proc/self/task} ({@code gc}: collector threads, {@code jit}: compiler threads; runs
 *       measured before these were split off have neither) and {@code vm}: the rest of the process
 *       CPU (other VM threads; GC and JIT too in older runs); {@code alloc.<group>} — bytes
 *       allocated by the Java threads, by group; {@code gcMillis} (collection time the
 *       GarbageCollectorMXBeans report), {@code gcCount};
 *   <li>{@code peakBufferedBytes}, {@code totalSizeInBytes}, {@code sendBlockedNanos};
 *   <li>{@code latency} — sampled send() latencies ({@link LatencyHistogram#encode()});
 *   <li>{@code warmupDelivered} — records delivered in the warm-up phase (the sink counts those
 *       too);
 *   <li>added by the suite: {@code sinkRecords} — records the sink counted while the child ran,
 *       minus {@code warmupDelivered}; {@code sinkCpuNanosPerRecord}; {@code sinkWireBytes}; {@code
 *       sinkBad}.
 * </ul>
 */
public final class RunResult {

  private final Map<String, String> values;

  public RunResult(Map<String, String> values) {
    this.values = new LinkedHashMap<>(values);
  }

  /** Parses a {@code RESULT k=v k=v …} line (the prefix is optional). */
  public static RunResult parse(String line) {
    Map<String, String> m = new LinkedHashMap<>();
    String s = line.startsWith("RESULT ") ? line.substring(7) : line;
    for (String part : s.trim().split("\\s+")) {
      int eq = part.indexOf('=');
      if (eq > 0) {
        m.put(part.substring(0, eq), part.substring(eq + 1));
      }
    }
    return new RunResult(m);
  }

  /** The {@code RESULT …} line for these values. */
  public String format() {
    StringBuilder sb = new StringBuilder("RESULT");
    values.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
    return sb.toString();
  }

  public Map<String, String> values() {
    return values;
  }

  public RunResult with(String key, Object value) {
    Map<String, String> m = new LinkedHashMap<>(values);
    m.put(key, String.valueOf(value));
    return new RunResult(m);
  }

  public String get(String key) {
    return values.get(key);
  }

  public long getLong(String key) {
    String v = values.get(key);
    return v == null || v.isEmpty() ? 0 : Long.parseLong(v);
  }

  public double getDouble(String key) {
    String v = values.get(key);
    return v == null || v.isEmpty() ? 0 : Double.parseDouble(v);
  }

  public boolean has(String key) {
    return values.containsKey(key);
  }

  // ---- derived figures ----

  public double seconds() {
    return getDouble("seconds");
  }

  public long delivered() {
    return getLong("delivered");
  }

  /** Delivered records per second (first send to end of flush). */
  public double recordsPerSec() {
    double s = seconds();
    return s <= 0 ? 0 : delivered() / s;
  }

  /** Raw MB/s (10^6 bytes) of delivered records. */
  public double rawMbPerSec() {
    double s = seconds();
    long emitted = Math.max(1, getLong("emitted"));
    double deliveredRaw = getLong("rawBytes") * Math.min(1.0, (double) delivered() / emitted);
    return s <= 0 ? 0 : deliveredRaw / 1e6 / s;
  }

  /** Wire (compressed request body) MB/s. */
  public double wireMbPerSec() {
    double s = seconds();
    return s <= 0 ? 0 : getLong("wireBytes") / 1e6 / s;
  }

  /** Producer-process CPU in seconds. */
  public double cpuSeconds() {
    return getLong("cpuNanos") / 1e9;
  }

  /**
   * Producer-process CPU as a share of one core, in percent (200 % = both cores of this machine).
   */
  public double cpuPercent() {
    double s = seconds();
    return s <= 0 ? 0 : 100.0 * cpuSeconds() / s;
  }

  /** Producer-process CPU per delivered record, µs. */
  public double cpuMicrosPerRecord() {
    long d = delivered();
    return d == 0 ? 0 : getLong("cpuNanos") / 1e3 / d;
  }

  /** Share of emitted records that were not delivered, in percent. */
  public double lossPercent() {
    long emitted = getLong("emitted");
    return emitted == 0 ? 0 : 100.0 * (emitted - delivered()) / emitted;
  }

  public LatencyHistogram latency() {
    return LatencyHistogram.decode(get("latency"));
  }

  /** CPU nanoseconds by thread group ({@code cpu.<group>} keys), sorted by group name. */
  public Map<String, Long> cpuByGroup() {
    return byPrefix("cpu.");
  }

  /** Bytes allocated by thread group ({@code alloc.<group>} keys). */
  public Map<String, Long> allocByGroup() {
    return byPrefix("alloc.");
  }

  private Map<String, Long> byPrefix(String prefix) {
    Map<String, Long> m = new TreeMap<>();
    values.forEach(
        (k, v) -> {
          if (k.startsWith(prefix)) {
            m.put(k.substring(prefix.length()), Long.parseLong(v));
          }
        });
    return m;
  }

  /** Whether the sink counted exactly the records the client reported delivered. */
  public boolean verified() {
    return has("sinkRecords") && getLong("sinkRecords") == delivered();
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "%,.0f records/s, %.1f raw MB/s, %.1f wire MB/s, CPU %.0f%%",
        recordsPerSec(),
        rawMbPerSec(),
        wireMbPerSec(),
        cpuPercent());
  }
}
