package io.logproducer.logback;

import static io.logproducer.logback.LogbackTestSupport.await;
import static io.logproducer.logback.LogbackTestSupport.configure;
import static io.logproducer.logback.LogbackTestSupport.delivered;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.logproducer.logback.LogbackTestSupport.Decoded;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.MDC;

/**
 * The records' trace context from the OpenTelemetry API's current span (a real SDK tracer
 * provider), taken at the logging call on the logging thread, and from the MDC keys, in the order
 * {@code <mapping><traceContext>} sets; delivered to a real OTLP receiver. Uses no slf4j 2 API: it
 * runs on logback 1.2, 1.3 and 1.5.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TraceContextTest {

  private static final String MDC_TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
  private static final String MDC_SPAN_ID = "b7ad6b7169203331";

  private final OtlpReceiver server;
  private final SdkTracerProvider provider = SdkTracerProvider.builder().build();
  private final Tracer tracer = provider.get("trace-context-test");
  private LoggerContext ctx;

  TraceContextTest() throws IOException {
    server = OtlpReceiver.start();
  }

  @AfterEach
  void tearDown() {
    GateLayout.gate.countDown();
    MDC.clear();
    if (ctx != null) {
      ctx.stop();
    }
    server.close();
    provider.close();
  }

  private Logger start(String order, int queueSize) throws Exception {
    ctx =
        configure(
            "tracectx.xml",
            Map.of(
                "otlp.endpoint",
                server.endpoint(),
                "trace.context",
                order,
                "queue.size",
                String.valueOf(queueSize)));
    assertTrue(
        LogbackTestSupport.appender(ctx, "LP").isStarted(),
        () -> "appender not started: " + LogbackTestSupport.statuses(ctx, Status.WARN));
    return ctx.getLogger("app.trace");
  }

  private List<ReceivedLogRecord> awaitRecords(int n) {
    await(
        n + " records",
        () -> delivered(server).size() >= n,
        15_000,
        () -> "delivered " + delivered(server).size() + ", exchanges " + server.exchanges().size());
    List<Decoded> records = delivered(server);
    assertEquals(n, records.size(), "records delivered");
    assertEquals(List.of(), server.invalidRequests());
    return records.stream().map(Decoded::record).collect(Collectors.toList());
  }

  private static void assertSpan(SpanContext expected, ReceivedLogRecord r) {
    assertEquals(expected.getTraceId(), r.traceId(), "trace id of " + r.bodyString());
    assertEquals(expected.getSpanId(), r.spanId(), "span id of " + r.bodyString());
    assertEquals(expected.getTraceFlags().asByte() & 0xff, r.flags(), "flags of " + r.bodyString());
  }

  private static void assertMdcIds(ReceivedLogRecord r) {
    assertEquals(MDC_TRACE_ID, r.traceId(), "trace id of " + r.bodyString());
    assertEquals(MDC_SPAN_ID, r.spanId(), "span id of " + r.bodyString());
    assertEquals(1, r.flags(), "flags of " + r.bodyString());
  }

  private static void assertNoTrace(ReceivedLogRecord r) {
    assertTrue(r.traceId().isEmpty(), "no trace id: " + r.traceId());
    assertTrue(r.spanId().isEmpty(), "no span id: " + r.spanId());
    assertEquals(0, r.flags());
  }

  private static void putMdcIds() {
    MDC.put("trace_id", MDC_TRACE_ID);
    MDC.put("span_id", MDC_SPAN_ID);
    MDC.put("trace_flags", "01");
  }

  /** On the logging thread (queueSize 0) and through the hand-off's worker (the default). */
  @ParameterizedTest
  @ValueSource(ints = {0, 1024})
  void theCurrentSpanIsTheRecordsTraceContext(int queueSize) throws Exception {
    Logger log = start("otel-then-mdc", queueSize);
    Span sampled = tracer.spanBuilder("sampled").startSpan();
    try (Scope s = sampled.makeCurrent()) {
      log.info("in a sampled span");
    } finally {
      sampled.end();
    }
    SdkTracerProvider off = SdkTracerProvider.builder().setSampler(Sampler.alwaysOff()).build();
    Span unsampled = off.get("off").spanBuilder("unsampled").startSpan();
    try (Scope s = unsampled.makeCurrent()) {
      log.info("in an unsampled span");
    } finally {
      unsampled.end();
      off.close();
    }
    log.info("after the spans");
    List<ReceivedLogRecord> r = awaitRecords(3);
    assertEquals("in a sampled span", r.get(0).bodyString());
    assertSpan(sampled.getSpanContext(), r.get(0));
    // bit 0: sampled (W3C trace context; the SDK may set bit 1 too, "random trace id")
    assertEquals(1, r.get(0).flags() & 1, "sampled: " + r.get(0).flags());
    assertEquals(Set.of("thread.name", "thread.id"), r.get(0).attributes().keySet());
    assertSpan(unsampled.getSpanContext(), r.get(1));
    assertTrue(unsampled.getSpanContext().isValid());
    assertEquals(0, r.get(1).flags() & 1, "not sampled: " + r.get(1).flags());
    assertNoTrace(r.get(2));
  }

  /** A span current and other ids in the MDC: the order decides; the other source is not read. */
  @ParameterizedTest
  @CsvSource({
    "otel-then-mdc, span",
    "OTEL-then-MDC, span",
    "mdc-then-otel, mdc",
    "otel, span",
    "mdc, mdc",
    "none, nothing"
  })
  void theOrderDecides(String order, String winner) throws Exception {
    Logger log = start(order, 1024);
    Span span = tracer.spanBuilder("both").startSpan();
    try (Scope s = span.makeCurrent()) {
      putMdcIds();
      log.info("both");
    } finally {
      span.end();
    }
    ReceivedLogRecord r = awaitRecords(1).get(0);
    switch (winner) {
      case "span":
        assertSpan(span.getSpanContext(), r);
        break;
      case "mdc":
        assertMdcIds(r);
        break;
      default:
        assertNoTrace(r);
    }
    if (winner.equals("nothing")) {
      // not read as the trace context: ordinary MDC entries
      assertEquals(MDC_TRACE_ID, r.attributes().get("trace_id"));
      assertEquals(MDC_SPAN_ID, r.attributes().get("span_id"));
      assertEquals("01", r.attributes().get("trace_flags"));
    } else {
      assertEquals(Set.of("thread.name", "thread.id"), r.attributes().keySet());
    }
  }

  @Test
  void withoutASpanTheMdcIdsAreUsed() throws Exception {
    Logger log = start("otel-then-mdc", 1024);
    putMdcIds();
    log.info("mdc only");
    MDC.clear();
    ReceivedLogRecord r = awaitRecords(1).get(0);
    assertMdcIds(r);
    assertEquals(Set.of("thread.name", "thread.id"), r.attributes().keySet());
  }

  @Test
  void otelAloneWithoutASpanCarriesNothing() throws Exception {
    Logger log = start("otel", 1024);
    putMdcIds();
    log.info("no span");
    MDC.clear();
    ReceivedLogRecord r = awaitRecords(1).get(0);
    assertNoTrace(r);
    assertEquals(MDC_TRACE_ID, r.attributes().get("trace_id"));
  }

  @Test
  void nestedSpansTheInnerOneIsCaptured() throws Exception {
    Logger log = start("otel-then-mdc", 1024);
    Span outer = tracer.spanBuilder("outer").startSpan();
    Span inner;
    try (Scope o = outer.makeCurrent()) {
      inner = tracer.spanBuilder("inner").startSpan();
      try (Scope i = inner.makeCurrent()) {
        log.info("inner");
      } finally {
        inner.end();
      }
      log.info("outer again");
    } finally {
      outer.end();
    }
    List<ReceivedLogRecord> r = awaitRecords(2);
    assertEquals(outer.getSpanContext().getTraceId(), inner.getSpanContext().getTraceId());
    assertFalse(outer.getSpanContext().getSpanId().equals(inner.getSpanContext().getSpanId()));
    assertEquals("inner", r.get(0).bodyString());
    assertSpan(inner.getSpanContext(), r.get(0));
    assertEquals("outer again", r.get(1).bodyString());
    assertSpan(outer.getSpanContext(), r.get(1));
  }

  /**
   * The worker maps the event only after its span ended and another span became current on the
   * logging thread: the record still carries the span of its logging call.
   */
  @Test
  void aQueuedEventKeepsTheSpanOfItsLoggingCall() throws Exception {
    GateLayout.entered = new CountDownLatch(1);
    GateLayout.gate = new CountDownLatch(1);
    Logger log = start("otel-then-mdc", 1024);
    Span first = tracer.spanBuilder("first").startSpan();
    try (Scope s = first.makeCurrent()) {
      log.info("gated in the first span");
    } finally {
      first.end();
    }
    assertTrue(GateLayout.entered.await(30, TimeUnit.SECONDS), "the worker took the event");
    assertTrue(GateLayout.gatedThread.startsWith("lp-tracectx-"), GateLayout.gatedThread);
    Span second = tracer.spanBuilder("second").startSpan();
    try (Scope s = second.makeCurrent()) {
      log.info("in the second span");
      GateLayout.gate.countDown(); // the first event is mapped now, the second span current here
    } finally {
      second.end();
    }
    List<ReceivedLogRecord> r = awaitRecords(2);
    assertEquals("gated in the first span", r.get(0).bodyString());
    assertSpan(first.getSpanContext(), r.get(0));
    assertEquals("in the second span", r.get(1).bodyString());
    assertSpan(second.getSpanContext(), r.get(1));
  }

  @Test
  void anUnknownOrderIsAnErrorNamingTheAllowedValues() throws Exception {
    ctx =
        configure(
            "tracectx.xml",
            Map.of(
                "otlp.endpoint",
                server.endpoint(),
                "trace.context",
                "sideways",
                "queue.size",
                "0"));
    assertFalse(LogbackTestSupport.appender(ctx, "LP").isStarted(), "started with 'sideways'");
    List<String> errors = LogbackTestSupport.statuses(ctx, Status.ERROR);
    assertTrue(
        errors.stream()
            .anyMatch(
                e ->
                    e.contains(
                        "traceContext must be one of otel-then-mdc, mdc-then-otel, otel, mdc,"
                            + " none; was 'sideways'")),
        errors::toString);
  }
}
