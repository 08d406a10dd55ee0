package io.logproducer.logback;

import static io.logproducer.logback.LogbackTestSupport.configure;
import static io.logproducer.logback.LogbackTestSupport.delivered;
import static io.logproducer.logback.LogbackTestSupport.liveThreads;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.MDC;

/**
 * {@code <queueSize>}: the appender's own hand-off queue. Events are mapped on its worker thread
 * (named after the producer), every event arrives with its MDC and formatted message, the worker
 * ends with the context, and what a full queue refuses is counted (the exact sum: delivered +
 * dropped = logged).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class QueueTest {

  @Test
  void eventsGoThroughTheWorkerAndTheWorkerEndsWithTheContext() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      LoggerContext ctx = configure("queue.xml", Map.of("otlp.endpoint", server.endpoint()));
      LogproducerAppender lp = LogbackTestSupport.appender(ctx, "LP");
      assertTrue(lp.isStarted());
      assertEquals(List.of("lp-queue-handoff"), liveThreads("lp-queue-handoff"));
      Logger log = ctx.getLogger("app.queue");
      int threads = 4;
      int perThread = 25_000;
      Thread[] workers = new Thread[threads];
      for (int t = 0; t < threads; t++) {
        int id = t;
        workers[t] =
            new Thread(
                () -> {
                  MDC.put("worker", "w" + id);
                  for (int i = 0; i < perThread; i++) {
                    log.info("event {} of {}", i, id);
                  }
                  MDC.remove("worker");
                },
                "app-" + t);
        workers[t].start();
      }
      for (Thread w : workers) {
        w.join();
      }
      ctx.stop();
      List<LogbackTestSupport.Decoded> got = delivered(server);
      assertEquals(
          threads * perThread, got.size() + lp.droppedCount(), "every event delivered or counted");
      assertTrue(got.size() > 0);
      assertEquals(0, lp.failedCount());
      for (LogbackTestSupport.Decoded d : got) {
        String worker = (String) d.attributes().get("worker");
        assertTrue(d.body().endsWith(" of " + worker.substring(1)), d.body() + " / MDC " + worker);
        assertEquals("app.queue", d.scopeName());
      }
      assertEquals(
          List.of(),
          liveThreads("lp-queue-"),
          "no producer or hand-off thread after the context stopped");
      assertFalse(lp.isStarted());
    }
  }
}
