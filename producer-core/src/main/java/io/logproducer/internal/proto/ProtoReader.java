package io.logproducer.internal.proto;

import java.nio.charset.StandardCharsets;

/**
 * A bounded reader of protobuf wire format over a slice of a byte array, for code that reads OTLP
 * messages without protobuf-java: the OTLP exporter reading a receiver's answer ({@code
 * ExportLogsServiceResponse}, {@code google.rpc.Status}) and the test kit's receiver reading
 * requests. Reads tags, varints, fixed 32/64-bit values, strings, bytes and nested messages, and
 * skips fields of any wire type. Every read checks the bound and throws {@link
 * IllegalArgumentException} ("malformed protobuf: …") on truncated or malformed input; nothing is
 * copied until a caller asks for a string or bytes.
 *
 * <p>Internal: not part of the public API. Not thread-safe: one reader per message, on one thread.
 */
public final class ProtoReader {

  /** Wire type of varint fields. */
  public static final int VARINT = 0;

  /** Wire type of 8-byte fields. */
  public static final int FIXED64 = 1;

  /** Wire type of length-delimited fields (strings, bytes, messages, packed repeated fields). */
  public static final int LEN = 2;

  /** Wire type of 4-byte fields. */
  public static final int FIXED32 = 5;

  private final byte[] buf;
  private final int limit;
  private int pos;

  /**
   * A reader of {@code buf[offset, offset + length)}.
   *
   * @throws IllegalArgumentException if the slice is not inside {@code buf}
   */
  public ProtoReader(byte[] buf, int offset, int length) {
    if (offset < 0 || length < 0 || offset > buf.length - length) {
      throw new IllegalArgumentException(
          "slice ["
              + offset
              + ", "
              + offset
              + " + "
              + length
              + ") must be inside the "
              + buf.length
              + "-byte buffer");
    }
    this.buf = buf;
    this.pos = offset;
    this.limit = offset + length;
  }

  /**
   * The tag of field {@code number} with wire type {@code wireType}: {@code number << 3 |
   * wireType}.
   */
  public static int tag(int number, int wireType) {
    return number << 3 | wireType;
  }

  /** Whether bytes remain. */
  public boolean hasMore() {
    return pos < limit;
  }

  /** Bytes left to read. */
  public int remaining() {
    return limit - pos;
  }

  /**
   * The next field's tag ({@code number << 3 | wireType}).
   *
   * @throws IllegalArgumentException if the tag is not a positive 32-bit value with a field number
   *     above 0
   */
  public int readTag() {
    long tag = readVarint();
    if (tag <= 0 || tag > Integer.MAX_VALUE || (tag >>> 3) == 0) {
      throw new IllegalArgumentException("malformed protobuf: bad tag " + tag + " at " + pos);
    }
    return (int) tag;
  }

  /**
   * An unsigned varint of up to 10 bytes (int64, uint64, enum, bool, int32 as written by protobuf).
   */
  public long readVarint() {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= limit) {
        throw new IllegalArgumentException("malformed protobuf: truncated varint at " + pos);
      }
      byte b = buf[pos++];
      result |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return result;
      }
    }
    throw new IllegalArgumentException("malformed protobuf: varint longer than 10 bytes at " + pos);
  }

  /**
   * A little-endian 8-byte value (fixed64, sfixed64; a double through {@link
   * Double#longBitsToDouble}).
   */
  public long readFixed64() {
    need(8);
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = v << 8 | (buf[pos + i] & 0xFFL);
    }
    pos += 8;
    return v;
  }

  /**
   * A little-endian 4-byte value (fixed32, sfixed32; a float through {@link Float#intBitsToFloat}).
   */
  public int readFixed32() {
    need(4);
    int v =
        (buf[pos] & 0xFF)
            | (buf[pos + 1] & 0xFF) << 8
            | (buf[pos + 2] & 0xFF) << 16
            | (buf[pos + 3] & 0xFF) << 24;
    pos += 4;
    return v;
  }

  /**
   * Reads a length-delimited field's length and returns a reader over its content, advancing past
   * it.
   */
  public ProtoReader readMessage() {
    int length = readLength();
    ProtoReader nested = new ProtoReader(buf, pos, length);
    pos += length;
    return nested;
  }

  /**
   * Reads a length-delimited field as UTF-8 (malformed sequences become U+FFFD, as protobuf-java
   * does).
   */
  public String readString() {
    int length = readLength();
    String s = new String(buf, pos, length, StandardCharsets.UTF_8);
    pos += length;
    return s;
  }

  /** Reads a length-delimited field as a copy of its bytes. */
  public byte[] readBytes() {
    int length = readLength();
    byte[] out = new byte[length];
    System.arraycopy(buf, pos, out, 0, length);
    pos += length;
    return out;
  }

  /**
   * Whether the next length-delimited field's content equals {@code bytes}; advances past the field
   * either way. Compares in place, without copying: the way to match a string key against a
   * constant.
   */
  public boolean readBytesEqual(byte[] bytes) {
    int length = readLength();
    boolean equal = length == bytes.length;
    for (int i = 0; equal && i < length; i++) {
      equal = buf[pos + i] == bytes[i];
    }
    pos += length;
    return equal;
  }

  /**
   * Skips the value of a field whose tag was just read.
   *
   * @throws IllegalArgumentException for wire types 3 and 4 (groups, not used by OTLP) and 6, 7
   *     (undefined)
   */
  public void skip(int tag) {
    switch (tag & 7) {
      case VARINT:
        readVarint();
        return;
      case FIXED64:
        advance(8);
        return;
      case LEN:
        advance(readLength());
        return;
      case FIXED32:
        advance(4);
        return;
      default:
        throw new IllegalArgumentException(
            "malformed protobuf: unsupported wire type " + (tag & 7) + " at " + pos);
    }
  }

  private int readLength() {
    long length = readVarint();
    if (length < 0 || length > limit - pos) {
      throw new IllegalArgumentException(
          "malformed protobuf: length "
              + length
              + " exceeds the remaining "
              + (limit - pos)
              + " bytes at "
              + pos);
    }
    return (int) length;
  }

  private void need(int n) {
    if (n > limit - pos) {
      throw new IllegalArgumentException(
          "malformed protobuf: truncated field at "
              + pos
              + ": "
              + n
              + " bytes needed, "
              + (limit - pos)
              + " left");
    }
  }

  private void advance(int n) {
    need(n);
    pos += n;
  }
}
