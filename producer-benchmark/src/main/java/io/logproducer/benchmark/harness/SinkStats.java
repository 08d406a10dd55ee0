package io.logproducer.benchmark.harness;

import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * One line of the sink's per-second report ({@code records=<n> requests=<n> wire_bytes=<n>
 * body_bytes=<n> bad=<n> cpu_ns=<n>}, cumulative), with the suite's {@code System.nanoTime()} when
 * it was read.
 */
public record SinkStats(
    long records,
    long requests,
    long wireBytes,
    long bodyBytes,
    long bad,
    long cpuNanos,
    long readAtNanos) {

  /** Parses a report line; null if the line is not one (newer sinks may add fields). */
  public static SinkStats parse(String line, long readAtNanos) {
    if (line == null || !line.startsWith("records=")) {
      return null;
    }
    Map<String, Long> v = new HashMap<>();
    for (String part : line.trim().split("\\s+")) {
      int eq = part.indexOf('=');
      try {
        v.put(part.substring(0, eq), Long.parseLong(part.substring(eq + 1)));
      } catch (RuntimeException e) { // no '=' or not a number
        return null;
      }
    }
    if (Stream.of("records", "requests", "wire_bytes", "bad", "cpu_ns")
        .anyMatch(k -> v.getOrDefault(k, -1L) < 0)) {
      return null;
    }
    return new SinkStats(
        v.get("records"),
        v.get("requests"),
        v.get("wire_bytes"),
        Math.max(0, v.getOrDefault("body_bytes", 0L)),
        v.get("bad"),
        v.get("cpu_ns"),
        readAtNanos);
  }
}
