package io.logproducer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.SpoolFullPolicy;
import io.logproducer.SpoolListener;
import io.logproducer.internal.spool.Spool;
import io.logproducer.spi.Batch;
import io.logproducer.spi.ExportResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * DROP_OLDEST removes the entry of a batch whose records got SPOOLED while its export was in flight
 * (handed over in flight, waiting for that export's late answer): the drop is left to the answer,
 * so each record's fate is counted and told once. A late delivery is the spool's delivery (it was
 * counted nowhere before); a late failure reports the drop, since replay cannot have the entry.
 * Step by step on one thread, against a real spool of 4 KiB segments.
 */
@Timeout(60)
class SpoolDropFateTest {

  @TempDir Path dir;

  private final MemoryBudget budget = new MemoryBudget(64 << 20);
  private final ChunkPool pool = new ChunkPool(4096, budget);
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final List<ProducerBatch> others = new ArrayList<>();
  private SpoolMetrics metrics;
  private Spool spool;
  private SpoolWriter writer;
  private SpoolOutcomes outcomes;

  @BeforeEach
  void open() {
    SpoolConfig cfg =
        SpoolConfig.builder(dir)
            .setDurability(SpoolDurability.NONE)
            .setSegmentBytes(4096)
            .setMaxBytes(2 * 4096 + SpoolConfig.FIXED_OVERHEAD_BYTES)
            .setFullPolicy(SpoolFullPolicy.DROP_OLDEST, 0)
            .setMinFreeDiskShare(0)
            .build();
    metrics =
        new SpoolMetrics(
            new SpoolListener() {
              @Override
              public void onDelivered(long sequence, int recordCount) {
                events.add("delivered #" + sequence + " x" + recordCount);
              }

              @Override
              public void onDropped(long sequence, int recordCount) {
                events.add("dropped #" + sequence + " x" + recordCount);
              }
            });
    spool = Spool.open(cfg, "test", metrics);
    writer = new SpoolWriter(spool, new KeyOnlyExporter(), Compression.NONE, metrics, 100);
    spool.claimDrops(writer::droppedByStorage);
    outcomes = new SpoolOutcomes(writer, metrics);
  }

  @AfterEach
  void close() {
    spool.close();
  }

  /** A sealed batch of {@code records} records, written ahead to the spool (about 1 KiB). */
  private ProducerBatch written(int records) {
    ProducerBatch b =
        new ProducerBatch("s", pool, System.nanoTime(), 0, TimeUnit.SECONDS.toNanos(60), records);
    for (int i = 0; i < records; i++) {
      assertEquals(0, b.tryAppend(new byte[] {1}, 1, null, 0, budget));
    }
    b.seal();
    writer.writeAhead(b, new byte[1000], 1000);
    assertTrue(b.spoolSequence >= 0, "stored");
    return b;
  }

  /**
   * Batch {@code b}'s records get SPOOLED while its export is in flight (the timer's hand-over),
   * then newer batches fill the spool until DROP_OLDEST removes its entry.
   */
  private void spooledInFlightThenDropped(ProducerBatch b) {
    assertTrue(writer.handOver(b, true, false), "SPOOLED in flight");
    for (int i = 0; spool.isPending(b.spoolSequence); i++) {
      assertTrue(i < 5_000, "the entry was never dropped");
      others.add(written(1));
    }
    assertEquals(0, metrics.recordsDropped.sum(), "the drop is left to the late answer");
    assertEquals(List.of(), events);
  }

  @Test
  void aLateDeliveryAfterTheDropIsTheSpoolsDeliveryNotADrop() {
    ProducerBatch b = written(3);
    spooledInFlightThenDropped(b);

    outcomes.lateDelivery(b, 0);

    assertEquals(List.of("delivered #" + b.spoolSequence + " x3"), events);
    assertEquals(3, metrics.recordsDeliveredFromSpool.sum());
    assertEquals(0, metrics.recordsDropped.sum());
    outcomes.released(b); // the send thread lets go after the answer: nothing more is told
    assertEquals(1, events.size(), events::toString);
  }

  @Test
  void aLateFailureAfterTheDropReportsTheDropOnce() {
    ProducerBatch b = written(3);
    spooledInFlightThenDropped(b);

    outcomes.released(b); // the late answer was not a delivery: replay would own it, but it is gone

    assertEquals(List.of("dropped #" + b.spoolSequence + " x3"), events);
    assertEquals(3, metrics.recordsDropped.sum());
    assertEquals(1, metrics.batchesDropped.sum());
    assertEquals(0, metrics.recordsDeliveredFromSpool.sum());
  }

  @Test
  void aLateDeliveryBeforeAnyDropIsTheSpoolsDeliveryAndAcknowledgesTheEntry() {
    ProducerBatch b = written(2);
    assertTrue(writer.handOver(b, true, false), "SPOOLED in flight");

    outcomes.lateDelivery(b, 1); // a partial success: 1 of its 2 records refused

    assertFalse(spool.isPending(b.spoolSequence), "acknowledged");
    assertEquals(List.of("delivered #" + b.spoolSequence + " x2"), events);
    assertEquals(1, metrics.recordsDeliveredFromSpool.sum());
    assertEquals(1, metrics.recordsRefusedFromSpool.sum());
  }

  @Test
  void aLateDeliveryOfABatchThatFailedIsNotTheSpools() {
    ProducerBatch b = written(2);
    // its entry dropped while the batch still held it: it goes on in memory only (FAILED later)
    for (int i = 0; spool.isPending(b.spoolSequence); i++) {
      assertTrue(i < 5_000, "the entry was never dropped");
      others.add(written(1));
    }
    assertFalse(writer.handOver(b, true, false), "not SPOOLED: its disk copy is gone");

    outcomes.lateDelivery(b, 0);

    assertEquals(List.of(), events);
    assertEquals(0, metrics.recordsDeliveredFromSpool.sum());
    assertEquals(0, metrics.recordsDropped.sum());
  }

  /** Only stores shard keys; never exports in these tests. */
  private static final class KeyOnlyExporter extends StubExporter {
    @Override
    public ExportResult export(Batch batch, byte[] body, int length, Compression compression) {
      throw new AssertionError("not exported in this test");
    }
  }
}
