package io.logproducer.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The stored batches replay holds, per shard. The reader reads entries in sequence order; a shard
 * holds at most one batch at a time (its body in memory, waiting, being exported, or between
 * retries). An entry whose shard holds one already, or has entries passed over before it, is passed
 * over: only its sequence is kept ({@link #deferIfBusy}), and the reader comes back to it ({@link
 * #nextRevisit}) once its shard is free, oldest first. So a shard whose batch keeps failing (or is
 * slow) holds back only its own later batches; every other shard's backlog goes on at full speed,
 * and each shard's batches are still exported one at a time in sequence order. Workers take the
 * held batches ({@link #take}), oldest first; a batch answered with a retryable failure is put back
 * ({@link #retryLater}) and taken again after its backoff, so that it does not keep a worker from
 * the other shards meanwhile.
 *
 * <p>Memory: at most {@code 2 × capacity} batches (bodies) are held at once: at most {@code
 * capacity} that never had a retryable answer (waiting or being exported, {@link #awaitRoom}), the
 * others between retries. Besides them, 8 bytes per passed-over entry (at most 16 while its shard's
 * array grows), so at most 16 bytes per pending spool entry: the order of the spool's own index of
 * its pending entries. At most {@code capacity} batches are exported at once (one per worker).
 *
 * <p>Thread-safe: one reader ({@link #awaitRoom}, {@link #nextRevisit}, {@link #deferIfBusy},
 * {@link #add}), any number of workers ({@link #take}, {@link #retryLater}, {@link #done}).
 */
final class ReplayLanes {

  /** One stored batch read for export: its sequence, stored shard key, meta and body. */
  static final class Job {
    final long sequence;
    final ByteBuffer shard;
    final StoredBatchMeta meta;
    final StoredBatch batch;
    final byte[] body;

    /** Whether it had a retryable answer; guarded by the lanes. */
    boolean retrying;

    /** When it may be exported again ({@link System#nanoTime()}); guarded by the lanes. */
    long notBeforeNanos;

    Job(long sequence, StoredBatchMeta meta, StoredBatch batch, byte[] body) {
      this.sequence = sequence;
      this.shard = ByteBuffer.wrap(meta.shardKey);
      this.meta = meta;
      this.batch = batch;
      this.body = body;
    }
  }

  /** A shard's state: its held batch, whether it is being exported, its passed-over entries. */
  private static final class Lane {
    Job held;
    boolean exporting;

    /** Passed-over sequences, ascending, in a ring: [head, head + size). */
    long[] deferred = new long[0];

    int head;
    int size;

    void defer(long sequence) {
      if (size == deferred.length) {
        long[] grown = new long[Math.max(4, deferred.length * 2)];
        for (int i = 0; i < size; i++) {
          grown[i] = deferred[(head + i) % deferred.length];
        }
        deferred = grown;
        head = 0;
      }
      deferred[(head + size) % deferred.length] = sequence;
      size++;
    }

    long firstDeferred() {
      return deferred[head];
    }

    void dropFirstDeferred() {
      head = (head + 1) % deferred.length;
      size--;
    }

    boolean idle() {
      return held == null && size == 0;
    }
  }

  private final int capacity;
  private final Map<ByteBuffer, Lane> lanes = new HashMap<>();
  private int held;
  private int retrying;
  private long deferred;
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
    while (!stopped && !room() && (left = deadline - System.nanoTime()) > 0) {
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return !stopped && room();
  }

  private boolean room() {
    return held - retrying < capacity && held < 2 * capacity;
  }

  /**
   * {@return the oldest passed-over sequence whose shard holds no batch now, removed from the
   * passed-over ones (the reader reads it next, and {@link #add}s it unless it is gone), or -1 when
   * there is none}
   */
  synchronized long nextRevisit() {
    Lane oldest = null;
    for (Lane lane : lanes.values()) {
      if (lane.held == null
          && lane.size > 0
          && (oldest == null || lane.firstDeferred() < oldest.firstDeferred())) {
        oldest = lane;
      }
    }
    if (oldest == null) {
      return -1;
    }
    long sequence = oldest.firstDeferred();
    oldest.dropFirstDeferred();
    deferred--;
    if (oldest.idle()) {
      lanes.values().remove(oldest); // add creates it again
    }
    return sequence;
  }

  /**
   * The entry {@code sequence} of {@code shard}, read in sequence order: {@return true (and its
   * sequence kept to come back to) when its shard holds a batch or has entries passed over
   * already}; false when the caller may {@link #add} it now.
   */
  synchronized boolean deferIfBusy(ByteBuffer shard, long sequence) {
    Lane lane = lanes.get(shard);
    if (lane == null || (lane.held == null && lane.size == 0)) {
      return false;
    }
    lane.defer(sequence);
    deferred++;
    return true;
  }

  /**
   * Adds {@code job}: its shard holds no batch (the caller saw {@link #deferIfBusy} say false, or
   * took its sequence from {@link #nextRevisit}) and there is room ({@link #awaitRoom}).
   */
  synchronized void add(Job job) {
    Lane lane = lanes.get(job.shard);
    if (lane == null) {
      lane = new Lane();
      lanes.put(job.shard, lane);
    }
    if (lane.held != null) {
      throw new IllegalStateException("shard holds batch #" + lane.held.sequence);
    }
    lane.held = job;
    held++;
    notifyAll();
  }

  /**
   * {@return the oldest held batch not being exported and past its backoff, marking it exported
   * until {@link #done} or {@link #retryLater}; null once stopped} Waits for one.
   */
  synchronized Job take() throws InterruptedException {
    while (!stopped) {
      long now = System.nanoTime();
      Lane oldest = null;
      long soonest = Long.MAX_VALUE;
      for (Lane lane : lanes.values()) {
        Job j = lane.held;
        if (j == null || lane.exporting) {
          continue;
        }
        long wait = j.retrying ? j.notBeforeNanos - now : 0;
        if (wait > 0) {
          soonest = Math.min(soonest, wait);
        } else if (oldest == null || j.sequence < oldest.held.sequence) {
          oldest = lane;
        }
      }
      if (oldest != null) {
        oldest.exporting = true;
        return oldest.held;
      }
      if (soonest == Long.MAX_VALUE) {
        wait();
      } else {
        TimeUnit.NANOSECONDS.timedWait(this, soonest);
      }
    }
    return null;
  }

  /**
   * The export of {@code job} had a retryable answer: it is taken again (by any worker) after
   * {@code backoffMillis}; meanwhile its shard stays busy and the worker is free.
   */
  synchronized void retryLater(Job job, long backoffMillis) {
    Lane lane = lanes.get(job.shard);
    if (lane == null || lane.held != job || !lane.exporting) {
      throw new IllegalStateException("batch #" + job.sequence + " is not being exported");
    }
    if (!job.retrying) {
      job.retrying = true;
      retrying++;
    }
    job.notBeforeNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoffMillis);
    lane.exporting = false;
    notifyAll();
  }

  /** The export of {@code job} ended (delivered, refused, or stopped): its shard is free. */
  synchronized void done(Job job) {
    Lane lane = lanes.get(job.shard);
    if (lane == null || lane.held != job) {
      throw new IllegalStateException("batch #" + job.sequence + " is not held");
    }
    lane.held = null;
    lane.exporting = false;
    if (lane.idle()) {
      lanes.remove(job.shard);
    }
    if (job.retrying) {
      retrying--;
    }
    held--;
    notifyAll();
  }

  /** {@return the batches held and not being exported, for the caller to let go of at stop} */
  synchronized List<Job> waiting() {
    List<Job> out = new ArrayList<>();
    for (Lane lane : lanes.values()) {
      if (lane.held != null && !lane.exporting) {
        out.add(lane.held);
      }
    }
    return out;
  }

  /** {@return how many batches are held now (waiting, being exported, or between retries)} */
  synchronized int held() {
    return held;
  }

  /** {@return how many passed-over sequences are kept now} */
  synchronized long deferred() {
    return deferred;
  }

  /** Wakes every waiter; {@link #take} returns null and {@link #awaitRoom} false from now on. */
  synchronized void stop() {
    stopped = true;
    notifyAll();
  }
}
