package io.logproducer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Steps the timer through time with {@code runOnce} instead of sleeping. */
class LingerTimerTest {

  private final MemoryBudget budget = new MemoryBudget(1 << 20);
  private final ChunkPool pool = new ChunkPool(4096, budget);
  private final IncompleteBatches incomplete = new IncompleteBatches();
  private final List<ProducerBatch> sealed = new ArrayList<>();
  private final List<ProducerBatch> retried = new ArrayList<>();
  private final List<String> expired = new ArrayList<>();
  private final LingerTimer timer =
      new LingerTimer(
          incomplete,
          b -> {
            if (b.state() == ProducerBatch.OPEN) {
              b.seal();
              sealed.add(b);
            }
          },
          retried::add,
          b -> {
            String state = b.stateName();
            if (b.tryAbort() || b.tryTimeOutInFlight()) {
              incomplete.remove(b);
              expired.add(state);
              return true;
            }
            return false;
          });

  private ProducerBatch open(long createdNanos, long lingerNanos) {
    return open(createdNanos, lingerNanos, 1_000_000);
  }

  private ProducerBatch open(long createdNanos, long lingerNanos, long deliveryNanos) {
    ProducerBatch b = new ProducerBatch("s", pool, createdNanos, lingerNanos, deliveryNanos, 4);
    assertEquals(0, b.tryAppend(new byte[] {1}, 1, null, 0, budget));
    incomplete.add(b);
    timer.track(b);
    return b;
  }

  @Test
  void sealsEachBatchAtItsLingerDeadlineAndReportsTheNextWait() {
    ProducerBatch a = open(0, 100);
    ProducerBatch b = open(30, 100);
    assertEquals(100, timer.runOnce(0));
    assertEquals(1, timer.runOnce(99));
    assertEquals(List.of(), sealed);
    assertEquals(30, timer.runOnce(100));
    assertEquals(List.of(a), sealed);
    assertEquals(1_000_000 - 130, timer.runOnce(130), "then only the delivery deadline is pending");
    assertEquals(List.of(a, b), sealed);
  }

  @Test
  void batchesSealedEarlyLeaveTheTimerAtOnce() {
    ProducerBatch early = open(0, 100);
    early.seal(); // by size
    timer.untrack(early);
    ProducerBatch late = open(50, 100);
    assertEquals(1, timer.lingering(), "nothing sealed stays referenced by the timer");
    assertEquals(150, timer.runOnce(0));
    timer.runOnce(150);
    assertEquals(List.of(late), sealed);
    assertEquals(0, timer.lingering());
  }

  @Test
  void releasesRetriesWhenDueInDueOrder() {
    ProducerBatch x = open(0, 1_000_000, 10_000_000);
    ProducerBatch y = open(0, 1_000_000, 10_000_000);
    for (ProducerBatch b : new ProducerBatch[] {x, y}) {
      b.seal();
      timer.untrack(b);
      b.tryStartAttempt();
    }
    assertTrue(x.tryAwaitRetry(500));
    assertTrue(y.tryAwaitRetry(200));
    timer.scheduleRetry(x);
    timer.scheduleRetry(y);
    assertEquals(200, timer.runOnce(0));
    assertEquals(300, timer.runOnce(200));
    assertEquals(List.of(y), retried);
    timer.runOnce(500);
    assertEquals(List.of(y, x), retried);
    assertEquals(0, timer.pendingRetries());
  }

  @Test
  void expiresBatchesAtTheirDeliveryDeadlineWhateverTheirState() {
    ProducerBatch queued = open(0, 10, 1_000);
    ProducerBatch inFlight = open(1, 10, 1_000);
    ProducerBatch retrying = open(2, 10, 1_000);
    ProducerBatch young = open(500, 10, 1_000);
    timer.runOnce(100); // linger seals the first three
    assertEquals(3, sealed.size());
    inFlight.tryStartAttempt(); // a hung export
    retrying.tryStartAttempt();
    retrying.tryAwaitRetry(5_000);
    assertEquals(1, timer.runOnce(999), "the oldest expires in 1 ns");
    assertEquals(List.of(), expired);
    assertEquals(498, timer.runOnce(1_002));
    assertEquals(List.of("SEALED", "IN_FLIGHT", "RETRY_WAIT"), expired);
    assertEquals(ProducerBatch.TIMED_OUT, inFlight.state());
    assertEquals(1, incomplete.size());
    timer.runOnce(1_500);
    assertEquals(List.of("SEALED", "IN_FLIGHT", "RETRY_WAIT", "SEALED"), expired);
    assertEquals(Long.MAX_VALUE, timer.runOnce(2_000), "nothing pending: park until woken");
    assertEquals(young.state(), ProducerBatch.COMPLETED);
    assertEquals(queued.state(), ProducerBatch.COMPLETED);
  }
}
