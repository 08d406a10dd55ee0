package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.log4j2.Support.Received;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.MarkerManager;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.message.MapMessage;
import org.apache.logging.log4j.message.StringMapMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every field of the records, configured from mapping.xml, decoded by a real OTLP receiver. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MappingTest {

  private static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
  private static final String SPAN_ID = "b7ad6b7169203331";
  private static final String TEXT = "日志 ✓ ünïcödé";

  private OtlpReceiver server;
  private LoggerContext ctx;

  @BeforeEach
  void setUp() throws IOException {
    server = OtlpReceiver.start();
    System.setProperty("mapping.otlp.endpoint", server.endpoint());
    ctx = Support.context("mapping.xml");
  }

  @AfterEach
  void tearDown() {
    ThreadContext.clearAll();
    if (ctx != null) {
      ctx.stop();
    }
    server.close();
    System.clearProperty("mapping.otlp.endpoint");
  }

  private List<Received> awaitDelivered(String service, int n) {
    Support.await(
        n + " records of " + service,
        () ->
            Support.delivered(server).stream().filter(r -> service.equals(r.service())).count()
                >= n,
        10_000,
        () ->
            "delivered="
                + Support.delivered(server).size()
                + ", invalid requests="
                + server.invalidRequests());
    return Support.inLoggedOrder(
        Support.delivered(server).stream()
            .filter(r -> service.equals(r.service()))
            .collect(Collectors.toList()));
  }

  /**
   * Each record travels in a ScopeLogs named after its logger (the OTLP exporter's scope-per-record
   * mode).
   */
  private static void assertScope(String expected, Received r) {
    assertEquals(expected, r.scope(), "ScopeLogs.scope.name of the record = its logger name");
  }

  @Test
  void everyFieldOfTheEvent() {
    Logger log = ctx.getLogger("test.mapping");
    Thread me = Thread.currentThread();

    ThreadContext.put("user", "alice ✓");
    ThreadContext.put("secret", "s3cr3t");
    ThreadContext.put("trace_id", TRACE_ID);
    ThreadContext.put("span_id", SPAN_ID);
    ThreadContext.put("trace_flags", "01");
    log.info(MarkerManager.getMarker("AUDIT"), "hello {} {}", TEXT, 42);
    ThreadContext.clearAll();

    ThreadContext.put("trace_id", "not-a-trace-id");
    ThreadContext.put("span_id", SPAN_ID);
    log.warn("invalid trace context");
    ThreadContext.clearAll();

    log.error(
        "failed: " + TEXT,
        new IllegalStateException("outer " + TEXT, new IOException("inner cause")));

    MapMessage<?, Object> map =
        new MapMessage<>()
            .with("message", "map body " + TEXT)
            .with("count", 7L)
            .with("small", 3)
            .with("ratio", 0.5d)
            .with("ok", true)
            .with("name", "ü")
            .with("raw", (Object) new byte[] {1, 2, (byte) 0xff});
    log.info(map);
    log.info(new StringMapMessage().with("a", "1").with("b", "2")); // no "message" entry: no body

    log.trace("t");
    log.debug("d");
    log.fatal("f");
    log.log(Level.getLevel("NOTICE"), "notice");

    List<Received> got = awaitDelivered("main-svc", 9);
    assertEquals(9, got.size(), got.toString());
    List<CaptureAppender.Seen> seen =
        ctx.getConfiguration().<CaptureAppender>getAppender("capture").seen();
    assertEquals(9, seen.size());
    for (int i = 0; i < 9; i++) {
      Received r = got.get(i);
      // Event time exactly as log4j2 recorded it, nanosecond field included (no truncation to
      // millis).
      assertEquals(seen.get(i).timeUnixNano(), r.record().timeUnixNano(), "time of record " + i);
      assertTrue(
          r.record().observedTimeUnixNano() >= r.record().timeUnixNano() - 1_000_000,
          "observed time is now");
      assertScope("test.mapping", r);
      assertEquals(me.getName(), r.attr("thread.name"));
      assertEquals(me.getId(), r.attributes().get("thread.id"));
      assertFalse(
          r.attributes().keySet().stream().anyMatch(k -> k.startsWith("code.")),
          "no code.* by default");
      assertFalse(r.attributes().containsKey("secret"), "mdcExclude");
    }

    Received first = got.get(0);
    assertEquals("hello " + TEXT + " 42", first.body());
    assertEquals(9, first.record().severityNumber());
    assertEquals("INFO", first.record().severityText());
    assertEquals(TRACE_ID, first.record().traceId());
    assertEquals(SPAN_ID, first.record().spanId());
    assertEquals(1, first.record().flags());
    assertEquals(
        java.util.Set.of("user", "log4j.marker", "thread.name", "thread.id"),
        first.attributes().keySet(),
        "trace keys and secret left out");
    assertEquals("alice ✓", first.attr("user"));
    assertEquals("AUDIT", first.attr("log4j.marker"));

    Received invalid = got.get(1);
    assertEquals("invalid trace context", invalid.body());
    assertEquals(13, invalid.record().severityNumber());
    assertEquals("WARN", invalid.record().severityText());
    assertTrue(invalid.record().traceId().isEmpty());
    assertTrue(invalid.record().spanId().isEmpty());
    assertEquals("not-a-trace-id", invalid.attr("trace_id"), "invalid ids stay attributes");
    assertEquals(SPAN_ID, invalid.attr("span_id"));

    Received error = got.get(2);
    assertEquals("failed: " + TEXT, error.body());
    assertEquals(17, error.record().severityNumber());
    assertEquals("ERROR", error.record().severityText());
    assertEquals("java.lang.IllegalStateException", error.attr("exception.type"));
    assertEquals("outer " + TEXT, error.attr("exception.message"));
    String trace = error.attr("exception.stacktrace");
    assertTrue(
        trace.startsWith(
            "java.lang.IllegalStateException: outer "
                + TEXT
                + "\n\tat io.logproducer.log4j2"
                + ".MappingTest.everyFieldOfTheEvent(MappingTest.java:"),
        trace);
    assertTrue(trace.contains("\nCaused by: java.io.IOException: inner cause\n"), trace);

    Received mapped = got.get(3);
    assertEquals("map body " + TEXT, mapped.body());
    Map<String, Object> a = mapped.attributes();
    assertFalse(a.containsKey("message"), "the body entry is not an attribute");
    assertEquals(7L, a.get("count"));
    assertEquals(Long.class, a.get("small").getClass(), "an int is an int_value");
    assertEquals(3L, a.get("small"));
    assertEquals(0.5d, a.get("ratio"));
    assertEquals(Boolean.TRUE, a.get("ok"), "a bool_value");
    assertEquals("ü", a.get("name"));
    assertArrayEquals(new byte[] {1, 2, (byte) 0xff}, (byte[]) a.get("raw"));

    Received noBody = got.get(4);
    assertNull(noBody.record().body(), "no body value set");
    assertEquals("1", noBody.attr("a"));
    assertEquals("2", noBody.attr("b"));

    assertEquals(
        List.of(1, 5, 21, 13),
        got.subList(5, 9).stream()
            .map(r -> r.record().severityNumber())
            .collect(Collectors.toList()));
    assertEquals(
        List.of("TRACE", "DEBUG", "FATAL", "NOTICE"),
        got.subList(5, 9).stream()
            .map(r -> r.record().severityText())
            .collect(Collectors.toList()));
    assertEquals(
        List.of("t", "d", "f", "notice"),
        got.subList(5, 9).stream().map(Received::body).collect(Collectors.toList()));

    // The <Otlp> headers, from the attribute and from a <Property> child.
    ReceivedRequest request = server.requests().get(0);
    assertEquals("one", request.header("x-test"));
    assertEquals("two", request.header("x-other"));
  }

  @Test
  void codeOnlyWhenEnabledAndMdcInclude() {
    Logger log = ctx.getLogger("test.code");
    ThreadContext.put("user", "bob");
    ThreadContext.put("other", "x");
    int line = new Throwable().getStackTrace()[0].getLineNumber() + 1;
    log.info(MarkerManager.getMarker("IGNORED"), "with code " + TEXT);
    log.info(new StringMapMessage().with("message", "kv off").with("k", "v"));

    List<Received> got = awaitDelivered("code-svc", 2);
    assertEquals(2, got.size());
    Received r = got.get(0);
    assertEquals("with code " + TEXT, r.body());
    assertScope("test.code", r);
    assertEquals(
        Map.of(
            "user",
            "bob",
            "code.function.name",
            "io.logproducer.log4j2.MappingTest.codeOnlyWhenEnabledAndMdcInclude",
            "code.file.path",
            "MappingTest.java"),
        Map.of(
            "user",
            r.attr("user"),
            "code.function.name",
            r.attr("code.function.name"),
            "code.file.path",
            r.attr("code.file.path")));
    assertEquals((long) line, r.attributes().get("code.line.number"));
    assertEquals(4, r.attributes().size(), "user and code.* only: " + r.attributes().keySet());
    Received kv = got.get(1);
    assertEquals("kv off", kv.body());
    assertNull(kv.attr("k"), "captureKeyValues=false");
    assertTrue(Support.appender(ctx, "code").requiresLocation());
    assertFalse(Support.appender(ctx, "main").requiresLocation());
  }

  @Test
  void layoutAsBody() {
    ctx.getLogger("test.layout").warn("via layout {}", TEXT);
    List<Received> got = awaitDelivered("layout-svc", 1);
    assertEquals("[WARN] layout: via layout " + TEXT, got.get(0).body());
    assertEquals(13, got.get(0).record().severityNumber());
    // The body's bytes on the wire are its UTF-8 (the kit's model gives the decoded string only:
    // the raw body).
    byte[] utf8 = ("[WARN] layout: via layout " + TEXT).getBytes(StandardCharsets.UTF_8);
    assertTrue(
        server.requests().stream().anyMatch(q -> indexOf(q.body(), utf8) >= 0),
        "the request bodies hold the body's UTF-8 bytes");
  }

  /** The first index of {@code part} in {@code whole}, or -1. */
  private static int indexOf(byte[] whole, byte[] part) {
    for (int i = 0; i + part.length <= whole.length; i++) {
      if (Arrays.equals(Arrays.copyOfRange(whole, i, i + part.length), part)) {
        return i;
      }
    }
    return -1;
  }
}
