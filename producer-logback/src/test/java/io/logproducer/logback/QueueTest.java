package io.logproducer.logback;

import static io.logproducer.logback.LogbackTestSupport.configure;
import static io.logproducer.logback.LogbackTestSupport.delivered;
import static io.logproducer.logback.LogbackTestSupport.liveThreads;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.logproducer.appender.QueueBudget;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.MDC;

/**
 * The appender's hand-off queue, on by default: events are mapped on its worker thread (named after
 * the producer), every event arrives with its MDC, formatted message and the id of the thread that
 * logged it, a full queue makes the logging thread wait instead of dropping (4 threads logging as
 * fast as they can lose nothing), the producer's flush covers the queue, events too large for the
 * queue (exceptions, long messages, large MDCs) arrive whole, and the worker ends with the context.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class QueueTest {

  @Test
  void theDefaultQueueLosesNothingAndTheProducersFlushCoversIt() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      LoggerContext ctx = configure("queue.xml", Map.of("otlp.endpoint", server.endpoint()));
      LogproducerAppender lp = LogbackTestSupport.appender(ctx, "LP");
      assertTrue(lp.isStarted());
      assertEquals(List.of("lp-queue-handoff"), liveThreads("lp-queue-handoff"));
      Logger log = ctx.getLogger("app.queue");
      int threads = 4;
      int perThread = 25_000;
      Map<String, Long> threadIds = new ConcurrentHashMap<>();
      Thread[] workers = new Thread[threads];
      for (int t = 0; t < threads; t++) {
        int id = t;
        workers[t] =
            new Thread(
                () -> {
                  threadIds.put("w" + id, Thread.currentThread().getId());
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
      lp.getProducer().flush(); // linger is 60 s: only this flush ships, and it covers the queue
      List<LogbackTestSupport.Decoded> got = delivered(server);
      assertEquals(threads * perThread, got.size(), "every event, none still queued");
      assertEquals(0, lp.droppedCount(), "a full queue waits, it does not drop");
      assertEquals(0, lp.failedCount());
      Map<String, Integer> perWorker = new HashMap<>();
      for (LogbackTestSupport.Decoded d : got) {
        String worker = (String) d.attributes().get("worker");
        assertTrue(d.body().endsWith(" of " + worker.substring(1)), d.body() + " / MDC " + worker);
        assertEquals("app.queue", d.scopeName());
        assertEquals(threadIds.get(worker), d.attributes().get("thread.id"), d.body());
        assertEquals("app-" + worker.substring(1), d.attributes().get("thread.name"), d.body());
        perWorker.merge(worker, 1, Integer::sum);
      }
      assertEquals(
          Map.of("w0", perThread, "w1", perThread, "w2", perThread, "w3", perThread), perWorker);
      ctx.stop();
      assertEquals(
          List.of(),
          liveThreads("lp-queue-"),
          "no producer or hand-off thread after the context stopped");
      assertFalse(lp.isStarted());
    }
  }

  @Test
  void largeEventsArriveWithAllTheirContentAndTheirThread() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      LoggerContext ctx = configure("queue.xml", Map.of("otlp.endpoint", server.endpoint()));
      LogproducerAppender lp = LogbackTestSupport.appender(ctx, "LP");
      Logger log = ctx.getLogger("app.queue");
      String longText = "x".repeat(QueueBudget.SMALL_MESSAGE_CHARS + 1);
      log.info("long {}", longText);
      for (int i = 0; i <= QueueBudget.SMALL_CONTEXT_ENTRIES; i++) {
        MDC.put("k" + i, "v" + i);
      }
      log.info("wide");
      MDC.clear();
      log.warn("thrown", new IllegalStateException("boom"));
      log.info("small");
      lp.getProducer().flush();
      Map<String, LogbackTestSupport.Decoded> byBody = new HashMap<>();
      for (LogbackTestSupport.Decoded d : delivered(server)) {
        byBody.put(d.body().length() > 20 ? "long" : d.body(), d);
      }
      assertEquals(4, byBody.size(), byBody.keySet().toString());
      assertEquals("long " + longText, byBody.get("long").body());
      for (int i = 0; i <= QueueBudget.SMALL_CONTEXT_ENTRIES; i++) {
        assertEquals("v" + i, byBody.get("wide").attributes().get("k" + i), "k" + i);
      }
      assertEquals(
          "java.lang.IllegalStateException",
          byBody.get("thrown").attributes().get("exception.type"));
      assertEquals("boom", byBody.get("thrown").attributes().get("exception.message"));
      long self = Thread.currentThread().getId();
      for (String body : List.of("long", "wide", "thrown", "small")) {
        assertEquals(self, byBody.get(body).attributes().get("thread.id"), body);
      }
      assertEquals(0, lp.droppedCount());
      ctx.stop();
    }
  }

  /**
   * Messages whose arguments cannot change are formatted by the worker; an argument that can (here
   * a StringBuilder the caller rewrites right after the call) is formatted on the logging thread,
   * so every record shows the argument as it was at the call. 10,000 events: a worker formatting
   * them later would see "rewritten" in nearly all of them.
   */
  @Test
  void messagesShowTheirArgumentsAsTheyWereAtTheCall() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      LoggerContext ctx = configure("queue.xml", Map.of("otlp.endpoint", server.endpoint()));
      LogproducerAppender lp = LogbackTestSupport.appender(ctx, "LP");
      Logger log = ctx.getLogger("app.queue");
      int events = 10_000;
      StringBuilder mutable = new StringBuilder();
      java.util.UUID uuid = new java.util.UUID(7, 9);
      for (int i = 0; i < events; i++) {
        mutable.setLength(0);
        mutable.append("value ").append(i);
        log.info("mutable {} immutable {} {} {} {}", mutable, "s" + i, i, uuid, null);
        mutable.setLength(0);
        mutable.append("rewritten");
      }
      lp.getProducer().flush();
      List<LogbackTestSupport.Decoded> got = delivered(server);
      assertEquals(events, got.size());
      java.util.Set<String> bodies = new java.util.HashSet<>();
      for (LogbackTestSupport.Decoded d : got) {
        bodies.add(d.body());
      }
      for (int i = 0; i < events; i++) {
        String expected =
            "mutable value " + i + " immutable s" + i + " " + i + " " + uuid + " null";
        assertTrue(bodies.contains(expected), expected);
      }
      assertEquals(0, lp.droppedCount());
      ctx.stop();
    }
  }
}
