package io.logproducer.internal.proto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProtoReaderTest {

  /**
   * Field 1 varint 300, field 2 fixed64, field 3 "hé", field 4 fixed32, field 5 { field 1 varint 1
   * }.
   */
  private static final byte[] MESSAGE = {
    0x08,
    (byte) 0xAC,
    0x02,
    0x11,
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    (byte) 0x88,
    0x1A,
    3,
    'h',
    (byte) 0xC3,
    (byte) 0xA9,
    0x25,
    (byte) 0xFF,
    0,
    0,
    (byte) 0x80,
    0x2A,
    2,
    0x08,
    1
  };

  @Test
  void readsEveryWireType() {
    ProtoReader r = new ProtoReader(MESSAGE, 0, MESSAGE.length);
    assertEquals(ProtoReader.tag(1, ProtoReader.VARINT), r.readTag());
    assertEquals(300, r.readVarint());
    assertEquals(ProtoReader.tag(2, ProtoReader.FIXED64), r.readTag());
    assertEquals(0x8807060504030201L, r.readFixed64());
    assertEquals(ProtoReader.tag(3, ProtoReader.LEN), r.readTag());
    assertEquals("hé", r.readString());
    assertEquals(ProtoReader.tag(4, ProtoReader.FIXED32), r.readTag());
    assertEquals(0x800000FF, r.readFixed32());
    assertEquals(ProtoReader.tag(5, ProtoReader.LEN), r.readTag());
    ProtoReader nested = r.readMessage();
    assertFalse(r.hasMore());
    assertEquals(2, nested.remaining());
    assertEquals(8, nested.readTag());
    assertEquals(1, nested.readVarint());
    assertFalse(nested.hasMore());
  }

  @Test
  void skipsEveryWireTypeAndComparesBytesInPlace() {
    ProtoReader r = new ProtoReader(MESSAGE, 0, MESSAGE.length);
    for (int i = 0; i < 2; i++) {
      r.skip(r.readTag());
    }
    r.readTag();
    assertTrue(
        new ProtoReader(MESSAGE, 13, 4).readBytesEqual("hé".getBytes(StandardCharsets.UTF_8)));
    assertFalse(
        new ProtoReader(MESSAGE, 13, 4).readBytesEqual("he".getBytes(StandardCharsets.UTF_8)));
    assertArrayEquals(new byte[] {'h', (byte) 0xC3, (byte) 0xA9}, r.readBytes());
    r.skip(r.readTag());
    r.skip(r.readTag());
    assertFalse(r.hasMore());
  }

  @Test
  void rejectsMalformedInputWithItsPosition() {
    ProtoReader truncated = new ProtoReader(MESSAGE, 0, 2);
    truncated.readTag();
    assertEquals(
        "malformed protobuf: truncated varint at 2",
        assertThrows(IllegalArgumentException.class, truncated::readVarint).getMessage());
    ProtoReader shortLen = new ProtoReader(MESSAGE, 12, 4);
    shortLen.readTag();
    assertEquals(
        "malformed protobuf: length 3 exceeds the remaining 2 bytes at 14",
        assertThrows(IllegalArgumentException.class, shortLen::readString).getMessage());
    ProtoReader shortFixed = new ProtoReader(MESSAGE, 3, 5);
    shortFixed.readTag();
    assertEquals(
        "malformed protobuf: truncated field at 4: 8 bytes needed, 4 left",
        assertThrows(IllegalArgumentException.class, shortFixed::readFixed64).getMessage());
    assertEquals(
        "malformed protobuf: bad tag 0 at 1",
        assertThrows(
                IllegalArgumentException.class,
                () -> new ProtoReader(new byte[] {0}, 0, 1).readTag())
            .getMessage());
    assertEquals(
        "malformed protobuf: unsupported wire type 3 at 1",
        assertThrows(
                IllegalArgumentException.class,
                () -> {
                  ProtoReader group = new ProtoReader(new byte[] {0x0B}, 0, 1);
                  group.skip(group.readTag());
                })
            .getMessage());
    byte[] tooLong = {
      (byte) 0x80,
      (byte) 0x80,
      (byte) 0x80,
      (byte) 0x80,
      (byte) 0x80,
      (byte) 0x80,
      (byte) 0x80,
      (byte) 0x80,
      (byte) 0x80,
      (byte) 0x80,
      1
    };
    assertEquals(
        "malformed protobuf: varint longer than 10 bytes at 10",
        assertThrows(
                IllegalArgumentException.class,
                () -> new ProtoReader(tooLong, 0, tooLong.length).readVarint())
            .getMessage());
    assertEquals(
        "slice [3, 3 + 30) must be inside the 26-byte buffer",
        assertThrows(IllegalArgumentException.class, () -> new ProtoReader(MESSAGE, 3, 30))
            .getMessage());
  }
}
