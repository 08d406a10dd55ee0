package io.logproducer.internal.codec;

import io.logproducer.Compression;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** No compression. */
final class IdentityCodec implements Codec {

  static final IdentityCodec INSTANCE = new IdentityCodec();

  @Override
  public Compression compression() {
    return Compression.NONE;
  }

  @Override
  public OutputStream compress(OutputStream sink) {
    return new FilterOutputStream(sink) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        out.flush();
      }
    };
  }

  @Override
  public InputStream decompress(InputStream source) {
    return source;
  }
}
