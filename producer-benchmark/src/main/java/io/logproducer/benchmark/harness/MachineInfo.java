package io.logproducer.benchmark.harness;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Facts about the machine and JVM the suite ran on, for the report. */
public final class MachineInfo {

  private MachineInfo() {}

  /** Ordered name → value pairs. */
  public static Map<String, String> collect() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("CPU", cpuModel());
    m.put(
        "Cores (available to the JVM)",
        Integer.toString(Runtime.getRuntime().availableProcessors()));
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    m.put(
        "Memory",
        String.format(
            java.util.Locale.ROOT, "%.1f GiB", os.getTotalMemorySize() / (double) (1L << 30)));
    m.put(
        "OS",
        osName()
            + " ("
            + System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + ", "
            + System.getProperty("os.arch")
            + ")");
    m.put(
        "JDK",
        System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.runtime.version")
            + " ("
            + System.getProperty("java.vendor")
            + ")");
    return m;
  }

  private static String cpuModel() {
    return valueAfter(Path.of("/proc/cpuinfo"), "model name", ':', System.getProperty("os.arch"));
  }

  private static String osName() {
    String name = valueAfter(Path.of("/etc/os-release"), "PRETTY_NAME", '=', null);
    return name == null ? System.getProperty("os.name") : name.replace("\"", "");
  }

  /** {@return what follows {@code separator} on the first line that starts with {@code key}} */
  private static String valueAfter(Path file, String key, char separator, String fallback) {
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (line.startsWith(key)) {
          return line.substring(line.indexOf(separator) + 1).trim();
        }
      }
    } catch (IOException | RuntimeException ignored) {
      // not Linux
    }
    return fallback;
  }

  /** Busy and total jiffies of all CPUs from {@code /proc/stat}, or null off Linux. */
  static long[] cpuJiffies() {
    try {
      String first = Files.readAllLines(Path.of("/proc/stat"), StandardCharsets.UTF_8).get(0);
      String[] f = first.trim().split("\\s+");
      long total = 0;
      long idle = 0;
      for (int i = 1; i < f.length; i++) {
        long v = Long.parseLong(f[i]);
        total += v;
        if (i == 4 || i == 5) { // idle, iowait
          idle += v;
        }
      }
      return new long[] {total - idle, total};
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * CPU used by the whole machine between two {@link #cpuJiffies()} snapshots, as a percentage of
   * one core (200 % = two cores busy); NaN if unknown.
   */
  static double busyPercent(long[] before, long[] after) {
    if (before == null || after == null || after[1] == before[1]) {
      return Double.NaN;
    }
    int cores = Runtime.getRuntime().availableProcessors();
    return 100.0 * cores * (after[0] - before[0]) / (double) (after[1] - before[1]);
  }
}
