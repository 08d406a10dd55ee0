package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolFullPolicy;
import io.logproducer.SpoolLockedException;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Whole-producer tests of the disk spool with the in-memory exporter (a receiver we script). */
@Timeout(120)
class SpoolProducerTest {

  private static final AtomicInteger IDS = new AtomicInteger();
  private static final ExportResult DOWN = ExportResult.retryable("receiver down", null, -1);
  private static final int SHARDS = 4;

  @TempDir Path dir;
  private final List<Producer> producers = new ArrayList<>();

  @AfterEach
  void closeAll() {
    for (Producer p : producers) {
      p.close(0);
    }
  }

  private Producer producer(InMemoryExporter exporter, SpoolConfig spool, long deliveryMillis) {
    ProducerConfig config =
        SpoolTestSettings.producer("spool-" + IDS.incrementAndGet(), deliveryMillis)
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

  private static void sendAll(Producer p, Outcomes outcomes, int n) {
    for (int i = 0; i < n; i++) {
      p.send(record(i), outcomes.callback(i));
    }
  }

  @Test
  void outageLongerThanDeliveryTimeoutSpoolsEveryRecordThenDeliversThemOnceInOrder() {
    InMemoryExporter exporter = InMemoryExporter.create();
    exporter.respondWith(b -> DOWN);
    Producer p = producer(exporter, spool().build(), 500);
    Outcomes outcomes = new Outcomes();
    int n = 200;
    sendAll(p, outcomes, n);
    SpoolTestSettings.awaitOutcomes(outcomes, n);
    assertEquals(Map.of(SendResult.Status.SPOOLED, n), outcomes.statusCounts());
    assertEquals(0, outcomes.duplicates());
    ProducerMetrics m = p.getMetrics();
    assertEquals(0, m.getBufferedBytes(), "memory back to the budget");
    assertEquals(n, m.getRecordsSpooled());
    assertEquals(0, m.getRecordsFailed());

    exporter.respondWith(b -> ExportResult.success());
    assertTrue(
        SpoolTestSettings.settles(() -> p.getMetrics().getSpoolRecordsDelivered() == n, p),
        () -> "delivered from the spool: " + p.getMetrics());
    assertTrue(SpoolTestSettings.settles(() -> p.getMetrics().getSpoolPendingBatches() == 0, p));
    SpoolTestSettings.assertDeliveredOnceInOrder(exporter, n);
    assertEquals(n, outcomes.total(), "no second outcome");
  }

  @Test
  void closeWithDeadReceiverSpoolsAndTheNextProducerDeliversThemAll() {
    InMemoryExporter down = InMemoryExporter.create();
    down.respondWith(b -> DOWN);
    Producer first = producer(down, spool().build(), 60_000);
    Outcomes outcomes = new Outcomes();
    int n = 120;
    sendAll(first, outcomes, n);
    assertTrue(SpoolTestSettings.settles(() -> down.exportCalls() >= n / 10, first));
    first.close(2_000);
    SpoolTestSettings.awaitOutcomes(outcomes, n);
    assertEquals(Map.of(SendResult.Status.SPOOLED, n), outcomes.statusCounts());

    InMemoryExporter up = InMemoryExporter.create();
    Producer second = producer(up, spool().build(), 60_000);
    assertTrue(
        SpoolTestSettings.settles(
            () -> second.getMetrics().getSpoolRecordsDelivered() == n, second),
        () -> "delivered from the spool: " + second.getMetrics());
    assertTrue(
        SpoolTestSettings.settles(() -> second.getMetrics().getSpoolPendingBatches() == 0, second));
    SpoolTestSettings.assertDeliveredOnceInOrder(up, n);
    assertEquals(0, second.getMetrics().getRecordsAccepted());
  }

  @Test
  void aSecondProducerOnTheSameDirectoryIsRefusedNamingDirectoryAndPid() {
    InMemoryExporter exporter = InMemoryExporter.create();
    producer(exporter, spool().build(), 60_000);
    SpoolLockedException e =
        assertThrows(
            SpoolLockedException.class,
            () -> producer(InMemoryExporter.create(), spool().build(), 60_000));
    assertEquals(dir, e.getDirectory());
    assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("pid=" + ProcessHandle.current().pid()), e.getMessage());
  }

  @Test
  void dropNewestWhenFullKeepsTodaysOutcomesAndCountsEveryBatch() {
    InMemoryExporter exporter = InMemoryExporter.create();
    exporter.respondWith(b -> DOWN);
    SpoolConfig small =
        spool()
            .setSegmentBytes(64 * 1024)
            .setMaxBytes(2 * 64 * 1024 + SpoolConfig.FIXED_OVERHEAD_BYTES)
            .setFullPolicy(SpoolFullPolicy.DROP_NEWEST, 0)
            .build();
    Producer p = producer(exporter, small, 500);
    Outcomes outcomes = new Outcomes();
    int n = 2_000;
    String pad = "x".repeat(1_000);
    for (int i = 0; i < n; i++) {
      p.send(LogRecord.builder().setBody(pad + i).build(), outcomes.callback(i));
    }
    SpoolTestSettings.awaitOutcomes(outcomes, n);
    Map<SendResult.Status, Integer> counts = outcomes.statusCounts();
    int spooled = counts.getOrDefault(SendResult.Status.SPOOLED, 0);
    int failed = counts.getOrDefault(SendResult.Status.FAILED, 0);
    assertEquals(n, spooled + failed, "one outcome per record: " + counts);
    assertTrue(spooled > 0 && failed > 0, "some stored, some refused: " + counts);
    ProducerMetrics m = p.getMetrics();
    assertEquals(spooled, m.getRecordsSpooled());
    assertEquals(failed, m.getRecordsFailed());
    assertEquals(n, m.getRecordsAccepted() - m.getRecordsSent() - m.getRecordsRejected());
    assertTrue(m.getSpoolBatchesNotWritten() > 0, m.toString());
    assertEquals(0, m.getBufferedBytes());
  }

  @Test
  void aFinalFailureFromTheExporterStaysFailedAndLeavesNothingInTheSpool() {
    InMemoryExporter exporter = InMemoryExporter.create();
    exporter.respondWith(b -> ExportResult.failed("refused locally", null));
    Producer p = producer(exporter, spool().build(), 60_000);
    Outcomes outcomes = new Outcomes();
    int n = 50;
    sendAll(p, outcomes, n);
    SpoolTestSettings.awaitOutcomes(outcomes, n);
    assertEquals(Map.of(SendResult.Status.FAILED, n), outcomes.statusCounts());
    assertEquals(0, p.getMetrics().getSpoolPendingBatches());
    assertEquals(0, p.getMetrics().getRecordsSpooled());
  }

  @Test
  void spooledBatchesOlderThanMaxAgeAreExpiredAndCounted() {
    InMemoryExporter exporter = InMemoryExporter.create();
    exporter.respondWith(b -> DOWN);
    Producer p = producer(exporter, spool().setMaxAgeMillis(1).build(), 500);
    Outcomes outcomes = new Outcomes();
    int n = 100;
    sendAll(p, outcomes, n);
    SpoolTestSettings.awaitOutcomes(outcomes, n);
    assertEquals(Map.of(SendResult.Status.SPOOLED, n), outcomes.statusCounts());
    assertTrue(
        SpoolTestSettings.settles(() -> p.getMetrics().getSpoolRecordsExpired() == n, p),
        () -> p.getMetrics().toString());
    assertEquals(0, p.getMetrics().getSpoolPendingBatches());
    assertEquals(0, p.getMetrics().getSpoolRecordsDelivered());
  }
}
