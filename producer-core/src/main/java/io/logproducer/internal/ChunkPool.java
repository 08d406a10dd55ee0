package io.logproducer.internal;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Recycles the fixed-size byte chunks that open batches store encoded records in, inside the memory
 * budget: a pooled chunk stays charged to the {@link MemoryBudget} (it is memory the producer
 * holds), so taking one moves its charge to the batch and giving one back moves the charge to the
 * pool, without touching the budget. As in Kafka's {@code BufferPool}, a sender waiting for budget
 * is woken when a chunk is pooled and reuses it rather than waiting for bytes; when bytes rather
 * than chunks are short (a bookkeeping array must grow), {@link #drain()} lets the garbage
 * collector have every pooled chunk and releases their charge. Thread-safe; never allocates after
 * construction.
 */
class ChunkPool {

  /**
   * Guards this object's state: a {@link ReentrantLock}, not a monitor, since senders on virtual
   * threads take it (a virtual thread blocked on a monitor pins its carrier on Java 21).
   */
  private final ReentrantLock lock = new ReentrantLock();

  /** Most chunks kept at once (1 GiB of 64 KiB chunks): bounds the slot array, not the memory. */
  private static final int MAX_SLOTS = 16_384;

  private final int chunkSize;
  private final long chunkCost;
  private final MemoryBudget budget;

  /** Guarded by {@link #lock}. */
  private final byte[][] free;

  /** Guarded by {@link #lock}. */
  private int freeCount;

  /** Guarded by {@link #lock}. */
  private boolean closed;

  /**
   * @param chunkSize bytes per chunk
   * @param budget the budget that pooled chunks stay charged to
   */
  ChunkPool(int chunkSize, MemoryBudget budget) {
    this.chunkSize = chunkSize;
    this.chunkCost = Footprint.bytes(chunkSize);
    this.budget = budget;
    this.free = new byte[(int) Math.max(1, Math.min(MAX_SLOTS, budget.total() / chunkCost))][];
  }

  /**
   * A chunk size for batches of {@code batchSizeInBytes} under a budget of {@code
   * totalSizeInBytes}: a power of two in [256 B, 64 KiB], at most a sixteenth of the budget, so
   * that partly filled chunks of open batches cannot hold the budget hostage.
   */
  static int chunkSizeFor(int batchSizeInBytes, long totalSizeInBytes) {
    int size = Integer.highestOneBit(Math.max(1, batchSizeInBytes - 1)) << 1;
    long cap = Long.highestOneBit(Math.max(1, totalSizeInBytes / 16));
    return (int) Math.max(256, Math.min(Math.min(65_536, size), cap));
  }

  int chunkSize() {
    return chunkSize;
  }

  /** Heap bytes one chunk is charged: {@link Footprint#bytes}{@code (chunkSize)}. */
  long chunkCost() {
    return chunkCost;
  }

  /** A pooled chunk, whose charge passes to the caller, or null when none is pooled. */
  byte[] take() {
    lock.lock();
    try {
      if (freeCount == 0) {
        return null;
      }
      byte[] c = free[--freeCount];
      free[freeCount] = null;
      return c;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Offers a chunk back with its charge. Returns true if the pool kept it (the charge passed to the
   * pool; a sender waiting for budget is woken to reuse it); false if not (the wrong size, the pool
   * full or closed): the caller still holds the charge and lets the chunk go.
   */
  boolean give(byte[] chunk) {
    lock.lock();
    try {
      if (closed || chunk.length != chunkSize || freeCount == free.length) {
        return false;
      }
      free[freeCount++] = chunk;
    } finally {
      lock.unlock();
    }
    budget.wakeWaiters();
    return true;
  }

  /** Whether a chunk is pooled now. */
  boolean hasFree() {
    lock.lock();
    try {
      return freeCount > 0;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Offers {@code chunks[0, n)} back under one lock (a completed batch returns all its chunks at
   * once); each slot it keeps is set to null. Returns how many it kept: their charge passed to the
   * pool.
   */
  int giveAll(byte[][] chunks, int n) {
    int kept = 0;
    lock.lock();
    try {
      if (closed) {
        return 0;
      }
      for (int i = 0; i < n && freeCount < free.length; i++) {
        byte[] c = chunks[i];
        if (c != null && c.length == chunkSize) {
          free[freeCount++] = c;
          chunks[i] = null;
          kept++;
        }
      }
    } finally {
      lock.unlock();
    }
    if (kept > 0) {
      budget.wakeWaiters();
    }
    return kept;
  }

  /**
   * Drops every pooled chunk and releases their charge to the budget; returns the bytes released.
   */
  long drain() {
    int n;
    lock.lock();
    try {
      n = freeCount;
      for (int i = 0; i < n; i++) {
        free[i] = null;
      }
      freeCount = 0;
    } finally {
      lock.unlock();
    }
    long bytes = n * chunkCost;
    if (bytes > 0) {
      budget.release(bytes);
    }
    return bytes;
  }

  /** Drains and keeps nothing from now on (at close: a closed producer must not keep its pool). */
  void close() {
    lock.lock();
    try {
      closed = true;
    } finally {
      lock.unlock();
    }
    drain();
  }

  int freeCount() {

    lock.lock();

    try {
      return freeCount;
    } finally {

      lock.unlock();
    }
  }

  /** Bytes charged for pooled chunks now. */
  long pooledBytes() {
    lock.lock();
    try {
      return freeCount * chunkCost;
    } finally {
      lock.unlock();
    }
  }
}
