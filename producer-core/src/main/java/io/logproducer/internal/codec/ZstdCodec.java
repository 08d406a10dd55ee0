package io.logproducer.internal.codec;

import com.github.luben.zstd.RecyclingBufferPool;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import io.logproducer.Compression;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * Zstandard frames (RFC 8878), level 1–22, default {@value #DEFAULT_LEVEL}; native code via
 * zstd-jni.
 */
final class ZstdCodec implements Codec {

  static final int DEFAULT_LEVEL = 1;

  private final int level;

  ZstdCodec(int level) {
    if (level < 0 || level > 22) {
      throw new IllegalArgumentException("zstd level must be in [0, 22], was " + level);
    }
    this.level = level == 0 ? DEFAULT_LEVEL : level;
  }

  @Override
  public Compression compression() {
    return Compression.ZSTD;
  }

  @Override
  public OutputStream compress(OutputStream sink) throws IOException {
    ZstdOutputStreamNoFinalizer out =
        new ZstdOutputStreamNoFinalizer(
            new GzipCodec.NonClosing(sink), RecyclingBufferPool.INSTANCE);
    out.setLevel(level);
    out.setChecksum(false);
    return out;
  }

  @Override
  public InputStream decompress(InputStream source) throws IOException {
    return new ZstdInputStreamNoFinalizer(source, RecyclingBufferPool.INSTANCE);
  }

  int level() {
    return level;
  }
}
