package io.logproducer.logback;

import static io.logproducer.logback.LogbackTestSupport.configure;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import ch.qos.logback.core.status.Status;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The appender's own {@code doAppend}: events that reach it after its stop (logback detaches an
 * appender only after stopping all of them) are counted as dropped and reported, not discarded; the
 * filter chain is logback's; nothing thrown while appending reaches the logging call.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StoppedAppenderTest {

  @Test
  void eventsAfterTheStopAreCountedAsDroppedAndReported() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      LoggerContext ctx =
          configure(
              "lifecycle.xml", Map.of("otlp.endpoint", server.endpoint(), "stop.timeout", "10000"));
      LogproducerAppender lp = LogbackTestSupport.appender(ctx, "LP");
      Logger log = ctx.getLogger("app.stopped");
      for (int i = 0; i < 10; i++) {
        log.info("before {}", i);
      }
      lp.stop(); // still attached, as during logback's reset
      assertFalse(lp.isStarted());
      for (int i = 0; i < 7; i++) {
        log.info("after {}", i);
      }
      assertEquals(10, server.deliveredBodies().size(), "the events before the stop shipped");
      assertEquals(7, lp.droppedCount(), "the events after the stop, counted");
      List<String> warnings = LogbackTestSupport.statuses(ctx, Status.WARN);
      assertTrue(
          warnings.stream().anyMatch(m -> m.contains("events still reach it after it stopped")),
          warnings::toString);
      assertFalse(
          warnings.stream().anyMatch(m -> m.contains("non started appender")),
          "not discarded by logback: " + warnings);
      ctx.stop();
    }
  }

  @Test
  void filtersDecideAndAThrowingFilterNeverReachesTheLoggingCall() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      LoggerContext ctx =
          configure(
              "lifecycle.xml", Map.of("otlp.endpoint", server.endpoint(), "stop.timeout", "10000"));
      LogproducerAppender lp = LogbackTestSupport.appender(ctx, "LP");
      lp.addFilter(
          new Filter<ILoggingEvent>() {
            @Override
            public FilterReply decide(ILoggingEvent e) {
              if (e.getMessage().startsWith("deny")) {
                return FilterReply.DENY;
              }
              if (e.getMessage().startsWith("boom")) {
                throw new StackOverflowError("a filter that fails");
              }
              return FilterReply.NEUTRAL;
            }
          });
      Logger log = ctx.getLogger("app.filtered");
      log.info("deny me");
      assertDoesNotThrow(() -> log.info("boom"));
      log.info("keep me");
      ctx.stop();
      assertEquals(List.of("keep me"), server.deliveredBodies());
      assertEquals(1, lp.droppedCount(), "the event whose filter threw, counted");
      assertTrue(
          LogbackTestSupport.statuses(ctx, Status.ERROR).stream()
              .anyMatch(m -> m.contains("failed to append")),
          () -> LogbackTestSupport.statuses(ctx, Status.WARN).toString());
    }
  }
}
