package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.log4j2.Support.Received;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Stopping the LoggerContext ships what was logged, within stopTimeoutMillis, and leaves no
 * producer thread.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
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
      System.setProperty("stop.timeout", "10000");
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
      assertEquals(
          List.of(), Support.threads("stopper-client-"), "no producer thread outlives the context");
      assertEquals(
          expected,
          Support.delivered(server).stream().map(Received::body).collect(Collectors.toList()));
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
    long t0 = System.nanoTime();
    ctx.stop();
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    System.out.printf(
        "StopTest: stop with the receiver down took %,d ms (stopTimeoutMillis 1000); failed %,d%n",
        millis, appender.failedCount());
    assertTrue(millis < 1000 + 1500, "stop took " + millis + " ms");
    assertEquals(List.of(), Support.threads("stopper-client-"));
    assertEquals(500, appender.failedCount(), "the 500 events failed at close and were counted");
  }
}
