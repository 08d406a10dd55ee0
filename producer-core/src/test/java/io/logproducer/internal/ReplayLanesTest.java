package io.logproducer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ReplayLanes}, step by step on one thread: a shard holds one batch; a busy shard's later
 * entries are passed over by sequence and come back oldest first once it is free; a batch between
 * retries frees its worker; bodies held stay within {@code 2 × capacity}.
 */
@Timeout(30)
class ReplayLanesTest {

  private static ReplayLanes.Job job(long sequence, String shard) {
    byte[] key = shard.getBytes(StandardCharsets.UTF_8);
    StoredBatchMeta meta = new StoredBatchMeta(Compression.NONE, 1, 1, key);
    return new ReplayLanes.Job(sequence, meta, new StoredBatch(shard, 1, 1, null), new byte[1]);
  }

  private static ByteBuffer shard(String name) {
    return ByteBuffer.wrap(name.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aBusyShardsLaterEntriesArePassedOverAndComeBackOldestFirstWhenItIsFree() throws Exception {
    ReplayLanes lanes = new ReplayLanes(2);
    // The reader reads 1 (A), 2 (A), 3 (B), 4 (A), 5 (B) in sequence order.
    assertFalse(lanes.deferIfBusy(shard("A"), 1));
    ReplayLanes.Job a1 = job(1, "A");
    lanes.add(a1);
    assertTrue(lanes.deferIfBusy(shard("A"), 2), "A holds #1: #2 is passed over");
    assertFalse(lanes.deferIfBusy(shard("B"), 3));
    ReplayLanes.Job b3 = job(3, "B");
    lanes.add(b3);
    assertTrue(lanes.deferIfBusy(shard("A"), 4));
    assertTrue(lanes.deferIfBusy(shard("B"), 5));
    assertEquals(3, lanes.deferred(), "sequences kept, no bodies");
    assertEquals(2, lanes.held());
    assertEquals(-1, lanes.nextRevisit(), "both shards hold a batch");

    assertSame(a1, lanes.take());
    assertSame(b3, lanes.take());
    // #1 keeps failing: it waits for its retry, and its worker is free for another shard.
    lanes.retryLater(a1, 60_000);
    lanes.done(b3);
    assertEquals(5, lanes.nextRevisit(), "B is free: its passed-over #5, not A's #2");
    assertEquals(-1, lanes.nextRevisit(), "A still holds #1");
    assertTrue(lanes.awaitRoom(0), "#1 between retries does not count against the exports");
    ReplayLanes.Job b5 = job(5, "B");
    lanes.add(b5);
    assertSame(b5, lanes.take(), "#1 waits for its backoff; B goes on");
    lanes.done(b5);
    assertEquals(-1, lanes.nextRevisit());
    assertEquals(List.of(a1), lanes.waiting());

    lanes.done(a1); // delivered at last
    assertEquals(2, lanes.nextRevisit(), "A's passed-over entries in order");
    lanes.add(job(2, "A"));
    assertEquals(-1, lanes.nextRevisit(), "one batch per shard");
    assertTrue(lanes.deferIfBusy(shard("A"), 6), "behind A's passed-over #4");
    assertFalse(lanes.deferIfBusy(shard("C"), 7));
  }

  @Test
  void batchesBetweenRetriesHoldAtMostCapacityMoreBodies() throws Exception {
    ReplayLanes lanes = new ReplayLanes(2);
    for (int i = 0; i < 2; i++) {
      assertTrue(lanes.awaitRoom(0));
      lanes.add(job(i + 1, "s" + i));
    }
    assertFalse(lanes.awaitRoom(0), "capacity 2 held");
    lanes.retryLater(lanes.take(), 60_000);
    lanes.retryLater(lanes.take(), 60_000);
    for (int i = 2; i < 4; i++) {
      assertTrue(lanes.awaitRoom(0), "two batches wait for their retry");
      lanes.add(job(i + 1, "s" + i));
    }
    assertFalse(lanes.awaitRoom(0), "2 x capacity bodies at most");
    assertEquals(4, lanes.held());
  }

  @Test
  void aShardHoldsOneBatch() {
    ReplayLanes lanes = new ReplayLanes(2);
    lanes.add(job(1, "A"));
    assertThrows(IllegalStateException.class, () -> lanes.add(job(2, "A")));
  }

  @Test
  void aRetriedBatchIsTakenAgainAfterItsBackoff() throws Exception {
    ReplayLanes lanes = new ReplayLanes(1);
    ReplayLanes.Job a = job(1, "A");
    lanes.add(a);
    assertSame(a, lanes.take());
    lanes.retryLater(a, 1);
    assertSame(a, lanes.take(), "waits for the backoff, then gives it again");
    lanes.stop();
    assertEquals(null, lanes.take());
  }
}
