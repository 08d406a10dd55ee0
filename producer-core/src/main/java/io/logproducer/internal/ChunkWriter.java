package io.logproducer.internal;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A reusable, growable, unsynchronized byte sink whose backing array is exposed: the send threads' request body
 * buffer. Not thread-safe; each send thread owns one.
 */
final class ChunkWriter extends OutputStream {

  private byte[] buf = new byte[8192];
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
      buf = new byte[8192];
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
      buf = Arrays.copyOf(buf, Math.max(need, buf.length * 2));
    }
  }
}
