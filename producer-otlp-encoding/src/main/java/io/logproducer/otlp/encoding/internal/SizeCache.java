package io.logproducer.otlp.encoding.internal;

import java.lang.ref.WeakReference;
import java.util.Arrays;

/**
 * The nested sizes of one message being encoded, in the order the write pass needs them (pre-order): the size
 * pass {@link #reserve() reserves} a slot before it measures a nested message and {@link #set fills} it after, and
 * {@link #push pushes} string lengths; the write pass reads them back with {@link #next()}. So every nested size
 * and every string's UTF-8 length is computed once.
 *
 * <p>Not thread-safe: one instance per thread ({@link #forThread()}), reused for every record. A thread's
 * {@code ThreadLocalMap} holds only a JDK {@link WeakReference} to its cache (a plain {@link ThreadLocal}, no
 * subclass, no initial value): application threads then reference no class of this library, so a redeployed web
 * application's class loader can be collected, and a cache is collectable at any GC between two uses (it is simply
 * made anew).
 */
final class SizeCache {

  private static final int INITIAL_SLOTS = 64;
  /** A cache grown above this by one huge record is replaced after use. */
  private static final int KEEP_SLOTS = 64 * 1024;
  private static final ThreadLocal<WeakReference<SizeCache>> CACHES = new ThreadLocal<WeakReference<SizeCache>>();

  private int[] slots = new int[INITIAL_SLOTS];
  /** Slots written by the size pass. */
  private int count;
  /** Next slot the write pass reads. */
  private int readIndex;

  /** The calling thread's cache, emptied. */
  static SizeCache forThread() {
    WeakReference<SizeCache> ref = CACHES.get();
    SizeCache c = ref != null ? ref.get() : null;
    if (c == null) {
      c = new SizeCache();
      CACHES.set(new WeakReference<SizeCache>(c));
      return c;
    }
    c.clear();
    return c;
  }

  /** The thread-local holding the caches; for tests. */
  static ThreadLocal<WeakReference<SizeCache>> threadLocal() {
    return CACHES;
  }

  void clear() {
    if (slots.length > KEEP_SLOTS) {
      slots = new int[INITIAL_SLOTS];
    }
    count = 0;
    readIndex = 0;
  }

  /** Reserves the next slot for a size known later; returns its index. */
  int reserve() {
    if (count == slots.length) {
      slots = Arrays.copyOf(slots, count * 2);
    }
    return count++;
  }

  void set(int slot, int size) {
    slots[slot] = size;
  }

  void push(int size) {
    set(reserve(), size);
  }

  /** The next size, in the order they were reserved. */
  int next() {
    if (readIndex >= count) {
      throw new IllegalStateException("size cache underflow at " + readIndex + ": size and write passes disagree");
    }
    return slots[readIndex++];
  }

  /** Whether the write pass read exactly what the size pass wrote. */
  boolean fullyRead() {
    return readIndex == count;
  }
}
