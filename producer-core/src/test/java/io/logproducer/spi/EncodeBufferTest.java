package io.logproducer.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.RecordTooLargeException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The general writers of {@link EncodeBuffer}. The OTLP protobuf encoder's own writers
 * (length-delimited strings, reserved and filled lengths, fixed ints, raw puts) are tested by
 * {@code ProtoWriterTest} in producer-otlp-encoding, which also uses {@link #boundaryStrings()}.
 */
public class EncodeBufferTest {

  @Test
  void utf8MatchesTheJdkIncludingSurrogates() {
    String[] samples = {
      "",
      "ascii",
      "测试日志_____abc",
      "é",
      "😀 emoji",
      "\uD83D",
      "x\uDE00y",
      "\uD83D\uD83D\uDE00",
      "\u0000\u007f\u0080\u07ff\u0800\uffff"
    };
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
    checkPlain(s);
    checkPlain(new StringBuilder(s)); // any CharSequence: char by char
    byte[] expected = s.getBytes(StandardCharsets.UTF_8);
    EncodeBuffer b = new EncodeBuffer(1);
    b.writeByte(0x55);
    int n = b.writeUtf8(s);
    assertEquals(expected.length, n, s);
    assertEquals(expected.length, EncodeBuffer.utf8Length(s), s);
    assertArrayEquals(expected, Arrays.copyOfRange(b.array(), 1, b.size()), s);
  }

  @Test
  void bytesWrittenIntoTheArrayAreCommittedBySetSize() {
    EncodeBuffer b = new EncodeBuffer(16);
    b.writeByte(0x55);
    b.ensure(3);
    byte[] a = b.array();
    int p = b.size();
    a[p] = 1;
    a[p + 1] = 2;
    a[p + 2] = 3;
    b.setSize(p + 3);
    assertEquals(4, b.size());
    b.writeByte(0x66); // writing goes on after the committed bytes
    assertArrayEquals(new byte[] {0x55, 1, 2, 3, 0x66}, Arrays.copyOf(b.array(), b.size()));
    b.setSize(2); // a smaller size drops the bytes written last
    b.writeByte(0x77);
    assertArrayEquals(new byte[] {0x55, 1, 0x77}, Arrays.copyOf(b.array(), b.size()));

    IndexOutOfBoundsException e =
        assertThrows(IndexOutOfBoundsException.class, () -> b.setSize(-1));
    assertEquals("size -1, capacity 16", e.getMessage());
    assertThrows(IndexOutOfBoundsException.class, () -> b.setSize(b.capacity() + 1));
    b.setSize(b.capacity()); // up to the capacity is allowed
    assertEquals(b.capacity(), b.size());
  }

  @Test
  void varintsAreProtobufWireFormatAndIntsBigEndian() {
    EncodeBuffer b = new EncodeBuffer(16);
    b.writeVarint32(0);
    b.writeVarint32(127);
    b.writeVarint32(300);
    b.writeVarint32(-1);
    b.writeVarint64(-1L);
    b.writeIntBigEndian(0x0A0B0C0D);
    byte[] expected = {
      0x00,
      0x7f,
      (byte) 0xac,
      0x02,
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      0x0f,
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      0x01,
      0x0A,
      0x0B,
      0x0C,
      0x0D
    };
    assertArrayEquals(expected, Arrays.copyOf(b.array(), b.size()));
    assertEquals(1, EncodeBuffer.varintSize32(127));
    assertEquals(2, EncodeBuffer.varintSize32(128));
    assertEquals(5, EncodeBuffer.varintSize32(-1));
    assertEquals(10, EncodeBuffer.varintSize64(-1L));
    assertEquals(3, EncodeBuffer.varintSize64(1L << 20));
  }

  private static void checkPlain(CharSequence s) {
    String string = s.toString();
    for (int initialCapacity : new int[] {1, 3 * s.length() + 8}) { // growing as it writes, and not
      EncodeBuffer plain = new EncodeBuffer(initialCapacity);
      plain.writeUtf8(s);
      assertArrayEquals(
          string.getBytes(StandardCharsets.UTF_8),
          Arrays.copyOf(plain.array(), plain.size()),
          () -> describe(string));
    }
  }

  private static String describe(String s) {
    return s.length() <= 40 ? s : s.length() + " chars starting " + s.substring(0, 20);
  }

  /**
   * Strings whose UTF-8 length, or char count, is at or next to where a length's varint takes
   * another byte, and strings with a surrogate pair or a lone surrogate where {@link
   * EncodeBuffer#writeUtf8} copies out its next 1,024 chars, and strings at the bounds of its
   * {@code String.getBytes} path (43 and 65,536 chars; a char above {@code U+00FF} sampled or not).
   *
   * @return new strings, up to 2,097,152 chars long
   */
  public static List<String> boundaryStrings() {
    List<String> strings = new ArrayList<>();
    for (int bytes :
        new int[] {
          0, 1, 41, 42, 43, 126, 127, 128, 129, 1023, 1024, 1025, 2047, 2048, 2049, 16_383, 16_384,
          16_385, 2_097_151, 2_097_152
        }) {
      strings.add(repeat("x", bytes)); // ASCII: as many chars as bytes
      if (bytes >= 2) {
        strings.add(repeat("x", bytes - 2) + "\u00e9"); // a 2-byte char at the end
        strings.add(repeat("\u00e9", bytes / 2) + repeat("x", bytes % 2)); // half the chars
      }
      if (bytes >= 3) {
        strings.add(repeat("\u65e5", bytes / 3) + repeat("x", bytes % 3)); // a third of the chars
        strings.add("\u65e5" + repeat("x", bytes - 3));
      }
      if (bytes >= 4) {
        strings.add(
            repeat("\ud83d\ude00", bytes / 4) + repeat("x", bytes % 4)); // pairs: 2 chars, 4 bytes
      }
    }
    // the chars of a String are copied out 1,024 at a time: a pair (or a lone surrogate) at the
    // seam
    for (int at : new int[] {1022, 1023, 1024, 2047}) {
      strings.add(repeat("a", at) + "\ud83d\ude00" + repeat("b", 1500));
      strings.add(repeat("a", at) + "\ud83d" + repeat("b", 1500)); // unpaired high surrogate
      strings.add(repeat("a", at) + "\ude00" + repeat("b", 1500)); // unpaired low surrogate
      strings.add(repeat("a", at) + "\ud83d"); // unpaired at the very end
      strings.add(repeat("\u65e5", at) + "\ud83d\ud83d\ude00\ude00" + repeat("\u00e9", 700));
    }
    // a String of 43 to 65,536 chars whose chars at 0 to 15, 16, 24, 32, ... and the last are
    // Latin-1 is written by String.getBytes(UTF_8): at its length bounds, and with a wide char, a
    // pair or a lone surrogate on a sampled char (written a slice at a time) or between two
    // (getBytes)
    for (int chars : new int[] {65_535, 65_536, 65_537}) {
      strings.add(repeat("x", chars));
      strings.add(repeat("x", chars - 1) + "\u00e9");
      strings.add(repeat("x", chars - 1) + "\u65e5");
      strings.add(repeat("x", 9) + "\u65e5" + repeat("x", chars - 10));
      strings.add(repeat("x", 17) + "\u65e5" + repeat("x", chars - 18));
    }
    for (String odd : new String[] {"\u00e9", "\u65e5", "\ud83d\ude00", "\ud83d", "\ude00"}) {
      for (int at : new int[] {0, 7, 8, 9, 15, 16, 17, 23, 24, 41, 42, 43, 100}) {
        strings.add(repeat("x", at) + odd + repeat("y", 100 - at));
        strings.add(repeat("\u00e9", at) + odd + repeat("\u00ff", 100 - at));
      }
    }
    return strings;
  }

  /** {@return {@code s} {@code times} times} */
  public static String repeat(String s, int times) {
    StringBuilder sb = new StringBuilder(s.length() * times);
    for (int i = 0; i < times; i++) {
      sb.append(s);
    }
    return sb.toString();
  }

  @Test
  void stringsAtVarintBoundariesAndSliceSeamsMatchTheJdk() {
    for (String s : boundaryStrings()) {
      checkPlain(s);
    }
  }

  @Test
  void randomStringsMatchTheJdk() {
    Random random = new Random(11);
    for (int i = 0; i < 3000; i++) {
      char[] cs = new char[random.nextInt(i % 10 == 0 ? 5000 : 200)];
      int kind = random.nextInt(4);
      for (int j = 0; j < cs.length; j++) {
        int r = random.nextInt(100);
        cs[j] =
            (char)
                (kind == 0 || r < 70
                    ? random.nextInt(0x80) // mostly ASCII, as logs are
                    : r < 80
                        ? 0x80 + random.nextInt(0x780)
                        : r < 95
                            ? 0x800 + random.nextInt(0xF800)
                            : 0xD800
                                + random.nextInt(0x800)); // surrogates, paired by chance or not
      }
      checkPlain(new String(cs));
    }
  }

  @Test
  void aStringTooLargeForTheLimitIsRefusedBeforeABufferOfItsSizeExists() {
    int limit = 1 << 20;
    for (String s : new String[] {repeat("x", 5_000_000), repeat("\u00e9", 5_000_000)}) {
      int utf8 = s.getBytes(StandardCharsets.UTF_8).length;
      EncodeBuffer plain = new EncodeBuffer(64);
      plain.setLimit(limit);
      RecordTooLargeException e =
          assertThrows(RecordTooLargeException.class, () -> plain.writeUtf8(s));
      assertEquals(utf8, e.getRecordSizeInBytes());
      assertEquals(limit, e.getMaxRecordSizeInBytes());
      assertTrue(plain.capacity() <= limit, "grew to " + plain.capacity());
    }
  }

  @Test
  void aStringWhoseWorstCaseExceedsTheLimitButWhichFitsIsWritten() {
    // 3 bytes a char would not fit; the actual bytes do, to the last one
    for (int chars : new int[] {20, 42, 43, 600, 1500, 5000}) {
      String s = repeat("y", chars);
      EncodeBuffer plain = new EncodeBuffer(16);
      plain.setLimit(Math.max(16, chars));
      plain.writeUtf8(s);
      assertEquals(chars, plain.size());
    }
  }

  @Test
  void varintSizesMatchTheVarintsWritten() {
    Random random = new Random(3);
    for (int i = 0; i < 10_000; i++) {
      int value = i < 64 ? (1 << (i % 32)) - (i / 32) : random.nextInt() >>> random.nextInt(32);
      EncodeBuffer b = new EncodeBuffer(16);
      b.writeVarint32(value);
      assertEquals(b.size(), EncodeBuffer.varintSize32(value), Integer.toHexString(value));
    }
  }
}
