package io.logproducer.internal.codec;

import io.logproducer.Compression;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * One compression format, as streams: the send threads compress request bodies through {@link
 * #compress}, and receivers and tests decompress with {@link #decompress}. Implementations are
 * thread-safe; the streams they return are not.
 */
public interface Codec {

  /** The format. */
  Compression compression();

  /**
   * A stream that compresses into {@code sink}; closing it finishes the frame but does not close
   * {@code sink}.
   */
  OutputStream compress(OutputStream sink) throws IOException;

  /** A stream of the decompressed content of {@code source}. */
  InputStream decompress(InputStream source) throws IOException;

  /**
   * The codec for {@code compression}.
   *
   * @param level gzip 1–9 or zstd 1–22; 0 for the default
   * @throws IllegalStateException if the codec's library (lz4-java, zstd-jni) is not on the
   *     classpath
   */
  static Codec of(Compression compression, int level) {
    switch (compression) {
      case NONE:
        return IdentityCodec.INSTANCE;
      case GZIP:
        return new GzipCodec(level);
      case LZ4:
        requireClass("net.jpountz.lz4.LZ4FrameOutputStream", "at.yawk.lz4:lz4-java", compression);
        return new Lz4FrameCodec();
      case ZSTD:
        requireClass(
            "com.github.luben.zstd.ZstdOutputStreamNoFinalizer",
            "com.github.luben:zstd-jni",
            compression);
        return new ZstdCodec(level);
      default:
        throw new IllegalArgumentException("unknown compression " + compression);
    }
  }

  /**
   * {@link #of} after proving the codec works here: it compresses and decompresses a few bytes,
   * which loads a native library (zstd-jni, lz4-java) now rather than on the first batch. Used by
   * the producer's constructor.
   *
   * @throws IllegalStateException if the codec's library is missing or cannot load (e.g. zstd-jni
   *     cannot unpack its native library because the temporary directory is not writable)
   */
  static Codec loaded(Compression compression, int level) {
    Codec codec = of(compression, level);
    byte[] probe = "logproducer codec probe".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    try {
      java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
      try (OutputStream out = codec.compress(sink)) {
        out.write(probe);
      }
      java.io.ByteArrayOutputStream back = new java.io.ByteArrayOutputStream();
      try (InputStream in =
          codec.decompress(new java.io.ByteArrayInputStream(sink.toByteArray()))) {
        byte[] buf = new byte[64];
        int n;
        while ((n = in.read(buf)) > 0) {
          back.write(buf, 0, n);
        }
      }
      if (!java.util.Arrays.equals(probe, back.toByteArray())) {
        throw new IllegalStateException("compression " + compression + " does not round-trip");
      }
    } catch (IOException | RuntimeException | LinkageError e) {
      throw new IllegalStateException(
          "compression " + compression + " cannot be used here: " + e, e);
    }
    return codec;
  }

  /** Fails with a clear message when an optional codec library is missing. */
  static void requireClass(String className, String artifact, Compression compression) {
    try {
      Class.forName(className, false, Codec.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IllegalStateException(
          "compression "
              + compression
              + " needs "
              + artifact
              + " on the classpath (it is an optional dependency of producer-core)",
          e);
    }
  }
}
