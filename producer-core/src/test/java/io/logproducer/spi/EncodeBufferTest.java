package io.logproducer.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EncodeBufferTest {

  @Test
  void utf8MatchesTheJdkIncludingSurrogates() {
    String[] samples = {"", "ascii", "测试日志_____abc", "é", "😀 emoji", "\uD83D", "x\uDE00y", "\uD83D\uD83D\uDE00",
        "\u0000\u007f\u0080\u07ff\u0800\uffff"};
    for (String s : samples) {
      check(s);
    }
    Random random = new Random(7);
    for (int i = 0; i < 2000; i++) {
      char[] cs = new char[random.nextInt(40)];
      for (int j = 0; j < cs.length; j++) {
        cs[j] = (char) (random.nextBoolean() ? random.nextInt(0x80) : random.nextInt(0x10000));
      }
      check(new String(cs));
    }
  }

  private static void check(String s) {
    byte[] expected = s.getBytes(StandardCharsets.UTF_8);
    EncodeBuffer b = new EncodeBuffer(1);
    b.writeByte(0x55);
    int n = b.writeUtf8(s);
    assertEquals(expected.length, n, s);
    assertEquals(expected.length, EncodeBuffer.utf8Length(s), s);
    assertArrayEquals(expected, Arrays.copyOfRange(b.array(), 1, b.size()), s);
    EncodeBuffer known = new EncodeBuffer(1);
    int marked = EncodeBuffer.utf8LengthMarked(s);
    assertEquals(expected.length, EncodeBuffer.markedLength(marked), s);
    assertEquals(s.chars().allMatch(c -> c < 0x80), marked < 0, s);
    assertEquals(expected.length, known.writeUtf8Marked(s, marked), s);
    assertArrayEquals(expected, Arrays.copyOf(known.array(), known.size()), s);
  }

  @Test
  void varintsAndFixedIntsAreProtobufWireFormat() {
    EncodeBuffer b = new EncodeBuffer(16);
    b.writeVarint32(0);
    b.writeVarint32(127);
    b.writeVarint32(300);
    b.writeVarint32(-1);
    b.writeVarint64(-1L);
    b.writeFixed32(0x01020304);
    b.writeFixed64(0x0102030405060708L);
    b.writeIntBigEndian(0x0A0B0C0D);
    byte[] expected = {0x00, 0x7f, (byte) 0xac, 0x02, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f,
        (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
        (byte) 0xff, 0x01, 0x04, 0x03, 0x02, 0x01, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0x0A, 0x0B, 0x0C,
        0x0D};
    assertArrayEquals(expected, Arrays.copyOf(b.array(), b.size()));
    assertEquals(1, EncodeBuffer.varintSize32(127));
    assertEquals(2, EncodeBuffer.varintSize32(128));
    assertEquals(5, EncodeBuffer.varintSize32(-1));
    assertEquals(10, EncodeBuffer.varintSize64(-1L));
    assertEquals(3, EncodeBuffer.varintSize64(1L << 20));
  }
}
