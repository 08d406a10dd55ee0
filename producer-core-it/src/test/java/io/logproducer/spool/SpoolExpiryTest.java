package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.SendResult;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.SpoolFullPolicy;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.ExportedBatch;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Batches whose delivery deadline passes while they wait for a send thread that never comes (the
 * only one is stuck in an export, as on a dead Kafka broker: each export blocks for {@code
 * max.block.ms}): they were never exported, so never written ahead, and used to get FAILED. Now
 * each is written to the spool at its deadline and gets SPOOLED once durable, and the next producer
 * on the directory delivers every record exactly once.
 */
@Timeout(120)
class SpoolExpiryTest {

  private static final ExportResult DOWN = ExportResult.retryable("receiver down", null, -1);

  @TempDir Path dir;

  private Producer producer(String id, InMemoryExporter exporter, long deliveryMillis) {
    return new Producer(
        SpoolTestSettings.producer(id, deliveryMillis)
            .setSpool(
                SpoolConfig.builder(dir)
                    .setSegmentBytes(64 * 1024)
                    .setMaxBytes(8L << 20)
                    .setDurability(SpoolDurability.GROUP_COMMIT)
                    .setGroupCommitMillis(50)
                    .build())
            .build(),
        exporter);
  }

  @Test
  void batchesThatExpireBeforeAnySendThreadTookThemAreSpooledNotFailed() {
    InMemoryExporter stuck = InMemoryExporter.create();
    stuck.respondWith(b -> DOWN);
    stuck.hold(); // the one send thread's first export never returns while held
    Producer first = producer("spool-expiry-1", stuck, 1_000);
    Outcomes outcomes = new Outcomes();
    int n = 400; // 40 batches of 10 over 4 shards
    for (int i = 0; i < n; i++) {
      first.send(
          LogRecord.builder().setBody("r-" + i).setDestination("shard-" + (i % 4)).build(),
          outcomes.callback(i));
    }
    SpoolTestSettings.awaitOutcomes(
        outcomes, n); // while the export is still held: outcomes come by deadline
    assertEquals(1, stuck.heldCalls(), "exactly one export reached the exporter");
    assertEquals(Map.of(SendResult.Status.SPOOLED, n), outcomes.statusCounts());
    assertEquals(0, outcomes.duplicates());
    assertEquals(n, first.getMetrics().getRecordsSpooled());
    assertEquals(0, first.getMetrics().getRecordsFailed());
    assertEquals(0, first.getMetrics().getSpoolBatchesNotWritten());
    stuck.release();
    first.close(0);

    InMemoryExporter up = InMemoryExporter.create();
    Producer second = producer("spool-expiry-2", up, 60_000);
    try {
      assertTrue(
          SpoolTestSettings.settles(
              () -> second.getMetrics().getSpoolRecordsDelivered() == n, second),
          () -> "delivered from the spool: " + second.getMetrics());
      assertTrue(
          SpoolTestSettings.settles(
              () -> second.getMetrics().getSpoolPendingBatches() == 0, second));
      TreeSet<Integer> ids = new TreeSet<>();
      int count = 0;
      for (ExportedBatch b : up.batches()) {
        if (b.isDelivered()) {
          for (String body : b.bodies()) {
            ids.add(Integer.parseInt(body.substring(2)));
            count++;
          }
        }
      }
      assertEquals(n, count, "records delivered, duplicates included");
      assertEquals(n, ids.size());
      assertEquals(0, (int) ids.first());
      assertEquals(n - 1, (int) ids.last());
    } finally {
      second.close(1_000);
    }
  }

  @Test
  void aBatchAFullSpoolRefusesAtItsDeadlineFailsAndLastErrorSaysWhy() {
    InMemoryExporter stuck = InMemoryExporter.create();
    stuck.respondWith(b -> DOWN);
    stuck.hold(); // no export answers: the only errors are the spool's
    Producer p =
        new Producer(
            SpoolTestSettings.producer("spool-expiry-full", 1_000)
                // Batches sealed by count only (10 records): a 5 ms linger sealed smaller ones on
                // a loaded machine, and the refused batches are counted against failed records /
                // 10.
                .setLingerMillis(1_000)
                .setBatchSizeInBytes(8 * 1024) // requests fit the 16 KiB segments
                .setSpool(
                    SpoolConfig.builder(dir)
                        .setSegmentBytes(16 * 1024)
                        .setMaxBytes(2 * 16 * 1024 + SpoolConfig.FIXED_OVERHEAD_BYTES)
                        .setDurability(SpoolDurability.GROUP_COMMIT)
                        .setGroupCommitMillis(50)
                        .setFullPolicy(SpoolFullPolicy.DROP_NEWEST, 0)
                        .build())
                .build(),
            stuck);
    try {
      Outcomes outcomes = new Outcomes();
      int n = 20_000; // 2,000 batches of ~1.2 KB: more than fits in maxBytes
      String pad = "x".repeat(100);
      for (int i = 0; i < n; i++) {
        p.send(
            LogRecord.builder().setBody("r-" + i + pad).setDestination("shard-" + (i % 4)).build(),
            outcomes.callback(i));
      }
      SpoolTestSettings.awaitOutcomes(outcomes, n);
      Map<SendResult.Status, Integer> counts = outcomes.statusCounts();
      int spooled = counts.getOrDefault(SendResult.Status.SPOOLED, 0);
      int failed = counts.getOrDefault(SendResult.Status.FAILED, 0);
      assertEquals(n, spooled + failed, "statuses " + counts);
      assertTrue(spooled > 0 && failed > 0, "some stored, the rest refused: " + counts);
      assertEquals(failed / 10, p.getMetrics().getSpoolBatchesNotWritten(), "refused batches");
      String lastError = p.getMetrics().getLastError();
      assertTrue(
          lastError != null && lastError.contains("did not store a batch of 10 records"),
          "lastError names the refusal: " + lastError);
    } finally {
      stuck.release();
      p.close(0);
    }
  }
}
