package io.logproducer.internal;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The stored batches replay holds in memory, per shard: the reader adds them in sequence order
 * ({@link #add}) while there is room ({@link #awaitRoom}); workers take them ({@link #take}) so
 * that at most one batch per shard is exported at a time and a shard's batches go in sequence
 * order, while batches of different shards pass each other. At most {@code capacity} batches
 * (bodies) are held at once, waiting or being exported. Thread-safe.
 */
final class ReplayLanes {

  /** One stored batch read for export: its sequence, stored shard key, meta and body. */
  static final class Job {
    final long sequence;
    final ByteBuffer shard;
    final StoredBatchMeta meta;
    final StoredBatch batch;
    final byte[] body;

    Job(long sequence, StoredBatchMeta meta, StoredBatch batch, byte[] body) {
      this.sequence = sequence;
      this.shard = ByteBuffer.wrap(meta.shardKey);
      this.meta = meta;
      this.batch = batch;
      this.body = body;
    }
  }

  private final int capacity;
  private final Map<ByteBuffer, ArrayDeque<Job>> waiting = new HashMap<>();
  private final Set<ByteBuffer> busy = new HashSet<>();
  private int held;
  private boolean stopped;

  /**
   * @param capacity the most batches held at once (and so exported at once), at least 1
   */
  ReplayLanes(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("replay capacity must be at least 1: " + capacity);
    }
    this.capacity = capacity;
  }

  /** {@return the most batches held, and exported, at once} */
  int capacity() {
    return capacity;
  }

  /**
   * Waits up to {@code millis} for room for one more batch. {@return true when there is room (and
   * not stopped)}
   */
  synchronized boolean awaitRoom(long millis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    long left;
    while (!stopped && held >= capacity && (left = deadline - System.nanoTime()) > 0) {
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return !stopped && held < capacity;
  }

  /** Adds {@code job}, the next in sequence order; the caller saw room ({@link #awaitRoom}). */
  synchronized void add(Job job) {
    waiting.computeIfAbsent(job.shard, k -> new ArrayDeque<>()).addLast(job);
    held++;
    notifyAll();
  }

  /**
   * {@return the oldest batch whose shard has none being exported, marking its shard busy until
   * {@link #done}; null once stopped} Waits for one.
   */
  synchronized Job take() throws InterruptedException {
    while (!stopped) {
      Job oldest = null;
      for (Map.Entry<ByteBuffer, ArrayDeque<Job>> e : waiting.entrySet()) {
        Job head = e.getValue().peekFirst();
        if (!busy.contains(e.getKey())
            && head != null
            && (oldest == null || head.sequence < oldest.sequence)) {
          oldest = head;
        }
      }
      if (oldest != null) {
        ArrayDeque<Job> lane = waiting.get(oldest.shard);
        lane.pollFirst();
        if (lane.isEmpty()) {
          waiting.remove(oldest.shard);
        }
        busy.add(oldest.shard);
        return oldest;
      }
      wait();
    }
    return null;
  }

  /** The export of {@code job} ended (delivered, refused, or stopped): its shard is free. */
  synchronized void done(Job job) {
    busy.remove(job.shard);
    held--;
    notifyAll();
  }

  /** {@return the sequences of the batches waiting (not being exported), for the caller to drop} */
  synchronized long[] waitingSequences() {
    int n = 0;
    for (ArrayDeque<Job> lane : waiting.values()) {
      n += lane.size();
    }
    long[] out = new long[n];
    int i = 0;
    for (ArrayDeque<Job> lane : waiting.values()) {
      for (Iterator<Job> it = lane.iterator(); it.hasNext(); ) {
        out[i++] = it.next().sequence;
      }
    }
    return out;
  }

  /** Wakes every waiter; {@link #take} returns null and {@link #awaitRoom} false from now on. */
  synchronized void stop() {
    stopped = true;
    notifyAll();
  }
}
