package io.logproducer.memory;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Heap in use right after forced full collections, for the memory tests (meant for a child JVM
 * running {@code -XX:+UseSerialGC}).
 *
 * <p>It reads the heap pools' usage <em>as the collector left them</em> ({@code
 * GcInfo.getMemoryUsageAfterGc()} of the collector that manages every heap pool, i.e. the full
 * collection {@code System.gc()} ran), not {@code MemoryMXBean} "used" a moment later: the
 * producer's send threads keep allocating garbage while retrying (a refused batch is re-sent every
 * few ms), and that garbage, counted by a later reading, made it vary by tens of MB between
 * readings.
 */
public final class HeapMeter {

  private static final long STABLE_BYTES = 64 * 1024;

  private HeapMeter() {}

  /**
   * Live heap bytes: calls {@code System.gc()} until two consecutive post-collection readings
   * differ by less than 64 KiB (at most 30 rounds), and returns the last reading.
   */
  public static long usedAfterGc() {
    long previous = -1;
    long used = 0;
    for (int round = 0; round < 30; round++) {
      used = oneFullGc();
      if (round >= 1 && Math.abs(used - previous) < STABLE_BYTES) {
        return used;
      }
      previous = used;
      sleep(20);
    }
    return used;
  }

  /** Runs {@code System.gc()} and returns the heap pools' total usage right after it. */
  private static long oneFullGc() {
    GarbageCollectorMXBean full = fullCollector();
    long before = full == null ? 0 : full.getCollectionCount();
    System.gc();
    if (full instanceof com.sun.management.GarbageCollectorMXBean
        && full.getCollectionCount() > before) {
      com.sun.management.GcInfo info =
          ((com.sun.management.GarbageCollectorMXBean) full).getLastGcInfo();
      if (info != null) {
        Set<String> heapPools = heapPoolNames();
        long sum = 0;
        for (Map.Entry<String, MemoryUsage> e : info.getMemoryUsageAfterGc().entrySet()) {
          if (heapPools.contains(e.getKey())) {
            sum += e.getValue().getUsed();
          }
        }
        return sum;
      }
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(); // fallback: noisier
  }

  /**
   * The collector managing the most heap pools (the full/old collector: Serial's
   * "MarkSweepCompact").
   */
  private static GarbageCollectorMXBean fullCollector() {
    Set<String> heapPools = heapPoolNames();
    GarbageCollectorMXBean best = null;
    int bestPools = -1;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      int n = 0;
      for (String pool : gc.getMemoryPoolNames()) {
        if (heapPools.contains(pool)) {
          n++;
        }
      }
      if (n > bestPools) {
        best = gc;
        bestPools = n;
      }
    }
    return best;
  }

  private static Set<String> heapPoolNames() {
    Set<String> names = new HashSet<>();
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        names.add(pool.getName());
      }
    }
    return names;
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
  public static List<String> liveThreads(String prefix) {
    List<String> names = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive() && t.getName().startsWith(prefix)) {
        names.add(t.getName());
      }
    }
    return names;
  }
}
