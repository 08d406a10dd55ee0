package com.example.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Producer;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import java.lang.ref.WeakReference;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.devtools.restart.classloader.RestartClassLoader;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.DefaultResourceLoader;

/**
 * The application restarted 8 times in one JVM as Spring Boot DevTools restarts it: each time a new
 * {@link RestartClassLoader} over the application's classes (child first; Spring, the logging
 * system and the starter stay in its parent, as an application's jars do), the application started
 * in a {@code restartedMain} thread whose context class loader it is, and closed from another
 * thread. Each start has its own producer, which ships that run's lines once and is closed with its
 * context; no producer thread or MBean outlives its context, and the closed applications' class
 * loaders are collected.
 *
 * <p>Two loaders may stay reachable, neither growing with the restarts:
 *
 * <ul>
 *   <li>the first restart's: Spring Boot's {@code SpringApplicationShutdownHook} thread, registered
 *       with the JVM ({@code java.lang.ApplicationShutdownHooks.hooks}) in that restart's {@code
 *       restartedMain} thread, keeps it as its inherited context class loader for the life of the
 *       JVM (DevTools' first restart leaves the same);
 *   <li>the last restart's, until the next start re-initialises logging: Spring Boot's logging
 *       system keeps that application's {@code Environment} (in the logback context's object map on
 *       Boot 3, in log4j2's {@code SpringEnvironmentLookup} on Boot 4), whose servlet-context
 *       property source reaches Tomcat's context and its parent class loader.
 * </ul>
 *
 * <p>None is the starter's: its stopped appender may stay in logback's stale copy-on-write snapshot
 * of the root logger's appenders until the next event, but the closed producer it references no
 * longer pins a loader (the library's threads take the library's class loader as their context
 * class loader), and the log4j2 appender leaves the configuration's appender map at close.
 *
 * <p>Spring's soft-reference caches (such as {@code SpringFactoriesLoader}'s, keyed by class
 * loader, which DevTools does not empty) are cleared at each collection in these tests ({@code
 * -XX:SoftRefLRUPolicyMSPerMB=0}), so a loader stays reachable only if something holds it strongly.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StarterRestartTest {

  /**
   * Enough for a leak to show: one thread or MBean more per restart exceeds the slacks below after
   * 8, and every restart but the first and the last must leave its class loader collectable.
   */
  private static final int RESTARTS = 8;

  private static final int REQUESTS = 3;
  private static final int LINES = 4;
  private static final String CONTROLLER = "com.example.boot.SampleApplication$LogController";
  private static final String APPLICATION = "com.example.boot.SampleApplication";

  /**
   * Threads that may be alive after the last close and not after the first, none of them the
   * starter's (those are checked by name after every close): threads that end asynchronously after
   * a close (Tomcat's, the JDK's) or that the JDK starts lazily. Measured: 0 or 1 more.
   */
  private static final int THREAD_SLACK = 4;

  /**
   * MBeans that may be registered after the last close and not after the first, none of them the
   * starter's (those are checked by name after every close): the JVM registers some platform MBeans
   * lazily. Measured: none more.
   */
  private static final int MBEAN_SLACK = 2;

  @Test
  void restartsEachShipTheirLinesOnceAndLeaveNoThreadMBeanOrClassLoaderBehind() throws Exception {
    URL applicationClasses =
        StarterRestartTest.class.getProtectionDomain().getCodeSource().getLocation();
    ClassLoader parent = StarterRestartTest.class.getClassLoader();
    List<WeakReference<ClassLoader>> loaders = new ArrayList<>();
    int threadsAfterFirst = -1;
    int mbeansAfterFirst = -1;
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      Producer previous = null;
      for (int restart = 0; restart < RESTARTS; restart++) {
        RestartClassLoader loader = new RestartClassLoader(parent, new URL[] {applicationClasses});
        loaders.add(new WeakReference<>(loader));
        ConfigurableApplicationContext context = startInRestartedMain(loader, receiver);
        Producer producer = context.getBean(Producer.class);
        assertEquals(
            1, context.getBeansOfType(Producer.class).size(), "one producer in restart " + restart);
        assertTrue(!Apps.producerThreads().isEmpty(), "the producer runs");
        if (previous != null) {
          assertNotSame(previous, producer, "a new producer in restart " + restart);
          assertTrue(previous.isClosed(), "the previous producer is closed");
        }
        int port = Integer.parseInt(context.getEnvironment().getProperty("local.server.port"));
        for (int i = 0; i < REQUESTS; i++) {
          int id = restart * 1_000 + i;
          assertEquals("200", Apps.get(port, "/log?id=" + id + "&lines=" + LINES)[0]);
        }
        context.close();
        context = null;
        loader = null;
        assertTrue(producer.isClosed(), "closed with its context, restart " + restart);
        assertEquals(Set.of(), Apps.producerThreads(), "after restart " + restart);
        assertEquals(Set.of(), RestartSupport.producerMBeans(), "after restart " + restart);
        assertEquals(
            REQUESTS * LINES,
            linesOf(receiver, restart).size(),
            "restart " + restart + "'s lines, each once: " + linesOf(receiver, restart));
        assertEquals(
            REQUESTS * LINES,
            countLinesOf(receiver, restart),
            "restart " + restart + "'s lines, no duplicate");
        assertEquals(
            restart + 1,
            receiver.deliveredBodies().stream()
                .filter(SampleApplication.SHUTDOWN_LINE::equals)
                .count(),
            "each close ships the line logged while the context shuts down, once");
        RestartSupport.clearCachesAsDevToolsDoes(loaders.get(restart).get());
        if (restart == 0) {
          threadsAfterFirst = RestartSupport.threadCount();
          mbeansAfterFirst = RestartSupport.mbeanCount();
        }
        previous = producer;
      }
      previous = null;
      int threadsAfterLast = RestartSupport.threadCount();
      int mbeansAfterLast = RestartSupport.mbeanCount();
      Set<Integer> tolerated = Set.of(0, RESTARTS - 1);
      Set<Integer> reachable = RestartSupport.collectUntil(loaders, tolerated, 20_000);
      System.out.printf(
          "%d restarts: live threads after the first %d, after the last %d; MBeans after the first"
              + " %d, after the last %d; restart class loaders reachable after GC %s%n",
          RESTARTS,
          threadsAfterFirst,
          threadsAfterLast,
          mbeansAfterFirst,
          mbeansAfterLast,
          reachable);
      RestartSupport.dumpHeapIfAsked();
      assertTrue(
          threadsAfterLast <= threadsAfterFirst + THREAD_SLACK,
          "live threads: " + threadsAfterLast + " after the last, " + threadsAfterFirst + " first");
      assertTrue(
          mbeansAfterLast <= mbeansAfterFirst + MBEAN_SLACK,
          "MBeans: " + mbeansAfterLast + " after the last, " + mbeansAfterFirst + " first");
      assertTrue(
          tolerated.containsAll(reachable),
          "restart class loaders still reachable: "
              + reachable
              + " (tolerated: "
              + tolerated
              + ")");
    }
  }

  /**
   * Starts the application as DevTools' {@code RestartLauncher} does: its main class loaded by the
   * restart class loader, in a new thread whose context class loader that is.
   */
  private static ConfigurableApplicationContext startInRestartedMain(
      ClassLoader loader, OtlpReceiver receiver) throws Exception {
    AtomicReference<ConfigurableApplicationContext> started = new AtomicReference<>();
    AtomicReference<Throwable> failed = new AtomicReference<>();
    List<String> properties = Apps.baseProperties(receiver.endpoint());
    // DevTools is on the class path and, outside a test's stack, would start its LiveReload server
    // on the fixed port 35729; the restarts do not need it.
    properties.add("spring.devtools.livereload.enabled=false");
    Thread main =
        new Thread(
            () -> {
              try {
                Class<?> application = loader.loadClass(APPLICATION);
                if (application.getClassLoader() != loader) {
                  throw new IllegalStateException("not loaded by the restart class loader");
                }
                started.set(
                    new SpringApplicationBuilder(application)
                        .resourceLoader(new DefaultResourceLoader(loader))
                        .properties(properties.toArray(new String[0]))
                        .run());
              } catch (Throwable e) {
                failed.set(e);
              }
            },
            "restartedMain");
    main.setContextClassLoader(loader);
    main.start();
    main.join(); // the class's @Timeout bounds a start that never ends
    if (failed.get() != null) {
      throw new AssertionError("the application did not start", failed.get());
    }
    assertTrue(started.get() != null, "started");
    return started.get();
  }

  private static Set<String> linesOf(OtlpReceiver receiver, int restart) {
    Set<String> lines = new TreeSet<>();
    for (ReceivedLogRecord r : receiver.deliveredRecords()) {
      if (CONTROLLER.equals(r.scopeName()) && ofRestart(r, restart)) {
        lines.add(r.bodyString());
      }
    }
    return lines;
  }

  private static int countLinesOf(OtlpReceiver receiver, int restart) {
    int n = 0;
    for (ReceivedLogRecord r : receiver.deliveredRecords()) {
      n += CONTROLLER.equals(r.scopeName()) && ofRestart(r, restart) ? 1 : 0;
    }
    return n;
  }

  private static boolean ofRestart(ReceivedLogRecord r, int restart) {
    int id = Integer.parseInt(String.valueOf(r.attribute("request.id")));
    return id / 1_000 == restart;
  }
}
