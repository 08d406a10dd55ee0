package io.logproducer.benchmark.jmh;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.logproducer.Compression;
import io.logproducer.internal.codec.Codec;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Lz4FrameDirectTest {

  @Test
  void producesFramesTheCodecDecodes() throws IOException {
    Random rnd = new Random(7);
    byte[] text = CodecBenchmark.workloadBatch(300_000);
    byte[] noise = new byte[100_000];
    rnd.nextBytes(noise);
    for (byte[] input : new byte[][] {text, noise, new byte[0], Arrays.copyOf(text, 65_536)}) {
      for (int slice : new int[] {65_536, 1000, 200_000}) {
        Lz4FrameDirect d = new Lz4FrameDirect();
        d.begin();
        for (int off = 0; off < input.length; off += slice) {
          d.write(input, off, Math.min(slice, input.length - off));
        }
        d.end();
        try (InputStream in = Codec.of(Compression.LZ4, 0)
            .decompress(new ByteArrayInputStream(d.array(), 0, d.size()))) {
          assertArrayEquals(input, in.readAllBytes(), "input " + input.length + ", slice " + slice);
        }
      }
    }
  }
}
