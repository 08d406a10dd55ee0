package io.logproducer.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/** Heap in use after forced collections, for the memory tests (meant for a child JVM running -XX:+UseSerialGC). */
public final class HeapMeter {

  private static final long STABLE_BYTES = 64 * 1024;

  private HeapMeter() {
  }

  /**
   * Heap bytes in use after garbage collection: calls {@code System.gc()} with short pauses until two consecutive
   * readings differ by less than 64 KiB (at most 30 rounds), and returns the last reading.
   */
  public static long usedAfterGc() {
    MemoryMXBean mx = ManagementFactory.getMemoryMXBean();
    long previous = -1;
    long used = 0;
    for (int round = 0; round < 30; round++) {
      System.gc();
      sleep(40);
      used = mx.getHeapMemoryUsage().getUsed();
      if (round >= 2 && previous >= 0 && Math.abs(used - previous) < STABLE_BYTES) {
        return used;
      }
      previous = used;
    }
    return used;
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Names of live threads whose name starts with {@code prefix}. */
  public static java.util.List<String> liveThreads(String prefix) {
    java.util.List<String> names = new java.util.ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive() && t.getName().startsWith(prefix)) {
        names.add(t.getName());
      }
    }
    return names;
  }
}
