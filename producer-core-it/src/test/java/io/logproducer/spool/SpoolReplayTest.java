package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolFullPolicy;
import io.logproducer.SpoolListener;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay and the outcomes around it: DROP_OLDEST of a batch still in memory, replay failures in the
 * producer's last error, parallel replay under {@code replayShare} with per-shard order, and no
 * duplicate when a batch times out while its export is in flight.
 */
@Timeout(120)
class SpoolReplayTest {

  private static final AtomicInteger IDS = new AtomicInteger();
  private static final ExportResult DOWN = ExportResult.retryable("connection refused", null, -1);
  private static final int SHARDS = 4;

  @TempDir Path dir;
  private final List<Producer> producers = new ArrayList<>();

  @AfterEach
  void closeAll() {
    for (Producer p : producers) {
      p.close(0);
    }
  }

  private Producer producer(
      InMemoryExporter exporter, SpoolConfig spool, long deliveryMillis, int sendThreads) {
    ProducerConfig config =
        SpoolTestSettings.producer("replay-" + IDS.incrementAndGet(), deliveryMillis)
            .setSendThreads(sendThreads)
            .setSpool(spool)
            .build();
    Producer p = new Producer(config, exporter);
    producers.add(p);
    return p;
  }

  private SpoolConfig.Builder spool() {
    return SpoolTestSettings.spool(dir);
  }

  private static LogRecord record(int i) {
    return SpoolTestSettings.record(i, SHARDS);
  }

  /**
   * Stores {@code n} records (4 shards) in the spool: a producer whose receiver is down spools them
   * at their delivery deadline and closes.
   */
  private void spoolBacklog(int n) {
    InMemoryExporter down = InMemoryExporter.create();
    down.respondWith(b -> DOWN);
    // a 300 ms delivery timeout: every record is SPOOLED at its deadline (no close grace period
    // to sit out against the dead receiver), then the producer closes
    Producer first = producer(down, spool().build(), 300, 1);
    Outcomes outcomes = new Outcomes();
    for (int i = 0; i < n; i++) {
      first.send(record(i), outcomes.callback(i));
    }
    SpoolTestSettings.awaitOutcomes(outcomes, n);
    first.close(0);
    assertEquals(Map.of(SendResult.Status.SPOOLED, n), outcomes.statusCounts());
  }

  @Test
  void dropOldestOfABatchStillInMemoryGivesItsRecordsFailedNotSpooledCountedOnce() {
    InMemoryExporter exporter = InMemoryExporter.create();
    exporter.respondWith(b -> DOWN);
    AtomicLong droppedRecords = new AtomicLong();
    SpoolConfig small =
        spool()
            .setMaxBytes(2 * 64 * 1024 + SpoolConfig.FIXED_OVERHEAD_BYTES)
            .setFullPolicy(SpoolFullPolicy.DROP_OLDEST, 0)
            .setListener(
                new SpoolListener() {
                  @Override
                  public void onDropped(long sequence, int recordCount) {
                    droppedRecords.addAndGet(recordCount);
                  }
                })
            .build();
    // Every batch is written ahead within its 3 s delivery timeout, so the spool (two 64 KiB
    // segments) drops the oldest entries while their batches are still retried in memory.
    Producer p = producer(exporter, small, 3_000, 1);
    Outcomes outcomes = new Outcomes();
    int n = 2_000;
    String pad = "x".repeat(1_000);
    for (int i = 0; i < n; i++) {
      p.send(LogRecord.builder().setBody(pad + "-" + i).build(), outcomes.callback(i));
    }
    SpoolTestSettings.awaitOutcomes(outcomes, n);
    Map<SendResult.Status, Integer> counts = outcomes.statusCounts();
    int spooled = counts.getOrDefault(SendResult.Status.SPOOLED, 0);
    int failed = counts.getOrDefault(SendResult.Status.FAILED, 0);
    assertEquals(n, spooled + failed, "one outcome per record: " + counts);
    assertTrue(failed > 0, "entries dropped while held give FAILED: " + counts);
    assertTrue(spooled > 0, "the newest entries survive: " + counts);
    assertEquals(0, outcomes.duplicates());
    ProducerMetrics m = p.getMetrics();
    assertEquals(spooled, m.getRecordsSpooled());
    assertEquals(failed, m.getRecordsFailed());

    exporter.respondWith(b -> ExportResult.success());
    assertTrue(
        SpoolTestSettings.settles(() -> p.getMetrics().getSpoolPendingBatches() == 0, p),
        () -> p.getMetrics().toString());
    ProducerMetrics after = p.getMetrics();
    // Each SPOOLED record is delivered by replay or counted dropped; no FAILED record is either.
    assertEquals(
        spooled,
        after.getSpoolRecordsDelivered() + after.getSpoolRecordsDropped(),
        after.toString());
    assertEquals(after.getSpoolRecordsDropped(), droppedRecords.get());
    List<Integer> delivered = new ArrayList<>();
    for (List<Integer> ids : SpoolTestSettings.deliveredByShard(exporter).values()) {
      delivered.addAll(ids);
    }
    assertEquals(delivered.size(), new HashSet<>(delivered).size(), "no duplicate");
    // Every delivered record was SPOOLED (replay, or the late answer of the export in flight when
    // it got SPOOLED: both counted as the spool's), except one case the producer cannot avoid: a
    // FAILED record whose export was in flight at its deadline (its disk copy dropped while held)
    // and answered after the receiver came back.
    Set<Integer> spooledIds = outcomes.idsWith(SendResult.Status.SPOOLED);
    int spooledDelivered = 0;
    for (int id : delivered) {
      if (spooledIds.contains(id)) {
        spooledDelivered++;
      } else {
        SendResult r = outcomes.get(id);
        assertTrue(
            r.getStatus() == SendResult.Status.FAILED
                && r.getMessage().contains("while its request was in flight"),
            () -> "record " + id + " was delivered with the outcome " + r);
      }
    }
    assertEquals(after.getSpoolRecordsDelivered(), spooledDelivered, after.toString());
  }

