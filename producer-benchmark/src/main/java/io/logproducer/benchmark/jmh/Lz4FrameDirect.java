package io.logproducer.benchmark.jmh;

import java.util.Arrays;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.xxhash.XXHashFactory;

/**
 * A prototype for the producer's lz4 codec: writes the LZ4 frame format (64 KiB independent blocks, no checksums,
 * the same frame {@code Lz4FrameCodec} produces) by compressing each input slice straight into the output array
 * with {@link LZ4Compressor}, instead of through {@code LZ4FrameOutputStream}, which copies every block into its
 * own buffer, zero-fills its 64 KiB output buffer before each block ({@code Arrays.fill} in {@code writeBlock})
 * and copies the result out again, and allocates both buffers per frame. Benchmark-only: it shows what the codec
 * could cost ({@code CodecBenchmark}, codec {@code lz4-direct}). Not thread-safe; one per send thread.
 */
public final class Lz4FrameDirect {

  static final int BLOCK = 64 * 1024;
  private static final int MAGIC = 0x184D2204;
  /** FLG: version 01, block independence. */
  private static final int FLG = 0x60;
  /** BD: block maximum size 64 KiB. */
  private static final int BD = 0x40;
  private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
  private static final byte HC = (byte) ((XXHashFactory.fastestInstance().hash32()
      .hash(new byte[] {(byte) FLG, (byte) BD}, 0, 2, 0) >> 8) & 0xFF);

  private byte[] out = new byte[1 << 20];
  private int size;
  /** Bytes of the current block not yet compressed (input arriving in pieces smaller than a block). */
  private final byte[] pending = new byte[BLOCK];
  private int pendingSize;

  /** Starts a frame, discarding the previous output. */
  public void begin() {
    size = 0;
    pendingSize = 0;
    ensure(7);
    putIntLe(MAGIC);
    out[size++] = (byte) FLG;
    out[size++] = (byte) BD;
    out[size++] = HC;
  }

  /** Adds input; whole 64 KiB slices are compressed in place without copying. */
  public void write(byte[] src, int off, int len) {
    while (len > 0) {
      if (pendingSize == 0 && len >= BLOCK) {
        block(src, off, BLOCK);
        off += BLOCK;
        len -= BLOCK;
        continue;
      }
      int n = Math.min(len, BLOCK - pendingSize);
      System.arraycopy(src, off, pending, pendingSize, n);
      pendingSize += n;
      off += n;
      len -= n;
      if (pendingSize == BLOCK) {
        block(pending, 0, BLOCK);
        pendingSize = 0;
      }
    }
  }

  /** Ends the frame; the frame is {@code array()[0, size())}. */
  public void end() {
    if (pendingSize > 0) {
      block(pending, 0, pendingSize);
      pendingSize = 0;
    }
    ensure(4);
    putIntLe(0);
  }

  public byte[] array() {
    return out;
  }

  public int size() {
    return size;
  }

  private void block(byte[] src, int off, int len) {
    int max = COMPRESSOR.maxCompressedLength(len);
    ensure(4 + max);
    int n = COMPRESSOR.compress(src, off, len, out, size + 4, max);
    if (n >= len) { // incompressible: store
      System.arraycopy(src, off, out, size + 4, len);
      putIntLe(len | 0x80000000);
      size += len;
    } else {
      putIntLe(n);
      size += n;
    }
  }

  private void putIntLe(int v) {
    out[size] = (byte) v;
    out[size + 1] = (byte) (v >>> 8);
    out[size + 2] = (byte) (v >>> 16);
    out[size + 3] = (byte) (v >>> 24);
    size += 4;
  }

  private void ensure(int n) {
    if (size + n > out.length) {
      out = Arrays.copyOf(out, Math.max(size + n, out.length * 2));
    }
  }
}
