package io.logproducer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.internal.ProducerEngine;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.ExportedBatch;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import io.logproducer.testsupport.SchedulerLag;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class ProducerPipelineTest {

  private static final AtomicInteger IDS = new AtomicInteger();
  private final InMemoryExporter exporter = InMemoryExporter.builder().setBodiesOnly(true).build();
  private final List<Producer> producers = new ArrayList<>();

  @AfterEach
  void closeAll() {
    for (Producer p : producers) {
      p.close(0);
    }
  }

  private Producer producer(ProducerConfig.Builder b) {
    Producer p = new Producer(b.setClientId("pipeline-" + IDS.incrementAndGet()).build(), exporter);
    producers.add(p);
    return p;
  }

  private static ProducerConfig.Builder config() {
    return ProducerConfig.builder()
        .setLingerMillis(3_600_000)
        .setDeliveryTimeoutMillis(3_600_000)
        .setInitialRetryBackoffMillis(10)
        .setMaxRetryBackoffMillis(50)
        .setJmxEnabled(false);
  }

  private static LogRecord record(String body) {
    return LogRecord.builder().setBody(body).build();
  }

  @Test
  void deliversEveryRecordExactlyOnceFromManyThreads() throws Exception {
    Producer p = producer(config().setBatchSizeInBytes(4096).setSendThreads(3));
    Outcomes outcomes = new Outcomes();
    int threads = 4;
    int perThread = 5_000;
    Thread[] ts = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int id = t;
      ts[t] =
          new Thread(
              () -> {
                for (int i = 0; i < perThread; i++) {
                  p.send(record(id + "-" + i + "-测试"), outcomes);
                }
              });
      ts[t].start();
    }
    for (Thread t : ts) {
      t.join();
    }
    p.flush();
    assertEquals(threads * perThread, outcomes.total(), "flush returns after every callback ran");
    assertEquals(Map.of(SendResult.Status.DELIVERED, threads * perThread), outcomes.statusCounts());
    List<String> bodies = exporter.bodies();
    assertEquals(threads * perThread, bodies.size());
    assertEquals(threads * perThread, new HashSet<>(bodies).size());
    ProducerMetrics m = p.getMetrics();
    assertEquals(threads * perThread, m.getRecordsAccepted());
    assertEquals(threads * perThread, m.getRecordsSent());
    assertEquals(0, m.getBufferedBytes());
    assertEquals(exporter.batches().size(), m.getBatchesSent());
    assertTrue(
        exporter.batches().size() > 20, "batches sealed by size: " + exporter.batches().size());
  }

  @Test
  void sealsByCountThenFlushSealsTheRest() {
    Producer p = producer(config().setBatchCountThreshold(10));
    for (int i = 0; i < 25; i++) {
      p.send(record("r" + i));
    }
    p.flush();
    List<Integer> sizes = new ArrayList<>();
    exporter.batches().forEach(r -> sizes.add(r.bodies().size()));
    sizes.sort(null);
    assertEquals(List.of(5, 10, 10), sizes);
  }

  @Test
  void sealsBySizeAndARecordLargerThanABatchTravelsAlone() {
    // each record: 4-byte length + body
    Producer p = producer(config().setBatchSizeInBytes(1000).setSendThreads(1));
    p.send(record("a".repeat(296))); // 300 bytes
    p.send(record("b".repeat(296))); // 600
    p.send(record("c".repeat(296))); // 900
    p.send(record("d".repeat(296))); // would be 1200: seals a,b,c first
    p.send(record("B".repeat(2996))); // 3000 > batch size: seals d, travels alone
    p.send(record("e".repeat(96)));
    p.flush();
    List<List<Integer>> batches = new ArrayList<>();
    exporter
        .batches()
        .forEach(
            r -> batches.add(r.bodies().stream().map(String::length).collect(Collectors.toList())));
    assertEquals(
        List.of(List.of(296, 296, 296), List.of(296), List.of(2996), List.of(96)), batches);
  }

  @Test
  void lingerSealsAnIdleBatch() throws Exception {
    Producer p = producer(config().setLingerMillis(50));
    Outcomes outcomes = new Outcomes();
    long start = System.nanoTime();
    p.send(record("x"), outcomes);
    p.send(record("y"), outcomes);
    outcomes.awaitCount(2, 30_000);
    assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(50));
    assertEquals(1, exporter.batches().size());
    assertEquals(List.of("x", "y"), exporter.batches().get(0).bodies());
  }

  @Test
  void shardsNeverShareABatch() {
    Producer p = producer(config());
    for (int i = 0; i < 30; i++) {
      p.send(
          LogRecord.builder()
              .setBody("s" + (i % 3) + "-" + i)
              .setDestination("d" + (i % 3))
              .build());
    }
    p.flush();
    assertEquals(3, exporter.batches().size());
    for (ExportedBatch r : exporter.batches()) {
      String prefix = "s" + r.shardKey().toString().substring(1) + "-";
      assertEquals(10, r.bodies().size());
      r.bodies().forEach(b -> assertTrue(b.startsWith(prefix), b + " in shard " + r.shardKey()));
    }
  }

  @Test
  void recordLargerThanTheLargestBatchIsRefusedAtSend() {
    exporter.setMaxBatchSizeInBytes(10_000);
    Producer p = producer(config().setBatchSizeInBytes(5_000));
    RecordTooLargeException e =
        assertThrows(RecordTooLargeException.class, () -> p.send(record("x".repeat(20_000))));
    assertEquals(
        "record of at least 20004 encoded bytes exceeds the largest allowed of 10000 bytes",
        e.getMessage(),
        "refused while encoding, before a buffer of its size is allocated");
    assertEquals(0, p.getMetrics().getRecordsAccepted());
    p.send(record("x".repeat(9_000))); // within the limit, above batchSizeInBytes: accepted
    p.flush();
    assertEquals(1, p.getMetrics().getRecordsSent());
  }

  @Test
  void retryableFailuresAreRetriedThenDeliveredOnce() throws Exception {
    AtomicInteger n = new AtomicInteger();
    exporter.respondWith(
        r ->
            n.incrementAndGet() <= 2
                ? ExportResult.retryable("HTTP 503", null, -1)
                : ExportResult.success());
    Producer p = producer(config());
    Outcomes outcomes = new Outcomes();
    for (int i = 0; i < 5; i++) {
      p.send(record("r" + i), outcomes);
    }
    p.flush();
    assertEquals(3, exporter.batches().size());
    assertEquals(
        List.of(1, 2, 3),
        exporter.batches().stream().map(ExportedBatch::attempt).collect(Collectors.toList()));
    assertEquals(5, outcomes.total());
    for (SendResult r : outcomes.all()) {
      assertEquals(SendResult.Status.DELIVERED, r.getStatus());
      assertEquals(3, r.getAttempts());
    }
    assertEquals(2, p.getMetrics().getRetries());
    assertEquals(5, p.getMetrics().getRecordsSent());
  }

  @Test
  void retryAfterIsHonoured() throws Exception {
    AtomicInteger n = new AtomicInteger();
    exporter.respondWith(
        r ->
            n.incrementAndGet() == 1
                ? ExportResult.retryable("HTTP 429", null, 700)
                : ExportResult.success());
    Producer p = producer(config());
    p.send(record("r"));
    p.flush();
    assertEquals(2, exporter.batches().size());
    long gap =
        exporter.batches().get(1).receivedNanos() - exporter.batches().get(0).receivedNanos();
    assertTrue(
        gap >= TimeUnit.MILLISECONDS.toNanos(700), "retried after " + gap / 1_000_000 + " ms");
  }

  @Test
  void retriesAreBoundedByCount() throws Exception {
    exporter.respondWith(r -> ExportResult.retryable("HTTP 503 Service Unavailable", null, -1));
    Producer p = producer(config().setRetries(2));
    Outcomes outcomes = new Outcomes();
    p.send(record("r"), outcomes);
    p.flush();
    SendResult r = outcomes.all().get(0);
    assertEquals(SendResult.Status.FAILED, r.getStatus());
    assertEquals(3, r.getAttempts());
    assertEquals(
        "retries exhausted after 3 attempt(s); last error: HTTP 503 Service Unavailable",
        r.getMessage());
    assertEquals(3, exporter.batches().size());
    assertEquals(1, p.getMetrics().getRecordsFailed());
  }

  @Test
  void retriesAreBoundedByDeliveryTimeout() throws Exception {
    exporter.respondWith(r -> ExportResult.retryable("connection refused", null, -1));
    Producer p =
        producer(
            config()
                .setLingerMillis(0)
                .setDeliveryTimeoutMillis(400)
                .setInitialRetryBackoffMillis(100)
                .setMaxRetryBackoffMillis(100));
    Outcomes outcomes = new Outcomes();
    try (SchedulerLag lag = SchedulerLag.start()) {
      long start = System.nanoTime();
      p.send(record("r"), outcomes);
      p.flush();
      // the outcome comes at the 400 ms delivery deadline, plus how late this machine wakes
      lag.assertWithin(start, 400, "the outcome of a record retried until its deadline");
    }
    SendResult r = outcomes.all().get(0);
    assertEquals(SendResult.Status.FAILED, r.getStatus());
    assertTrue(r.getMessage().contains("deliveryTimeoutMillis"), r.getMessage());
    assertTrue(r.getMessage().endsWith("last error: connection refused"), r.getMessage());
  }

  @Test
  void finalRejectionIsNotRetried() throws Exception {
    exporter.respondWith(r -> ExportResult.rejected("HTTP 400 Bad Request: invalid"));
    Producer p = producer(config());
    Outcomes outcomes = new Outcomes();
    for (int i = 0; i < 4; i++) {
      p.send(record("r" + i), outcomes);
    }
    p.flush();
    assertEquals(1, exporter.batches().size());
    assertEquals(Map.of(SendResult.Status.REJECTED, 4), outcomes.statusCounts());
    assertEquals("HTTP 400 Bad Request: invalid", outcomes.all().get(0).getMessage());
    assertEquals(4, p.getMetrics().getRecordsRejected());
  }

  @Test
  void partialSuccessReportsTheRejectedCountOnEveryRecordOfTheBatch() throws Exception {
    exporter.respondWith(r -> ExportResult.partialSuccess(3, "3 records had invalid ids"));
    Producer p = producer(config());
    Outcomes outcomes = new Outcomes();
    for (int i = 0; i < 10; i++) {
      p.send(record("r" + i), outcomes);
    }
    p.flush();
    assertEquals(1, exporter.batches().size());
    for (SendResult r : outcomes.all()) {
      assertEquals(SendResult.Status.PARTIALLY_REJECTED, r.getStatus());
      assertEquals(3, r.getRejectedCount());
      assertEquals("3 records had invalid ids", r.getMessage());
    }
    ProducerMetrics m = p.getMetrics();
    assertEquals(3, m.getRecordsRejected());
    assertEquals(7, m.getRecordsSent());
  }

  @Test
  void tooLargeSplitsUntilAcceptedAndFlushWaitsForTheHalves() throws Exception {
    exporter.respondWith(
        r -> r.bodies().size() > 3 ? ExportResult.tooLarge("HTTP 413") : ExportResult.success());
    Producer p = producer(config());
    Outcomes outcomes = new Outcomes();
    for (int i = 0; i < 20; i++) {
      p.send(record("r" + i), outcomes);
    }
    p.flush();
    assertEquals(Map.of(SendResult.Status.DELIVERED, 20), outcomes.statusCounts());
    List<String> delivered = new ArrayList<>();
    for (ExportedBatch r : exporter.batches()) {
      if (r.bodies().size() <= 3) {
        delivered.addAll(r.bodies());
      }
    }
    delivered.sort(null);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      expected.add("r" + i);
    }
    expected.sort(null);
    assertEquals(expected, delivered);
    assertEquals(20, p.getMetrics().getRecordsSent());
    assertEquals(0, p.getMetrics().getBufferedBytes());
  }

  @Test
  void aSingleRecordTooLargeForTheReceiverIsRejected() throws Exception {
    exporter.respondWith(r -> ExportResult.tooLarge("HTTP 413 Payload Too Large"));
    Producer p = producer(config());
    Outcomes outcomes = new Outcomes();
    p.send(record("big"), outcomes);
    p.flush();
    assertEquals(SendResult.Status.REJECTED, outcomes.all().get(0).getStatus());
    assertEquals(
        "request too large for the receiver: HTTP 413 Payload Too Large",
        outcomes.all().get(0).getMessage());
  }

  @Test
  void closeFailsWhatCannotBeDeliveredInTimeExactlyOnce() throws Exception {
    exporter.hold(); // the receiver hangs
    Producer p = producer(config().setBatchCountThreshold(10).setSendThreads(1));
    Outcomes outcomes = new Outcomes();
    for (int i = 0; i < 100; i++) {
      p.send(record("r" + i), outcomes);
    }
    try (SchedulerLag lag = SchedulerLag.start()) {
      long start = System.nanoTime();
      p.close(200);
      lag.assertWithin(start, 200 + ProducerEngine.CLOSE_SLACK_MILLIS, "close(200)");
    }
    // close returned within its bound; on a starved machine its closer may give the last outcomes
    // just after
    outcomes.awaitCount(100, 30_000);
    assertEquals(100, outcomes.total());
    assertEquals(Map.of(SendResult.Status.FAILED_AT_CLOSE, 100), outcomes.statusCounts());
    assertEquals(100, p.getMetrics().getRecordsFailed());
    assertEquals(0, p.getMetrics().getBufferedBytes());
    assertNoThreads(p);
  }

  @Test
  void closeDuringHeavySendingGivesEveryAcceptedRecordExactlyOneOutcome() throws Exception {
    Producer p = producer(config().setBatchSizeInBytes(2048).setLingerMillis(5).setSendThreads(2));
    AtomicLong accepted = new AtomicLong();
    AtomicLong outcomes = new AtomicLong();
    AtomicBoolean twice = new AtomicBoolean();
    Thread[] ts = new Thread[4];
    CountDownLatch started = new CountDownLatch(4);
    for (int t = 0; t < ts.length; t++) {
      ts[t] =
          new Thread(
              () -> {
                started.countDown();
                for (int i = 0; ; i++) {
                  AtomicBoolean seen = new AtomicBoolean();
                  try {
                    p.send(
                        record("r" + i),
                        r -> {
                          if (!seen.compareAndSet(false, true)) {
                            twice.set(true);
                          }
                          outcomes.incrementAndGet();
                        });
                    accepted.incrementAndGet();
                  } catch (IllegalStateException closed) {
                    return;
                  }
                }
              });
      ts[t].start();
    }
    started.await();
    while (p.getMetrics().getRecordsSent() < 20_000) {
      Thread.onSpinWait();
    }
    p.close(5_000);
    for (Thread t : ts) {
      t.join();
    }
    assertEquals(accepted.get(), outcomes.get());
    assertEquals(false, twice.get());
    ProducerMetrics m = p.getMetrics();
    assertEquals(accepted.get(), m.getRecordsAccepted());
    assertEquals(accepted.get(), m.getRecordsSent() + m.getRecordsFailed());
    assertEquals(0, m.getBufferedBytes());
    assertNoThreads(p);
  }

  @Test
  void sendAfterCloseIsRefused() {
    Producer p = producer(config());
    p.close();
    p.close(); // idempotent
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.send(record("x")));
    assertEquals("cannot send after the producer is closed", e.getMessage());
  }

  @Test
  void dropPolicyReportsDroppedOnTheCallingThreadAndCountsIt() throws Exception {
    exporter.hold();
    Producer p =
        producer(
            config()
                .setTotalSizeInBytes(2048)
                .setBatchSizeInBytes(1024)
                .setBufferFullPolicy(BufferFullPolicy.DROP));
    Outcomes outcomes = new Outcomes();
    AtomicInteger droppedOnCaller = new AtomicInteger();
    Thread caller = Thread.currentThread();
    int sent = 200;
    for (int i = 0; i < sent; i++) {
      p.send(
          record("x".repeat(96)),
          r -> {
            if (r.getStatus() == SendResult.Status.DROPPED && Thread.currentThread() == caller) {
              droppedOnCaller.incrementAndGet();
            }
            outcomes.onCompletion(r);
          });
    }
    ProducerMetrics m = p.getMetrics();
    // The budget is charged for whole chunks and bookkeeping, not only record bytes: fewer than
    // 2048 / 100 fit.
    assertTrue(
        m.getRecordsAccepted() >= 4 && m.getRecordsAccepted() < 2048 / 100,
        "" + m.getRecordsAccepted());
    assertEquals(sent - m.getRecordsAccepted(), m.getRecordsDropped());
    assertEquals(m.getRecordsDropped(), droppedOnCaller.get());
    assertTrue(m.getPeakBufferedBytes() <= 2048);
    exporter.release();
    p.flush();
    assertEquals(sent, outcomes.total());
    assertEquals(
        m.getRecordsAccepted(), (long) outcomes.statusCounts().get(SendResult.Status.DELIVERED));
  }

  @Test
  void blockPolicyTimesOutWithATypedException() {
    exporter.hold();
    Producer p =
        producer(
            config().setTotalSizeInBytes(2048).setBatchSizeInBytes(1024).setMaxBlockMillis(100));
    int accepted = 0;
    BufferExhaustedException e = null;
    while (e == null && accepted < 100) {
      try {
        p.send(record("x".repeat(96)));
        accepted++;
      } catch (BufferExhaustedException full) {
        e = full;
      }
    }
    assertTrue(
        e != null
            && e.getMessage()
                .matches(
                    "failed to reserve [0-9,]+ bytes within 100 ms: budget 2,048, in use [0-9,]+, waiting threads 1"),
        String.valueOf(e));
    assertTrue(accepted >= 4, "" + accepted);
    assertEquals(accepted, p.getMetrics().getRecordsAccepted());
    assertTrue(p.getMetrics().getPeakBufferedBytes() <= 2048);
    exporter.release();
  }

  @Test
  void budgetIsNeverExceededUnderPressure() throws Exception {
    exporter.respondWith(
        r -> {
          java.util.concurrent.locks.LockSupport.parkNanos(
              2_000_000L); // a slow receiver: 2 ms per request
          return ExportResult.success();
        });
    long total = 64 * 1024;
    Producer p =
        producer(config().setTotalSizeInBytes(total).setBatchSizeInBytes(4096).setLingerMillis(1));
    Thread[] ts = new Thread[6];
    for (int t = 0; t < ts.length; t++) {
      int id = t;
      ts[t] =
          new Thread(
              () -> {
                for (int i = 0; i < 3000; i++) {
                  p.send(record(id + "-" + i + "-" + "p".repeat(100)));
                }
              });
      ts[t].start();
    }
    for (Thread t : ts) {
      t.join();
    }
    p.flush();
    ProducerMetrics m = p.getMetrics();
    assertEquals(18_000, m.getRecordsSent());
    assertTrue(m.getPeakBufferedBytes() <= total, "peak " + m.getPeakBufferedBytes());
    assertTrue(m.getPeakBufferedBytes() > total / 2, "the budget was actually under pressure");
    assertTrue(m.getSendBlockedNanos() > 0);
  }

  @Test
  void callbacksMaySendFlushAndCloseWithoutDeadlock() throws Exception {
    Producer p = producer(config().setLingerMillis(1));
    CountDownLatch done = new CountDownLatch(1);
    AtomicReference<Throwable> error = new AtomicReference<>();
    Outcomes inner = new Outcomes();
    p.send(
        record("outer"),
        r -> {
          try {
            p.send(record("from-callback"), inner);
            p.flush();
            p.close();
          } catch (Throwable t) {
            error.set(t);
          } finally {
            done.countDown();
          }
        });
    assertTrue(done.await(30, TimeUnit.SECONDS));
    assertEquals(null, error.get());
    inner.awaitCount(1, 30_000);
    SendResult.Status s = inner.all().get(0).getStatus();
    assertTrue(
        s == SendResult.Status.DELIVERED || s == SendResult.Status.FAILED_AT_CLOSE, s.toString());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!producerThreads(p).isEmpty() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertNoThreads(p);
  }

  @Test
  void sendAsyncCompletesNormallyOrWithDeliveryException() throws Exception {
    Producer p = producer(config().setLingerMillis(1));
    CompletableFuture<SendResult> ok = p.sendAsync(record("ok"));
    assertEquals(SendResult.Status.DELIVERED, ok.get(30, TimeUnit.SECONDS).getStatus());
    exporter.respondWith(r -> ExportResult.rejected("HTTP 400"));
    CompletableFuture<SendResult> bad = p.sendAsync(record("bad"));
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> bad.get(30, TimeUnit.SECONDS));
    DeliveryException de = assertInstanceOf(DeliveryException.class, e.getCause());
    assertEquals(SendResult.Status.REJECTED, de.getResult().getStatus());
    assertEquals("record not delivered: " + de.getResult(), de.getMessage());
  }

  @Test
  void sendAsyncFollowsIsSuccessForEveryStatusIncludingPartialRejects() throws Exception {
    Producer p = producer(config().setLingerMillis(1));
    exporter.respondWith(
        r -> ExportResult.partialSuccess(1, "1 of 1 log records rejected: empty body"));
    CompletableFuture<SendResult> partial = p.sendAsync(record("partial"));
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> partial.get(30, TimeUnit.SECONDS));
    DeliveryException de = assertInstanceOf(DeliveryException.class, e.getCause());
    SendResult r = de.getResult();
    assertEquals(SendResult.Status.PARTIALLY_REJECTED, r.getStatus());
    assertFalse(r.isSuccess());
    assertEquals(1, r.getRejectedCount());
    assertEquals(
        "record may not have been delivered: SendResult{PARTIALLY_REJECTED, attempts=1, batchRecords=1,"
            + " rejected=1, message=1 of 1 log records rejected: empty body}",
        de.getMessage());
    for (SendResult.Status s : SendResult.Status.values()) {
      SendResult result = new SendResult(s, 1, 1, 0, null, null);
      assertEquals(s == SendResult.Status.DELIVERED, result.isSuccess(), s.name());
    }
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new DeliveryException(
                new SendResult(SendResult.Status.DELIVERED, 1, 1, 0, null, null)));
  }

  @Test
  void threadsAreNamedDaemonsAndTheExporterIsStartedAndClosed() {
    Producer p = producer(config().setSendThreads(3));
    Set<Thread> threads = producerThreads(p);
    assertEquals(4, threads.size());
    threads.forEach(t -> assertTrue(t.isDaemon(), t.getName()));
    assertEquals(p.getConfig(), exporter.startedWith());
    p.close();
    assertTrue(exporter.isClosed());
    assertNoThreads(p);
  }

  @Test
  void everyCompressionRoundTripsThroughTheSendPath() {
    for (Compression c : Compression.values()) {
      InMemoryExporter e = InMemoryExporter.builder().setBodiesOnly(true).build();
      try (Producer p = new Producer(config().setCompression(c).build(), e)) {
        for (int i = 0; i < 1000; i++) {
          p.send(record("rec-" + i + "-测试"));
        }
        p.flush();
        assertEquals(1000, e.bodies().size(), c.toString());
        assertEquals(c, e.batches().get(0).compression());
        assertTrue(p.getMetrics().getWireBytesSent() > 0);
      }
    }
  }

  static Set<Thread> producerThreads(Producer p) {
    Set<Thread> out = new HashSet<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith(p.getConfig().getClientId() + "-") && t.isAlive()) {
        out.add(t);
      }
    }
    return out;
  }

  static void assertNoThreads(Producer p) {
    assertEquals(Set.of(), producerThreads(p));
  }
}