  @Test
  void replayFailuresBecomeTheProducersLastError() {
    spoolBacklog(40);
    InMemoryExporter refusing = InMemoryExporter.create();
    refusing.respondWith(b -> DOWN);
    Producer p = producer(refusing, spool().build(), 60_000, 1);
    assertTrue(
        SpoolTestSettings.settles(
            () -> {
              String e = p.getMetrics().getLastError();
              return e != null && e.contains("spool replay") && e.contains("connection refused");
            },
            p),
        () -> "last error: " + p.getMetrics().getLastError());
    assertEquals(0, p.getMetrics().getSpoolRecordsDelivered());
  }

  @Test
  void replayKeepsFloorOfShareTimesSendThreadsExportsInFlightAndPerShardOrder() {
    int n = 400;
    spoolBacklog(n);
    InMemoryExporter slow = InMemoryExporter.create();
    AtomicInteger inFlight = new AtomicInteger();
    AtomicInteger maxInFlight = new AtomicInteger();
    CountDownLatch twoAtOnce = new CountDownLatch(1);
    Set<Object> busyShards = ConcurrentHashMap.newKeySet();
    AtomicInteger sameShardAtOnce = new AtomicInteger();
    slow.respondWith(
        b -> {
          if (!busyShards.add(b.shardKey())) {
            sameShardAtOnce.incrementAndGet();
          }
          int now = inFlight.incrementAndGet();
          maxInFlight.accumulateAndGet(now, Math::max);
          if (now >= 2) {
            twoAtOnce.countDown();
          }
          try {
            // Each export is held until two were seen at once: a slow receiver. At most 30 s: a
            // busy machine may start the second late; only a producer that never exports two at
            // once waits that long (and fails below).
            twoAtOnce.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            inFlight.decrementAndGet();
            busyShards.remove(b.shardKey());
          }
          return ExportResult.success();
        });
    // floor(0.5 x 5) = 2 replay exports at once.
    Producer p = producer(slow, spool().setReplayShare(0.5).build(), 60_000, 5);
    assertTrue(
        SpoolTestSettings.settles(() -> p.getMetrics().getSpoolRecordsDelivered() == n, p),
        () -> p.getMetrics().toString());
    assertTrue(SpoolTestSettings.settles(() -> p.getMetrics().getSpoolPendingBatches() == 0, p));
    assertEquals(2, maxInFlight.get(), "replay exports in flight at once");
    assertEquals(0, sameShardAtOnce.get(), "exports of one shard in flight at once");
    SpoolTestSettings.assertDeliveredOnceInOrder(slow, n);
  }

