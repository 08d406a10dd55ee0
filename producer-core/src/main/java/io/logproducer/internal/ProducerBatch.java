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
 * The encoded records of one shard, stored back to back in chunks, the callbacks owed for them, and
 * the share of the memory budget they are charged.
 *
 * <p><b>States.</b> {@code OPEN → SEALED → IN_FLIGHT → (RETRY_WAIT → IN_FLIGHT)* → COMPLETED}; a
 * batch whose delivery deadline or close comes while a send thread holds it goes {@code IN_FLIGHT →
 * TIMED_OUT → COMPLETED}: its outcome is given at once, its memory is released when the send thread
 * lets go of it. Every transition is a compare-and-set and an illegal one throws {@link
 * IllegalStateException}, so completing twice is caught. While OPEN, contents are guarded by the
 * owning shard's lock; from SEALED on they are immutable and read by one send thread at a time.
 *
 * <p><b>Memory.</b> The batch is charged for what it allocates ({@link Footprint}): whole chunks,
 * its bookkeeping arrays and a fixed {@link Footprint#BATCH_BYTES}. {@link #tryAppend} works in two
 * phases: it allocates and reserves everything an append needs, and only then changes the batch, so
 * an exception (an {@code OutOfMemoryError} included) leaves the batch and the budget as they were.
 * Sealing copies a mostly empty last chunk to an array of its exact size and refunds the
 * difference.
 */
final class ProducerBatch implements Batch {

  static final int OPEN = 0;
  static final int SEALED = 1;
  static final int IN_FLIGHT = 2;
  static final int RETRY_WAIT = 3;
  static final int TIMED_OUT = 4;
  static final int COMPLETED = 5;
  private static final String[] STATE_NAMES = {
    "OPEN", "SEALED", "IN_FLIGHT", "RETRY_WAIT", "TIMED_OUT", "COMPLETED"
  };

  private final Object shardKey;
  private final ChunkPool pool;

  /** Bytes per chunk: the pool's, or the whole content for a batch built by {@link #copyRange}. */
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

  /**
   * Budget bytes this batch holds; guarded by the shard lock while OPEN, then by the thread
   * completing it.
   */
  private long charged;

  /**
   * Heap bytes this batch has allocated, by {@link Footprint}; {@code charged - allocated} is spare
   * credit.
   */
  private long allocated;

  private boolean released;

  // Intrusive links, so that tracking a batch never allocates (an OutOfMemoryError cannot lose it):
  /** {@link LingerTimer}'s list of open batches; guarded by the timer. */
  ProducerBatch lingerPrev;

  ProducerBatch lingerNext;
  boolean lingerLinked;

  /** {@link IncompleteBatches}' lists; guarded by it. */
  ProducerBatch incompletePrev;

  ProducerBatch incompleteNext;

  /** Which of {@link IncompleteBatches}' lists holds this batch ({@code NONE}, ...). */
  byte incompleteList;

  /** {@link SendQueue}'s link; guarded by it. */
  ProducerBatch queueNext;

  boolean queued;

  /** Export attempts made; only the send thread holding the batch IN_FLIGHT changes it. */
  private volatile int attempts;

  /** When a RETRY_WAIT batch is due again ({@code nanoTime}); set before entering RETRY_WAIT. */
  volatile long retryAtNanos;

  /** The last failure's description, for the final outcome. */
  volatile String lastError;

  volatile Throwable lastCause;

  /** The batch's sequence in the producer's spool once written there (see SpoolWriter), else -1. */
  volatile long spoolSequence = -1;

  /**
   * Set when the spool refused to store the batch (full, disk failed, too large): at its outcome,
   * if it is still not stored then, it is counted once in {@code spoolBatchesNotWritten}, however
   * many of its attempts were refused.
   */
  volatile boolean spoolRefused;

  /**
   * Set (before its claim) when the {@link ExpirySpooler} takes the batch at its delivery deadline:
   * the batch stays in the send queue or retry schedule, and a send thread that finds it IN_FLIGHT
   * skips it; the linger timer skips it too.
   */
  volatile boolean expirySpooling;

  /**
   * Set when the send thread let go of the batch after its outcome was given in flight ({@link
   * SpoolWriter#release}): a hand-over that comes later must not hold its entry back from replay.
   */
  volatile boolean spoolReleased;

  /** Taken from the {@link SendQueue} by a send thread, not yet written ahead. Guarded by it. */
  boolean handedOut;

  ProducerBatch(
      Object shardKey,
      ChunkPool pool,
      long nowNanos,
      long lingerNanos,
      long deliveryTimeoutNanos,
      int expectedRecords) {
    this(
        shardKey,
        pool,
        pool.chunkSize(),
        nowNanos,
        nowNanos + lingerNanos,
        nowNanos + deliveryTimeoutNanos,
        expectedRecords);
  }

  private ProducerBatch(
      Object shardKey,
      ChunkPool pool,
      int chunkSize,
      long createdNanos,
      long lingerDeadline,
      long deliveryDeadline,
      int expectedRecords) {
    this.shardKey = shardKey;
    this.pool = pool;
    this.chunkSize = chunkSize;
    this.createdNanos = createdNanos;
    this.lingerDeadlineNanos = lingerDeadline;
    this.deliveryDeadlineNanos = deliveryDeadline;
    this.recordEnds = new int[Math.max(16, expectedRecords)];
    this.allocated =
        Footprint.BATCH_BYTES
            + Footprint.array(chunks.length, Footprint.REF_BYTES)
            + Footprint.array(recordEnds.length, 4);
  }

  // ---- appending (shard lock held, state OPEN) ----

  /**
   * Appends one encoded record if the budget allows, charging the batch for what the append
   * allocates. {@code credit} bytes, already reserved by the caller, are used first and become the
   * batch's on success.
   *
   * @return 0 if appended (the credit is consumed); otherwise the further bytes to reserve before
   *     trying again (nothing changed, the credit is still the caller's)
   * @throws IllegalStateException if the batch is not open (nothing changed)
   */
  long tryAppend(byte[] src, int len, Callback callback, long credit, MemoryBudget budget) {
    if (state.get() != OPEN) {
      throw new IllegalStateException("append to a " + stateName() + " batch");
    }
    if (chunkCount > 0
        && len <= chunkSize - lastChunkUsed
        && count < recordEnds.length
        && (callback == null || (callbacks != null && callbackCount < callbacks.length))) {
      // The common case: the record fits what is already allocated and charged; nothing to reserve.
      charged += credit;
      store(src, len, callback);
      return 0;
    }
    long chunkCost = pool.chunkCost();
    int free = chunkCount == 0 ? 0 : chunkSize - lastChunkUsed;
    int newChunks = len <= free ? 0 : (int) (((long) len - free + chunkSize - 1) / chunkSize);
    int chunksLength = chunks.length;
    if (chunkCount + newChunks > chunksLength) {
      chunksLength = Math.max(chunksLength * 2, chunkCount + newChunks);
    }
    int endsLength = count == recordEnds.length ? count * 2 : recordEnds.length;
    int callbacksLength = callbacks == null ? 0 : callbacks.length;
    if (callback != null && callbackCount == callbacksLength) {
      callbacksLength = callbacksLength == 0 ? 8 : callbacksLength * 2;
    }
    long growth =
        newChunks * chunkCost
            + Footprint.array(chunksLength, Footprint.REF_BYTES)
            - Footprint.array(chunks.length, Footprint.REF_BYTES)
            + Footprint.array(endsLength, 4)
            - Footprint.array(recordEnds.length, 4)
            + callbackArraysBytes(callbacksLength)
            - callbackArraysBytes(callbacks == null ? 0 : callbacks.length);

    // Phase 1: allocate and reserve; nothing of the batch changes.
    byte[][] newChunksArray =
        chunksLength == chunks.length ? chunks : Arrays.copyOf(chunks, chunksLength);
    int[] newEnds =
        endsLength == recordEnds.length ? recordEnds : Arrays.copyOf(recordEnds, endsLength);
    Callback[] newCallbacks = callbacks;
    int[] newCallbackRecords = callbackRecords;
    if (callback != null && callbacksLength != (callbacks == null ? 0 : callbacks.length)) {
      newCallbacks =
          callbacks == null
              ? new Callback[callbacksLength]
              : Arrays.copyOf(callbacks, callbacksLength);
      newCallbackRecords =
          callbacks == null
              ? new int[callbacksLength]
              : Arrays.copyOf(callbackRecords, callbacksLength);
    }
    int pooled = 0;
    long reserved = 0;
    int fresh = 0;
    try {
      while (pooled < newChunks) {
        byte[] c = pool.take();
        if (c == null) {
          break;
        }
        newChunksArray[chunkCount + pooled++] = c;
      }
      long need = allocated + growth - (charged + credit + pooled * chunkCost);
      if (need > 0) {
        if (!budget.tryReserve(need)) {
          unstage(newChunksArray, pooled, 0, budget);
          return need;
        }
        reserved = need;
      }
      for (int i = pooled; i < newChunks; i++) {
        newChunksArray[chunkCount + i] = new byte[chunkSize];
        fresh++;
      }
    } catch (Throwable t) {
      unstage(newChunksArray, pooled, fresh, budget);
      if (reserved > 0) {
        budget.release(reserved);
      }
      throw t;
    }

    // Phase 2: commit; nothing here allocates or throws.
    charged += credit + reserved + pooled * chunkCost;
    allocated += growth;
    chunks = newChunksArray;
    recordEnds = newEnds;
    callbacks = newCallbacks;
    callbackRecords = newCallbackRecords;
    store(src, len, callback);
    return 0;
  }

  /**
   * Copies a record into the chunks (moving into the next one whenever the last is full) and
   * records its end and callback. Allocates nothing: the caller made sure the chunks and arrays
   * have room.
   */
  private void store(byte[] src, int len, Callback callback) {
    int off = 0;
    int remaining = len;
    while (remaining > 0) {
      if (chunkCount == 0 || lastChunkUsed == chunkSize) {
        chunkCount++;
        lastChunkUsed = 0;
      }
      int n = Math.min(remaining, chunkSize - lastChunkUsed);
      System.arraycopy(src, off, chunks[chunkCount - 1], lastChunkUsed, n);
      lastChunkUsed += n;
      off += n;
      remaining -= n;
    }
    size += len;
    recordEnds[count] = size;
    if (callback != null) {
      callbacks[callbackCount] = callback;
      callbackRecords[callbackCount] = count;
      callbackCount++;
    }
    count++;
  }

  private static long callbackArraysBytes(int length) {
    return length == 0
        ? 0
        : Footprint.array(length, Footprint.REF_BYTES) + Footprint.array(length, 4);
  }

  /**
   * Undoes phase 1: staged pooled chunks go back (or their charge is released), fresh ones are
   * dropped.
   */
  private void unstage(byte[][] staged, int pooled, int fresh, MemoryBudget budget) {
    for (int i = 0; i < pooled; i++) {
      byte[] c = staged[chunkCount + i];
      staged[chunkCount + i] = null;
      if (!pool.give(c)) {
        budget.release(pool.chunkCost());
      }
    }
    for (int i = pooled; i < pooled + fresh; i++) {
      staged[chunkCount + i] = null;
    }
  }

  /** Budget bytes held by this batch. */
  long charged() {
    return charged;
  }

  /**
   * After sealing (shard lock held): copies a last chunk less than half full into an array of its
   * exact size, gives the chunk back to the pool, and releases the spare credit to the budget.
   * Skips the copy if memory is short.
   *
   * @return the bytes of charge this batch gave up
   */
  long compact(MemoryBudget budget) {
    long before = charged;
    if (chunkCount > 0
        && lastChunkUsed <= chunkSize / 2
        && chunks[chunkCount - 1].length == chunkSize
        && chunkSize == pool.chunkSize()) {
      byte[] exact = null;
      try {
        exact = Arrays.copyOf(chunks[chunkCount - 1], lastChunkUsed);
      } catch (OutOfMemoryError e) {
        // keep the chunk; it is charged
      }
      if (exact != null) {
        byte[] old = chunks[chunkCount - 1];
        chunks[chunkCount - 1] = exact;
        long exactBytes = Footprint.bytes(lastChunkUsed);
        allocated += exactBytes - pool.chunkCost();
        // Pool the chunk (its charge goes with it) if the exact copy can be charged without
        // waiting; else let the
        // garbage collector have it, and its charge pays for the copy.
        if (budget.tryReserve(exactBytes)) {
          charged += exactBytes;
          if (pool.give(old)) {
            charged -= pool.chunkCost();
          }
        }
      }
    }
    long spare = charged - allocated;
    if (spare > 0) {
      charged -= spare;
      budget.release(spare);
    }
    return before - charged;
  }

  // ---- state transitions ----

  /** OPEN → SEALED. */
  void seal() {
    transition(OPEN, SEALED);
  }

  /**
   * SEALED or RETRY_WAIT → IN_FLIGHT.
   *
   * @return false if the batch was completed meanwhile (deadline or close), or claimed by the
   *     {@link ExpirySpooler}
   */
  boolean tryStartAttempt() {
    while (true) {
      int s = state.get();
      if (s == COMPLETED || s == TIMED_OUT || (s == IN_FLIGHT && expirySpooling)) {
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

  /**
   * IN_FLIGHT → SEALED: close wrote the queued batch to the spool without sending it, and queues it
   * again; false if its deadline took it meanwhile (TIMED_OUT).
   */
  boolean tryReturnToSealed() {
    return state.compareAndSet(IN_FLIGHT, SEALED);
  }

  /** Counts an export attempt; only the send thread holding the batch IN_FLIGHT calls it. */
  void countAttempt() {
    attempts++;
  }

  /** IN_FLIGHT → RETRY_WAIT, due at {@code retryAt}; false if the batch timed out meanwhile. */
  boolean tryAwaitRetry(long retryAt) {
    this.retryAtNanos = retryAt;
    return state.compareAndSet(IN_FLIGHT, RETRY_WAIT);
  }

  /**
   * IN_FLIGHT → COMPLETED by the send thread; false if its deadline or close took it meanwhile
   * (TIMED_OUT).
   */
  boolean tryComplete() {
    return state.compareAndSet(IN_FLIGHT, COMPLETED);
  }

  /**
   * IN_FLIGHT → COMPLETED. @throws IllegalStateException if not in flight (e.g. completed twice)
   */
  void markCompleted() {
    transition(IN_FLIGHT, COMPLETED);
  }

  /**
   * SEALED or RETRY_WAIT → COMPLETED (deadline or close while queued or waiting to retry): the
   * caller gives the outcome and releases the memory.
   *
   * @return false if the batch is in flight, open or already completed
   */
  boolean tryAbort() {
    return state.compareAndSet(SEALED, COMPLETED) || state.compareAndSet(RETRY_WAIT, COMPLETED);
  }

  /**
   * IN_FLIGHT → TIMED_OUT (deadline or close while a send thread holds it): the caller gives the
   * outcome; the send thread releases the memory when it returns ({@link #tryFinishTimedOut}).
   */
  boolean tryTimeOutInFlight() {
    return state.compareAndSet(IN_FLIGHT, TIMED_OUT);
  }

  /** TIMED_OUT → COMPLETED by the send thread that held it; it then releases the memory. */
  boolean tryFinishTimedOut() {
    return state.compareAndSet(TIMED_OUT, COMPLETED);
  }

  private void transition(int from, int to) {
    if (!state.compareAndSet(from, to)) {
      throw new IllegalStateException(
          "illegal batch transition "
              + STATE_NAMES[state.get()]
              + " -> "
              + STATE_NAMES[to]
              + " (expected "
              + STATE_NAMES[from]
              + ")");
    }
  }

  int state() {
    return state.get();
  }

  String stateName() {
    return STATE_NAMES[state.get()];
  }

  // ---- completion ----

  /** Calls every callback with {@code result}; returns the number that threw. */
  int invokeCallbacks(SendResult result, CallbackErrorHandler onError) {
    int failures = 0;
    Callback[] cbs = callbacks;
    int n = callbackCount;
    for (int i = 0; i < n; i++) {
      Callback c = cbs[i];
      cbs[i] = null;
      if (c == null) {
        continue;
      }
      try {
        c.onCompletion(result);
      } catch (Throwable t) {
        failures++;
        try {
          onError.onCallbackError(t);
        } catch (Throwable ignored) {
          // reporting must not stop the other callbacks
        }
      }
    }
    return failures;
  }

  /**
   * Gives the chunks back to the pool (their charge with them) and releases the rest of the charge.
   * Idempotent; call after completion, by the thread that last held the batch.
   *
   * @return the bytes released to the budget and the pool
   */
  long releaseMemory(MemoryBudget budget) {
    if (released) {
      return 0;
    }
    released = true;
    long total = charged;
    charged -= pool.giveAll(chunks, chunkCount) * pool.chunkCost();
    for (int i = 0; i < chunkCount; i++) {
      chunks[i] = null;
    }
    chunkCount = 0;
    recordEnds = null; // the batch may stay referenced by a queue a while; keep it small
    callbackRecords = null;
    if (charged > 0) {
      budget.release(charged);
    }
    charged = 0;
    return total;
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

  boolean isDone() {
    return done.getCount() == 0;
  }

  /** Waits up to {@code nanos} for completion; true if completed. */
  boolean await(long nanos) throws InterruptedException {
    return done.await(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Copies records [from, to) into a new SEALED batch with the same deadlines and their callbacks,
   * stored in one array of the exact size, and charges it to the budget without waiting (a split
   * must not block a send thread; the parent's charge, released right after, covers it). Its
   * attempt count starts at 0: splitting is not a retry.
   */
  ProducerBatch copyRange(int from, int to, MemoryBudget budget) {
    int start = from == 0 ? 0 : recordEnds[from - 1];
    int bytes = recordEnds[to - 1] - start;
    ProducerBatch b =
        new ProducerBatch(
            shardKey,
            pool,
            Math.max(1, bytes),
            createdNanos,
            createdNanos,
            deliveryDeadlineNanos,
            to - from);
    byte[] content = new byte[bytes];
    ArrayWriter w = new ArrayWriter(content);
    try {
      writeRange(start, start + bytes, w);
    } catch (IOException impossible) {
      throw new IllegalStateException(impossible);
    }
    b.chunks[0] = content;
    b.chunkCount = 1;
    b.lastChunkUsed = bytes;
    b.size = bytes;
    for (int i = from; i < to; i++) {
      b.recordEnds[i - from] = recordEnds[i] - start;
    }
    b.count = to - from;
    for (int i = 0; i < callbackCount; i++) {
      int r = callbackRecords[i];
      if (r >= from && r < to && callbacks[i] != null) {
        b.addCallbackFor(r - from, callbacks[i]);
      }
    }
    b.allocated +=
        Footprint.bytes(bytes) + callbackArraysBytes(b.callbacks == null ? 0 : b.callbacks.length);
    budget.forceReserve(b.allocated);
    b.charged = b.allocated;
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
    return "ProducerBatch{shard="
        + shardKey
        + ", records="
        + count
        + ", bytes="
        + size
        + ", state="
        + stateName()
        + ", attempts="
        + attempts
        + "}";
  }

  /** Receives exceptions thrown by user callbacks. */
  interface CallbackErrorHandler {
    void onCallbackError(Throwable t);
  }

  /** Writes into a fixed array. */
  private static final class ArrayWriter extends OutputStream {
    private final byte[] dst;
    private int pos;

    ArrayWriter(byte[] dst) {
      this.dst = dst;
    }

    @Override
    public void write(int b) {
      dst[pos++] = (byte) b;
    }

    @Override
    public void write(byte[] src, int off, int len) {
      System.arraycopy(src, off, dst, pos, len);
      pos += len;
    }
  }
}
