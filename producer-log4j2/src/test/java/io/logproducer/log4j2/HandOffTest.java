package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.log4j2.Support.Received;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.Reply;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.message.MapMessage;
import org.apache.logging.log4j.message.StringMapMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code queueSize} hand-off, on by default: exact delivery from several threads, the stop
 * delivers what is queued, large events and a full queue are mapped on the logging thread and still
 * delivered with their content.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HandOffTest {

  private OtlpReceiver server;
  private LoggerContext ctx;

  @AfterEach
  void tearDown() {
    ThreadContext.clearMap();
    if (ctx != null) {
      ctx.stop();
    }
    if (server != null) {
      server.close();
    }
    System.clearProperty("handoff.otlp.endpoint");
  }

  private LogproducerAppender start(String resource, String appender) throws Exception {
    server = OtlpReceiver.start();
    System.setProperty("handoff.otlp.endpoint", server.endpoint());
    ctx = Support.context(resource);
    return Support.appender(ctx, appender);
  }

  /** Logs {@code perThread} events on each of {@code threads} threads, two context entries each. */
  private static Set<String> logFromThreads(Logger log, int threads, int perThread)
      throws InterruptedException {
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> started = new ArrayList<>();
    Set<String> expected = new HashSet<>();
    for (int t = 0; t < threads; t++) {
      final int id = t;
      Thread thread =
          new Thread(
              () -> {
                ThreadContext.put("requestId", "req-" + id);
                ThreadContext.put("tenant", "acme");
                try {
                  go.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < perThread; i++) {
                  log.info("Order {} paid by {}", i, "user-" + id);
                }
              },
              "app-" + t);
      thread.start();
      started.add(thread);
      for (int i = 0; i < perThread; i++) {
        expected.add("Order " + i + " paid by user-" + t);
      }
    }
    go.countDown();
    for (Thread thread : started) {
      thread.join(60_000);
      assertFalse(thread.isAlive(), thread.getName() + " finished logging");
    }
    return expected;
  }

  @Test
  void theDefaultHandOffDeliversEveryEventFromFourThreads() throws Exception {
    LogproducerAppender appender = start("handoff.xml", "queued");
    assertNotNull(appender.handOffPath(), "the hand-off is on by default");
    assertEquals(LogproducerAppender.DEFAULT_QUEUE_SIZE, appender.handOffPath().capacity());
    assertEquals(List.of("handoff-client-handoff"), Support.threads("handoff-client-handoff"));
    Set<String> expected = logFromThreads(ctx.getLogger("app.handoff"), 4, 25_000);

    ctx.stop();
    ctx = null;
    List<Received> records = Support.delivered(server);
    assertEquals(100_000, records.size(), "delivered");
    assertEquals(0, appender.droppedCount(), "dropped");
    assertEquals(0, appender.failedCount(), "failed");
    assertEquals(
        expected, records.stream().map(Received::body).collect(Collectors.toSet()), "bodies");
    Support.awaitNoThreads("handoff-client-");
    for (Received r : records) {
      String thread = r.attr("thread.name");
      String id = thread.substring("app-".length());
      assertTrue(r.body().endsWith("user-" + id), () -> r.body() + " from " + thread);
      assertEquals("req-" + id, r.attr("requestId"));
      assertEquals("acme", r.attr("tenant"));
      assertEquals("INFO", r.record().severityText());
      assertEquals("app.handoff", r.scope());
    }
  }

  @Test
  void theStopDeliversEveryQueuedEventInOrder() throws Exception {
    LogproducerAppender appender = start("handoff.xml", "queued");
    Logger log = ctx.getLogger("app.handoff");
    List<String> expected = new ArrayList<>();
    long threadId = Thread.currentThread().getId();
    for (int i = 0; i < 2_000; i++) { // fewer than the queue holds: every event is queued
      log.info("queued {}", i);
      expected.add("queued " + i);
    }
    assertEquals(0, appender.handOffPath().sentInlineWhenFull(), "the queue was never full");
    assertEquals(0, server.acceptedRequests(), "nothing sent yet (linger 60 s)");
    ctx.stop();
    ctx = null;
    List<Received> records = Support.delivered(server);
    assertEquals(expected, records.stream().map(Received::body).collect(Collectors.toList()));
    assertEquals(0, appender.droppedCount());
    assertEquals(threadId, records.get(0).attributes().get("thread.id"));
  }

  @Test
  void largeEventsAreMappedOnTheLoggingThreadWithTheirContent() throws Exception {
    LogproducerAppender appender = start("handoff.xml", "queued");
    Logger log = ctx.getLogger("app.handoff");
    String longMessage = "m".repeat(HandOffPath.MAX_QUEUED_BODY_CHARS + 1);
    log.info("small before");
    log.info(longMessage);
    log.error("failed", new IllegalStateException("boom"));
    for (int i = 0; i < 40; i++) {
      ThreadContext.put("key" + i, "value" + i);
    }
    log.info("many entries");
    ThreadContext.clearMap();
    log.info(new StringMapMessage().with("message", "from a map").with("orderId", "42"));
    log.info("small after");

    ctx.stop();
    ctx = null;
    Map<String, Received> byBody =
        Support.delivered(server).stream()
            .collect(Collectors.toMap(Received::body, r -> r, (a, b) -> a));
    assertEquals(
        Set.of("small before", longMessage, "failed", "many entries", "from a map", "small after"),
        byBody.keySet());
    assertEquals(6, Support.delivered(server).size());
    assertEquals(0, appender.droppedCount());
    Received failed = byBody.get("failed");
    assertEquals(IllegalStateException.class.getName(), failed.attr("exception.type"));
    assertEquals("boom", failed.attr("exception.message"));
    assertTrue(failed.attr("exception.stacktrace").contains("largeEventsAreMapped"));
    Received many = byBody.get("many entries");
    for (int i = 0; i < 40; i++) {
      assertEquals("value" + i, many.attr("key" + i));
    }
    assertEquals("42", byBody.get("from a map").attr("orderId"));
    assertNull(byBody.get("small after").attr("key0"), "the context was cleared");
  }

  @Test
  void aMapMessageIsCopiedForTheQueue() throws Exception {
    LogproducerAppender appender = start("handoff.xml", "queued");
    Logger log = ctx.getLogger("app.handoff");
    byte[] raw = {1, 2, 3};
    StringBuilder mutable = new StringBuilder("before");
    MapMessage<?, Object> message =
        new MapMessage<>()
            .with("message", "paid")
            .with("orderId", 42L)
            .with("ratio", 0.5d)
            .with("ok", true)
            .with("raw", (Object) raw)
            .with("note", (Object) mutable);
    log.info(message);
    raw[0] = 9; // changed after the call: the record has what was logged
    mutable.setLength(0);
    message.with("orderId", 43L);
    assertEquals(0, appender.handOffPath().sentInlineWhenFull());

    ctx.stop();
    ctx = null;
    List<Received> records = Support.delivered(server);
    assertEquals(1, records.size());
    Received r = records.get(0);
    assertEquals("paid", r.body());
    assertFalse(r.attributes().containsKey("message"), "the body entry is not an attribute");
    assertEquals(42L, r.attributes().get("orderId"));
    assertEquals(0.5d, r.attributes().get("ratio"));
    assertEquals(Boolean.TRUE, r.attributes().get("ok"));
    assertArrayEquals(new byte[] {1, 2, 3}, (byte[]) r.attributes().get("raw"));
    assertEquals("before", r.attr("note"));
  }

  @Test
  void aFullQueueWaitsForTheWorkerAndLosesNothing() throws Exception {
    LogproducerAppender appender = start("handoff-tiny.xml", "tiny");
    server.respond(r -> Reply.ok(r).delayed(20)); // a slow receiver
    assertEquals(1, appender.handOffPath().capacity());
    Set<String> expected = logFromThreads(ctx.getLogger("app.tiny"), 4, 5_000);
    long waits = appender.handOffPath().waits();
    long inline = appender.handOffPath().sentInlineWhenFull();

    ctx.stop();
    ctx = null;
    List<Received> records = Support.delivered(server);
    assertEquals(20_000, records.size(), "delivered");
    assertEquals(0, appender.droppedCount(), "dropped");
    assertEquals(
        expected, records.stream().map(Received::body).collect(Collectors.toSet()), "bodies");
    assertTrue(waits > 0, "threads found the queue of one full and waited: " + waits);
    System.out.printf(
        "HandOffTest: queueSize 1, 20,000 events from 4 threads: %,d waits for room, %,d mapped on"
            + " the logging thread after the worker stalled%n",
        waits, inline);
  }

  @Test
  void queueSizeZeroMapsOnTheLoggingThreadAndOutOfRangeIsRefused() throws Exception {
    server = OtlpReceiver.start();
    LogproducerAppender inline =
        builder("inline").setQueueSize(0).setOtlp(otlp(server.endpoint())).build();
    inline.start();
    try {
      assertTrue(inline.isStarted());
      assertNull(inline.handOffPath(), "no queue, no worker");
    } finally {
      inline.stop();
    }
    assertNull(builder("negative").setQueueSize(-1).build(), "queueSize -1");
    assertNull(
        builder("huge").setQueueSize(LogproducerAppender.MAX_QUEUE_SIZE + 1).build(),
        "queueSize 2^20 + 1");
  }

  private static LogproducerAppender.Builder<?> builder(String name) {
    LogproducerAppender.Builder<?> b = LogproducerAppender.newBuilder();
    b.setName(name);
    return b;
  }

  private static OtlpElement otlp(String endpoint) {
    return OtlpElement.createOtlp(
        null, endpoint, null, null, null, null, null, null, null, null, null, null, null, null);
  }
}
