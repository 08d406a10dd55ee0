package io.logproducer.benchmark.appenders;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a child measured, printed as one line {@code result k=v …} and parsed back by the suite.
 *
 * @param events events logged in the measured phase
 * @param loggingNanos wall time from the start of the measured phase until every logging thread
 *     finished
 * @param windowNanos wall time from the start of the measured phase until the framework stopped
 * @param loggingCpuNanos the logging threads' CPU ({@code ThreadMXBean}) in the measured phase,
 *     pacing included
 * @param pacingNanos the pacing's estimated share of {@code loggingCpuNanos} (0 when saturated)
 * @param allocatedBytes the logging threads' allocation in the measured phase
 * @param processCpuNanos the whole process's CPU over the window (stop included)
 * @param stopCpuNanos the part of it spent stopping the framework
 * @param groups CPU ns by thread group while logging ({@link ThreadGroupCpu#GROUPS}; {@code other}
 *     includes threads that exited)
 * @param fileLines file variants: lines in the file after the stop (warm-up included), else -1
 * @param queueSizeAttribute log4j2: whether our appender had a {@code queueSize} attribute
 */
public record ChildResult(
    long events,
    long loggingNanos,
    long windowNanos,
    long loggingCpuNanos,
    long pacingNanos,
    long allocatedBytes,
    long processCpuNanos,
    long stopCpuNanos,
    Map<String, Long> groups,
    long fileLines,
    boolean queueSizeAttribute) {

  static final String PREFIX = "result ";

  /** {@return the line the child prints} */
  String format() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("events", events);
    m.put("logging_ns", loggingNanos);
    m.put("window_ns", windowNanos);
    m.put("logging_cpu_ns", loggingCpuNanos);
    m.put("pacing_ns", pacingNanos);
    m.put("alloc_bytes", allocatedBytes);
    m.put("process_cpu_ns", processCpuNanos);
    m.put("stop_cpu_ns", stopCpuNanos);
    groups.forEach((g, v) -> m.put("g_" + g, v));
    m.put("file_lines", fileLines);
    m.put("queue_size_attribute", queueSizeAttribute ? 1 : 0);
    StringBuilder sb = new StringBuilder(PREFIX);
    m.forEach((k, v) -> sb.append(k).append('=').append(v).append(' '));
    return sb.toString().trim();
  }

  /**
   * Parses {@link #format()}'s line.
   *
   * @throws IllegalArgumentException if {@code line} is not a result line
   */
  static ChildResult parse(String line) {
    if (line == null || !line.startsWith(PREFIX)) {
      throw new IllegalArgumentException("not a child result: " + line);
    }
    Map<String, Long> m = new HashMap<>();
    for (String kv : line.substring(PREFIX.length()).trim().split(" ")) {
      int eq = kv.indexOf('=');
      m.put(kv.substring(0, eq), Long.parseLong(kv.substring(eq + 1)));
    }
    Map<String, Long> groups = new LinkedHashMap<>();
    for (String g : ThreadGroupCpu.GROUPS) {
      groups.put(g, m.getOrDefault("g_" + g, 0L));
    }
    return new ChildResult(
        m.get("events"),
        m.get("logging_ns"),
        m.get("window_ns"),
        m.get("logging_cpu_ns"),
        m.get("pacing_ns"),
        m.get("alloc_bytes"),
        m.get("process_cpu_ns"),
        m.get("stop_cpu_ns"),
        groups,
        m.get("file_lines"),
        m.get("queue_size_attribute") == 1);
  }
}
