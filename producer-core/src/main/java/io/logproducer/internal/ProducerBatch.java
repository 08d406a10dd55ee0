package io.logproducer.internal;

import io.logproducer.Callback;
import io.logproducer.SendResult;
import io.logproducer.spi.Batch;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The encoded records of one shard, stored back to back in pooled chunks, and the callbacks owed for them.
 *
 * <p>A state machine: {@code OPEN → SEALED → IN_FLIGHT → (RETRY_WAIT → IN_FLIGHT)* → COMPLETED}; every transition
 * is a compare-and-set and an illegal one throws {@link IllegalStateException}, so completing twice is caught.
 * While OPEN, contents are guarded by the owning shard's lock; from SEALED on they are immutable and read by one
 * send thread at a time.
 */
final class ProducerBatch implements Batch {

  static final int OPEN = 0;
  static final int SEALED = 1;
  static final int IN_FLIGHT = 2;
  static final int RETRY_WAIT = 3;
  static final int COMPLETED = 4;
  private static final String[] STATE_NAMES = {"OPEN", "SEALED", "IN_FLIGHT", "RETRY_WAIT", "COMPLETED"};

  private final Object shardKey;
  private final ChunkPool pool;
  private final int chunkSize;
  /** {@code System.nanoTime()} at creation. */
  final long createdNanos;
  /** Sealed by the linger timer at this {@code nanoTime}. */
  final long lingerDeadlineNanos;
  /** Fails with FAILED when not delivered by this {@code nanoTime}. */
  final long deliveryDeadlineNanos;

  private final AtomicInteger state = new AtomicInteger(OPEN);
  private final CountDownLatch done = new CountDownLatch(1);
  /** Set when this batch is half of a split one; its completion counts toward the parent's. */
  volatile ProducerBatch parent;
  private final AtomicInteger pendingChildren = new AtomicInteger();

  // Contents: written under the shard lock while OPEN; immutable afterwards.
  private byte[][] chunks = new byte[4][];
  private int chunkCount;
  private int lastChunkUsed;
  private int size;
  private int count;
  private int[] recordEnds;
  private Callback[] callbacks;
  private int[] callbackRecords;
  private int callbackCount;

  /** Export attempts made; only the send thread holding the batch IN_FLIGHT changes it. */
  private volatile int attempts;
  /** When a RETRY_WAIT batch is due again ({@code nanoTime}); set before entering RETRY_WAIT. */
  volatile long retryAtNanos;
  /** The last failure's description, for the final outcome. */
  volatile String lastError;
  volatile Throwable lastCause;

  ProducerBatch(Object shardKey, ChunkPool pool, long nowNanos, long lingerNanos, long deliveryTimeoutNanos,
      int expectedRecords) {
    this.shardKey = shardKey;
    this.pool = pool;
    this.chunkSize = pool.chunkSize();
    this.createdNanos = nowNanos;
    this.lingerDeadlineNanos = nowNanos + lingerNanos;
    this.deliveryDeadlineNanos = nowNanos + deliveryTimeoutNanos;
    this.recordEnds = new int[Math.max(16, expectedRecords)];
  }

  // ---- appending (shard lock held, state OPEN) ----

  /** Appends one encoded record; {@code callback} may be null. */
  void append(byte[] src, int len, Callback callback) {
    if (state.get() != OPEN) {
      throw new IllegalStateException("append to a " + stateName() + " batch");
    }
    int off = 0;
    int remaining = len;
    while (remaining > 0) {
      if (chunkCount == 0 || lastChunkUsed == chunkSize) {
        if (chunkCount == chunks.length) {
          chunks = Arrays.copyOf(chunks, chunkCount * 2);
        }
        chunks[chunkCount++] = pool.take();
        lastChunkUsed = 0;
      }
      int n = Math.min(remaining, chunkSize - lastChunkUsed);
      System.arraycopy(src, off, chunks[chunkCount - 1], lastChunkUsed, n);
      lastChunkUsed += n;
      off += n;
      remaining -= n;
    }
    size += len;
    if (count == recordEnds.length) {
      recordEnds = Arrays.copyOf(recordEnds, count * 2);
    }
    recordEnds[count] = size;
    if (callback != null) {
      if (callbacks == null) {
        callbacks = new Callback[8];
        callbackRecords = new int[8];
      } else if (callbackCount == callbacks.length) {
        callbacks = Arrays.copyOf(callbacks, callbackCount * 2);
        callbackRecords = Arrays.copyOf(callbackRecords, callbackCount * 2);
      }
      callbacks[callbackCount] = callback;
      callbackRecords[callbackCount] = count;
      callbackCount++;
    }
    count++;
  }

  // ---- state transitions ----

  /** OPEN → SEALED. */
  void seal() {
    transition(OPEN, SEALED);
  }

  /**
   * SEALED or RETRY_WAIT → IN_FLIGHT.
   *
   * @return false if the batch was completed meanwhile (aborted at close)
   */
  boolean tryStartAttempt() {
    while (true) {
      int s = state.get();
      if (s == COMPLETED) {
        return false;
      }
      if (s != SEALED && s != RETRY_WAIT) {
        throw new IllegalStateException("cannot send a " + STATE_NAMES[s] + " batch");
      }
      if (state.compareAndSet(s, IN_FLIGHT)) {
        return true;
      }
    }
  }

  /** Counts an export attempt; only the send thread holding the batch IN_FLIGHT calls it. */
  void countAttempt() {
    attempts++;
  }

  /** IN_FLIGHT → RETRY_WAIT, due at {@code retryAtNanos}. */
  void awaitRetry(long retryAt) {
    this.retryAtNanos = retryAt;
    transition(IN_FLIGHT, RETRY_WAIT);
  }

