package io.logproducer.internal;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A reusable, growable, unsynchronized byte sink whose backing array is exposed: the send threads'
 * request body buffer. Not thread-safe; each send thread owns one.
 */
final class ChunkWriter extends OutputStream {

  private static final int INITIAL_BYTES = 8192;

  /**
   * The most this buffer keeps between uses; it grows no further than that while requests fit in
   * it.
   */
  private final int keepBytes;

  private byte[] buf = new byte[INITIAL_BYTES];
  private int size;

  /**
   * @param keepBytes the most kept between uses, in bytes (see {@link Sender#bodyKeepBytes})
   */
  ChunkWriter(int keepBytes) {
    this.keepBytes = Math.max(INITIAL_BYTES, keepBytes);
  }

  /** A writer that keeps up to 64 MiB. */
  ChunkWriter() {
    this(64 << 20);
  }

  void reset() {
    size = 0;
  }

  byte[] array() {
    return buf;
  }

  int size() {
    return size;
  }

  int capacity() {
    return buf.length;
  }

  /** Drops the backing array for a small one if it grew above {@code limit} bytes. */
  void trimTo(int limit) {
    if (buf.length > limit) {
      buf = new byte[INITIAL_BYTES];
    }
    size = 0;
  }

  @Override
  public void write(int b) {
    ensure(1);
    buf[size++] = (byte) b;
  }

  @Override
  public void write(byte[] src, int off, int len) {
    ensure(len);
    System.arraycopy(src, off, buf, size, len);
    size += len;
  }

  private void ensure(int n) {
    int need = size + n;
    if (need > buf.length) {
      buf = Arrays.copyOf(buf, capacityFor(need, buf.length, keepBytes));
    }
  }

  /**
   * The next capacity for {@code need} bytes: doubling, but never past {@code keep} while the need
   * fits in it (so a buffer that will be kept is not grown beyond what is kept), and exactly {@code
   * need} beyond it (such a buffer is dropped after use anyway).
   */
  static int capacityFor(int need, int current, int keep) {
    if (need > keep) {
      return need;
    }
    long doubled = Math.max((long) need, (long) current << 1);
    return (int) Math.min(doubled, keep);
  }
}
