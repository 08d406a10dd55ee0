package io.logproducer.benchmark.harness;

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

  /** Parses a report line; null if the line is not one. */
  public static SinkStats parse(String line, long readAtNanos) {
    if (line == null || !line.startsWith("records=")) {
      return null;
    }
    long records = -1;
    long requests = -1;
    long wire = -1;
    long body = -1;
    long bad = -1;
    long cpu = -1;
    for (String part : line.trim().split("\\s+")) {
      int eq = part.indexOf('=');
      if (eq <= 0) {
        return null;
      }
      long v;
      try {
        v = Long.parseLong(part.substring(eq + 1));
      } catch (NumberFormatException e) {
        return null;
      }
      switch (part.substring(0, eq)) {
        case "records" -> records = v;
        case "requests" -> requests = v;
        case "wire_bytes" -> wire = v;
        case "body_bytes" -> body = v;
        case "bad" -> bad = v;
        case "cpu_ns" -> cpu = v;
        default -> {
          // newer sinks may add fields
        }
      }
    }
    if (records < 0 || requests < 0 || wire < 0 || bad < 0 || cpu < 0) {
      return null;
    }
    return new SinkStats(records, requests, wire, Math.max(0, body), bad, cpu, readAtNanos);
  }
}
