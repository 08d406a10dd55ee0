package io.logproducer.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Callback;
import io.logproducer.SendResult;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ProducerBatchTest {

  private final MemoryBudget budget = new MemoryBudget(1 << 20);
  private final ChunkPool pool = new ChunkPool(4096, budget);

  private ProducerBatch batch() {
    return new ProducerBatch("shard", pool, 0, 1_000, 10_000, 16);
  }

  private void append(ProducerBatch b, byte[] src, int len, Callback cb) {
    assertEquals(0, b.tryAppend(src, len, cb, 0, budget), "appended");
  }

  @Test
  void followsTheStateMachineAndCatchesADoubleCompletion() {
    ProducerBatch b = batch();
    append(b, new byte[] {1}, 1, null);
    assertThrows(IllegalStateException.class, b::markCompleted, "cannot complete an open batch");
    b.seal();
    IllegalStateException e = assertThrows(IllegalStateException.class, b::seal);
    assertEquals("illegal batch transition SEALED -> SEALED (expected OPEN)", e.getMessage());
    assertThrows(
        IllegalStateException.class, () -> b.tryAppend(new byte[] {1}, 1, null, 0, budget));
    assertTrue(b.tryStartAttempt());
    assertTrue(b.tryAwaitRetry(5));
    assertTrue(b.tryStartAttempt());
    b.markCompleted();
    e = assertThrows(IllegalStateException.class, b::markCompleted);
    assertEquals(
        "illegal batch transition COMPLETED -> COMPLETED (expected IN_FLIGHT)", e.getMessage());
    assertFalse(b.tryStartAttempt(), "a completed batch is never sent");
    assertFalse(b.tryAbort());
    assertFalse(b.tryTimeOutInFlight());
  }

  @Test
  void aDeadlineInFlightGivesTheOutcomeAndLeavesTheMemoryToTheSendThread() {
    ProducerBatch b = batch();
    append(b, new byte[100], 100, null);
    b.seal();
    assertTrue(b.tryStartAttempt());
    assertFalse(b.tryAbort(), "the send thread owns an in-flight batch");
    assertTrue(b.tryTimeOutInFlight(), "the watchdog takes the outcome");
    assertFalse(b.tryComplete(), "the send thread's answer comes too late");
    assertFalse(b.tryAwaitRetry(1), "and cannot schedule a retry");
    assertFalse(b.tryStartAttempt());
    assertTrue(b.tryFinishTimedOut(), "the send thread lets go");
    assertEquals(ProducerBatch.COMPLETED, b.state());
    assertFalse(b.tryFinishTimedOut());
  }

  @Test
  void abortWinsOnlyOverQueuedBatches() {
    ProducerBatch queued = batch();
    append(queued, new byte[] {1}, 1, null);
    queued.seal();
    assertTrue(queued.tryAbort());
    assertFalse(queued.tryStartAttempt());

    ProducerBatch inFlight = batch();
    append(inFlight, new byte[] {1}, 1, null);
    inFlight.seal();
    inFlight.tryStartAttempt();
    assertFalse(inFlight.tryAbort(), "the send thread owns an in-flight batch");
    inFlight.markCompleted();
  }

  @Test
  void storesRecordsAcrossChunkBoundariesByteExact() throws Exception {
    ProducerBatch b = batch();
    List<byte[]> records = new ArrayList<>();
    int[] sizes = {1, 4095, 4096, 10_000, 3, 0, 4097};
    byte v = 0;
    for (int size : sizes) {
      byte[] r = new byte[size];
      for (int i = 0; i < size; i++) {
        r[i] = v++;
      }
      records.add(r);
      append(b, r, size, null);
    }
    b.seal();
    b.compact(budget);
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (int i = 0; i < records.size(); i++) {
      assertEquals(sizes[i], b.recordSize(i));
      ByteArrayOutputStream one = new ByteArrayOutputStream();
      b.writeRecord(i, one);
      assertArrayEquals(records.get(i), one.toByteArray(), "record " + i);
      all.write(records.get(i));
    }
    ByteArrayOutputStream whole = new ByteArrayOutputStream();
    b.writeTo(whole);
    assertArrayEquals(all.toByteArray(), whole.toByteArray());
    assertEquals(all.size(), b.sizeInBytes());
    assertEquals(7, b.recordCount());
  }

  @Test
  void theBudgetIsChargedForWholeChunksAndCompactionRefundsTheRest() {
    ProducerBatch b = batch();
    append(b, new byte[100], 100, null);
    long chunk = Footprint.bytes(4096);
    long bookkeeping =
        Footprint.BATCH_BYTES + Footprint.array(4, Footprint.REF_BYTES) + Footprint.array(16, 4);
    assertEquals(
        chunk + bookkeeping, b.charged(), "a whole chunk and the bookkeeping, not 100 bytes");
    assertEquals(b.charged(), budget.used());
    for (int i = 0; i < 39; i++) {
      append(
          b,
          new byte[100],
          100,
          null); // 4,000 bytes: still one chunk, but the offsets array doubles
    }
    long grown =
        chunk
            + Footprint.BATCH_BYTES
            + Footprint.array(4, Footprint.REF_BYTES)
            + Footprint.array(64, 4);
    assertEquals(grown, b.charged());
    assertEquals(grown, budget.used());
    append(b, new byte[200], 200, null); // crosses into a second chunk
    assertEquals(grown + chunk, budget.used());

    b.seal();
    long refunded = b.compact(budget);
    long exact = Footprint.bytes(4200 - 4096);
    assertEquals(
        chunk - exact,
        refunded,
        "the last chunk (104 of 4096 bytes used) is copied to its exact size");
    assertEquals(1, pool.freeCount(), "and the chunk is pooled, still charged");
    assertEquals(b.charged() + pool.pooledBytes(), budget.used());

    b.tryStartAttempt();
    b.markCompleted();
    b.releaseMemory(budget);
    assertEquals(0, b.releaseMemory(budget), "idempotent");
    assertEquals(2, pool.freeCount(), "the full chunk is pooled; the exact-size tail is not");
    assertEquals(pool.pooledBytes(), budget.used());
    pool.drain();
    assertEquals(0, budget.used());
  }

  @Test
  void anAppendTheBudgetCannotCoverChangesNothing() {
    MemoryBudget tiny = new MemoryBudget(6000);
    ChunkPool p = new ChunkPool(4096, tiny);
    ProducerBatch b = new ProducerBatch("s", p, 0, 1_000, 10_000, 16);
    assertEquals(0, b.tryAppend(new byte[10], 10, null, 0, tiny));
    long used = tiny.used();
    long need = b.tryAppend(new byte[5000], 5000, null, 0, tiny);
    assertEquals(
        Footprint.bytes(4096),
        need,
        "one more chunk: the record fills the first one's 4,086 free bytes");
    assertEquals(used, tiny.used(), "nothing reserved");
    assertEquals(1, b.recordCount());
    assertEquals(10, b.sizeInBytes());
    assertEquals(
        0,
        b.tryAppend(new byte[5000], 5000, null, need, new MemoryBudget(1 << 20)),
        "succeeds with the shortfall as credit");
    assertEquals(2, b.recordCount());
  }

  @Test
  void anOutOfMemoryErrorMidAppendLeavesBatchAndBudgetAsTheyWere() throws Exception {
    MemoryBudget budget2 = new MemoryBudget(1 << 20);
    ChunkPool failing =
        new ChunkPool(4096, budget2) {
          int calls;

          @Override
          synchronized byte[] take() {
            if (++calls == 2) {
              throw new OutOfMemoryError("injected");
            }
            return super.take();
          }
        };
    byte[] warm = new byte[4096];
    ProducerBatch b = new ProducerBatch("s", failing, 0, 1_000, 10_000, 16);
    assertEquals(0, b.tryAppend(new byte[] {7}, 1, null, 0, budget2)); // take #1 (empty pool)
    long used = budget2.used();
    byte[] big = new byte[3 * 4096];
    assertThrows(
        OutOfMemoryError.class,
        () -> b.tryAppend(big, big.length, null, 0, budget2)); // take #2 throws
    assertEquals(used, budget2.used(), "nothing reserved stays reserved");
    assertEquals(1, b.recordCount());
    assertEquals(1, b.sizeInBytes());
    assertEquals(0, b.tryAppend(new byte[] {8}, 1, null, 0, budget2), "the batch still works");
    b.seal();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    b.writeTo(out);
    assertArrayEquals(new byte[] {7, 8}, out.toByteArray());
    assertEquals(4096, warm.length);
  }

  @Test
  void copyRangeKeepsRecordsAndCallbacksAndStartsAttemptsAfresh() throws Exception {
    ProducerBatch b = batch();
    List<String> called = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      int id = i;
      append(b, new byte[] {(byte) i, (byte) i}, 2, i % 2 == 0 ? r -> called.add("cb" + id) : null);
    }
    b.seal();
    b.tryStartAttempt();
    b.countAttempt();
    long before = budget.used();
    ProducerBatch second = b.copyRange(2, 5, budget);
    assertEquals(before + second.charged(), budget.used(), "the half is charged at once");
    assertEquals(3, second.recordCount());
    assertEquals(0, second.attempt(), "a split is not a retry");
    assertEquals(b.deliveryDeadlineNanos, second.deliveryDeadlineNanos);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    second.writeTo(out);
    assertArrayEquals(new byte[] {2, 2, 3, 3, 4, 4}, out.toByteArray());
    ByteArrayOutputStream rec = new ByteArrayOutputStream();
    second.writeRecord(1, rec);
    assertArrayEquals(new byte[] {3, 3}, rec.toByteArray());
    assertEquals(2, second.callbackCount());
    second.tryStartAttempt();
    second.markCompleted();
    second.invokeCallbacks(
        new SendResult(SendResult.Status.DELIVERED, 2, 3, 0, null, null), t -> {});
    assertEquals(List.of("cb2", "cb4"), called);
    second.releaseMemory(budget);
    assertEquals(before, budget.used());
  }

  @Test
  void chunkSizesFollowTheBatchSizeAndStayASixteenthOfTheBudget() {
    assertEquals(256, ChunkPool.chunkSizeFor(100, 1L << 30));
    assertEquals(65536, ChunkPool.chunkSizeFor(2 << 20, 1L << 30));
    assertEquals(16384, ChunkPool.chunkSizeFor(10_000, 1L << 30));
    assertEquals(65536, ChunkPool.chunkSizeFor(1 << 20, 1L << 30));
    assertEquals(8192, ChunkPool.chunkSizeFor(5_000, 1L << 30));
    assertEquals(4096, ChunkPool.chunkSizeFor(1 << 20, 65_536));
    assertEquals(256, ChunkPool.chunkSizeFor(1 << 20, 1024));
  }

  @Test
  void thePoolKeepsItsChargeAndDrainReleasesIt() {
    MemoryBudget b = new MemoryBudget(8 * 4112);
    ChunkPool p = new ChunkPool(4096, b);
    assertTrue(b.tryReserve(p.chunkCost()));
    byte[] c = new byte[4096];
    assertTrue(p.give(c));
    assertEquals(p.chunkCost(), b.used(), "pooled chunks stay charged");
    assertSame(c, p.take());
    assertTrue(p.give(c));
    assertFalse(p.give(new byte[100]), "only chunks of its size");
    assertEquals(p.chunkCost(), p.drain());
    assertEquals(0, b.used());
    p.close();
    assertFalse(p.give(new byte[4096]), "a closed pool keeps nothing");
  }
}
