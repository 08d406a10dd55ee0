package io.logproducer.logback;

import static io.logproducer.logback.LogbackTestSupport.configure;
import static io.logproducer.logback.LogbackTestSupport.delivered;
import static io.logproducer.logback.LogbackTestSupport.liveThreads;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stopping the logging context: buffered events are shipped, the stop is bounded, no producer
 * thread survives.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LifecycleTest {

  @Test
  void contextStopDeliversEverythingAndLeavesNoThread() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      LoggerContext ctx =
          configure(
              "lifecycle.xml", Map.of("otlp.endpoint", server.endpoint(), "stop.timeout", "10000"));
      LogproducerAppender lp = LogbackTestSupport.appender(ctx, "LP");
      assertTrue(lp.isStarted());
      assertFalse(liveThreads("lp-life-").isEmpty(), "the producer's threads run");
      Logger log = ctx.getLogger("app.life");
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 5000; i++) {
        log.info("event {}", i);
        expected.add("event " + i);
      }
      assertEquals(0, server.exchanges().size(), "lingerMillis=60000: nothing sent before stop");
      ctx.stop(); // what logback's shutdown hook and a redeploy do
      assertEquals(
          expected,
          delivered(server).stream()
              .map(LogbackTestSupport.Decoded::body)
              .collect(Collectors.toList()));
      assertEquals(0, lp.droppedCount());
      assertEquals(0, lp.failedCount());
      assertEquals(
          List.of(), liveThreads("lp-life-"), "producer threads alive after the context stopped");
      assertFalse(lp.isStarted());
    }
  }

  @Test
  void stopWithTheReceiverDownIsBounded() throws Exception {
    LoggerContext ctx =
        configure(
            "lifecycle.xml",
            Map.of(
                "otlp.endpoint",
                "http://127.0.0.1:" + LogbackTestSupport.closedPort(),
                "stop.timeout",
                "1000"));
    LogproducerAppender lp = LogbackTestSupport.appender(ctx, "LP");
    assertNotNull(lp.getProducer());
    Logger log = ctx.getLogger("app.life");
    for (int i = 0; i < 100; i++) {
      log.info("event {}", i);
    }
    long t0 = System.nanoTime();
    ctx.stop();
    long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    System.out.println(
        "stop with the receiver down took " + stopMillis + " ms (stopTimeoutMillis=1000)");
    assertTrue(stopMillis <= 1000 + 1500, "stop took " + stopMillis + " ms");
    assertEquals(100, lp.failedCount(), "every buffered event failed at stop, and was counted");
    assertEquals(
        List.of(), liveThreads("lp-life-"), "producer threads alive after the context stopped");
    assertTrue(
        LogbackTestSupport.statuses(ctx, ch.qos.logback.core.status.Status.WARN).stream()
            .anyMatch(m -> m.contains("(0 and 100 in all)")),
        () -> "a report of the failed events: " + LogbackTestSupport.statuses(ctx, 1));
  }
}
