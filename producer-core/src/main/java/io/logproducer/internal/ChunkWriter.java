package io.logproducer.internal;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A reusable, growable, unsynchronized byte sink whose backing array is exposed: the send threads' request body
 * buffer. Not thread-safe; each send thread owns one.
 */
final class ChunkWriter extends OutputStream {

  private static final int INITIAL_BYTES = 8192 - 16;

  private byte[] buf = new byte[INITIAL_BYTES];
  private int size;

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
      buf = Arrays.copyOf(buf, capacityFor(need));
    }
  }

  /**
   * A capacity of at least {@code need} whose array, with its 16-byte header, is a power of two in size: such an
   * array fills whole G1 regions when it is humongous, instead of spilling 16 bytes into one more region.
   */
  static int capacityFor(int need) {
    long wanted = Math.max((long) need + 16, (long) buf0Length() + 16);
    long pow2 = Long.highestOneBit(wanted - 1) << 1;
    return (int) Math.min(Integer.MAX_VALUE - 8, pow2 - 16);
  }

  private static int buf0Length() {
    return INITIAL_BYTES;
  }
}
