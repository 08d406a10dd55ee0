package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testsupport.SchedulerLag;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stopping the LoggerContext ships what was logged, within stopTimeoutMillis, and leaves no
 * producer thread.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class StopTest {

  @AfterEach
  void tearDown() {
    System.clearProperty("stop.otlp.endpoint");
    System.clearProperty("stop.timeout");
  }

  @Test
  void everythingLoggedBeforeStopIsDelivered() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      System.setProperty("stop.otlp.endpoint", server.endpoint());
      // the stop waits for the 2,000 events as long as they take on this machine (a minute at
      // most), and returns once they are delivered
      System.setProperty("stop.timeout", "60000");
      LoggerContext ctx = Support.context("stop.xml");
      Logger log = ctx.getLogger("test.stop");
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 2_000; i++) {
        log.info("before stop {}", i);
        expected.add("before stop " + i);
      }
      assertTrue(Support.threads("stopper-client-").size() > 0, "the producer runs");
      assertEquals(0, server.exchanges().size(), "nothing sent yet (linger 60 s)");
      ctx.stop();
      Support.awaitNoThreads("stopper-client-");
      // each exactly once; in logged order once sorted: the batches of several send threads may
      // arrive in any order (no order is promised between them)
      List<String> bodies = new ArrayList<>();
      Support.delivered(server).forEach(r -> bodies.add(r.body()));
      bodies.sort(
          Comparator.comparingInt(b -> Integer.parseInt(b.substring("before stop ".length()))));
      assertEquals(expected, bodies);
      log.info("after stop"); // a stopped context: nothing happens, nothing is thrown
      assertEquals(2_000, Support.delivered(server).size());
    }
  }

  @Test
  void stopWithTheReceiverDownIsBounded() throws Exception {
    System.setProperty("stop.otlp.endpoint", "http://127.0.0.1:" + Support.closedPort());
    System.setProperty("stop.timeout", "1000");
    LoggerContext ctx = Support.context("stop.xml");
    LogproducerAppender appender = Support.appender(ctx, "stopper");
    Logger log = ctx.getLogger("test.stop");
    for (int i = 0; i < 500; i++) {
      log.info("lost {}", i);
    }
    try (SchedulerLag lag = SchedulerLag.start()) {
      long t0 = System.nanoTime();
      ctx.stop();
      // the appender's contract: stopTimeoutMillis + 1 s, plus how late this machine wakes
      long millis = lag.assertWithin(t0, 1000 + 1_000, "stop with the receiver down");
      System.out.printf(
          "StopTest: stop with the receiver down took %,d ms (stopTimeoutMillis 1000); failed"
              + " %,d%n",
          millis, appender.failedCount());
    }
    Support.awaitNoThreads("stopper-client-");
    // the closer counts the last failures when the stop returned, or a moment after
    Support.await(
        "the 500 events failed at close and were counted",
        () -> appender.failedCount() == 500,
        30_000,
        () -> "failed " + appender.failedCount());
  }
}
