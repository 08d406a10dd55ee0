package io.logproducer.benchmark.appenders;

import io.logproducer.benchmark.report.AppenderSuiteResults;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU time (user + system) of this process and of each of its live threads, from Linux's {@code
 * /proc/self/stat} and {@code /proc/self/task/<tid>/stat} (clock ticks of 10 ms): the only place
 * where the JVM's own GC and JIT threads are visible. Threads are grouped by their name ({@code
 * comm}, at most 15 characters): see {@link #groupOf}. Off Linux every value is 0.
 */
final class ThreadGroupCpu {

  /** Names of the child's logging threads start with this. */
  static final String LOGGING_PREFIX = "log-";

  private static final long NANOS_PER_TICK = 10_000_000L;

  private ThreadGroupCpu() {}

  /**
   * {@return the group of a thread called {@code comm}}: {@code logging} (the child's logging
   * threads), {@code gc} (GC workers, G1's concurrent threads and the VM thread that runs the
   * pauses), {@code jit} (compiler threads), {@code other} (main and the JVM's housekeeping
   * threads) and {@code appender}: every other thread, i.e. the ones the framework, the appender,
   * its producer or SDK and their HTTP clients started.
   */
  static String groupOf(String comm) {
    if (comm.startsWith(LOGGING_PREFIX)) {
      return "logging";
    }
    if (comm.startsWith("GC Thread")
        || comm.startsWith("G1 ")
        || comm.equals("VM Thread")
        || comm.startsWith("GC ")) {
      return "gc";
    }
    if (comm.contains("CompilerThre") || comm.startsWith("C1 ") || comm.startsWith("C2 ")) {
      return "jit";
    }
    return switch (comm) {
      case "main",
          "java",
          "Reference Handl",
          "Finalizer",
          "Signal Dispatch",
          "Service Thread",
          "Monitor Deflati",
          "Common-Cleaner",
          "Notification Th",
          "Attach Listener",
          "VM Periodic Tas",
          "Sweeper thread",
          "process reaper",
          "DestroyJavaVM",
          "JFR Recorder Th",
          "JFR Periodic Ta",
          "JFR Shutdown Ho",
          "stdin-reader" ->
          "other";
      default -> "appender";
    };
  }

  /** {@return CPU ns of this process (user + system, all threads, live and exited)} */
  static long processNanos() {
    return statNanos(Path.of("/proc/self/stat"));
  }

  /** {@return tid -> {name, CPU ns} of every live thread} */
  static Map<String, Object[]> threads() {
    Map<String, Object[]> out = new HashMap<>();
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
      for (Path t : tasks) {
        try {
          String stat = Files.readString(t.resolve("stat"), StandardCharsets.US_ASCII);
          String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
          out.put(t.getFileName().toString(), new Object[] {comm, cpu(stat)});
        } catch (IOException | RuntimeException e) {
          // the thread exited while we listed
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return out;
  }

  /**
   * {@return CPU ns by group ({@code AppenderSuiteResults.GROUPS} order) between two {@link
   * #threads()} snapshots}: for each thread live at {@code to}, its CPU since {@code from} (all of
   * it if it started after {@code from})
   */
  static long[] byGroup(Map<String, Object[]> from, Map<String, Object[]> to) {
    long[] out = new long[AppenderSuiteResults.GROUPS.size()];
    to.forEach(
        (tid, v) -> {
          Object[] before = from.get(tid);
          long base = before != null && before[0].equals(v[0]) ? (Long) before[1] : 0L;
          out[AppenderSuiteResults.GROUPS.indexOf(groupOf((String) v[0]))] += (Long) v[1] - base;
        });
    return out;
  }

  private static long statNanos(Path p) {
    try {
      return cpu(Files.readString(p, StandardCharsets.US_ASCII));
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** utime + stime (fields 14 and 15) of a stat line, in ns. */
  private static long cpu(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NANOS_PER_TICK;
  }
}
