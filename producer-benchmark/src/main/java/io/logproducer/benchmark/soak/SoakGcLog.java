package io.logproducer.benchmark.soak;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.DoubleSupplier;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The soak's GC listener: every garbage collection as a {@link SoakMain.GcEvent} (heap after it, in
 * bytes, summed over the heap pools) and the latest heap-after-GC figure. Falls back to nothing
 * (and says so) on a JVM without GC notifications. Thread-safe: events arrive on a JMX notification
 * thread.
 */
final class SoakGcLog {

  private final List<SoakMain.GcEvent> events = new ArrayList<>();
  private final Set<String> heapPools = new HashSet<>();
  private volatile long heapAfterGc = -1;
  private volatile boolean notifications;

  /**
   * Listens to every collector; {@code clock} gives the event times (seconds since the run's
   * start).
   */
  void install(DoubleSupplier clock) {
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        heapPools.add(p.getName());
      }
    }
    try {
      for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
        if (!(gc instanceof NotificationEmitter emitter)) {
          continue;
        }
        emitter.addNotificationListener(
            (n, hb) -> {
              if (n.getType()
                  .equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                record(
                    clock.getAsDouble(),
                    GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData()));
              }
            },
            null,
            null);
        notifications = true;
      }
    } catch (RuntimeException | LinkageError e) {
      // Not a HotSpot-compatible JVM: heap used at each sample stands in for heap after GC.
      notifications = false;
      SoakMain.log("GC notifications unavailable (%s): using MemoryMXBean heap used instead", e);
    }
  }

  private void record(double t, GarbageCollectionNotificationInfo info) {
    long after =
        info.getGcInfo().getMemoryUsageAfterGc().entrySet().stream()
            .filter(e -> heapPools.contains(e.getKey()))
            .mapToLong(e -> e.getValue().getUsed())
            .sum();
    heapAfterGc = after;
    SoakMain.GcEvent ev =
        new SoakMain.GcEvent(
            t,
            info.getGcName(),
            info.getGcAction(),
            info.getGcCause(),
            after,
            info.getGcInfo().getDuration());
    synchronized (events) {
      events.add(ev);
    }
  }

  /** Forgets the events so far (those before the run's start belong to start-up). */
  void clear() {
    synchronized (events) {
      events.clear();
    }
  }

  /** {@return a copy of the events so far} */
  List<SoakMain.GcEvent> events() {
    synchronized (events) {
      return new ArrayList<>(events);
    }
  }

  /** {@return whether GC notifications arrive (else {@link #heapAfterGc()} means nothing)} */
  boolean notifications() {
    return notifications;
  }

  /** {@return heap used after the latest GC, bytes; -1 before the first} */
  long heapAfterGc() {
    return heapAfterGc;
  }

  /** {@return the largest heap after a counted GC in [from, to) seconds, bytes; -1 if none} */
  long maxHeapAfterGc(double from, double to, boolean fullGcsOnly) {
    return events().stream()
        .filter(e -> e.t() >= from && e.t() < to && SoakMain.counts(e, fullGcsOnly))
        .mapToLong(SoakMain.GcEvent::heapAfterBytes)
        .max()
        .orElse(-1);
  }

  /** {@return collections so far, all collectors} */
  static long count() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(gc -> Math.max(0, gc.getCollectionCount()))
        .sum();
  }

  /** {@return the collectors' names, comma-separated} */
  static String names() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .map(GarbageCollectorMXBean::getName)
        .collect(Collectors.joining(", "));
  }
}
