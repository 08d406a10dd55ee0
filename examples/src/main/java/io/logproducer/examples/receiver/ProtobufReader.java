package io.logproducer.examples.receiver;

/**
 * A bounded reader of protobuf wire format over a byte array, enough for receivers that count records without
 * protobuf-java: tags, varints, length-delimited sub-messages, skipping unknown fields. Every read checks the bound
 * and throws {@link IllegalArgumentException} on truncated or malformed input. Not thread-safe.
 */
public final class ProtobufReader {

  private final byte[] buf;
  private int pos;
  private final int end;

  /** Reads {@code buf[pos, end)}. */
  public ProtobufReader(byte[] buf, int pos, int end) {
    this.buf = buf;
    this.pos = pos;
    this.end = end;
  }

  /** Whether bytes remain. */
  public boolean more() {
    return pos < end;
  }

  /** The next field's tag (field number {@code << 3 | wire type}). */
  public int tag() {
    return (int) varint64();
  }

  /** An unsigned varint of up to 10 bytes. */
  public long varint64() {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= end) {
        throw new IllegalArgumentException("truncated varint");
      }
      byte b = buf[pos++];
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
    throw new IllegalArgumentException("malformed varint");
  }

  /** A varint truncated to 32 bits. */
  public int varint32() {
    return (int) varint64();
  }

  /** A reader over the next length-delimited field, which this reader then skips. */
  public ProtobufReader sub() {
    long len = varint64();
    if (len < 0 || len > end - pos) {
      throw new IllegalArgumentException("length " + len + " exceeds the remaining " + (end - pos) + " bytes");
    }
    ProtobufReader r = new ProtobufReader(buf, pos, pos + (int) len);
    pos += (int) len;
    return r;
  }

  /** Whether the remaining bytes are exactly {@code bytes}. */
  public boolean contentEquals(byte[] bytes) {
    if (end - pos != bytes.length) {
      return false;
    }
    for (int i = 0; i < bytes.length; i++) {
      if (buf[pos + i] != bytes[i]) {
        return false;
      }
    }
    return true;
  }

  /** Skips the value of a field whose tag was just read. */
  public void skip(int tag) {
    switch (tag & 7) {
      case 0:
        varint64();
        break;
      case 1:
        advance(8);
        break;
      case 2:
        sub();
        break;
      case 5:
        advance(4);
        break;
      default:
        throw new IllegalArgumentException("unsupported wire type " + (tag & 7));
    }
  }

  private void advance(int n) {
    if (end - pos < n) {
      throw new IllegalArgumentException("truncated field");
    }
    pos += n;
  }
}
