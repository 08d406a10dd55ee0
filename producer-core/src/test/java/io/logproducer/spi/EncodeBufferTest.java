package io.logproducer.spi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.RecordTooLargeException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
    checkLengthDelimited(s);
    checkLengthDelimited(new StringBuilder(s)); // any CharSequence: char by char
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
    byte[] direct = new byte[2 + 3 * s.length()];
    assertEquals(1 + expected.length, EncodeBuffer.putUtf8(s, direct, 1), s);
    assertArrayEquals(expected, Arrays.copyOfRange(direct, 1, 1 + expected.length), s);
    assertEquals(0, direct[0], s);
    assertEquals(0, direct[direct.length - 1], s);
  }

  @Test
  void putWritesIntoTheArrayAndAdvanceCountsIt() {
    EncodeBuffer b = new EncodeBuffer(16);
    b.writeByte(0x55);
    b.ensure(4 + 5 + 8 + 6);
    byte[] a = b.array();
    int p = EncodeBuffer.putFixed32(a, b.size(), 0x01020304);
    p = EncodeBuffer.putVarint32(a, p, 300);
    p = EncodeBuffer.putVarint32(a, p, -1);
    p = EncodeBuffer.putFixed64(a, p, 0x0102030405060708L);
    p = EncodeBuffer.putUtf8("é", a, p);
    b.advance(p - b.size());
    EncodeBuffer expected = new EncodeBuffer(16);
    expected.writeByte(0x55);
    expected.writeFixed32(0x01020304);
    expected.writeVarint32(300);
    expected.writeVarint32(-1);
    expected.writeFixed64(0x0102030405060708L);
    expected.writeUtf8("é");
    assertEquals(1 + 4 + 2 + 5 + 8 + 2, b.size());
    assertArrayEquals(Arrays.copyOf(expected.array(), expected.size()), Arrays.copyOf(b.array(), b.size()));
    b.writeByte(0x66); // writing goes on after the advanced bytes
    assertEquals(0x66, b.array()[b.size() - 1]);

    assertThrows(IndexOutOfBoundsException.class, () -> b.advance(-1));
    assertThrows(IndexOutOfBoundsException.class, () -> b.advance(b.capacity() - b.size() + 1));
    int size = b.size();
    b.advance(b.capacity() - b.size()); // up to the capacity is allowed
    assertEquals(b.capacity(), b.size());
    assertTrue(b.size() > size);
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> EncodeBuffer.putFixed64(new byte[7], 0, 1L));
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> EncodeBuffer.putUtf8("日", new byte[2], 0));
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

  /** The varint of the JDK's UTF-8 length, then the JDK's UTF-8 bytes: what protobuf-java writes for a string. */
  private static byte[] lengthDelimited(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    EncodeBuffer b = new EncodeBuffer(16);
    b.writeVarint32(utf8.length);
    b.writeBytes(utf8);
    return Arrays.copyOf(b.array(), b.size());
  }

  private static void checkLengthDelimited(CharSequence s) {
    String string = s.toString();
    byte[] expected = lengthDelimited(string);
    for (int initialCapacity : new int[] {1, 3 * s.length() + 8}) { // growing as it writes, and not
      EncodeBuffer b = new EncodeBuffer(initialCapacity);
      b.writeByte(0x0A);
      int length = b.writeUtf8LengthDelimited(s);
      assertEquals(string.getBytes(StandardCharsets.UTF_8).length, length, () -> describe(string));
      assertArrayEquals(expected, Arrays.copyOfRange(b.array(), 1, b.size()), () -> describe(string));
      EncodeBuffer plain = new EncodeBuffer(initialCapacity);
      plain.writeUtf8(s);
      assertArrayEquals(string.getBytes(StandardCharsets.UTF_8), Arrays.copyOf(plain.array(), plain.size()),
          () -> describe(string));
    }
  }

  private static String describe(String s) {
    return s.length() <= 40 ? s : s.length() + " chars starting " + s.substring(0, 20);
  }

  /** Strings whose UTF-8 length, or char count, is at or next to where the length's varint takes another byte. */
  static List<String> boundaryStrings() {
    List<String> strings = new ArrayList<>();
    for (int bytes : new int[] {0, 1, 41, 42, 43, 126, 127, 128, 129, 1023, 1024, 1025, 2047, 2048, 2049, 16_383,
        16_384, 16_385, 2_097_151, 2_097_152}) {
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
        strings.add(repeat("\ud83d\ude00", bytes / 4) + repeat("x", bytes % 4)); // pairs: 2 chars, 4 bytes
      }
    }
    // the chars of a String are copied out 1,024 at a time: a pair (or a lone surrogate) at the seam
    for (int at : new int[] {1022, 1023, 1024, 2047}) {
      strings.add(repeat("a", at) + "\ud83d\ude00" + repeat("b", 1500));
      strings.add(repeat("a", at) + "\ud83d" + repeat("b", 1500)); // unpaired high surrogate
      strings.add(repeat("a", at) + "\ude00" + repeat("b", 1500)); // unpaired low surrogate
      strings.add(repeat("a", at) + "\ud83d"); // unpaired at the very end
      strings.add(repeat("\u65e5", at) + "\ud83d\ud83d\ude00\ude00" + repeat("\u00e9", 700));
    }
    return strings;
  }

  private static String repeat(String s, int times) {
    StringBuilder sb = new StringBuilder(s.length() * times);
    for (int i = 0; i < times; i++) {
      sb.append(s);
    }
    return sb.toString();
  }

  @Test
  void lengthDelimitedStringsAtVarintBoundariesMatchTheJdk() {
    for (String s : boundaryStrings()) {
      checkLengthDelimited(s);
    }
  }

  @Test
  void lengthDelimitedRandomStringsMatchTheJdk() {
    Random random = new Random(11);
    for (int i = 0; i < 3000; i++) {
      char[] cs = new char[random.nextInt(i % 10 == 0 ? 5000 : 200)];
      int kind = random.nextInt(4);
      for (int j = 0; j < cs.length; j++) {
        int r = random.nextInt(100);
        cs[j] = (char) (kind == 0 || r < 70 ? random.nextInt(0x80) // mostly ASCII, as logs are
            : r < 80 ? 0x80 + random.nextInt(0x780) : r < 95 ? 0x800 + random.nextInt(0xF800)
            : 0xD800 + random.nextInt(0x800)); // surrogates, paired by chance or not
      }
      checkLengthDelimited(new String(cs));
    }
  }

  @Test
  void reservedLengthsAreFilledAsMinimalVarintsWhateverTheReservedWidth() {
    for (int length : new int[] {0, 1, 127, 128, 300, 16_383, 16_384, 2_097_151, 2_097_152}) {
      byte[] content = new byte[length];
      new Random(length).nextBytes(content);
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      EncodeBuffer head = new EncodeBuffer(16);
      head.writeByte(0x55);
      head.writeVarint32(length);
      expected.write(head.array(), 0, head.size());
      expected.write(content, 0, length);
      expected.write(0x66);
      for (int width = 1; width <= 5; width++) {
        EncodeBuffer b = new EncodeBuffer(16);
        b.writeByte(0x55);
        int index = b.reserveVarint32(width);
        assertEquals(1, index);
        b.writeBytes(content);
        assertEquals(length, b.fillVarint32(index, width));
        b.writeByte(0x66);
        assertArrayEquals(expected.toByteArray(), Arrays.copyOf(b.array(), b.size()), length + "/" + width);
      }
    }
  }

  @Test
  void nestedReservedLengthsAreFilledInnermostFirst() {
    // message { a: message { b: 200 bytes } }: the inner length takes 2 bytes, the outer 2 (203 bytes)
    byte[] inner = new byte[200];
    Arrays.fill(inner, (byte) 7);
    EncodeBuffer b = new EncodeBuffer(16);
    b.writeByte(0x0A);
    int outer = b.reserveVarint32(1);
    b.writeByte(0x12);
    int nested = b.reserveVarint32(1);
    b.writeBytes(inner);
    assertEquals(200, b.fillVarint32(nested, 1));
    assertEquals(203, b.fillVarint32(outer, 1));
    byte[] actual = Arrays.copyOf(b.array(), b.size());
    assertEquals(1 + 2 + 1 + 2 + 200, actual.length);
    assertArrayEquals(new byte[] {0x0A, (byte) 0xCB, 0x01, 0x12, (byte) 0xC8, 0x01}, Arrays.copyOf(actual, 6));
    assertArrayEquals(inner, Arrays.copyOfRange(actual, 6, actual.length));
  }

  @Test
  void reserveAndFillRefuseWhatDoesNotDescribeKeptBytes() {
    EncodeBuffer b = new EncodeBuffer(16);
    assertThrows(IllegalArgumentException.class, () -> b.reserveVarint32(0));
    assertThrows(IllegalArgumentException.class, () -> b.reserveVarint32(6));
    int index = b.reserveVarint32(2);
    assertThrows(IndexOutOfBoundsException.class, () -> b.fillVarint32(index, 3)); // past what was written
    assertThrows(IndexOutOfBoundsException.class, () -> b.fillVarint32(-1, 1));
    assertThrows(IndexOutOfBoundsException.class, () -> b.fillVarint32(index, 0));
    assertEquals(0, b.fillVarint32(index, 2));
    assertEquals(1, b.size());
  }

  @Test
  void aStringTooLargeForTheLimitIsRefusedBeforeABufferOfItsSizeExists() {
    int limit = 1 << 20;
    for (String s : new String[] {repeat("x", 5_000_000), repeat("\u00e9", 5_000_000)}) {
      int utf8 = s.getBytes(StandardCharsets.UTF_8).length;
      EncodeBuffer delimited = new EncodeBuffer(64);
      delimited.setLimit(limit);
      delimited.writeByte(0x0A);
      RecordTooLargeException e =
          assertThrows(RecordTooLargeException.class, () -> delimited.writeUtf8LengthDelimited(s));
      assertEquals(1 + 4 + utf8, e.getRecordSizeInBytes(), "tag, 4-byte length and the string");
      assertEquals(limit, e.getMaxRecordSizeInBytes());
      assertTrue(delimited.capacity() <= limit, "grew to " + delimited.capacity());
      EncodeBuffer plain = new EncodeBuffer(64);
      plain.setLimit(limit);
      e = assertThrows(RecordTooLargeException.class, () -> plain.writeUtf8(s));
      assertEquals(utf8, e.getRecordSizeInBytes());
      assertTrue(plain.capacity() <= limit, "grew to " + plain.capacity());
    }
  }

  @Test
  void aStringWhoseWorstCaseExceedsTheLimitButWhichFitsIsWritten() {
    // 3 bytes a char would not fit; the actual bytes do, to the last one
    for (int chars : new int[] {20, 42, 43, 600, 1500, 5000}) {
      String s = repeat("y", chars);
      int limit = Math.max(16, 2 * chars);
      EncodeBuffer b = new EncodeBuffer(16);
      b.setLimit(limit);
      int head = limit - chars - EncodeBuffer.varintSize32(chars);
      for (int i = 0; i < head; i++) {
        b.writeByte(0);
      }
      b.writeUtf8LengthDelimited(s);
      assertEquals(limit, b.size());
      assertArrayEquals(lengthDelimited(s), Arrays.copyOfRange(b.array(), head, limit));
      EncodeBuffer plain = new EncodeBuffer(16);
      plain.setLimit(Math.max(16, chars));
      plain.writeUtf8(s);
      assertEquals(chars, plain.size());
    }
  }

  @Test
  void aLengthWhoseVarintOutgrowsItsReservedBytesPastTheLimitIsRefused() {
    EncodeBuffer b = new EncodeBuffer(16);
    b.setLimit(129);
    int index = b.reserveVarint32(1);
    b.writeBytes(new byte[128]); // 129 bytes: the limit; the length 128 needs a second byte
    RecordTooLargeException e = assertThrows(RecordTooLargeException.class, () -> b.fillVarint32(index, 1));
    assertEquals(130, e.getRecordSizeInBytes());
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