  @Test
  void aBatchTimingOutWhileItsExportIsInFlightIsDeliveredOnceByItsLateAnswer() {
    InMemoryExporter slow = InMemoryExporter.create();
    slow.setDelayMillis(2_000); // slower than the 1 s delivery timeout
    // 40 records in 4 shards: a batch of 10 per shard, each in flight on its own send thread when
    // its delivery timeout expires: SPOOLED; the late answer delivers them.
    AtomicLong lateDelivered = new AtomicLong();
    SpoolConfig listened =
        spool()
            .setListener(
                new SpoolListener() {
                  @Override
                  public void onDelivered(long sequence, int recordCount) {
                    lateDelivered.addAndGet(recordCount);
                  }
                })
            .build();
    Producer p = producer(slow, listened, 1_000, 8);
    Outcomes outcomes = new Outcomes();
    int n = 40;
    for (int i = 0; i < n; i++) {
      p.send(record(i), outcomes.callback(i));
    }
    SpoolTestSettings.awaitOutcomes(outcomes, n);
    assertEquals(
        Map.of(SendResult.Status.SPOOLED, n),
        outcomes.statusCounts(),
        () ->
            outcomes.all().stream()
                .map(SendResult::getMessage)
                .distinct()
                .collect(Collectors.toList())
                .toString());
    assertTrue(
        SpoolTestSettings.settles(() -> p.getMetrics().getSpoolPendingBatches() == 0, p),
        () -> p.getMetrics().toString());
    // A replay of a handed-over entry would have started before the late answers emptied the
    // spool; wait until every export started has its answer.
    assertTrue(
        SpoolTestSettings.settles(
            () ->
                slow.batches().size() == slow.exportCalls()
                    && slow.batches().stream().allMatch(b -> b.result() != null),
            p));
    List<Integer> delivered = new ArrayList<>();
    for (List<Integer> ids : SpoolTestSettings.deliveredByShard(slow).values()) {
      delivered.addAll(ids);
    }
    assertEquals(0, delivered.size() - n, "records delivered twice (late answer + replay)");
    assertEquals(n, new HashSet<>(delivered).size(), "distinct records delivered");
    ProducerMetrics m = p.getMetrics();
    assertEquals(0, m.getSpoolRecordsReplayed(), "nothing needed replay");
    // the late answers delivered SPOOLED records: the spool's ledger and listener say so
    assertEquals(n, m.getSpoolRecordsDelivered(), m.toString());
    assertEquals(n, lateDelivered.get(), "told to the listener");
  }

  @Test
  void reopeningASpoolCountsEveryPendingBatchEachTime() {
    int n = 600;
    InMemoryExporter down = InMemoryExporter.create();
    down.respondWith(b -> DOWN);
    // a 300 ms delivery timeout: every record is SPOOLED at its deadline (no close grace period
    // to sit out against the dead receiver), then the producer closes
    Producer first = producer(down, spool().build(), 300, 1);
    Outcomes outcomes = new Outcomes();
    for (int i = 0; i < n; i++) {
      first.send(record(i), outcomes.callback(i));
    }
    SpoolTestSettings.awaitOutcomes(outcomes, n);
    first.close(0);
    assertEquals(Map.of(SendResult.Status.SPOOLED, n), outcomes.statusCounts());
    long batches = first.getMetrics().getBatchesSpooled();
    assertEquals(batches, first.getMetrics().getSpoolPendingBatches(), "after close");
    for (int round = 1; round <= 3; round++) {
      InMemoryExporter stillDown = InMemoryExporter.create();
      stillDown.respondWith(b -> DOWN);
      Producer again = producer(stillDown, spool().build(), 60_000, 1);
      assertEquals(batches, again.getMetrics().getSpoolPendingBatches(), "open #" + round);
      assertTrue(SpoolTestSettings.settles(() -> stillDown.exportCalls() >= 3, again));
      assertEquals(batches, again.getMetrics().getSpoolPendingBatches(), "replaying #" + round);
      again.close(1_000);
      assertEquals(batches, again.getMetrics().getSpoolPendingBatches(), "after close #" + round);
      producers.remove(again);
    }
  }
}
