package io.logproducer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.memory.HeapMeter;
import io.logproducer.memory.LeakScenario;
import io.logproducer.testing.InMemoryExporter;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * A producer used and closed by code of a class loader (a web application, a plug-in) must not keep
 * that loader alive: neither its threads, the JMX bean, the shutdown hook, nor the calling thread's
 * thread-locals (the encode scratch buffer, the callback context) may pin it once the producer is
 * closed.
 *
 * <p>A child {@link URLClassLoader} whose parent is the platform class loader loads producer-core
 * (target/classes), the test classes (target/test-classes, for {@link LeakScenario}), the kit's
 * classes (for its exporter) and slf4j-api itself. The scenario runs on this (the JUnit) thread,
 * with the child loader as its context class loader, as an application server would set it.
 */
class ClassLoaderLeakTest {

  @Test
  @Timeout(60)
  void aClosedProducerDoesNotPinItsClassLoader() throws Exception {
    List<URL> urls = childClasspath();
    Object[] outcome = runScenario(urls.toArray(new URL[0]));
    @SuppressWarnings("unchecked")
    WeakReference<ClassLoader> loaderRef = (WeakReference<ClassLoader>) outcome[0];
    String clientId = (String) outcome[1];
    outcome = null;
    assertNotNull(clientId);
    assertTrue(
        clientId.matches("logproducer-[0-9]+-[0-9a-f]+"),
        "a default id outside the system class loader names its loader: " + clientId);

    // close() joins its closer thread: right after it returns no producer thread is alive.
    assertEquals(List.of(), HeapMeter.liveThreads(clientId), "producer threads alive after close");

    long start = System.nanoTime();
    boolean collected = false;
    long deadline = start + TimeUnit.SECONDS.toNanos(10);
    for (int round = 0; !collected && (round < 3 || System.nanoTime() - deadline < 0); round++) {
      applyGcPressure(round);
      collected = loaderRef.get() == null;
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    System.out.println(
        "class loader collected="
            + collected
            + " after "
            + millis
            + " ms (clientId "
            + clientId
            + ")");
    if (!collected) {
      Path dump =
          Paths.get("target", "classloader-leak-" + System.currentTimeMillis() + ".hprof")
              .toAbsolutePath();
      ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
          .dumpHeap(dump.toString(), true);
      throw new AssertionError(
          "the child class loader was not garbage collected within "
              + millis
              + " ms after the producer was closed; heap dump: "
              + dump);
    }
    assertEquals(List.of(), HeapMeter.liveThreads(clientId), "producer threads alive after close");
  }

  /**
   * Runs the scenario in a fresh child loader; returns {weak reference to the loader, clientId}.
   */
  private static Object[] runScenario(URL[] urls) throws Exception {
    URLClassLoader loader =
        new URLClassLoader("leak-test", urls, ClassLoader.getPlatformClassLoader());
    Thread current = Thread.currentThread();
    ClassLoader previous = current.getContextClassLoader();
    String clientId;
    try {
      Class<?> scenarioClass = Class.forName(LeakScenario.class.getName(), true, loader);
      assertTrue(
          scenarioClass.getClassLoader() == loader, "the scenario must come from the child loader");
      assertTrue(
          Class.forName(Producer.class.getName(), false, loader).getClassLoader() == loader,
          "producer-core must be loaded by the child loader itself");
      assertTrue(
          Class.forName(LoggerFactory.class.getName(), false, loader).getClassLoader() == loader,
          "slf4j-api must be loaded by the child loader itself");
      Object scenario = scenarioClass.getDeclaredConstructor().newInstance();
      current.setContextClassLoader(loader);
      try {
        ((Runnable) scenario).run();
      } finally {
        current.setContextClassLoader(previous);
      }
      @SuppressWarnings("unchecked")
      Supplier<String> id = (Supplier<String>) scenario;
      clientId = id.get();
    } finally {
      loader.close();
    }
    return new Object[] {new WeakReference<ClassLoader>(loader), clientId};
  }

  /**
   * One round of collection: some allocation (to age and clear soft and weak caches), System.gc(),
   * a pause.
   */
  private static void applyGcPressure(int round) {
    List<byte[]> junk = new ArrayList<>();
    int megabytes = Math.min(256, 16 * (round + 1));
    long max = Runtime.getRuntime().maxMemory() / 4;
    for (int i = 0; i < megabytes && (long) (i + 1) << 20 < max; i++) {
      junk.add(new byte[1 << 20]);
    }
    junk = null;
    System.gc();
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * producer-core's classes, target/test-classes, the kit's classes and the slf4j-api jar, as they
   * appear on this JVM's classpath (found through the classes' code sources, and checked against
   * {@code java.class.path} when it lists them).
   */
  private static List<URL> childClasspath() throws Exception {
    List<URL> urls = new ArrayList<>();
    Class<?>[] roots = {
      Producer.class, LeakScenario.class, InMemoryExporter.class, LoggerFactory.class
    };
    for (Class<?> c : roots) {
      URL url = c.getProtectionDomain().getCodeSource().getLocation();
      File f = new File(url.toURI());
      assertTrue(f.exists(), "code source of " + c + ": " + f);
      urls.add(url);
    }
    String classpath = System.getProperty("java.class.path");
    List<String> entries = List.of(classpath.split(File.pathSeparator));
    if (entries.size() > 1) { // not a manifest-only booter jar
      for (URL u : urls) {
        String path = new File(u.toURI()).getAbsolutePath();
        assertTrue(
            entries.stream().anyMatch(e -> new File(e).getAbsolutePath().equals(path)),
            path + " is not on java.class.path " + classpath);
      }
    }
    // In a reactor build the modules' classes are target/classes or, from the package phase on,
    // their jars.
    assertTrue(
        urls.get(0).getPath().matches(".*(producer-core/target/classes/|producer-core[^/]*\\.jar)"),
        "producer-core classes: " + urls.get(0));
    assertTrue(urls.get(1).getPath().endsWith("/test-classes/"), "test classes: " + urls.get(1));
    assertTrue(
        urls.get(2)
            .getPath()
            .matches(".*(producer-testing/target/classes/|producer-testing[^/]*\\.jar)"),
        "producer-testing classes: " + urls.get(2));
    assertTrue(urls.get(3).getPath().contains("slf4j-api"), "slf4j-api: " + urls.get(3));
    return urls;
  }
}
