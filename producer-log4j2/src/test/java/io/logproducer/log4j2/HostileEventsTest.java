package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.log4j2.Support.Received;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.Marker;
import org.apache.logging.log4j.MarkerManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hostile events through a real log4j2 context into a real OTLP receiver, each logged on a thread
 * with the default stack size, with the appender's {@code ignoreExceptions} true (hostile.xml) and
 * false (hostile-strict.xml): every event is delivered or counted as dropped (exactly), and nothing
 * is thrown into the logging call.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostileEventsTest {

  private OtlpReceiver server;
  private LoggerContext ctx;
  private LogproducerAppender lp;
  private Logger log;
  private int logged;

  private void start(String resource) throws Exception {
    server = OtlpReceiver.start();
    System.setProperty("hostile.otlp.endpoint", server.endpoint());
    ctx = Support.context(resource);
    lp = Support.appender(ctx, "lp");
    log = ctx.getLogger("app.hostile");
  }

  @AfterEach
  void tearDown() {
    if (ctx != null) {
      ctx.stop();
    }
    if (server != null) {
      server.close();
    }
    System.clearProperty("hostile.otlp.endpoint");
  }

  /** Runs {@code body} on a new thread of the default stack size; fails if it threw. */
  private void logOnDefaultStack(int events, Runnable body) throws InterruptedException {
    Throwable[] thrown = new Throwable[1];
    Thread t =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (Throwable e) {
                thrown[0] = e;
              }
            },
            "app-hostile");
    t.start();
    t.join(60_000);
    assertFalse(t.isAlive(), "the logging call returned");
    assertNull(thrown[0], () -> "thrown into the logging call: " + thrown[0]);
    logged += events;
  }

  /**
   * Stops the context (the appender ships what it holds) and checks the exact accounting: every
   * event logged is delivered or counted as dropped.
   */
  private List<Received> stopAndAccount(long expectedDropped) {
    ctx.stop();
    List<Received> records = Support.inLoggedOrder(Support.delivered(server));
    assertEquals(expectedDropped, lp.droppedCount(), "dropped");
    assertEquals(0, lp.failedCount(), "failed");
    assertEquals(logged, records.size() + lp.droppedCount(), "delivered + dropped = logged");
    return records;
  }

  private static List<String> bodies(List<Received> records) {
    return records.stream().map(Received::body).collect(Collectors.toList());
  }

  @ParameterizedTest
  @ValueSource(strings = {"hostile.xml", "hostile-strict.xml"})
  void aCauseChainOfTenThousandIsDeliveredWithBoundedText(String resource) throws Exception {
    start(resource);
    Throwable deep = new IllegalStateException("root");
    for (int i = 1; i < 10_000; i++) {
      deep = new RuntimeException("level " + i, deep);
    }
    Throwable chain = deep;
    logOnDefaultStack(
        2,
        () -> {
          log.error("deep", chain);
          log.info("after");
        });
    List<Received> records = stopAndAccount(0);
    assertEquals(List.of("deep", "after"), bodies(records));
    String trace = records.get(0).attr("exception.stacktrace");
    assertTrue(trace.startsWith("java.lang.RuntimeException: level 9999\n"), trace);
    assertTrue(trace.length() <= 65_536 + 200, "length " + trace.length());
    assertTrue(trace.endsWith(" nested deeper than 64 omitted (depth limit 64)\n"), trace);
    assertEquals(
        64, trace.lines().filter(l -> l.startsWith("Caused by: ")).count(), "causes written");
  }

  @ParameterizedTest
  @ValueSource(strings = {"hostile.xml", "hostile-strict.xml"})
  void cyclicCausesAreDeliveredOnce(String resource) throws Exception {
    start(resource);
    Exception a = new Exception("a");
    Exception b = new Exception("b", a);
    a.initCause(b); // a → b → a
    Exception c = new Exception("c");
    Exception d = new Exception("d", c);
    c.addSuppressed(d); // c suppresses d, whose cause is c
    logOnDefaultStack(
        2,
        () -> {
          log.error("ab", a);
          log.error("cd", c);
        });
    List<Received> records = stopAndAccount(0);
    assertEquals(List.of("ab", "cd"), bodies(records));
    String ab = records.get(0).attr("exception.stacktrace");
    assertTrue(ab.contains("Caused by: java.lang.Exception: b\n"), ab);
    assertTrue(ab.contains("[CIRCULAR REFERENCE: java.lang.Exception: a]"), ab);
    String cd = records.get(1).attr("exception.stacktrace");
    assertTrue(cd.contains("\tSuppressed: java.lang.Exception: d\n"), cd);
    assertTrue(cd.contains("[CIRCULAR REFERENCE: java.lang.Exception: c]"), cd);
  }

  /** An exception whose {@code toString()} and {@code getMessage()} throw. */
  static final class BadException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    @Override
    public String getMessage() {
      throw new IllegalStateException("getMessage refused");
    }

    @Override
    public String toString() {
      throw new IllegalArgumentException("toString refused");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"hostile.xml", "hostile-strict.xml"})
  void throwingToStringsDoNotLoseTheEvent(String resource) throws Exception {
    start(resource);
    Object badArgument =
        new Object() {
          @Override
          public String toString() {
            throw new IllegalStateException("argument refused");
          }
        };
    logOnDefaultStack(
        2,
        () -> {
          log.error("bad exception", new BadException());
          log.info("bad argument {}", badArgument);
        });
    List<Received> records = stopAndAccount(0);
    assertEquals(2, records.size());
    Received bad = records.get(0);
    assertEquals(BadException.class.getName(), bad.attr("exception.type"));
    assertEquals(
        "<getMessage() threw java.lang.IllegalStateException>", bad.attr("exception.message"));
    String trace = bad.attr("exception.stacktrace");
    assertTrue(
        trace.startsWith("<toString() threw java.lang.IllegalArgumentException>\n\tat "), trace);
    // log4j2's ParameterFormatter writes its own placeholder for the argument.
    assertTrue(records.get(1).body().startsWith("bad argument [!!!"), records.get(1).body());
  }

  @ParameterizedTest
  @ValueSource(strings = {"hostile.xml", "hostile-strict.xml"})
  void aToStringThatLogsNeitherRecursesNorDeadlocks(String resource) throws Exception {
    start(resource);
    Object logging =
        new Object() {
          @Override
          public String toString() {
            log.warn("nested");
            return "logging-value";
          }
        };
    logOnDefaultStack(2, () -> log.info("outer {}", logging));
    List<Received> records = stopAndAccount(0);
    // log4j2 formats a parameterized message in the logging call, before any appender runs: the
    // nested event is an ordinary event of its own, logged (and delivered) first.
    assertEquals(List.of("nested", "outer logging-value"), bodies(records));
  }

  /** A marker that is its own parent: a naive walk over its parents never ends. */
  static class CyclicMarker implements Marker {
    private static final long serialVersionUID = 1L;
    private final String name;

    CyclicMarker(String name) {
      this.name = name;
    }

    @Override
    public Marker addParents(Marker... markers) {
      return this;
    }

    @Override
    public String getName() {
      return name;
    }

    @Override
    public Marker[] getParents() {
      return new Marker[] {this};
    }

    @Override
    public boolean hasParents() {
      return true;
    }

    @Override
    public boolean isInstanceOf(Marker m) {
      return m == this || getParents()[0].isInstanceOf(m);
    }

    @Override
    public boolean isInstanceOf(String name) {
      return this.name.equals(name) || getParents()[0].isInstanceOf(name);
    }

    @Override
    public boolean remove(Marker marker) {
      return false;
    }

    @Override
    public Marker setParents(Marker... markers) {
      return this;
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"hostile.xml", "hostile-strict.xml"})
  void markerCyclesAreDeliveredWithTheirNames(String resource) throws Exception {
    start(resource);
    Marker x = MarkerManager.getMarker("hostile-x");
    Marker y = MarkerManager.getMarker("hostile-y");
    y.addParents(x);
    x.addParents(y); // log4j2 (2.25) accepts it: x → y → x
    assertTrue(x.isInstanceOf(y) && y.isInstanceOf(x), "a cycle of log4j2's own markers");
    CyclicMarker self = new CyclicMarker("self");
    logOnDefaultStack(
        2,
        () -> {
          log.info(x, "x");
          log.info(self, "self-parented");
        });
    List<Received> records = stopAndAccount(0);
    assertEquals(List.of("x", "self-parented"), bodies(records));
    assertEquals("hostile-x", records.get(0).attr("log4j.marker"));
    assertEquals("self", records.get(1).attr("log4j.marker"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"hostile.xml", "hostile-strict.xml"})
  void aTwentyMegabyteMessageIsDroppedCountedAndReported(String resource) throws Exception {
    start(resource);
    String huge = "m".repeat(20 * 1024 * 1024);
    try (Support.Status status = Support.Status.register()) {
      logOnDefaultStack(
          2,
          () -> {
            log.info(huge);
            log.info("small");
          });
      List<Received> records = stopAndAccount(1);
      assertEquals(List.of("small"), bodies(records));
      List<String> warnings = status.messages(Level.WARN);
      assertTrue(
          warnings.stream().anyMatch(w -> w.contains("1 events dropped") && w.contains("exceeds")),
          () -> "status: " + warnings);
    }
  }

  /** An exception whose stack trace cannot be read: the JVM's own error. */
  static final class NoStackTrace extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoStackTrace() {
      super("no stack trace");
    }

    @Override
    public StackTraceElement[] getStackTrace() {
      throw new StackOverflowError("getStackTrace refused");
    }
  }

  /** An Error subclass raised by a marker's name. */
  static final class HostileError extends Error {
    private static final long serialVersionUID = 1L;

    HostileError() {
      super("marker name refused");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"hostile.xml", "hostile-strict.xml"})
  void anErrorWhileMappingIsCountedAsDroppedAndNotThrown(String resource) throws Exception {
    start(resource);
    Marker broken =
        new CyclicMarker("broken") {
          private static final long serialVersionUID = 1L;

          @Override
          public String getName() {
            throw new HostileError();
          }
        };
    try (Support.Status status = Support.Status.register()) {
      logOnDefaultStack(
          3,
          () -> {
            log.error("no stack trace", new NoStackTrace());
            log.info(broken, "unmappable");
            log.info("fine");
          });
      List<Received> records = stopAndAccount(2);
      assertEquals(List.of("fine"), bodies(records));
      List<String> warnings = status.messages(Level.WARN);
      assertTrue(
          warnings.stream().anyMatch(w -> w.contains("mapping the event failed: java.lang.")),
          () -> "status: " + warnings);
    }
  }
}
