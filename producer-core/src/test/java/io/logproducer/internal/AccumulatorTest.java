package io.logproducer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The accumulator's count of budget held by open batches, which {@link
 * Accumulator#relievePressure(long)} reads instead of locking every shard: it must equal what the
 * open batches hold through appends, growth and every kind of seal.
 */
class AccumulatorTest {

  private static final int BATCH = 16 * 1024;

  private final MemoryBudget budget = new MemoryBudget(1 << 20);
  private final ChunkPool pool = new ChunkPool(4096, budget);
  private final IncompleteBatches incomplete = new IncompleteBatches();
  private final List<ProducerBatch> sealed = new ArrayList<>();
  private final LingerTimer timer = new LingerTimer(incomplete, b -> {}, b -> {}, b -> false);
  private final Accumulator acc =
      new Accumulator(
          pool,
          budget,
          BATCH,
          1_000_000,
          60_000_000_000L,
          120_000_000_000L,
          incomplete,
          timer,
          sealed::add);

  /** Appends, reserving whatever the accumulator asks for first, as the producer does. */
  private void append(Object shard, int len) {
    long credit = 0;
    while (true) {
      long need = acc.append(shard, new byte[len], len, null, credit);
      if (need == 0) {
        return;
      }
      assertTrue(budget.tryReserve(need));
      credit += need;
    }
  }

  private long heldBySealed() {
    long held = 0;
    for (ProducerBatch b : sealed) {
      held += b.charged();
    }
    return held;
  }

  @Test
  void openChargeFollowsAppendsAndSeals() {
    assertEquals(0, acc.openCharged());
    for (int i = 0; i < 200; i++) {
      append(
          "s" + (i % 7),
          100 + (i * 37) % 3000); // several shards, batches sealed by size along the way
      assertEquals(
          budget.used() - pool.pooledBytes() - heldBySealed(),
          acc.openCharged(),
          "after append " + i);
    }
    assertTrue(acc.openCharged() > 0);
    assertTrue(!sealed.isEmpty(), "some batches were sealed by size");
    acc.sealAll();
    assertEquals(0, acc.openCharged());
    assertEquals(budget.used() - pool.pooledBytes(), heldBySealed());
  }

  @Test
  void relievePressureSealsOnlyWhenOpenBatchesHoldAQuarter() {
    append("a", 100);
    assertFalse(acc.relievePressure(1), "one chunk of a 1 MiB budget");
    assertEquals(0, sealed.size());
    // 80 shards with one 4 KiB chunk each: over a quarter of the budget held by open batches.
    for (int i = 0; i < 80; i++) {
      append("shard" + i, 100);
    }
    assertTrue(acc.openCharged() * 4 >= budget.total());
    assertTrue(acc.relievePressure(1));
    assertEquals(81, sealed.size());
    assertEquals(0, acc.openCharged());
  }

  @Test
  void relievePressureSealsWhenTheSenderCouldNotGetItsBytesWithoutTheOpenBatches() {
    append("a", 100);
    long open = acc.openCharged();
    assertTrue(open * 4 < budget.total());
    assertFalse(acc.relievePressure(budget.total() - open), "the rest of the budget would do");
    assertEquals(0, sealed.size());
    assertTrue(acc.relievePressure(budget.total() - open + 1));
    assertEquals(1, sealed.size());
    assertEquals(0, acc.openCharged());
    assertFalse(acc.relievePressure(budget.total()), "nothing open: nothing to seal");
  }
}
