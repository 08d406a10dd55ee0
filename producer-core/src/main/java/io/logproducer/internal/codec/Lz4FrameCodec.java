package io.logproducer.internal.codec;

import io.logproducer.Compression;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import net.jpountz.xxhash.XXHashFactory;

/**
 * LZ4 frame format (the format the OpenTelemetry Collector accepts as {@code Content-Encoding: lz4}; the raw block
 * format is refused with "bad magic number"), 64 KiB independent blocks, fast compressor, no content checksum.
 */
final class Lz4FrameCodec implements Codec {

  private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
  private static final XXHashFactory HASH = XXHashFactory.fastestInstance();

  @Override
  public Compression compression() {
    return Compression.LZ4;
  }

  @Override
  public OutputStream compress(OutputStream sink) throws IOException {
    return new LZ4FrameOutputStream(new GzipCodec.NonClosing(sink), LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB, -1L,
        COMPRESSOR, HASH.hash32(), LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE);
  }

  @Override
  public InputStream decompress(InputStream source) throws IOException {
    return new LZ4FrameInputStream(source);
  }
}
