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
import io.logproducer.testsupport.SchedulerLag;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stopping the logging context: buffered events are shipped, the stop is bounded, no producer
 * thread survives.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LifecycleTest {

  /** The producer's threads end once the context stopped (they may take a moment to exit). */
  private static void awaitNoThreads() {
    LogbackTestSupport.await(
        "no producer thread alive after the context stopped",
        () -> liveThreads("lp-life-").isEmpty(),
        30_000,
        () -> liveThreads("lp-life-").toString());
  }

  @Test
  void contextStopDeliversEverythingAndLeavesNoThread() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      LoggerContext ctx =
          configure(
              // the stop waits for the 5,000 events as long as they take on this machine (a minute
              // at most), and returns once they are delivered
              "lifecycle.xml", Map.of("otlp.endpoint", server.endpoint(), "stop.timeout", "60000"));
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
      // each exactly once; in logged order once sorted: the batches of several send threads may
      // arrive in any order (no order is promised between them)
      List<String> bodies = new ArrayList<>();
      delivered(server).forEach(d -> bodies.add(d.body()));
      bodies.sort(Comparator.comparingInt(b -> Integer.parseInt(b.substring("event ".length()))));
      assertEquals(expected, bodies);
      assertEquals(0, lp.droppedCount());
      assertEquals(0, lp.failedCount());
      awaitNoThreads();
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
    try (SchedulerLag lag = SchedulerLag.start()) {
      long t0 = System.nanoTime();
      ctx.stop();
      // the appender's contract: stopTimeoutMillis + 1 s, plus how late this machine wakes
      long stopMillis = lag.assertWithin(t0, 1000 + 1_000, "stop with the receiver down");
      System.out.println(
          "stop with the receiver down took " + stopMillis + " ms (stopTimeoutMillis=1000)");
    }
    // the stop returns within its bound; on a starved machine the closer may count the last
    // failures (and its threads end) just after
    LogbackTestSupport.await(
        "every buffered event failed at stop, and was counted",
        () -> lp.failedCount() == 100,
        30_000,
        () -> "failed " + lp.failedCount());
    awaitNoThreads();
    assertTrue(
        LogbackTestSupport.statuses(ctx, ch.qos.logback.core.status.Status.WARN).stream()
            .anyMatch(m -> m.contains("(0 and 100 in all)")),
        () -> "a report of the failed events: " + LogbackTestSupport.statuses(ctx, 1));
  }
}
