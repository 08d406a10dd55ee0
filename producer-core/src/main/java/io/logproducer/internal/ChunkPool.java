package io.logproducer.internal;

/**
 * Recycles the fixed-size byte chunks that batches store encoded records in. Holds at most {@code maxPooled}
 * free chunks; beyond that, returned chunks are left to the garbage collector. Because a chunk is only ever
 * allocated when none is free, the chunks alive at once never exceed the peak number in use, which the memory
 * budget bounds (plus one partly filled chunk per open batch). Thread-safe.
 */
final class ChunkPool {

  private final int chunkSize;
  /** Guarded by this. */
  private final byte[][] free;
  /** Guarded by this. */
  private int freeCount;

  ChunkPool(int chunkSize, int maxPooled) {
    this.chunkSize = chunkSize;
    this.free = new byte[Math.max(0, maxPooled)][];
  }

  /** A chunk size for batches of {@code batchSizeInBytes}: a power of two in [4 KiB, 64 KiB]. */
  static int chunkSizeFor(int batchSizeInBytes) {
    int size = Integer.highestOneBit(Math.max(1, batchSizeInBytes - 1)) << 1;
    return Math.max(4096, Math.min(65536, size));
  }

  int chunkSize() {
    return chunkSize;
  }

  byte[] take() {
    synchronized (this) {
      if (freeCount > 0) {
        byte[] c = free[--freeCount];
        free[freeCount] = null;
        return c;
      }
    }
    return new byte[chunkSize];
  }

  void give(byte[] chunk) {
    synchronized (this) {
      if (freeCount < free.length) {
        free[freeCount++] = chunk;
      }
    }
  }

  synchronized int freeCount() {
    return freeCount;
  }
}
