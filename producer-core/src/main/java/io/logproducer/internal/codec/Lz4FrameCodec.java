package io.logproducer.internal.codec;

import io.logproducer.Compression;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.ref.WeakReference;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.xxhash.XXHashFactory;

/**
 * LZ4 frame format (the format the OpenTelemetry Collector accepts as {@code Content-Encoding:
 * lz4}; the raw block format is refused with "bad magic number"): 64 KiB independent blocks, no
 * checksums, fast compressor.
 *
 * <p>The frame is written here, around lz4-java's block compressor, rather than with its {@code
 * LZ4FrameOutputStream}: that class zero-fills its 64 KiB output buffer before every block and
 * allocates two 64 KiB buffers per frame. On a busy 2-core machine the fill can stay interpreted
 * for seconds after start-up and cut throughput tenfold (docs/PERFORMANCE.md, "Producer problems
 * found"). Decompression uses lz4-java's {@link LZ4FrameInputStream}, which also verifies the
 * format written here.
 */
final class Lz4FrameCodec implements Codec {

  /** Block maximum size: 64 KiB (BD byte 0x40). */
  static final int BLOCK_SIZE = 64 * 1024;

  private static final int MAGIC = 0x184D2204;

  /**
   * FLG: version 01, block independence; no block checksum, no content size, no content checksum.
   */
  private static final int FLG = 0x60;

  /** BD: block maximum size 64 KiB. */
  private static final int BD = 0x40;

  private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();

  /** Header checksum: second byte of xxHash32 of the descriptor (FLG, BD), seed 0. */
  private static final int HC =
      (XXHashFactory.fastestInstance().hash32().hash(new byte[] {(byte) FLG, (byte) BD}, 0, 2, 0)
              >> 8)
          & 0xFF;

  private static final int MAX_BLOCK_OUT = 4 + COMPRESSOR.maxCompressedLength(BLOCK_SIZE);

  /**
   * Per-thread [pending input, compressed output]: a send thread compresses one frame at a time.
   * Weakly held, so a thread that compressed once (the constructor's probe runs on an application
   * thread) keeps nothing after GC.
   */
  private static final ThreadLocal<WeakReference<byte[][]>> BUFFERS = new ThreadLocal<>();

  @Override
  public Compression compression() {
    return Compression.LZ4;
  }

  /** A frame writer; at most one may be open per thread at a time. */
  @Override
  public OutputStream compress(OutputStream sink) throws IOException {
    WeakReference<byte[][]> ref = BUFFERS.get();
    byte[][] buffers = ref == null ? null : ref.get();
    if (buffers == null) {
      buffers = new byte[][] {new byte[BLOCK_SIZE], new byte[MAX_BLOCK_OUT]};
      BUFFERS.set(new WeakReference<>(buffers));
    }
    return new FrameWriter(sink, buffers);
  }

  @Override
  public InputStream decompress(InputStream source) throws IOException {
    return new LZ4FrameInputStream(source);
  }

  /** Writes one LZ4 frame to the sink; whole 64 KiB input slices are compressed without copying. */
  private static final class FrameWriter extends OutputStream {
    private final OutputStream sink;
    private final byte[] pending;
    private final byte[] out;
    private int pendingSize;
    private boolean closed;

    FrameWriter(OutputStream sink, byte[][] buffers) throws IOException {
      this.sink = sink;
      this.pending = buffers[0];
      this.out = buffers[1];
      putIntLe(out, 0, MAGIC);
      out[4] = (byte) FLG;
      out[5] = (byte) BD;
      out[6] = (byte) HC;
      sink.write(out, 0, 7);
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] src, int off, int len) throws IOException {
      if (closed) {
        throw new IOException("LZ4 frame already finished");
      }
      while (len > 0) {
        if (pendingSize == 0 && len >= BLOCK_SIZE) {
          block(src, off, BLOCK_SIZE);
          off += BLOCK_SIZE;
          len -= BLOCK_SIZE;
          continue;
        }
        int n = Math.min(len, BLOCK_SIZE - pendingSize);
        System.arraycopy(src, off, pending, pendingSize, n);
        pendingSize += n;
        off += n;
        len -= n;
        if (pendingSize == BLOCK_SIZE) {
          block(pending, 0, BLOCK_SIZE);
          pendingSize = 0;
        }
      }
    }

    private void block(byte[] src, int off, int len) throws IOException {
      int n = COMPRESSOR.compress(src, off, len, out, 4, out.length - 4);
      if (n >= len) { // incompressible: stored, high bit of the size set
        putIntLe(out, 0, len | 0x80000000);
        sink.write(out, 0, 4);
        sink.write(src, off, len);
      } else {
        putIntLe(out, 0, n);
        sink.write(out, 0, 4 + n);
      }
    }

    /** Compresses what is pending and writes the end mark; does not close the sink. */
    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      if (pendingSize > 0) {
        block(pending, 0, pendingSize);
        pendingSize = 0;
      }
      putIntLe(out, 0, 0);
      sink.write(out, 0, 4);
      sink.flush();
      closed = true;
    }

    private static void putIntLe(byte[] b, int at, int v) {
      b[at] = (byte) v;
      b[at + 1] = (byte) (v >>> 8);
      b[at + 2] = (byte) (v >>> 16);
      b[at + 3] = (byte) (v >>> 24);
    }
  }
}
