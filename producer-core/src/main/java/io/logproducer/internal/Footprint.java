package io.logproducer.internal;

/**
 * The heap cost model the memory budget charges by: what an array or a batch's bookkeeping really
 * occupies, in bytes, rounded up so that the budget over-counts rather than under-counts. It
 * assumes 16-byte array headers, 8-byte references and 8-byte object alignment (a 64-bit JVM
 * without compressed oops; with them, real use is smaller).
 */
final class Footprint {

  /**
   * Bytes of a batch's fixed objects: the batch, its state, latch and child counters, and its queue
   * links.
   */
  static final int BATCH_BYTES = 512;

  /** Bytes of one reference. */
  static final int REF_BYTES = 8;

  private static final int ARRAY_HEADER_BYTES = 16;

  private Footprint() {}

  /** Heap bytes of an array of {@code length} elements of {@code elementBytes} each. */
  static long array(int length, int elementBytes) {
    return align(ARRAY_HEADER_BYTES + (long) length * elementBytes);
  }

  /** Heap bytes of a {@code byte[]} of {@code length}. */
  static long bytes(int length) {
    return array(length, 1);
  }

  private static long align(long n) {
    return (n + 7) & ~7L;
  }
}
