package io.logproducer.benchmark.soak;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * A concurrent set of non-negative ids below 2^40, as a bitset in chunks of {@value #CHUNK_IDS} ids
 * allocated on first use (or up front, so that a soak's heap does not grow with the ids it tracks).
 * The soak uses one per application thread on each side: which records got an outcome, which were
 * delivered, which the receiver saw.
 */
final class SoakIdSet {

  static final int CHUNK_SHIFT = 20;
  static final int CHUNK_IDS = 1 << CHUNK_SHIFT;
  private static final int CHUNK_LONGS = CHUNK_IDS / 64;
  private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

  private static final SoakIdSet NONE = new SoakIdSet(0);

  private volatile long[][] chunks;

  /** Bytes of chunks allocated after construction. */
  private volatile long grownBytes;

  /** An empty set with room for ids {@code [0, preallocateIds)} allocated now. */
  SoakIdSet(long preallocateIds) {
    int n =
        (int)
            Math.min(
                Integer.MAX_VALUE, (Math.max(0, preallocateIds) + CHUNK_IDS - 1) >>> CHUNK_SHIFT);
    long[][] c = new long[Math.max(16, n)][];
    for (int i = 0; i < n; i++) {
      c[i] = new long[CHUNK_LONGS];
    }
    chunks = c;
  }

  /** Adds {@code id}; true if it was not in the set. */
  boolean add(long id) {
    long[] c = chunk(id, true);
    int bit = (int) (id & (CHUNK_IDS - 1));
    long mask = 1L << (bit & 63);
    long prev = (long) LONGS.getAndBitwiseOr(c, bit >>> 6, mask);
    return (prev & mask) == 0;
  }

  boolean contains(long id) {
    long[] c = chunk(id, false);
    if (c == null) {
      return false;
    }
    int bit = (int) (id & (CHUNK_IDS - 1));
    return ((long) LONGS.getVolatile(c, bit >>> 6) & (1L << (bit & 63))) != 0;
  }

  /** Number of ids in {@code [from, to)}. Not atomic with concurrent adds. */
  long count(long from, long to) {
    return countNotIn(NONE, from, to);
  }

  /** Ids in {@code [from, to)} that are in this set and not in {@code other}. */
  long countNotIn(SoakIdSet other, long from, long to) {
    long n = 0;
    for (long id = Math.max(0, from); id < to; id++) {
      long[] c = chunk(id, false);
      if (c == null) {
        id = (((id >>> CHUNK_SHIFT) + 1) << CHUNK_SHIFT) - 1;
        continue;
      }
      int bit = (int) (id & (CHUNK_IDS - 1));
      long word = (long) LONGS.getVolatile(c, bit >>> 6);
      if ((bit & 63) == 0 && to - id >= 64) {
        if (word != 0) {
          long[] o = other.chunk(id, false);
          long ow = o == null ? 0 : (long) LONGS.getVolatile(o, bit >>> 6);
          n += Long.bitCount(word & ~ow);
        }
        id += 63;
      } else if ((word & (1L << (bit & 63))) != 0 && !other.contains(id)) {
        n++;
      }
    }
    return n;
  }

  /** One past the highest id that may be in the set (a chunk boundary). */
  long limit() {
    long[][] c = chunks;
    for (int i = c.length - 1; i >= 0; i--) {
      if (c[i] != null) {
        return (long) (i + 1) << CHUNK_SHIFT;
      }
    }
    return 0;
  }

  /** Bytes of chunks allocated after construction (heap the tracking grew by). */
  long grownBytes() {
    return grownBytes;
  }

  /** Bytes of all chunks. */
  long allocatedBytes() {
    long n = 0;
    for (long[] c : chunks) {
      if (c != null) {
        n += (long) c.length * 8;
      }
    }
    return n;
  }

  private long[] chunk(long id, boolean create) {
    if (id < 0 || id >= 1L << 40) {
      throw new IllegalArgumentException("id out of range: " + id);
    }
    int index = (int) (id >>> CHUNK_SHIFT);
    long[][] c = chunks;
    long[] chunk = index < c.length ? c[index] : null;
    if (chunk != null || !create) {
      return chunk;
    }
    synchronized (this) {
      c = chunks;
      if (index >= c.length) {
        c = Arrays.copyOf(c, Math.max(index + 1, c.length * 2));
      }
      if (c[index] == null) {
        c[index] = new long[CHUNK_LONGS];
        grownBytes += CHUNK_LONGS * 8L;
      }
      chunks = c;
      return c[index];
    }
  }

  /** Writes {@code sets} to {@code file}: their number, then each set's chunks (index, words). */
  static void writeAll(Path file, SoakIdSet[] sets) throws IOException {
    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16))) {
      out.writeInt(sets.length);
      for (SoakIdSet set : sets) {
        long[][] c = set.chunks;
        out.writeInt((int) Arrays.stream(c).filter(Objects::nonNull).count());
        for (int i = 0; i < c.length; i++) {
          if (c[i] != null) {
            out.writeInt(i);
            for (int w = 0; w < CHUNK_LONGS; w++) {
              out.writeLong((long) LONGS.getVolatile(c[i], w));
            }
          }
        }
      }
    }
  }

  /** Reads what {@link #writeAll} wrote, padded with empty sets to at least {@code min} sets. */
  static SoakIdSet[] readAll(Path file, int min) throws IOException {
    try (DataInputStream in =
        new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
      int n = in.readInt();
      SoakIdSet[] sets = new SoakIdSet[Math.max(n, min)];
      for (int i = 0; i < sets.length; i++) {
        sets[i] = new SoakIdSet(0);
        for (int k = i < n ? in.readInt() : 0; k > 0; k--) {
          long[] chunk = sets[i].chunk((long) in.readInt() << CHUNK_SHIFT, true);
          for (int w = 0; w < CHUNK_LONGS; w++) {
            chunk[w] = in.readLong();
          }
        }
      }
      return sets;
    }
  }
}
