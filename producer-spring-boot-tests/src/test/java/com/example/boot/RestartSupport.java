package com.example.boot;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.beans.Introspector;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.springframework.beans.CachedIntrospectionResults;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ReflectionUtils;

/**
 * What {@link StarterRestartTest} needs besides {@link Apps}: the counts it compares across
 * restarts (threads, MBeans, reachable class loaders). Uses only API present in Spring Boot 2.7,
 * 3.5 and 4.1.
 */
final class RestartSupport {

  /** The producer's JMX names ({@code io.logproducer:type=Producer,clientId=…[,instance=N]}). */
  static final ObjectName PRODUCER_MBEANS = objectName("io.logproducer:type=Producer,*");

  private RestartSupport() {}

  /** {@return the names of the registered MBeans of the starter's producer} */
  static Set<ObjectName> producerMBeans() {
    return ManagementFactory.getPlatformMBeanServer().queryNames(PRODUCER_MBEANS, null);
  }

  /** {@return the number of MBeans the platform MBean server holds} */
  static int mbeanCount() {
    return ManagementFactory.getPlatformMBeanServer().getMBeanCount();
  }

  /** {@return the number of live threads} */
  static int threadCount() {
    return ManagementFactory.getThreadMXBean().getThreadCount();
  }

  /**
   * Empties the caches DevTools' {@code Restarter} empties after it closes an application (its
   * {@code cleanupCaches}): the JDK's bean introspector, and Spring's soft-reference caches, which
   * the collector would clear only under memory pressure.
   */
  static void clearCachesAsDevToolsDoes(ClassLoader loader) {
    Introspector.flushCaches();
    ResolvableType.clearCache();
    if (loader != null) {
      CachedIntrospectionResults.clearClassLoader(loader);
    }
    ReflectionUtils.clearCache();
    AnnotationUtils.clearCache();
  }

  /**
   * Collects garbage until no loader outside {@code tolerated} is reachable, or {@code
   * timeoutMillis} passed: one full collection clears every weak reference to an unreachable
   * loader, so this waits on the collector, not on a clock.
   *
   * @return the indexes of the loaders still reachable
   */
  static Set<Integer> collectUntil(
      List<WeakReference<ClassLoader>> loaders, Set<Integer> tolerated, long timeoutMillis) {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    Set<Integer> alive = reachable(loaders);
    while (!tolerated.containsAll(alive) && System.nanoTime() < deadline) {
      clearCachesAsDevToolsDoes(null);
      System.gc();
      alive = reachable(loaders);
    }
    return alive;
  }

  /** {@return the indexes of the loaders not yet collected} */
  static Set<Integer> reachable(List<WeakReference<ClassLoader>> loaders) {
    Set<Integer> alive = new TreeSet<>();
    for (int i = 0; i < loaders.size(); i++) {
      if (loaders.get(i).get() != null) {
        alive.add(i);
      }
    }
    return alive;
  }

  /**
   * Writes a heap dump of the live objects to the path in the system property {@code
   * restart.heapDump}, if it is set (to find what holds a loader: {@code
   * -Drestart.heapDump=/tmp/restart.hprof} on Maven's command line).
   */
  static void dumpHeapIfAsked() throws IOException {
    String path = System.getProperty("restart.heapDump");
    if (path != null) {
      ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpHeap(path, true);
    }
  }

  private static ObjectName objectName(String name) {
    try {
      return new ObjectName(name);
    } catch (MalformedObjectNameException e) {
      throw new IllegalArgumentException(name, e);
    }
  }
}
