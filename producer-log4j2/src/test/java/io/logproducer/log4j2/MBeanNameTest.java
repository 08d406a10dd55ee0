package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import io.logproducer.Producer;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A log4j2 reconfiguration starts the new appender (and its producer) before it stops the old one,
 * so the new producer's MBean first registers as {@code ,instance=2}; once the old producer has
 * closed, the live producer holds the plain name again, and no {@code instance=} name is left. The
 * context is reconfigured as {@code Configurator.reconfigure()} does it ({@link
 * LoggerContext#reconfigure()}), on a context of the test's own.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MBeanNameTest {

  private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

  @AfterEach
  void tearDown() {
    System.clearProperty("mbean.otlp.endpoint");
    System.clearProperty("mbean.client.id");
  }

  @Test
  void afterReconfigurationsThePlainNameBelongsToTheLiveAppendersProducer() throws Exception {
    String id = "mbean-" + UUID.randomUUID();
    ObjectName plain =
        new ObjectName("io.logproducer:type=Producer,clientId=" + ObjectName.quote(id));
    ObjectName all = new ObjectName(plain + ",*");
    try (OtlpReceiver server = OtlpReceiver.start()) {
      System.setProperty("mbean.otlp.endpoint", server.endpoint());
      System.setProperty("mbean.client.id", id);
      LoggerContext ctx = Support.context("mbean-name.xml");
      try {
        Logger log = ctx.getLogger("test.mbean");
        Producer previous = Support.appender(ctx, "mbean").getProducer();
        assertEquals(Set.of(plain), SERVER.queryNames(all, null));
        for (int round = 1; round <= 3; round++) {
          ctx.reconfigure();
          Producer live = Support.appender(ctx, "mbean").getProducer();
          assertNotSame(previous, live, "a new appender with a new producer");
          int n = 10 * round + 1; // a count only this producer shows
          for (int i = 0; i < n; i++) {
            log.info("round {} event {}", round, i);
          }
          final long expected = n; // the hand-off's worker gives the producer every event
          Support.await(
              "the hand-off to pass every event to the producer",
              () -> live.getMetrics().getRecordsAccepted() >= expected,
              10_000,
              () -> "accepted " + live.getMetrics().getRecordsAccepted());
          live.flush();
          assertEquals(
              Set.of(plain),
              SERVER.queryNames(all, null),
              "round " + round + ": no instance= left");
          assertEquals((long) n, live.getMetrics().getRecordsSent());
          assertEquals(
              (long) n,
              SERVER.getAttribute(plain, "RecordsSent"),
              "round " + round + ": the plain name reads the live appender's producer");
          previous = live;
        }
      } finally {
        ctx.stop();
      }
      assertEquals(Set.of(), SERVER.queryNames(all, null), "nothing left after stop");
    }
  }
}
