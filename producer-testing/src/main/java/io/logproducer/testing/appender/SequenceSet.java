package io.logproducer.testing.appender;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A set of sequence numbers in {@code [0, capacity)}, kept as a bit set (capacity / 8 bytes), that
 * counts what does not belong: a number added a second time ({@link #duplicates()}) and a number
 * out of range ({@link #outOfRange()}). Tests use it to check "every event logged reached the
 * receiver exactly once" without keeping the events. Thread-safe and lock-free.
 */
public final class SequenceSet {

  private final AtomicLongArray bits;
  private final long capacity;
  private final AtomicLong duplicates = new AtomicLong();
  private final AtomicLong outOfRange = new AtomicLong();

  /**
   * An empty set.
   *
   * @param capacity one more than the largest number it can hold, at least 1, at most 2^37
   * @throws IllegalArgumentException if {@code capacity} is out of range
   */
  public SequenceSet(long capacity) {
    if (capacity < 1 || capacity > (1L << 37)) {
      throw new IllegalArgumentException("capacity must be in [1, 2^37], was " + capacity);
    }
    this.capacity = capacity;
    this.bits = new AtomicLongArray((int) ((capacity + 63) / 64));
  }

  /**
   * Adds {@code seq}; a number already present counts as a duplicate, one outside {@code [0,
   * capacity)} as out of range (neither changes the set).
   *
   * @param seq the number
   */
  public void add(long seq) {
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

  /**
   * {@return whether {@code seq} is in the set}
   *
   * @param seq the number
   */
  public boolean contains(long seq) {
    return seq >= 0 && seq < capacity && (bits.get((int) (seq >>> 6)) & (1L << (seq & 63))) != 0;
  }

  /** {@return how many distinct numbers the set holds} O(capacity / 64). */
  public long count() {
    long n = 0;
    for (int i = 0; i < bits.length(); i++) {
      n += Long.bitCount(bits.get(i));
    }
    return n;
  }

  /**
   * {@return how many numbers of this set {@code other} lacks}
   *
   * @param other a set of the same capacity
   * @throws IllegalArgumentException if the capacities differ
   */
  public long missingFrom(SequenceSet other) {
    if (other.capacity != capacity) {
      throw new IllegalArgumentException(
          "capacities differ: " + capacity + " and " + other.capacity);
    }
    long n = 0;
    for (int i = 0; i < bits.length(); i++) {
      n += Long.bitCount(bits.get(i) & ~other.bits.get(i));
    }
    return n;
  }

  /** {@return how many times a number already present was added again} */
  public long duplicates() {
    return duplicates.get();
  }

  /** {@return how many numbers outside {@code [0, capacity)} were added} */
  public long outOfRange() {
    return outOfRange.get();
  }
}
