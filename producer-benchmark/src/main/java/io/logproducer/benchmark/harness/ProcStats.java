package io.logproducer.benchmark.harness;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Linux process statistics the JVM does not expose: user vs system CPU time and context switches,
 * to tell CPU spent in the kernel (lock hand-offs through futexes, socket I/O) from CPU spent
 * computing, and the CPU of the JVM's own threads (GC workers, JIT compilers), which {@code
 * ThreadMXBean} does not list. Every method returns null (or -1s) where {@code /proc} is
 * unavailable.
 */
final class ProcStats {

  /** Clock ticks per second of {@code /proc/self/stat} ({@code USER_HZ}, 100 on Linux). */
  private static final long TICKS_PER_SECOND = 100;

  private ProcStats() {}

  /** User and system CPU time of this process, in ns, or null. */
  static long[] userSysNanos() {
    try {
      return statUserSysNanos(Files.readString(Path.of("/proc/self/stat"), US_ASCII));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Voluntary and involuntary context switches from a {@code status} file, or {-1, -1}. */
  static long[] contextSwitches(Path status) {
    return new long[] {
      field(status, "voluntary_ctxt_switches"), field(status, "nonvoluntary_ctxt_switches")
    };
  }

  /**
   * {@return the number after {@code key:} in a {@code /proc} file of {@code key: value} lines, or
   * -1 where the file or the key is not there}
   */
  static long field(Path file, String key) {
    try {
      for (String line : Files.readAllLines(file, US_ASCII)) {
        if (line.startsWith(key + ":")) {
          return Long.parseLong(line.substring(key.length() + 1).trim());
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return -1;
  }

  /** Context switches summed over this process's live threads, or null. */
  static long[] processContextSwitches() {
    long[] sum = {0, 0};
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
      for (Path t : tasks) {
        long[] c = contextSwitches(t.resolve("status"));
        if (c[0] >= 0) {
          sum[0] += c[0];
          sum[1] += c[1];
        }
      }
      return sum;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * CPU time (user + system, ns, in steps of one clock tick: 10 ms) of this process's live threads
   * that belong to the JVM itself, summed by {@link #vmGroup(String) group}: {@code gc}, {@code
   * jit}; or null where {@code /proc/self/task} is unavailable. Threads that ended are not counted.
   */
  static Map<String, Long> vmThreadCpuNanos() {
    Map<String, Long> sum = new TreeMap<>();
    sum.put("gc", 0L);
    sum.put("jit", 0L);
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
      for (Path t : tasks) {
        String stat;
        try {
          stat = Files.readString(t.resolve("stat"), java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (IOException ended) {
          continue; // the thread ended meanwhile
        }
        String g = vmGroup(stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
        if (g != null) {
          sum.merge(g, statCpuNanos(stat), Long::sum);
        }
      }
      return sum;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The group of a JVM thread by its Linux name ({@code comm}, at most 15 chars): {@code gc} for
   * HotSpot's collector threads (G1's {@code GC Thread#n}, {@code G1 Conc#n}, {@code G1 Refine#n},
   * {@code G1 Main Marker}, {@code G1 Service}; ZGC's and Shenandoah's workers), {@code jit} for
   * the compiler threads ({@code C1/C2 CompilerThre…}, the code cache sweeper), null for any other
   * thread (Java threads, {@code VM Thread}, {@code VM Periodic Task}…).
   */
  static String vmGroup(String comm) {
    if (comm.startsWith("GC Thread")
        || comm.startsWith("G1 ")
        || comm.startsWith("ZWorker")
        || comm.startsWith("ZDirector")
        || comm.startsWith("Shenandoah")
        || comm.startsWith("Parallel GC")) {
      return "gc";
    }
    if (comm.startsWith("C1 CompilerThre")
        || comm.startsWith("C2 CompilerThre")
        || comm.startsWith("Sweeper thread")) {
      return "jit";
    }
    return null;
  }

  /** utime + stime of a {@code stat} line, in ns. */
  static long statCpuNanos(String stat) {
    long[] us = statUserSysNanos(stat);
    return us[0] + us[1];
  }

  /** utime and stime of a {@code stat} line, in ns. */
  private static long[] statUserSysNanos(String stat) {
    // fields after the parenthesised command name: state is field 3; utime 14, stime 15
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    long nsPerTick = 1_000_000_000L / TICKS_PER_SECOND;
    return new long[] {Long.parseLong(f[11]) * nsPerTick, Long.parseLong(f[12]) * nsPerTick};
  }
}
