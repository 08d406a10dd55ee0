package io.logproducer.appender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code traceContext}'s names and errors, the default, and the hand-off's attachment (the span the
 * appenders carry to the worker).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TraceContextOrderTest {

  @Test
  void everyNameParses() {
    assertSame(TraceContextOrder.OTEL_THEN_MDC, TraceContextOrder.parse("otel-then-mdc"));
    assertSame(TraceContextOrder.MDC_THEN_OTEL, TraceContextOrder.parse(" MDC-then-OTEL "));
    assertSame(TraceContextOrder.OTEL, TraceContextOrder.parse("otel"));
    assertSame(TraceContextOrder.MDC, TraceContextOrder.parse("mdc"));
    assertSame(TraceContextOrder.NONE, TraceContextOrder.parse("none"));
    for (TraceContextOrder o : TraceContextOrder.values()) {
      assertSame(o, TraceContextOrder.parse(o.configName()));
    }
    assertTrue(
        TraceContextOrder.OTEL_THEN_MDC.readsSpan() && TraceContextOrder.OTEL_THEN_MDC.readsMdc());
    assertFalse(TraceContextOrder.NONE.readsSpan() || TraceContextOrder.NONE.readsMdc());
    assertFalse(TraceContextOrder.MDC.readsSpan());
    assertFalse(TraceContextOrder.OTEL.readsMdc());
  }

  @Test
  void theDefaultIsOtelThenMdc() {
    assertSame(TraceContextOrder.OTEL_THEN_MDC, new MappingSettings().traceContext());
  }

  @Test
  void anUnknownNameIsRefusedNamingTheAllowedValues() {
    MappingSettings m = new MappingSettings();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> m.setTraceContext("sideways"));
    assertEquals(
        "traceContext must be one of otel-then-mdc, mdc-then-otel, otel, mdc, none; was 'sideways'",
        e.getMessage());
    assertEquals(
        "traceContext must be one of otel-then-mdc, mdc-then-otel, otel, mdc, none; was null",
        assertThrows(IllegalArgumentException.class, () -> TraceContextOrder.parse(null))
            .getMessage());
    assertThrows(IllegalArgumentException.class, () -> TraceContextOrder.parse(""));
    assertThrows(IllegalArgumentException.class, () -> TraceContextOrder.parse("otel_then_mdc"));
    assertSame(TraceContextOrder.OTEL_THEN_MDC, m.traceContext(), "unchanged by the refusal");
  }

  @Test
  void theHandOffCarriesEachEventsAttachment() throws Exception {
    List<String> seen = new ArrayList<>();
    CountDownLatch three = new CountDownLatch(3);
    Object a = new Object();
    HandOff<String> h =
        new HandOff<String>(
            "attach-test",
            4,
            (HandOff.Receiver<String>)
                (e, tag, att) -> {
                  seen.add(e + "/" + tag + "/" + (att == a ? "a" : String.valueOf(att)));
                  three.countDown();
                });
    try {
      assertTrue(h.put("one", 1L, a));
      assertTrue(h.offer("two", 2L, null));
      assertTrue(h.put("three", 3L)); // no attachment
      assertTrue(three.await(20, TimeUnit.SECONDS));
      assertTrue(h.awaitDrained(20_000));
      assertEquals(List.of("one/1/a", "two/2/null", "three/3/null"), seen);
    } finally {
      assertEquals(0, h.stop(10_000));
    }
  }
}
