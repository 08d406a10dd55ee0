package io.logproducer;

/**
 * A hash index from attribute keys to their positions in a {@link LogRecord.Builder}'s key array:
 * an open-addressing table of {@code position + 1} (0 = empty slot), linear probing, at most half
 * full, so that finding a key costs O(1) expected whatever the attribute count. Keys are never
 * removed one by one (the builder only clears them all), so there are no tombstones. The builder
 * builds one only past {@link #LINEAR_MAX} attributes: below that a scan of the key array is
 * faster. Not thread-safe (one builder's).
 */
final class AttributeIndex {

  /**
   * The attribute count up to which a builder scans its keys instead of indexing them: {@value}. A
   * scan of up to 8 keys (most failing at the first char or at the length) costs less than hashing
   * a key, and records usually have fewer attributes than that.
   */
  static final int LINEAR_MAX = 8;

  private int[] slots;
  private int mask;

  /**
   * Indexes the first {@code count} keys of {@code keys}, which are distinct.
   *
   * @param keys the builder's keys
   * @param count how many of them are in use
   */
  AttributeIndex(String[] keys, int count) {
    int capacity = 32;
    while (capacity < count * 2) {
      capacity <<= 1;
    }
    slots = new int[capacity];
    mask = capacity - 1;
    for (int i = 0; i < count; i++) {
      insert(keys[i], i);
    }
  }

  /**
   * Finds {@code key}.
   *
   * @param key the key, not null
   * @param keys the builder's keys, of which this index covers the first {@code count}
   * @return its position in {@code keys}, or -1 when it is not there
   */
  int find(String key, String[] keys) {
    for (int s = spread(key.hashCode()) & mask; ; s = (s + 1) & mask) {
      int p = slots[s];
      if (p == 0) {
        return -1;
      }
      if (keys[p - 1].equals(key)) {
        return p - 1;
      }
    }
  }

  /**
   * Adds a key that is not in the index yet, growing the table when it would be more than half
   * full.
   *
   * @param key the key, not null
   * @param position its position in the builder's key array
   * @param keys the builder's keys, the new one included
   */
  void add(String key, int position, String[] keys) {
    if ((position + 1) * 2 > slots.length) {
      int[] old = slots;
      slots = new int[old.length * 2];
      mask = slots.length - 1;
      for (int p : old) {
        if (p != 0) {
          insert(keys[p - 1], p - 1);
        }
      }
    }
    insert(key, position);
  }

  private void insert(String key, int position) {
    int s = spread(key.hashCode()) & mask;
    while (slots[s] != 0) {
      s = (s + 1) & mask;
    }
    slots[s] = position + 1;
  }

  /** The hash with its high bits folded in, as {@code HashMap} does, for a power-of-two table. */
  private static int spread(int h) {
    return h ^ (h >>> 16);
  }
}
