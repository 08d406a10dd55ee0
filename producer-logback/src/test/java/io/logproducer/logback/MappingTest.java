package io.logproducer.logback;

import static io.logproducer.logback.LogbackTestSupport.await;
import static io.logproducer.logback.LogbackTestSupport.configure;
import static io.logproducer.logback.LogbackTestSupport.delivered;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import ch.qos.logback.core.status.Status;
import io.logproducer.logback.LogbackTestSupport.Decoded;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.MDC;
import org.slf4j.MarkerFactory;

/**
 * Every field of the records a real logback context, configured from mapping.xml, sends to a real
 * OTLP receiver.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MappingTest {

  private static final String TRACE_ID = "5b8efff798038103d269b633813fc60c";
  private static final String SPAN_ID = "eee19b7ec3c1b174";
  private static final String UNICODE = "日志 ✓ ünïcödé";

  private final OtlpReceiver server;
  private LoggerContext ctx;

  MappingTest() throws IOException {
    server = OtlpReceiver.start();
  }

  @AfterEach
  void tearDown() {
    MDC.clear();
    if (ctx != null) {
      ctx.stop();
    }
    server.close();
  }

  private LoggerContext start(boolean captureCode) throws Exception {
    ctx =
        configure(
            "mapping.xml",
            Map.of(
                "otlp.endpoint", server.endpoint(), "capture.code", String.valueOf(captureCode)));
    assertTrue(
        LogbackTestSupport.appender(ctx, "LP").isStarted(),
        () -> "appender not started: " + LogbackTestSupport.statuses(ctx, Status.WARN));
    return ctx;
  }

  private List<Decoded> awaitRecords(int n) {
    await(
        n + " records",
        () -> delivered(server).size() >= n,
        15_000,
        () -> "delivered " + delivered(server).size() + ", exchanges " + server.exchanges().size());
    List<Decoded> records = delivered(server);
    assertEquals(n, records.size(), "records delivered");
    assertEquals(List.of(), server.invalidRequests());
    return records;
  }

  @SuppressWarnings("unchecked")
  private ListAppender<ILoggingEvent> list() {
    return (ListAppender<ILoggingEvent>)
        ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("LIST");
  }

  private static long nanos(Instant i) {
    return TimeUnit.SECONDS.toNanos(i.getEpochSecond()) + i.getNano();
  }

  @Test
  void mapsEveryField() throws Exception {
    start(false);
    Logger log = ctx.getLogger("app.mapping.Orders");
    MDC.put("user", "alice");
    MDC.put("secret", "s3cr3t");
    MDC.put("trace_id", TRACE_ID);
    MDC.put("span_id", SPAN_ID);
    MDC.put("trace_flags", "01");
    log.atInfo()
        .addMarker(MarkerFactory.getMarker("AUDIT"))
        .addMarker(MarkerFactory.getMarker("BILLING"))
        .addKeyValue("count", 42)
        .addKeyValue("big", 5_000_000_000L)
        .addKeyValue("ratio", 0.25d)
        .addKeyValue("f", 1.5f)
        .addKeyValue("ok", true)
        .addKeyValue("raw", new byte[] {1, 2, (byte) 0xff})
        .addKeyValue("name", UNICODE)
        .addKeyValue("list", List.of("a", "b"))
        .addKeyValue("otel.event.name", "order.paid")
        .setMessage(UNICODE + " order {}")
        .addArgument(42)
        .log();
    MDC.clear();
    MDC.put("trace_id", "not-a-trace-id");
    MDC.put("span_id", SPAN_ID);
    MDC.put("otel.event.name", "from.mdc");
    log.warn("no trace");
    MDC.clear();
    Exception error = new IllegalStateException("outer ✓", new IOException("inner cause"));
    ctx.getLogger("app.mapping.Errors").error("failed " + UNICODE, error);

    List<Decoded> records = awaitRecords(3);
    List<ILoggingEvent> events = list().list;
    assertEquals(3, events.size());

    Decoded a = records.get(0);
    assertEquals(UNICODE + " order 42", a.body());
    assertEquals(9, a.record().severityNumber());
    assertEquals("INFO", a.record().severityText());
    assertEquals(
        nanos(events.get(0).getInstant()),
        a.record().timeUnixNano(),
        "event time, nanosecond precision");
    long observed = a.record().observedTimeUnixNano();
    assertTrue(
        observed >= a.record().timeUnixNano() / 1_000_000 * 1_000_000 && observed > 0,
        "observed time " + observed + " vs time " + a.record().timeUnixNano());
    assertEquals(TRACE_ID, a.record().traceId());
    assertEquals(SPAN_ID, a.record().spanId());
    assertEquals(1, a.record().flags());
    assertEquals("order.paid", a.record().eventName(), "otel.event.name key-value pair");
    Map<String, Object> attrs = a.attributes();
    assertEquals(Thread.currentThread().getName(), attrs.get("thread.name"));
    assertEquals(Thread.currentThread().getId(), attrs.get("thread.id"));
    assertEquals("alice", attrs.get("user"));
    assertEquals(42L, attrs.get("count"));
    assertEquals(5_000_000_000L, attrs.get("big"));
    assertEquals(0.25d, attrs.get("ratio"));
    assertEquals(1.5d, attrs.get("f"));
    assertEquals(Boolean.TRUE, attrs.get("ok"));
    assertArrayEquals(new byte[] {1, 2, (byte) 0xff}, (byte[]) attrs.get("raw"));
    assertEquals(UNICODE, attrs.get("name"));
    assertEquals("[a, b]", attrs.get("list"));
    assertEquals(List.of("AUDIT", "BILLING"), attrs.get("logback.marker"));
    // Exactly these: secret excluded by mdcExclude, trace keys consumed as the record's ids, no
    // code.* by default.
    assertEquals(
        java.util.Set.of(
            "thread.name",
            "thread.id",
            "user",
            "count",
            "big",
            "ratio",
            "f",
            "ok",
            "raw",
            "name",
            "list",
            "logback.marker"),
        attrs.keySet());
    assertEquals("mapping-test", a.resource().get("service.name"));
    assertEquals("test", a.resource().get("deployment.environment"));
    assertEquals("t0ken", server.requests().get(0).header("x-test-token"));
    assertEquals("2", server.requests().get(0).header("x-other"));

    Decoded b = records.get(1);
    assertEquals("no trace", b.body());
    assertEquals(13, b.record().severityNumber());
    assertEquals("WARN", b.record().severityText());
    assertTrue(b.record().traceId().isEmpty(), "an invalid trace id sets no ids");
    assertEquals("from.mdc", b.record().eventName(), "otel.event.name MDC entry");
    assertEquals(
        java.util.Set.of("thread.name", "thread.id", "trace_id", "span_id"),
        b.attributes().keySet());
    assertEquals("not-a-trace-id", b.attributes().get("trace_id"));
    assertEquals(SPAN_ID, b.attributes().get("span_id"));
    assertEquals(nanos(events.get(1).getInstant()), b.record().timeUnixNano());

    Decoded c = records.get(2);
    assertEquals("failed " + UNICODE, c.body());
    assertEquals(17, c.record().severityNumber());
    assertEquals("ERROR", c.record().severityText());
    Map<String, Object> ce = c.attributes();
    assertEquals("java.lang.IllegalStateException", ce.get("exception.type"));
    assertEquals("outer ✓", ce.get("exception.message"));
    String trace = (String) ce.get("exception.stacktrace");
    assertTrue(
        trace.startsWith(
            "java.lang.IllegalStateException: outer ✓\n\tat io.logproducer.logback.MappingTest"
                + ".mapsEveryField(MappingTest.java:"),
        trace);
    assertTrue(trace.contains("\nCaused by: java.io.IOException: inner cause\n"), trace);

    // The scope name per record: the logger name (each record in a ScopeLogs of its own).
    assertEquals("app.mapping.Orders", a.scopeName());
    assertEquals("app.mapping.Orders", b.scopeName());
    assertEquals("app.mapping.Errors", c.scopeName());
  }

  @Test
  void everyLevelMapsToItsSeverity() throws Exception {
    start(false);
    Logger log = ctx.getLogger("app.levels");
    log.trace("t");
    log.debug("d");
    log.info("i");
    log.warn("w");
    log.error("e");
    List<Decoded> records = awaitRecords(5);
    assertEquals(
        List.of("t", "d", "i", "w", "e"),
        records.stream().map(Decoded::body).collect(Collectors.toList()));
    assertEquals(
        List.of(1, 5, 9, 13, 17),
        records.stream().map(r -> r.record().severityNumber()).collect(Collectors.toList()));
    assertEquals(
        List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR"),
        records.stream().map(r -> r.record().severityText()).collect(Collectors.toList()));
  }

  @Test
  void codeAttributesOnlyWhenEnabled() throws Exception {
    start(true);
    Logger log = ctx.getLogger("app.code");
    int line = new Throwable().getStackTrace()[0].getLineNumber() + 1;
    log.info("with code");
    Map<String, Object> attrs = awaitRecords(1).get(0).attributes();
    assertEquals(
        "io.logproducer.logback.MappingTest.codeAttributesOnlyWhenEnabled",
        attrs.get("code.function.name"));
    assertEquals("MappingTest.java", attrs.get("code.file.path"));
    assertEquals((long) line, attrs.get("code.line.number"));
    // and without: see mapsEveryField (exact attribute key set)
  }

  @Test
  void layoutAsBody() throws Exception {
    ctx = configure("layout.xml", Map.of("otlp.endpoint", server.endpoint()));
    ctx.getLogger("app.layout").info("hello {}", UNICODE);
    List<Decoded> records = awaitRecords(1);
    assertEquals("INFO|app.layout|hello " + UNICODE, records.get(0).body());
  }

  @Test
  void runsOnTheExpectedLogbackVersion() {
    String expected = System.getProperty("expected.logback.version");
    String jar = LoggerContext.class.getProtectionDomain().getCodeSource().getLocation().getPath();
    assertTrue(
        jar.endsWith("logback-classic-" + expected + ".jar"), jar + " is not logback " + expected);
    assertFalse(expected.isEmpty());
  }
}
