package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.SendResult;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
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
 * Retries that run out sooner than the spool's group commit (few retries, short backoff, a receiver
 * that refuses at once): the batch's entry is written but not durable yet when its last attempt
 * fails. It waits for the group commit (bounded) and gets SPOOLED; it used to get FAILED, its
 * stored copy dropped, although a spool was there.
 */
@Timeout(120)
class SpoolRetriesRunOutTest {

  private static final ExportResult DOWN = ExportResult.retryable("connection refused", null, -1);

  @TempDir Path dir;

  private Producer producer(String id, InMemoryExporter exporter, int retries) {
    return new Producer(
        SpoolTestSettings.producer(id, 60_000)
            .setRetries(retries)
            .setSpool(
                SpoolConfig.builder(dir)
                    .setSegmentBytes(64 * 1024)
                    .setMaxBytes(8L << 20)
                    .setDurability(SpoolDurability.GROUP_COMMIT)
                    .setGroupCommitMillis(200)
                    .build())
            .build(),
        exporter);
  }

  @Test
  void batchesWhoseRetriesRunOutBeforeTheGroupCommitAreSpooledNotFailed() {
    InMemoryExporter down = InMemoryExporter.create();
    down.respondWith(b -> DOWN);
    Producer first = producer("spool-retries-1", down, 2);
    Outcomes outcomes = new Outcomes();
    int n = 60; // 6 batches of 10, each failing 3 attempts within ~60 ms of being written
    for (int i = 0; i < n; i++) {
      first.send(LogRecord.builder().setBody("r-" + i).build(), outcomes.callback(i));
    }
    SpoolTestSettings.awaitOutcomes(outcomes, n);
    assertEquals(Map.of(SendResult.Status.SPOOLED, n), outcomes.statusCounts());
    assertEquals(0, first.getMetrics().getRecordsFailed());
    assertEquals(n, first.getMetrics().getRecordsSpooled());
    first.close(0);

    InMemoryExporter up = InMemoryExporter.create();
    Producer second = producer("spool-retries-2", up, 2);
    try {
      assertTrue(
          SpoolTestSettings.settles(
              () -> second.getMetrics().getSpoolRecordsDelivered() == n, second),
          () -> "delivered from the spool: " + second.getMetrics());
      TreeSet<String> bodies = new TreeSet<>();
      int count = 0;
      for (ExportedBatch b : up.batches()) {
        if (b.isDelivered()) {
          bodies.addAll(b.bodies());
          count += b.bodies().size();
        }
      }
      assertEquals(n, count, "records delivered, duplicates included");
      assertEquals(n, bodies.size());
    } finally {
      second.close(1_000);
    }
  }
}
