package io.logproducer.logback;

import static io.logproducer.logback.LogbackTestSupport.await;
import static io.logproducer.logback.LogbackTestSupport.configure;
import static io.logproducer.logback.LogbackTestSupport.delivered;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import ch.qos.logback.core.status.Status;
import io.logproducer.logback.LogbackTestSupport.Decoded;
import io.logproducer.testing.appender.SequenceSet;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.MDC;
import org.slf4j.Marker;
import org.slf4j.MarkerFactory;

/**
 * The appender on logback 1.2 with slf4j-api 1.7 (what Spring Boot 2.x ships), run by the pom's
 * "logback-1.2" execution only: a real context configured from logback12.xml sends to a real OTLP
 * receiver every event, mapped with what 1.2 events have (millisecond times, MDC, one marker and
 * its references, the exception; no key-value pairs), and a reset and reconfiguration while a
 * thread logs loses nothing. Uses only API that logback 1.2 and slf4j 1.7 have.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Logback12Test {

  private static final int EVENTS = 30;
  private static final int RECONFIGURATIONS = 5;

  private final OtlpReceiver server;
  private LoggerContext ctx;

  Logback12Test() throws IOException {
    server = OtlpReceiver.start();
  }

  @AfterEach
  void tearDown() {
    MDC.clear();
    ReachRecordingAppender.reached = null;
    if (ctx != null) {
      ctx.stop();
    }
    server.close();
  }

  private LoggerContext start(String resource, int queueSize) throws Exception {
    LoggerContext c = configure(resource, properties(queueSize));
    ctx = c;
    return c;
  }

  private Map<String, String> properties(int queueSize) {
    return Map.of("otlp.endpoint", server.endpoint(), "queue.size", String.valueOf(queueSize));
  }

  private static LogproducerAppender lp(LoggerContext c) {
    LogproducerAppender a = LogbackTestSupport.appender(c, "LP");
    assertTrue(
        a != null && a.isStarted(),
        () -> "appender not started: " + LogbackTestSupport.statuses(c, Status.WARN));
    return a;
  }

  @Test
  void runsOnLogback12WithoutTheLogback13EventFields() {
    String expected = System.getProperty("expected.logback.version");
    assertTrue(expected.startsWith("1.2."), expected);
    String jar = LoggerContext.class.getProtectionDomain().getCodeSource().getLocation().getPath();
    assertTrue(
        jar.endsWith("logback-classic-" + expected + ".jar"), jar + " is not logback " + expected);
    String slf4j = Marker.class.getProtectionDomain().getCodeSource().getLocation().getPath();
    assertTrue(slf4j.endsWith("slf4j-api-1.7.36.jar"), slf4j + " is not slf4j-api 1.7.36");
    assertFalse(LogbackEventAdapter.LOGBACK_13_EVENTS, "logback 1.2 events read as 1.3 ones");
  }

  @Test
  void mapsEveryFieldLogback12Has() throws Exception {
    LoggerContext c = start("logback12.xml", 0);
    LogproducerAppender appender = lp(c);
    Logger log = c.getLogger("app.logback12.Orders");
    Marker audit = MarkerFactory.getDetachedMarker("AUDIT");
    audit.add(MarkerFactory.getMarker("BILLING"));
    List<Exception> errors = new ArrayList<>();
    for (int i = 0; i < EVENTS; i++) {
      MDC.put("user", "u" + i);
      switch (i % 3) {
        case 0:
          log.info(audit, "order {} paid", i);
          break;
        case 1:
          {
            Exception error = new IllegalStateException("boom " + i, new IOException("cause " + i));
            errors.add(error);
            log.error("order " + i + " failed", error);
          }
          break;
        default:
          log.warn("order {} slow", i);
          break;
      }
    }
    MDC.clear();
    await(
        EVENTS + " records",
        () -> delivered(server).size() >= EVENTS,
        15_000,
        () -> "delivered " + delivered(server).size());
    List<Decoded> records = delivered(server);
    assertEquals(EVENTS, records.size(), "records delivered");
    assertEquals(List.of(), server.invalidRequests());
    List<ILoggingEvent> events = list(c).list;
    assertEquals(EVENTS, events.size(), "events logback made");
    String thread = Thread.currentThread().getName();
    long threadId = Thread.currentThread().getId();
    for (int i = 0; i < EVENTS; i++) {
      Decoded r = records.get(i);
      Map<String, Object> attrs = r.attributes();
      String at = "record " + i;
      assertEquals("app.logback12.Orders", r.scopeName(), at);
      assertEquals("logback12-test", r.resource().get("service.name"), at);
      assertEquals(
          TimeUnit.MILLISECONDS.toNanos(events.get(i).getTimeStamp()),
          r.record().timeUnixNano(),
          at + ": the event's time, millisecond precision");
      assertEquals(0, r.record().timeUnixNano() % 1_000_000, at);
      assertEquals(thread, attrs.get("thread.name"), at);
      assertEquals(threadId, attrs.get("thread.id"), at);
      assertEquals("u" + i, attrs.get("user"), at);
      switch (i % 3) {
        case 0:
          {
            assertEquals("order " + i + " paid", r.body(), at);
            assertEquals(9, r.record().severityNumber(), at);
            assertEquals("INFO", r.record().severityText(), at);
            assertEquals(List.of("AUDIT", "BILLING"), attrs.get("logback.marker"), at);
            assertEquals(
                Set.of("thread.name", "thread.id", "user", "logback.marker"), attrs.keySet(), at);
          }
          break;
        case 1:
          {
            assertEquals("order " + i + " failed", r.body(), at);
            assertEquals(17, r.record().severityNumber(), at);
            assertEquals("ERROR", r.record().severityText(), at);
            assertEquals("java.lang.IllegalStateException", attrs.get("exception.type"), at);
            assertEquals("boom " + i, attrs.get("exception.message"), at);
            String trace = (String) attrs.get("exception.stacktrace");
            assertTrue(
                trace.startsWith(
                    "java.lang.IllegalStateException: boom "
                        + i
                        + "\n\tat io.logproducer.logback.Logback12Test.mapsEveryFieldLogback12Has("
                        + "Logback12Test.java:"),
                trace);
            assertTrue(
                trace.contains("\nCaused by: java.io.IOException: cause " + i + "\n"), trace);
            assertEquals(
                Set.of(
                    "thread.name",
                    "thread.id",
                    "user",
                    "exception.type",
                    "exception.message",
                    "exception.stacktrace"),
                attrs.keySet(),
                at);
          }
          break;
        default:
          {
            assertEquals("order " + i + " slow", r.body(), at);
            assertEquals(13, r.record().severityNumber(), at);
            assertEquals("WARN", r.record().severityText(), at);
            assertEquals(Set.of("thread.name", "thread.id", "user"), attrs.keySet(), at);
          }
          break;
      }
    }
    assertEquals(EVENTS / 3, errors.size());
    c.stop();
    assertEquals(0, appender.droppedCount(), "dropped");
    assertEquals(0, appender.failedCount(), "failed");
    assertEquals(EVENTS, delivered(server).size(), "records after the stop");
  }

  @SuppressWarnings("unchecked")
  private static ListAppender<ILoggingEvent> list(LoggerContext c) {
    return (ListAppender<ILoggingEvent>)
        c.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("LIST");
  }

  @Test
  void markerCyclesEndAfterOneLevelOfReferences() throws Exception {
    LoggerContext c = start("logback12.xml", 0);
    LogproducerAppender appender = lp(c);
    Marker self = new HostileEventsTest.CyclicMarker("self");
    Marker x = new HostileEventsTest.CyclicMarker("x");
    Marker y = new HostileEventsTest.CyclicMarker("y");
    x.add(y);
    y.add(x); // x → y → x
    Logger log = c.getLogger("app.logback12.markers");
    log.info(self, "self-referencing");
    log.info(x, "x-y cycle");
    await("2 records", () -> delivered(server).size() >= 2, 15_000, () -> "delivered");
    List<Decoded> records = delivered(server);
    assertEquals(
        List.of("self-referencing", "x-y cycle"),
        records.stream().map(Decoded::body).collect(Collectors.toList()));
    assertEquals(List.of("self"), records.get(0).attributes().get("logback.marker"));
    assertEquals(List.of("x", "y"), records.get(1).attributes().get("logback.marker"));
    c.stop();
    assertEquals(0, appender.droppedCount(), "dropped");
  }

  /**
   * @param queueSize the appender's {@code queueSize}
   */
  @ParameterizedTest(name = "queueSize {0}")
  @ValueSource(ints = {0, 1024})
  void aResetAndReconfigurationWhileLoggingLosesNothing(int queueSize) throws Exception {
    SequenceSet reached = new SequenceSet(1L << 24);
    ReachRecordingAppender.reached = reached;
    Map<String, String> props = properties(queueSize);
    LoggerContext c = start("logback12-reconf.xml", queueSize);
    Set<LogproducerAppender> instances = Collections.newSetFromMap(new IdentityHashMap<>());
    instances.add(lp(c));
    Logger log = c.getLogger("app.logback12.reconf");
    AtomicBoolean logging = new AtomicBoolean(true);
    long[] logged = new long[1];
    Thread load =
        new Thread(
            () -> {
              long seq = 0;
              while (logging.get() && seq < (1L << 24)) {
                log.info("reconf {}", seq++);
              }
              logged[0] = seq;
            },
            "logback12-load");
    load.start();
    try {
      for (int gen = 1; gen <= RECONFIGURATIONS; gen++) {
        long target = reached.count() + 2_000;
        await("events", () -> reached.count() >= target, 30_000, () -> reached.count() + " seen");
        c.reset();
        configure(c, "logback12-reconf.xml", props);
        instances.add(lp(c));
      }
      long target = reached.count() + 2_000;
      await("events", () -> reached.count() >= target, 30_000, () -> reached.count() + " seen");
    } finally {
      logging.set(false);
      load.join(30_000);
    }
    c.stop();
    SequenceSet delivered = new SequenceSet(1L << 24);
    for (Decoded d : delivered(server)) {
      delivered.add(Long.parseLong(d.body().substring("reconf ".length())));
    }
    long dropped = 0;
    long failed = 0;
    for (LogproducerAppender a : instances) {
      dropped += a.droppedCount();
      failed += a.failedCount();
    }
    System.out.printf(
        "logback 1.2 reconfiguration (queueSize %d): %,d logged, %,d reached the appender, %,d delivered,"
            + " %,d dropped, %,d failed over %d instances%n",
        queueSize,
        logged[0],
        reached.count(),
        delivered.count(),
        dropped,
        failed,
        instances.size());
    assertFalse(load.isAlive(), "the logging thread ended");
    assertEquals(RECONFIGURATIONS + 1, instances.size(), "appender instances");
    assertEquals(0, delivered.duplicates(), "records delivered twice");
    assertEquals(0, delivered.missingFrom(reached), "records delivered that never reached it");
    assertEquals(0, reached.duplicates() + reached.outOfRange(), "events reaching it twice");
    assertEquals(0, failed, "failed events (the receiver accepts everything)");
    assertEquals(reached.count(), delivered.count() + dropped, "reached == delivered + dropped");
    assertEquals(List.of(), server.invalidRequests());
  }
}