  /** IN_FLIGHT → COMPLETED. @throws IllegalStateException if not in flight (e.g. completed twice) */
  void markCompleted() {
    transition(IN_FLIGHT, COMPLETED);
  }

  /**
   * SEALED or RETRY_WAIT → COMPLETED, for aborting at close.
   *
   * @return false if the batch is in flight or already completed
   */
  boolean tryAbort() {
    return state.compareAndSet(SEALED, COMPLETED) || state.compareAndSet(RETRY_WAIT, COMPLETED);
  }

  private void transition(int from, int to) {
    if (!state.compareAndSet(from, to)) {
      throw new IllegalStateException("illegal batch transition " + STATE_NAMES[state.get()] + " -> "
          + STATE_NAMES[to] + " (expected " + STATE_NAMES[from] + ")");
    }
  }

  int state() {
    return state.get();
  }

  String stateName() {
    return STATE_NAMES[state.get()];
  }

  // ---- completion (by the thread that moved the batch to COMPLETED) ----

  /** Calls every callback with {@code result}; returns the number that threw. */
  int invokeCallbacks(SendResult result, CallbackErrorHandler onError) {
    int failures = 0;
    for (int i = 0; i < callbackCount; i++) {
      try {
        callbacks[i].onCompletion(result);
      } catch (Throwable t) {
        failures++;
        onError.onCallbackError(t);
      }
      callbacks[i] = null;
    }
    return failures;
  }

  /** Returns the chunks to the pool. Call once, after completion. */
  void releaseChunks() {
    for (int i = 0; i < chunkCount; i++) {
      pool.give(chunks[i]);
      chunks[i] = null;
    }
    chunkCount = 0;
    recordEnds = null; // the batch may linger in the timer's queue a while; keep it small
  }

  void setPendingChildren(int n) {
    pendingChildren.set(n);
  }

  /** Counts one finished child; true when it was the last. */
  boolean childDone() {
    return pendingChildren.decrementAndGet() == 0;
  }

  /** Signals {@link #await}ers. */
  void signalDone() {
    done.countDown();
  }

  /** Waits up to {@code nanos} for completion; true if completed. */
  boolean await(long nanos) throws InterruptedException {
    return done.await(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Copies records [from, to) into a new SEALED batch with the same deadlines, attempt count and their callbacks.
   * Used to split a batch the receiver found too large.
   */
  ProducerBatch copyRange(int from, int to) {
    ProducerBatch b = new ProducerBatch(shardKey, pool, createdNanos, 0, deliveryDeadlineNanos - createdNanos,
        to - from);
    ChunkWriter w = new ChunkWriter();
    for (int i = from; i < to; i++) {
      w.reset();
      try {
        writeRecord(i, w);
      } catch (IOException impossible) {
        throw new IllegalStateException(impossible);
      }
      b.append(w.array(), w.size(), null);
    }
    for (int i = 0; i < callbackCount; i++) {
      int r = callbackRecords[i];
      if (r >= from && r < to) {
        b.addCallbackFor(r - from, callbacks[i]);
      }
    }
    b.attempts = attempts;
    b.seal();
    return b;
  }

  private void addCallbackFor(int record, Callback callback) {
    if (callbacks == null) {
      callbacks = new Callback[8];
      callbackRecords = new int[8];
    } else if (callbackCount == callbacks.length) {
      callbacks = Arrays.copyOf(callbacks, callbackCount * 2);
      callbackRecords = Arrays.copyOf(callbackRecords, callbackCount * 2);
    }
    callbacks[callbackCount] = callback;
    callbackRecords[callbackCount] = record;
    callbackCount++;
  }

  /** Completes the batch as moved to another (split): callbacks are not called here. */
  void forgetCallbacks() {
    if (callbacks != null) {
      Arrays.fill(callbacks, null);
    }
    callbackCount = 0;
  }

  // ---- Batch view ----

  @Override
  public Object shardKey() {
    return shardKey;
  }

  @Override
  public int recordCount() {
    return count;
  }

  @Override
  public int sizeInBytes() {
    return size;
  }

  @Override
  public int recordSize(int index) {
    checkIndex(index);
    return recordEnds[index] - (index == 0 ? 0 : recordEnds[index - 1]);
  }

  @Override
  public void writeTo(OutputStream out) throws IOException {
    writeRange(0, size, out);
  }

  @Override
  public void writeRecord(int index, OutputStream out) throws IOException {
    checkIndex(index);
    int start = index == 0 ? 0 : recordEnds[index - 1];
    writeRange(start, recordEnds[index], out);
  }

  private void writeRange(int start, int end, OutputStream out) throws IOException {
    int c = start / chunkSize;
    int off = start % chunkSize;
    int remaining = end - start;
    while (remaining > 0) {
      int n = Math.min(remaining, chunkSize - off);
      out.write(chunks[c], off, n);
      remaining -= n;
      c++;
      off = 0;
    }
  }

  private void checkIndex(int index) {
    if (index < 0 || index >= count) {
      throw new IndexOutOfBoundsException("record " + index + " of " + count);
    }
  }

  @Override
  public int attempt() {
    return attempts;
  }

  int callbackCount() {
    return callbackCount;
  }

  @Override
  public String toString() {
    return "ProducerBatch{shard=" + shardKey + ", records=" + count + ", bytes=" + size + ", state=" + stateName()
        + ", attempts=" + attempts + "}";
  }

  /** Receives exceptions thrown by user callbacks. */
  interface CallbackErrorHandler {
    void onCallbackError(Throwable t);
  }
}
