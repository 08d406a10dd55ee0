package io.logproducer.logback;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A thread-safe set of sequence numbers in [0, capacity), as a bit set; counts numbers added twice.
 */
final class SeqSet {

  private final AtomicLongArray bits;
  private final long capacity;
  private final AtomicLong duplicates = new AtomicLong();
  private final AtomicLong outOfRange = new AtomicLong();

  SeqSet(long capacity) {
    this.capacity = capacity;
    this.bits = new AtomicLongArray((int) ((capacity + 63) / 64));
  }

  void add(long seq) {
    if (seq < 0 || seq >= capacity) {
      outOfRange.incrementAndGet();
      return;
    }
    int i = (int) (seq >>> 6);
    long mask = 1L << (seq & 63);
    long old;
    do {
      old = bits.get(i);
      if ((old & mask) != 0) {
        duplicates.incrementAndGet();
        return;
      }
    } while (!bits.compareAndSet(i, old, old | mask));
  }

  long count() {
    long n = 0;
    for (int i = 0; i < bits.length(); i++) {
      n += Long.bitCount(bits.get(i));
    }
    return n;
  }

  /** {@return how many numbers of this set {@code other} lacks} */
  long missingFrom(SeqSet other) {
    long n = 0;
    for (int i = 0; i < bits.length(); i++) {
      n += Long.bitCount(bits.get(i) & ~other.bits.get(i));
    }
    return n;
  }

  long duplicates() {
    return duplicates.get();
  }

  long outOfRange() {
    return outOfRange.get();
  }
}
