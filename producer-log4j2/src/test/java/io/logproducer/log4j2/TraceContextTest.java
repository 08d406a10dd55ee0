package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The records' trace context from the OpenTelemetry API's current span (a real SDK tracer
 * provider), taken at the logging call on the logging thread, and from the ThreadContext keys, in
 * the order {@code <Mapping traceContext>} sets; one appender per order (tracectx.xml), each
 * delivering to a real OTLP receiver under its own {@code service.name}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TraceContextTest {

  private static final String MDC_TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
  private static final String MDC_SPAN_ID = "b7ad6b7169203331";
  private static final List<String> SERVICES =
      List.of("otel-then-mdc", "inline", "mdc-then-otel", "otel", "mdc", "none");

  private OtlpReceiver server;
  private LoggerContext ctx;
  private Logger log;
  private final SdkTracerProvider provider = SdkTracerProvider.builder().build();
  private final Tracer tracer = provider.get("trace-context-test");

  @BeforeEach
  void setUp() throws IOException {
    server = OtlpReceiver.start();
    System.setProperty("tracectx.otlp.endpoint", server.endpoint());
    ctx = Support.context("tracectx.xml");
    for (String s : SERVICES) {
      assertTrue(Support.appender(ctx, s).isStarted(), s);
    }
    log = ctx.getLogger("app.trace");
  }

  @AfterEach
  void tearDown() {
    ThreadContext.clearAll();
    if (ctx != null) {
      ctx.stop();
    }
    server.close();
    provider.close();
    System.clearProperty("tracectx.otlp.endpoint");
  }

  /** Each service's records in logged order, once every appender delivered {@code n}. */
  private Map<String, List<ReceivedLogRecord>> awaitRecords(int n) {
    Support.await(
        n + " records per appender",
        () -> SERVICES.stream().allMatch(s -> of(s).size() >= n),
        15_000,
        () ->
            "delivered="
                + Support.delivered(server).size()
                + ", invalid="
                + server.invalidRequests());
    assertEquals(List.of(), server.invalidRequests());
    Map<String, List<ReceivedLogRecord>> out = new TreeMap<>();
    for (String s : SERVICES) {
      List<ReceivedLogRecord> records = of(s);
      assertEquals(n, records.size(), s);
      out.put(s, records);
    }
    return out;
  }

  private List<ReceivedLogRecord> of(String service) {
    return Support.inLoggedOrder(
            Support.delivered(server).stream()
                .filter(r -> service.equals(r.service()))
                .collect(Collectors.toList()))
        .stream()
        .map(Support.Received::record)
        .collect(Collectors.toList());
  }

  private static void assertSpan(SpanContext expected, ReceivedLogRecord r, String service) {
    String what = service + ": " + r.bodyString();
    assertEquals(expected.getTraceId(), r.traceId(), "trace id, " + what);
    assertEquals(expected.getSpanId(), r.spanId(), "span id, " + what);
    assertEquals(expected.getTraceFlags().asByte() & 0xff, r.flags(), "flags, " + what);
  }

  private static void assertMdcIds(ReceivedLogRecord r, String service) {
    String what = service + ": " + r.bodyString();
    assertEquals(MDC_TRACE_ID, r.traceId(), "trace id, " + what);
    assertEquals(MDC_SPAN_ID, r.spanId(), "span id, " + what);
    assertEquals(1, r.flags(), "flags, " + what);
  }

  private static void assertNoTrace(ReceivedLogRecord r, String service) {
    assertTrue(r.traceId().isEmpty(), service + ": no trace id: " + r.traceId());
    assertTrue(r.spanId().isEmpty(), service + ": no span id: " + r.spanId());
    assertEquals(0, r.flags(), service);
  }

  private static void putMdcIds() {
    ThreadContext.put("trace_id", MDC_TRACE_ID);
    ThreadContext.put("span_id", MDC_SPAN_ID);
    ThreadContext.put("trace_flags", "01");
  }

  @Test
  void theCurrentSpanIsTheRecordsTraceContext() {
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
    Map<String, List<ReceivedLogRecord>> r = awaitRecords(2);
    for (String s : List.of("otel-then-mdc", "inline", "mdc-then-otel", "otel")) {
      assertEquals("in a sampled span", r.get(s).get(0).bodyString());
      assertSpan(sampled.getSpanContext(), r.get(s).get(0), s);
      // bit 0: sampled (W3C trace context; the SDK may set bit 1 too, "random trace id")
      assertEquals(1, r.get(s).get(0).flags() & 1, s);
      assertEquals(Set.of("thread.name", "thread.id"), r.get(s).get(0).attributes().keySet());
      assertSpan(unsampled.getSpanContext(), r.get(s).get(1), s);
      assertEquals(0, r.get(s).get(1).flags() & 1, s);
    }
    for (String s : List.of("mdc", "none")) {
      assertNoTrace(r.get(s).get(0), s);
      assertNoTrace(r.get(s).get(1), s);
    }
  }

  /** A span current and other ids in the ThreadContext: the order decides. */
  @Test
  void theOrderDecides() {
    Span span = tracer.spanBuilder("both").startSpan();
    try (Scope s = span.makeCurrent()) {
      putMdcIds();
      log.info("both");
    } finally {
      span.end();
    }
    Map<String, List<ReceivedLogRecord>> r = awaitRecords(1);
    for (String s : List.of("otel-then-mdc", "inline", "otel")) {
      assertSpan(span.getSpanContext(), r.get(s).get(0), s);
    }
    for (String s : List.of("mdc-then-otel", "mdc")) {
      assertMdcIds(r.get(s).get(0), s);
    }
    for (String s : List.of("otel-then-mdc", "inline", "otel", "mdc-then-otel", "mdc")) {
      assertEquals(Set.of("thread.name", "thread.id"), r.get(s).get(0).attributes().keySet(), s);
    }
    ReceivedLogRecord none = r.get("none").get(0);
    assertNoTrace(none, "none");
    assertEquals(MDC_TRACE_ID, none.attributes().get("trace_id"));
    assertEquals(MDC_SPAN_ID, none.attributes().get("span_id"));
    assertEquals("01", none.attributes().get("trace_flags"));
  }

  @Test
  void withoutASpanTheMdcIdsAreUsed() {
    putMdcIds();
    log.info("mdc only");
    Map<String, List<ReceivedLogRecord>> r = awaitRecords(1);
    for (String s : List.of("otel-then-mdc", "inline", "mdc-then-otel", "mdc")) {
      assertMdcIds(r.get(s).get(0), s);
    }
    ReceivedLogRecord otel = r.get("otel").get(0);
    assertNoTrace(otel, "otel");
    assertEquals(MDC_TRACE_ID, otel.attributes().get("trace_id"));
    assertNoTrace(r.get("none").get(0), "none");
  }

  @Test
  void nestedSpansTheInnerOneIsCaptured() {
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
    assertFalse(outer.getSpanContext().getSpanId().equals(inner.getSpanContext().getSpanId()));
    Map<String, List<ReceivedLogRecord>> r = awaitRecords(2);
    for (String s : List.of("otel-then-mdc", "inline", "otel")) {
      assertEquals("inner", r.get(s).get(0).bodyString());
      assertSpan(inner.getSpanContext(), r.get(s).get(0), s);
      assertEquals("outer again", r.get(s).get(1).bodyString());
      assertSpan(outer.getSpanContext(), r.get(s).get(1), s);
    }
  }

  /**
   * Queued events are mapped by the hand-off's worker, where no span is current, after their span
   * ended: they carry the span of their logging call. A second span current on the logging thread
   * meanwhile does not leak into the first event.
   */
  @Test
  void aQueuedEventKeepsTheSpanOfItsLoggingCall() {
    Span first = tracer.spanBuilder("first").startSpan();
    try (Scope s = first.makeCurrent()) {
      log.info("in the first span");
    } finally {
      first.end();
    }
    Span second = tracer.spanBuilder("second").startSpan();
    try (Scope s = second.makeCurrent()) {
      log.info("in the second span");
    } finally {
      second.end();
    }
    Map<String, List<ReceivedLogRecord>> r = awaitRecords(2);
    List<ReceivedLogRecord> queued = r.get("otel-then-mdc");
    assertSpan(first.getSpanContext(), queued.get(0), "queued");
    assertSpan(second.getSpanContext(), queued.get(1), "queued");
    HandOffPath path = Support.appender(ctx, "otel-then-mdc").handOffPath();
    assertTrue(path != null, "the hand-off is on");
    assertEquals(0, path.sentInlineWhenFull(), "both were mapped by the worker");
  }

  @Test
  void anUnknownOrderIsRefusedNamingTheAllowedValues() {
    MappingElement m =
        MappingElement.createMapping(
            null, null, null, null, null, null, null, null, null, "sideways");
    assertFalse(m.valid());
    MappingElement ok =
        MappingElement.createMapping(
            null, null, null, null, null, null, null, null, null, " MDC-then-OTEL ");
    assertTrue(ok.valid());
    assertEquals(
        io.logproducer.appender.TraceContextOrder.MDC_THEN_OTEL, ok.settings().traceContext());
  }
}
