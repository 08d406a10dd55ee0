package com.example.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Producer;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The receiver is down: no request thread waits on the producer (the appender drops and counts what
 * does not fit), the health indicator goes DOWN by its rule and back UP when the receiver returns,
 * and the context still closes within its phase.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StarterReceiverDownTest {

  @Test
  void aDownReceiverBlocksNoRequestAndTurnsTheHealthDownThenUp() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      receiver.refuse();
      List<String> properties = Apps.baseProperties(receiver.endpoint());
      properties.add("logproducer.health.stall-timeout=1s");
      properties.add("logproducer.producer.total-size=256KB");
      properties.add("logproducer.producer.batch-size=16KB");
      properties.add("logproducer.producer.max-retry-backoff=200ms");
      properties.add("logproducer.shutdown-timeout=2s");
      ConfigurableApplicationContext context = Apps.start(properties);
      int port = Apps.port(context);
      Producer producer = context.getBean(Producer.class);

      long maxNanos = 0;
      for (int i = 0; i < 400; i++) {
        long start = System.nanoTime();
        assertEquals("200", Apps.get(port, "/log?id=" + i + "&lines=20")[0]);
        maxNanos = Math.max(maxNanos, System.nanoTime() - start);
      }
      long maxMillis = TimeUnit.NANOSECONDS.toMillis(maxNanos);
      System.out.println(
          "receiver down: max request latency "
              + maxMillis
              + " ms, dropped "
              + producer.getMetrics().getRecordsRejected()
              + " records");
      // 8,000 lines of ~100 B against a 256 KiB budget: the budget fills, and the appender drops
      // (DROP) instead of making the request thread wait (BLOCK would wait up to max-block, 60 s).
      // The product's own measure, not a latency guess: no send waited for buffer space (the
      // appender's worker, and so the request threads behind its queue, never block on the budget).
      assertEquals(
          0,
          producer.getMetrics().getSendBlockedNanos(),
          "time sends waited for buffer space (max request latency " + maxMillis + " ms)");
      assertTrue(
          producer.getMetrics().getRecordsDropped() > 0, "the budget filled: events dropped");

      String down = awaitHealth(port, "DOWN");
      assertTrue(down.contains("\"receiver\":\"otlp " + receiver.endpoint()), down);
      assertTrue(down.contains("stall-timeout"), down);

      receiver.resume();
      awaitHealth(port, "UP");
      assertTrue(receiver.acceptedRecords() > 0);

      // The close returns (the class's @Timeout catches one that does not; StarterLossReportTest
      // closes against a refusing receiver within logproducer.shutdown-timeout) and leaves nothing.
      context.close();
      assertTrue(producer.isClosed());
      assertEquals(Set.of(), Apps.producerThreads());
      long accepted = producer.getMetrics().getRecordsAccepted();
      long outcomes =
          producer.getMetrics().getRecordsSent()
              + producer.getMetrics().getRecordsRejected()
              + producer.getMetrics().getRecordsFailed();
      assertEquals(accepted, outcomes, "every accepted record has its outcome");
    }
  }

  private static String awaitHealth(int port, String status) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    String health;
    do {
      health = Apps.get(port, "/actuator/health")[1];
      if (status.equals(Apps.componentStatus(health, "logproducer"))) {
        return health;
      }
      java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
    } while (System.nanoTime() < deadline);
    throw new AssertionError("logproducer never " + status + ": " + health);
  }
}
