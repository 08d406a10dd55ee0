package io.logproducer.otlp.encoding.internal;

import static io.logproducer.spi.EncodeBufferTest.repeat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.CodedOutputStream;
import io.logproducer.RecordTooLargeException;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.EncodeBufferTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The protobuf writers, against the JDK's UTF-8 and hand-written wire bytes (moved here from
 * EncodeBufferTest).
 */
class ProtoWriterTest {

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
    checkLengthDelimited(s);
    checkLengthDelimited(new StringBuilder(s)); // any CharSequence: char by char
    byte[] expected = s.getBytes(StandardCharsets.UTF_8);
    EncodeBuffer known = new EncodeBuffer(1);
    int marked = ProtoWriter.utf8LengthMarked(s);
    assertEquals(expected.length, ProtoWriter.markedLength(marked), s);
    assertEquals(s.chars().allMatch(c -> c < 0x80), marked < 0, s);
    assertEquals(expected.length, ProtoWriter.writeUtf8Marked(known, s, marked), s);
    assertArrayEquals(expected, Arrays.copyOf(known.array(), known.size()), s);
    byte[] direct = new byte[2 + 3 * s.length()];
    assertEquals(1 + expected.length, ProtoWriter.putUtf8(s, direct, 1), s);
    assertArrayEquals(expected, Arrays.copyOfRange(direct, 1, 1 + expected.length), s);
    assertEquals(0, direct[0], s);
    assertEquals(0, direct[direct.length - 1], s);
  }

  @Test
  void putWritesIntoTheArrayAndSetSizeCommitsIt() {
    EncodeBuffer b = new EncodeBuffer(16);
    b.writeByte(0x55);
    b.ensure(4 + 5 + 8 + 6);
    byte[] a = b.array();
    int p = ProtoWriter.putFixed32(a, b.size(), 0x01020304);
    p = ProtoWriter.putVarint32(a, p, 300);
    p = ProtoWriter.putVarint32(a, p, -1);
    p = ProtoWriter.putFixed64(a, p, 0x0102030405060708L);
    p = ProtoWriter.putUtf8("é", a, p);
    b.setSize(p);
    EncodeBuffer expected = new EncodeBuffer(16);
    expected.writeByte(0x55);
    ProtoWriter.writeFixed32(expected, 0x01020304);
    expected.writeVarint32(300);
    expected.writeVarint32(-1);
    ProtoWriter.writeFixed64(expected, 0x0102030405060708L);
    expected.writeUtf8("é");
    assertEquals(1 + 4 + 2 + 5 + 8 + 2, b.size());
    assertArrayEquals(
        Arrays.copyOf(expected.array(), expected.size()), Arrays.copyOf(b.array(), b.size()));
    b.writeByte(0x66); // writing goes on after the committed bytes
    assertEquals(0x66, b.array()[b.size() - 1]);

    assertThrows(
        ArrayIndexOutOfBoundsException.class, () -> ProtoWriter.putFixed64(new byte[7], 0, 1L));
    assertThrows(
        ArrayIndexOutOfBoundsException.class, () -> ProtoWriter.putUtf8("日", new byte[2], 0));
  }

  @Test
  void fixedIntsAreLittleEndian() {
    EncodeBuffer b = new EncodeBuffer(1);
    ProtoWriter.writeFixed32(b, 0x01020304);
    ProtoWriter.writeFixed64(b, 0x0102030405060708L);
    ProtoWriter.writeFixed32(b, -1);
    byte[] expected = {
      0x04,
      0x03,
      0x02,
      0x01,
      0x08,
      0x07,
      0x06,
      0x05,
      0x04,
      0x03,
      0x02,
      0x01,
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff
    };
    assertArrayEquals(expected, Arrays.copyOf(b.array(), b.size()));
  }

  /**
   * The varint of the JDK's UTF-8 length, then the JDK's UTF-8 bytes: what protobuf-java writes for
   * a string.
   */
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
      int length = ProtoWriter.writeUtf8LengthDelimited(b, s);
      assertEquals(string.getBytes(StandardCharsets.UTF_8).length, length, () -> describe(string));
      assertArrayEquals(
          expected, Arrays.copyOfRange(b.array(), 1, b.size()), () -> describe(string));
    }
  }

  private static String describe(String s) {
    return s.length() <= 40 ? s : s.length() + " chars starting " + s.substring(0, 20);
  }

  @Test
  void lengthDelimitedStringsAtVarintBoundariesMatchTheJdk() {
    for (String s : EncodeBufferTest.boundaryStrings()) {
      checkLengthDelimited(s);
    }
  }

  /** What protobuf-java's {@code CodedOutputStream.writeStringNoTag} writes for {@code s}. */
  private static byte[] protobufJava(String s) throws IOException {
    byte[] out = new byte[CodedOutputStream.computeStringSizeNoTag(s)];
    CodedOutputStream coded = CodedOutputStream.newInstance(out);
    coded.writeStringNoTag(s);
    coded.checkNoSpaceLeft();
    return out;
  }

  @Test
  @Timeout(120)
  void lengthDelimitedStringsMatchProtobufJavaOnEveryPath() throws IOException {
    List<String> strings = new ArrayList<>(EncodeBufferTest.boundaryStrings());
    strings.addAll(
        Arrays.asList(
            "",
            "a",
            "\u00e9",
            "\u65e5",
            "\ud83d\ude00",
            "\ud83d",
            "\ude00",
            "x\ud83dy",
            "\ud83d\ud83d\ude00",
            repeat("\u00e9", 300), // Latin-1, not ASCII: a compact String, getBytes
            repeat("abcdefg\u65e5", 60), // CJK in the first 16 chars: sampled, slices
            repeat("x", 20) + "\u65e5" + repeat("x", 100))); // CJK not sampled: getBytes, wide
    for (String s : strings) {
      byte[] expected = protobufJava(s);
      for (int free : new int[] {0, 1, expected.length - 1, expected.length, 3 * s.length() + 5}) {
        EncodeBuffer b = new EncodeBuffer(16);
        b.writeBytes(new byte[16 - Math.min(free, 16)]); // less room than the string needs, or not
        b.ensure(free);
        int head = b.size();
        int length = ProtoWriter.writeUtf8LengthDelimited(b, s);
        assertEquals(s.getBytes(StandardCharsets.UTF_8).length, length, () -> describe(s));
        assertArrayEquals(
            expected, Arrays.copyOfRange(b.array(), head, b.size()), () -> describe(s));
      }
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
        int index = ProtoWriter.reserveVarint32(b, width);
        assertEquals(1, index);
        b.writeBytes(content);
        assertEquals(length, ProtoWriter.fillVarint32(b, index, width));
        b.writeByte(0x66);
        assertArrayEquals(
            expected.toByteArray(), Arrays.copyOf(b.array(), b.size()), length + "/" + width);
      }
    }
  }

  @Test
  void nestedReservedLengthsAreFilledInnermostFirst() {
    // message { a: message { b: 200 bytes } }: the inner length takes 2 bytes, the outer 2 (203
    // bytes)
    byte[] inner = new byte[200];
    Arrays.fill(inner, (byte) 7);
    EncodeBuffer b = new EncodeBuffer(16);
    b.writeByte(0x0A);
    int outer = ProtoWriter.reserveVarint32(b, 1);
    b.writeByte(0x12);
    int nested = ProtoWriter.reserveVarint32(b, 1);
    b.writeBytes(inner);
    assertEquals(200, ProtoWriter.fillVarint32(b, nested, 1));
    assertEquals(203, ProtoWriter.fillVarint32(b, outer, 1));
    byte[] actual = Arrays.copyOf(b.array(), b.size());
    assertEquals(1 + 2 + 1 + 2 + 200, actual.length);
    assertArrayEquals(
        new byte[] {0x0A, (byte) 0xCB, 0x01, 0x12, (byte) 0xC8, 0x01}, Arrays.copyOf(actual, 6));
    assertArrayEquals(inner, Arrays.copyOfRange(actual, 6, actual.length));
  }

  @Test
  void reserveAndFillRefuseWhatDoesNotDescribeKeptBytes() {
    EncodeBuffer b = new EncodeBuffer(16);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ProtoWriter.reserveVarint32(b, 0));
    assertEquals("width must be in [1, 5], was 0", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ProtoWriter.reserveVarint32(b, 6));
    int index = ProtoWriter.reserveVarint32(b, 2);
    // past what was written
    assertThrows(IndexOutOfBoundsException.class, () -> ProtoWriter.fillVarint32(b, index, 3));
    assertThrows(IndexOutOfBoundsException.class, () -> ProtoWriter.fillVarint32(b, -1, 1));
    assertThrows(IndexOutOfBoundsException.class, () -> ProtoWriter.fillVarint32(b, index, 0));
    assertEquals(0, ProtoWriter.fillVarint32(b, index, 2));
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
          assertThrows(
              RecordTooLargeException.class,
              () -> ProtoWriter.writeUtf8LengthDelimited(delimited, s));
      assertEquals(1 + 4 + utf8, e.getRecordSizeInBytes(), "tag, 4-byte length and the string");
      assertEquals(limit, e.getMaxRecordSizeInBytes());
      assertTrue(delimited.capacity() <= limit, "grew to " + delimited.capacity());
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
      ProtoWriter.writeUtf8LengthDelimited(b, s);
      assertEquals(limit, b.size());
      assertArrayEquals(lengthDelimited(s), Arrays.copyOfRange(b.array(), head, limit));
    }
  }

  @Test
  void aLengthWhoseVarintOutgrowsItsReservedBytesPastTheLimitIsRefused() {
    EncodeBuffer b = new EncodeBuffer(16);
    b.setLimit(129);
    int index = ProtoWriter.reserveVarint32(b, 1);
    b.writeBytes(new byte[128]); // 129 bytes: the limit; the length 128 needs a second byte
    RecordTooLargeException e =
        assertThrows(RecordTooLargeException.class, () -> ProtoWriter.fillVarint32(b, index, 1));
    assertEquals(130, e.getRecordSizeInBytes());
  }
}
