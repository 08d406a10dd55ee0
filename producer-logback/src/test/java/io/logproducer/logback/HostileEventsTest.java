package io.logproducer.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.status.Status;
import io.logproducer.logback.LogbackTestSupport.Decoded;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Marker;

/**
 * Hostile events through a real logback context into a real OTLP receiver, each logged on a thread
 * with the default stack size: every event is delivered or counted as dropped (exactly), and
 * nothing is thrown into the logging call.
 *
 * <p>Cause chains are 6,000 deep here, not 10,000: logback builds its own {@code ThrowableProxy}
 * recursively on the logging thread before any appender runs, and on a default stack that overflows
 * from about 4,400 causes while its code is interpreted and about 9,700 once compiled (a logback
 * limit no appender can lift). The test first warms logback's code until it takes the chain; the
 * old recursive appender code overflowed from about 3,800. The 10,000-deep chain is tested with
 * log4j2, which reads the {@code Throwable} only when asked.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostileEventsTest {

  private static final int DEPTH = 6_000;

  private OtlpReceiver server;
  private LoggerContext ctx;
  private LogproducerAppender lp;
  private Logger log;
  private int logged;

  @BeforeEach
  void setUp() throws Exception {
    server = OtlpReceiver.start();
    ctx = LogbackTestSupport.configure("hostile.xml", Map.of("otlp.endpoint", server.endpoint()));
    lp = LogbackTestSupport.appender(ctx, "LP");
    assertTrue(lp.isStarted());
    log = ctx.getLogger("app.hostile");
  }

  @AfterEach
  void tearDown() {
    ctx.stop();
    server.close();
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
    assertNull(
        thrown[0],
        () ->
            "thrown into the logging call: "
                + thrown[0]
                + " at "
                + Arrays.asList(thrown[0].getStackTrace()).subList(0, 3));
    logged += events;
  }

  /**
   * Stops the context (the appender ships what it holds) and checks the exact accounting: every
   * event logged is delivered or counted as dropped.
   */
  private List<Decoded> stopAndAccount(long expectedDropped) {
    ctx.stop();
    List<Decoded> records = LogbackTestSupport.delivered(server);
    assertEquals(expectedDropped, lp.droppedCount(), "dropped");
    assertEquals(0, lp.failedCount(), "failed");
    assertEquals(logged, records.size() + lp.droppedCount(), "delivered + dropped = logged");
    return records;
  }

  private static Throwable chain(int depth) {
    Throwable t = new IllegalStateException("root");
    for (int i = 1; i < depth; i++) {
      t = new RuntimeException("level " + i, t);
    }
    return t;
  }

  /**
   * Runs logback's recursive {@code ThrowableProxy} until the JIT has compiled it enough to take
   * {@code deep} on a default stack (logback's own limit, before any appender), within 60 s.
   */
  private static void warmLogbackUntilItTakes(Throwable deep) throws InterruptedException {
    Throwable shallow = chain(1_000);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    boolean[] took = new boolean[1];
    while (!took[0]) {
      assertTrue(System.nanoTime() - deadline < 0, "logback's ThrowableProxy still overflows");
      for (int i = 0; i < 50; i++) {
        new ThrowableProxy(shallow);
      }
      Thread t =
          new Thread(
              () -> {
                try {
                  new ThrowableProxy(deep);
                  took[0] = true;
                } catch (StackOverflowError e) {
                  // not compiled yet: warm on
                }
              });
      t.start();
      t.join();
    }
  }

  @Test
  void aDeepCauseChainIsDeliveredWithBoundedText() throws Exception {
    Throwable deep = chain(DEPTH);
    warmLogbackUntilItTakes(deep);
    logOnDefaultStack(
        2,
        () -> {
          log.error("deep", deep);
          log.info("after");
        });
    List<Decoded> records = stopAndAccount(0);
    assertEquals(
        List.of("deep", "after"), records.stream().map(Decoded::body).collect(Collectors.toList()));
    String trace = (String) records.get(0).attributes().get("exception.stacktrace");
    assertTrue(trace.startsWith("java.lang.RuntimeException: level " + (DEPTH - 1) + "\n"), trace);
    assertTrue(trace.length() <= 65_536 + 200, "length " + trace.length());
    assertTrue(trace.endsWith(" nested deeper than 64 omitted (depth limit 64)\n"), trace);
    assertEquals(
        64, trace.lines().filter(l -> l.startsWith("Caused by: ")).count(), "causes written");
  }

  @Test
  void cyclicCausesAreDeliveredOnce() throws Exception {
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
    List<Decoded> records = stopAndAccount(0);
    assertEquals(
        List.of("ab", "cd"), records.stream().map(Decoded::body).collect(Collectors.toList()));
    String ab = (String) records.get(0).attributes().get("exception.stacktrace");
    assertTrue(ab.contains("Caused by: java.lang.Exception: b\n"), ab);
    assertTrue(ab.contains("[CIRCULAR REFERENCE: java.lang.Exception: a]"), ab);
    String cd = (String) records.get(1).attributes().get("exception.stacktrace");
    assertTrue(cd.contains("\tSuppressed: java.lang.Exception: d\n"), cd);
    assertTrue(cd.contains("[CIRCULAR REFERENCE: java.lang.Exception: c]"), cd);
  }

  /**
   * An exception whose {@code toString()} throws, except for logback itself: logback 1.5's {@code
   * ThrowableProxy} calls it on the logging thread, where a throw reaches the application before
   * any appender runs (logback's own behaviour; 1.3 does not call it).
   */
  static final class BadToString extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadToString() {
      super("bad");
    }

    @Override
    public String toString() {
      if (new Throwable().getStackTrace()[1].getClassName().startsWith("ch.qos.logback.")) {
        return super.toString();
      }
      throw new IllegalStateException("toString refused");
    }
  }

  /** A message argument whose {@code toString()} throws. */
  private static final Object BAD_ARGUMENT =
      new Object() {
        @Override
        public String toString() {
          throw new IllegalStateException("argument refused");
        }
      };

  @Test
  void throwingToStringsDoNotLoseTheEvent() throws Exception {
    logOnDefaultStack(
        2,
        () -> {
          log.error("bad exception", new BadToString());
          log.info("bad argument {}", BAD_ARGUMENT);
        });
    List<Decoded> records = stopAndAccount(0);
    assertEquals(2, records.size());
    Map<String, Object> attrs = records.get(0).attributes();
    assertEquals(BadToString.class.getName(), attrs.get("exception.type"));
    assertEquals("bad", attrs.get("exception.message"));
    String trace = (String) attrs.get("exception.stacktrace");
    assertTrue(
        trace.startsWith("<toString() threw java.lang.IllegalStateException>\n\tat "), trace);
    // logback's MessageFormatter writes its own placeholder for the argument.
    assertEquals("bad argument [FAILED toString()]", records.get(1).body());
  }

  @Test
  void aToStringThatLogsIsKeptOutByTheRecursionGuard() throws Exception {
    Object logging =
        new Object() {
          @Override
          public String toString() {
            log.warn("nested {}", this); // would recurse without the guard
            return "logging-value";
          }
        };
    logOnDefaultStack(1, () -> log.info("outer {}", logging));
    List<Decoded> records = stopAndAccount(0);
    assertEquals(
        List.of("outer logging-value"),
        records.stream().map(Decoded::body).collect(Collectors.toList()));
  }

  /** A marker that references itself: a naive walk over its references never ends. */
  static class CyclicMarker implements Marker {
    private static final long serialVersionUID = 1L;
    private final String name;
    private Marker next = this;

    CyclicMarker(String name) {
      this.name = name;
    }

    @Override
    public String getName() {
      return name;
    }

    @Override
    public void add(Marker reference) {
      next = reference;
    }

    @Override
    public boolean remove(Marker reference) {
      return false;
    }

    @Override
    @SuppressWarnings("deprecation")
    public boolean hasChildren() {
      return true;
    }

    @Override
    public boolean hasReferences() {
      return true;
    }

    @Override
    public Iterator<Marker> iterator() {
      return Collections.singletonList(next).iterator();
    }

    @Override
    public boolean contains(Marker other) {
      return other == this || next.contains(other);
    }

    @Override
    public boolean contains(String other) {
      return name.equals(other) || next.contains(other);
    }
  }

  @Test
  void markerCyclesAreDeliveredWithTheirNames() throws Exception {
    CyclicMarker self = new CyclicMarker("self");
    CyclicMarker x = new CyclicMarker("x");
    CyclicMarker y = new CyclicMarker("y");
    x.add(y);
    y.add(x); // x → y → x
    logOnDefaultStack(
        2,
        () -> {
          log.info(self, "self-referencing");
          log.info(x, "x-y cycle");
        });
    List<Decoded> records = stopAndAccount(0);
    assertEquals(
        List.of("self-referencing", "x-y cycle"),
        records.stream().map(Decoded::body).collect(Collectors.toList()));
    assertEquals(List.of("self"), records.get(0).attributes().get("logback.marker"));
    assertEquals(List.of("x"), records.get(1).attributes().get("logback.marker"));
  }

  @Test
  void aTwentyMegabyteMessageIsDroppedCountedAndReported() throws Exception {
    String huge = "m".repeat(20 * 1024 * 1024);
    logOnDefaultStack(
        2,
        () -> {
          log.info(huge);
          log.info("small");
        });
    List<Decoded> records = stopAndAccount(1);
    assertEquals(
        List.of("small"), records.stream().map(Decoded::body).collect(Collectors.toList()));
    List<String> warnings = LogbackTestSupport.statuses(ctx, Status.WARN);
    assertTrue(
        warnings.stream().anyMatch(w -> w.contains("1 events dropped") && w.contains("exceeds")),
        () -> "status: " + warnings);
  }

  /** An Error that the mapping raises: a marker whose name cannot be read. */
  static final class HostileError extends Error {
    private static final long serialVersionUID = 1L;

    HostileError() {
      super("marker name refused");
    }
  }

  @Test
  void anErrorWhileMappingIsCountedAsDroppedAndNotThrown() throws Exception {
    CyclicMarker broken =
        new CyclicMarker("broken") {
          private static final long serialVersionUID = 1L;

          @Override
          public String getName() {
            throw new HostileError();
          }
        };
    logOnDefaultStack(
        2,
        () -> {
          log.info(broken, "unmappable");
          log.info("fine");
        });
    List<Decoded> records = stopAndAccount(1);
    assertEquals(List.of("fine"), records.stream().map(Decoded::body).collect(Collectors.toList()));
    List<String> warnings = LogbackTestSupport.statuses(ctx, Status.WARN);
    assertTrue(
        warnings.stream()
            .anyMatch(w -> w.contains("mapping the event failed: " + HostileError.class.getName())),
        () -> "status: " + warnings);
  }

  @Test
  void anErrorOnTheHandOffWorkerIsCountedAsDropped() throws Exception {
    ctx.stop();
    ctx =
        LogbackTestSupport.configure(
            "hostile-queue.xml", Map.of("otlp.endpoint", server.endpoint()));
    lp = LogbackTestSupport.appender(ctx, "LP");
    assertTrue(lp.isStarted());
    log = ctx.getLogger("app.hostile");
    CyclicMarker broken =
        new CyclicMarker("broken") {
          private static final long serialVersionUID = 1L;

          @Override
          public String getName() {
            throw new HostileError();
          }
        };
    logOnDefaultStack(
        3,
        () -> {
          log.info(broken, "unmappable on the worker");
          log.error("bad exception on the worker", new BadToString());
          log.info("fine");
        });
    List<Decoded> records = stopAndAccount(1);
    assertEquals(
        List.of("bad exception on the worker", "fine"),
        records.stream().map(Decoded::body).collect(Collectors.toList()));
    assertTrue(
        ((String) records.get(0).attributes().get("exception.stacktrace"))
            .startsWith("<toString() threw java.lang.IllegalStateException>\n"));
    List<String> warnings = LogbackTestSupport.statuses(ctx, Status.WARN);
    assertTrue(
        warnings.stream()
            .anyMatch(w -> w.contains("mapping the event failed: " + HostileError.class.getName())),
        () -> "status: " + warnings);
  }
}
