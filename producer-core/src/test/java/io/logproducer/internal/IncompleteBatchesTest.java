package io.logproducer.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.SendResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The batches {@code flush()} and {@code close()} wait for: a batch whose outcome is decided stays
 * among them until its callbacks have run (a flush that returned while another thread's callbacks
 * still ran let a caller count 9,832 of 10,000 outcomes right after {@code flush()}), while the
 * deadline watchdog no longer sees it.
 */
class IncompleteBatchesTest {

  private final MemoryBudget budget = new MemoryBudget(1 << 20);
  private final ChunkPool pool = new ChunkPool(4096, budget);
  private final Metrics metrics = new Metrics(budget, pool);
  private final IncompleteBatches incomplete = new IncompleteBatches();
  private final BatchCompleter completer = new BatchCompleter(this, budget, metrics, incomplete);

  private ProducerBatch batch(Callback1 callback) {
    ProducerBatch b = new ProducerBatch("s", pool, System.nanoTime(), 0, 60_000_000_000L, 4);
    assertEquals(0, b.tryAppend(new byte[] {1, 2, 3}, 3, callback::onCompletion, 0, budget));
    incomplete.add(b);
    b.seal();
    return b;
  }

  /** A callback as a lambda target in this test. */
  private interface Callback1 {
    void onCompletion(SendResult r);
  }

  @Test
  void aCompletingBatchLeavesTheWatchdogButNotTheSnapshotUntilRemoved() {
    ProducerBatch a = batch(r -> {});
    ProducerBatch b = batch(r -> {});
    assertSame(a, incomplete.oldestNotExpirySpooling());
    incomplete.completing(a);
    assertSame(b, incomplete.oldestNotExpirySpooling(), "the watchdog is done with a");
    assertArrayEquals(new ProducerBatch[] {b, a}, incomplete.snapshot());
    assertEquals(2, incomplete.size());
    incomplete.completing(a); // twice: no-op
    incomplete.remove(a);
    assertArrayEquals(new ProducerBatch[] {b}, incomplete.snapshot());
    incomplete.remove(a); // twice: no-op
    incomplete.remove(b);
    assertTrue(incomplete.isEmpty());
    assertNull(incomplete.oldestNotExpirySpooling());
  }

  @Test
  void aBatchStaysInTheSnapshotWhileItsCallbacksRun() {
    List<String> seen = new ArrayList<>();
    ProducerBatch[] self = new ProducerBatch[1];
    self[0] =
        batch(
            r -> {
              ProducerBatch[] during = incomplete.snapshot();
              seen.add(
                  during.length == 1 && during[0] == self[0]
                      ? "tracked, done=" + self[0].isDone()
                      : "not tracked");
            });
    assertTrue(self[0].tryAbort()); // SEALED -> COMPLETED, as at a deadline
    completer.complete(
        self[0], new SendResult(SendResult.Status.DELIVERED, 1, 1, 0, null, null), 0, true);
    assertEquals(1, seen.size());
    assertEquals("tracked, done=false", seen.get(0), "flush() would have waited for the callback");
    assertTrue(self[0].isDone());
    assertTrue(incomplete.isEmpty(), "removed once its callbacks ran");
    assertFalse(incomplete.snapshot().length > 0);
  }
}
