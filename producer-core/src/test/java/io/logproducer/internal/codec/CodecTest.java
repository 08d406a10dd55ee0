package io.logproducer.internal.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CodecTest {

  static byte[] workloadLike(int size) {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    while (sb.length() < size) {
      sb.append("level=INFO_")
          .append(i)
          .append(" message=")
          .append(i % 6)
          .append("测试日志_____abcdefghij_")
          .append(i++)
          .append('\n');
    }
    byte[] all = sb.toString().getBytes(StandardCharsets.UTF_8);
    return java.util.Arrays.copyOf(all, size);
  }

  static byte[] roundTrip(Codec codec, byte[] input, ByteArrayOutputStream wire) throws Exception {
    try (OutputStream out = codec.compress(wire)) {
      // write in uneven pieces, as the batch chunks do
      int off = 0;
      int step = 1;
      while (off < input.length) {
        int n = Math.min(step, input.length - off);
        out.write(input, off, n);
        off += n;
        step = step * 3 + 1;
      }
    }
    try (InputStream in = codec.decompress(new ByteArrayInputStream(wire.toByteArray()))) {
      return in.readAllBytes();
    }
  }

  @ParameterizedTest
  @EnumSource(Compression.class)
  void roundTripsTextRandomAndEmptyInput(Compression compression) throws Exception {
    Codec codec = Codec.of(compression, 0);
    assertEquals(compression, codec.compression());
    byte[] text = workloadLike(2 * 1024 * 1024 + 17);
    byte[] random = new byte[300_001];
    new Random(42).nextBytes(random);
    for (byte[] input : new byte[][] {text, random, new byte[0], new byte[] {7}}) {
      assertArrayEquals(input, roundTrip(codec, input, new ByteArrayOutputStream()));
    }
  }

  @Test
  void compressedFormsCarryTheirStandardMagicNumbers() throws Exception {
    byte[] input = workloadLike(100_000);
    assertMagic(Compression.GZIP, input, 0x1f, 0x8b);
    // LZ4 frame, not raw blocks: magic, FLG (v01, independent blocks), BD (64 KiB), header checksum
    assertMagic(Compression.LZ4, input, 0x04, 0x22, 0x4d, 0x18, 0x60, 0x40, 0x82);
    assertMagic(Compression.ZSTD, input, 0x28, 0xb5, 0x2f, 0xfd);
  }

  @Test
  void compressionActuallyShrinksRepetitiveLogs() throws Exception {
    byte[] input = workloadLike(1_000_000);
    for (Compression c : new Compression[] {Compression.GZIP, Compression.LZ4, Compression.ZSTD}) {
      ByteArrayOutputStream wire = new ByteArrayOutputStream();
      roundTrip(Codec.of(c, 0), input, wire);
      assertTrue(wire.size() < input.length / 3, c + " gave " + wire.size());
    }
  }

  @Test
  void closingTheCompressorLeavesTheSinkOpen() throws Exception {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    OutputStream sink =
        new OutputStream() {
          @Override
          public void write(int b) {
            wire.write(b);
          }

          @Override
          public void close() {
            throw new AssertionError("the sink must not be closed");
          }
        };
    for (Compression c : Compression.values()) {
      Codec.of(c, 0).compress(sink).close();
    }
  }

  @Test
  void levelsAreValidated() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Codec.of(Compression.GZIP, 10));
    assertEquals("gzip level must be in [0, 9], was 10", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Codec.of(Compression.ZSTD, 23));
    assertEquals("zstd level must be in [0, 22], was 23", e.getMessage());
    assertEquals(1, ((ZstdCodec) Codec.of(Compression.ZSTD, 0)).level());
    assertEquals(9, ((GzipCodec) Codec.of(Compression.GZIP, 9)).level());
  }

  private static void assertMagic(Compression c, byte[] input, int... magic) throws Exception {
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    roundTrip(Codec.of(c, 0), input, wire);
    byte[] out = wire.toByteArray();
    for (int i = 0; i < magic.length; i++) {
      assertEquals((byte) magic[i], out[i], c + " byte " + i);
    }
  }
}
