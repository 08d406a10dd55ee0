package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.SpoolFullPolicy;
import io.logproducer.internal.ProducerEngine;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.ExportedBatch;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import io.logproducer.testsupport.SchedulerLag;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Close with batches queued behind a hung exporter: they are written to the spool, not failed. */
@Timeout(120)
class SpoolCloseTest {

  private static final AtomicInteger IDS = new AtomicInteger();
  private static final ExportResult DOWN = ExportResult.retryable("receiver down", null, -1);

  @TempDir Path dir;
  private final List<Producer> producers = new ArrayList<>();

  @AfterEach
  void closeAll() {
    for (Producer p : producers) {
      p.close(0);
    }
  }

  private Producer producer(InMemoryExporter exporter, Compression compression) {
    return producer(
        exporter,
        compression,
        SpoolConfig.builder(dir)
            .setSegmentBytes(64 * 1024)
            .setMaxBytes(8L << 20)
            .setDurability(SpoolDurability.GROUP_COMMIT)
            .setGroupCommitMillis(20)
            .build());
  }

  private Producer producer(InMemoryExporter exporter, Compression compression, SpoolConfig spool) {
    ProducerConfig config =
        ProducerConfig.builder()
            .setClientId("spool-close-" + IDS.incrementAndGet())
            .setLingerMillis(5)
            .setBatchCountThreshold(10)
            .setDeliveryTimeoutMillis(60_000)
            .setBatchSizeInBytes(8 * 1024) // requests fit the 16 KiB segments of the BLOCK test
            .setSendThreads(1)
            .setCompression(compression)
            .setJmxEnabled(false)
            .setShutdownHookEnabled(false)
            .setSpool(spool)
            .build();
    Producer p = new Producer(config, exporter);
    producers.add(p);
    return p;
  }

  private static TreeSet<Integer> delivered(InMemoryExporter exporter) {
    TreeSet<Integer> ids = new TreeSet<>();
    int count = 0;
    for (ExportedBatch b : exporter.batches()) {
      if (b.isDelivered()) {
        for (String body : b.bodies()) {
          ids.add(Integer.parseInt(body.substring(2).replace("x", "")));
          count++;
        }
      }
    }
    assertEquals(ids.size(), count, "no record delivered twice");
    return ids;
  }

  @Test
  void batchesQueuedBehindAHeldExporterAtCloseAreSpooledAndTheNextProducerDeliversExactlyThem() {
    for (Compression c : new Compression[] {Compression.NONE, Compression.GZIP}) {
      closeSpoolsQueued(c);
    }
  }

  private void closeSpoolsQueued(Compression compression) {
    InMemoryExporter held = InMemoryExporter.create();
    held.respondWith(b -> DOWN);
    held.hold();
    Producer first = producer(held, compression);
    Outcomes outcomes = new Outcomes();
    int n = 400;
    for (int i = 0; i < n; i++) {
      first.send(
          LogRecord.builder().setBody("r-" + i).setDestination("shard-" + (i % 4)).build(),
          outcomes.callback(i));
    }
    assertTrue(
        SpoolTestSettings.settles(() -> held.heldCalls() == 1, first), "one export call held");
    try (SchedulerLag lag = SchedulerLag.start()) {
      long start = System.nanoTime();
      first.close(300);
      lag.assertWithin(start, 300 + ProducerEngine.CLOSE_SLACK_MILLIS, "close(300)");
    }
    // close's closer gives the outcomes; on a starved machine it may do so after close returned
    assertTrue(
        SpoolTestSettings.whileProgressing(() -> outcomes.total() >= n, outcomes::total, 30_000),
        () -> "outcomes: " + outcomes.statusCounts());
    assertEquals(Map.of(SendResult.Status.SPOOLED, n), outcomes.statusCounts());
    assertEquals(n, first.getMetrics().getRecordsSpooled());
    assertEquals(0, first.getMetrics().getRecordsFailed());

    InMemoryExporter up = InMemoryExporter.create();
    Producer second = producer(up, compression);
    assertTrue(
        SpoolTestSettings.settles(
            () -> second.getMetrics().getSpoolRecordsDelivered() == n, second),
        () -> "delivered from the spool: " + second.getMetrics());
    assertTrue(
        SpoolTestSettings.settles(() -> second.getMetrics().getSpoolPendingBatches() == 0, second));
    TreeSet<Integer> expected = new TreeSet<>();
    for (int i = 0; i < n; i++) {
      expected.add(i);
    }
    assertEquals(expected, delivered(up));
    second.close(1_000);
    producers.clear();
  }

  @Test
  void aFullSpoolThatBlocksDoesNotHoldCloseAndTheNextProducerDeliversExactlyTheSpooledRecords() {
    SpoolConfig small =
        SpoolConfig.builder(dir)
            .setSegmentBytes(16 * 1024)
            .setMaxBytes(2 * 16 * 1024 + SpoolConfig.FIXED_OVERHEAD_BYTES)
            .setDurability(SpoolDurability.GROUP_COMMIT)
            .setGroupCommitMillis(20)
            .setFullPolicy(SpoolFullPolicy.BLOCK, 30_000)
            .build();
    InMemoryExporter held = InMemoryExporter.create();
    held.respondWith(b -> DOWN);
    held.hold();
    Producer first = producer(held, Compression.NONE, small);
    Outcomes outcomes = new Outcomes();
    int n = 20_000;
    String pad = "x".repeat(100);
    for (int i = 0; i < n; i++) {
      first.send(
          LogRecord.builder().setBody("r-" + i + pad).setDestination("shard-" + (i % 4)).build(),
          outcomes.callback(i));
    }
    assertTrue(
        SpoolTestSettings.settles(() -> held.heldCalls() == 1, first), "one export call held");
    try (SchedulerLag lag = SchedulerLag.start()) {
      long start = System.nanoTime();
      first.close(300);
      lag.assertWithin(start, 300 + ProducerEngine.CLOSE_SLACK_MILLIS, "close(300)");
    }
    // close's closer gives the outcomes; on a starved machine it may do so after close returned
    assertTrue(
        SpoolTestSettings.whileProgressing(() -> outcomes.total() >= n, outcomes::total, 30_000),
        () -> "outcomes: " + outcomes.statusCounts());
    Set<Integer> spooled = outcomes.idsWith(SendResult.Status.SPOOLED);
    Set<Integer> failed = outcomes.idsWith(SendResult.Status.FAILED_AT_CLOSE);
    assertEquals(n, outcomes.total(), "one outcome per record");
    assertEquals(
        n,
        spooled.size() + failed.size(),
        "SPOOLED or FAILED_AT_CLOSE: " + outcomes.statusCounts());
    assertTrue(!spooled.isEmpty() && !failed.isEmpty(), "a full spool: " + outcomes.statusCounts());

    InMemoryExporter up = InMemoryExporter.create();
    Producer second = producer(up, Compression.NONE, small);
    assertTrue(
        SpoolTestSettings.settles(
            () -> second.getMetrics().getSpoolRecordsDelivered() == spooled.size(), second),
        () -> "delivered from the spool: " + second.getMetrics());
    assertTrue(
        SpoolTestSettings.settles(() -> second.getMetrics().getSpoolPendingBatches() == 0, second));
    assertEquals(new TreeSet<>(spooled), delivered(up));
  }
}
