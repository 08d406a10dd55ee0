package io.logproducer.otlp.internal;

/**
 * OTLP shard keys: a stripe chosen from the calling thread ({@code thread id % stripes}), so that
 * application threads spread over several open batches instead of contending for one lock. Keys are
 * precomputed {@link Integer}s: {@link #forCurrentThread()} does not allocate. Immutable,
 * thread-safe.
 */
public final class Stripes {

  private final Integer[] keys;

  /**
   * @param count number of stripes, at least 1
   */
  public Stripes(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("stripes must be >= 1, was " + count);
    }
    keys = new Integer[count];
    for (int i = 0; i < count; i++) {
      keys[i] = Integer.valueOf(i);
    }
  }

  /** The calling thread's stripe key. */
  @SuppressWarnings("deprecation") // Thread.getId(): threadId() needs Java 19; this is Java 8 code
  public Integer forCurrentThread() {
    long id = Thread.currentThread().getId();
    return keys[(int) ((id & Long.MAX_VALUE) % keys.length)];
  }

  public int count() {
    return keys.length;
  }
}
