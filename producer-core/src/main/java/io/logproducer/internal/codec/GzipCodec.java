package io.logproducer.internal.codec;

import io.logproducer.Compression;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/** gzip (RFC 1952) with a configurable deflate level, default {@value #DEFAULT_LEVEL}. */
final class GzipCodec implements Codec {

  static final int DEFAULT_LEVEL = 1;

  private final int level;

  GzipCodec(int level) {
    if (level < 0 || level > 9) {
      throw new IllegalArgumentException("gzip level must be in [0, 9], was " + level);
    }
    this.level = level == 0 ? DEFAULT_LEVEL : level;
  }

  @Override
  public Compression compression() {
    return Compression.GZIP;
  }

  @Override
  public OutputStream compress(OutputStream sink) throws IOException {
    GZIPOutputStream gz =
        new GZIPOutputStream(new NonClosing(sink), 64 * 1024) {
          {
            def.setLevel(level);
          }
        };
    return gz;
  }

  @Override
  public InputStream decompress(InputStream source) throws IOException {
    return new GZIPInputStream(source, 64 * 1024);
  }

  int level() {
    return level;
  }

  /** Keeps {@code close()} of the compressing stream from closing the caller's sink. */
  static final class NonClosing extends FilterOutputStream {
    NonClosing(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      out.flush();
    }
  }
}
