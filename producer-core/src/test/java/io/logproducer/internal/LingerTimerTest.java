package io.logproducer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Steps the timer through time with {@code runOnce} instead of sleeping. */
class LingerTimerTest {

  private final ChunkPool pool = new ChunkPool(4096, 4);
  private final List<ProducerBatch> sealed = new ArrayList<>();
  private final List<ProducerBatch> retried = new ArrayList<>();
  private final LingerTimer timer = new LingerTimer(b -> {
    if (b.state() == ProducerBatch.OPEN) {
      b.seal();
      sealed.add(b);
    }
  }, retried::add);

  private ProducerBatch open(long createdNanos, long lingerNanos) {
    ProducerBatch b = new ProducerBatch("s", pool, createdNanos, lingerNanos, 1_000_000, 4);
    b.append(new byte[] {1}, 1, null);
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
    assertEquals(Long.MAX_VALUE, timer.runOnce(130));
    assertEquals(List.of(a, b), sealed);
  }

  @Test
  void batchesSealedEarlyAreSkippedWithoutWaiting() {
    ProducerBatch early = open(0, 100);
    early.seal(); // by size
    ProducerBatch late = open(50, 100);
    assertEquals(150, timer.runOnce(0));
    assertEquals(0, timer.lingering() - 1);
    timer.runOnce(150);
    assertEquals(List.of(late), sealed);
  }

  @Test
  void releasesRetriesWhenDueInDueOrder() {
    ProducerBatch x = open(0, 1_000_000);
    ProducerBatch y = open(0, 1_000_000);
    for (ProducerBatch b : new ProducerBatch[] {x, y}) {
      b.seal();
      b.tryStartAttempt();
    }
    x.awaitRetry(500);
    y.awaitRetry(200);
    timer.scheduleRetry(x);
    timer.scheduleRetry(y);
    assertEquals(200, timer.runOnce(0));
    assertEquals(300, timer.runOnce(200));
    assertEquals(List.of(y), retried);
    timer.runOnce(500);
    assertEquals(List.of(y, x), retried);
    assertEquals(0, timer.pendingRetries());
  }
}
