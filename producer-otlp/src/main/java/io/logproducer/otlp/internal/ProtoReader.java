package io.logproducer.otlp.internal;

import io.logproducer.otlp.encoding.internal.ProtoFields;
import java.nio.charset.StandardCharsets;

/**
 * A minimal protobuf reader for the small messages an OTLP receiver answers with
 * ({@code ExportLogsServiceResponse}, {@code google.rpc.Status}): tags, varints, length-delimited fields, and
 * skipping of unknown fields of any wire type. Throws {@link IllegalArgumentException} on malformed input. Not
 * thread-safe; one per message.
 */
final class ProtoReader {

  private final byte[] buf;
  private final int limit;
  private int pos;

  ProtoReader(byte[] buf, int offset, int length) {
    this.buf = buf;
    this.pos = offset;
    this.limit = offset + length;
  }

  boolean hasMore() {
    return pos < limit;
  }

  /** The next field's tag ({@code number << 3 | wireType}). */
  int readTag() {
    long tag = readVarint();
    if (tag <= 0 || tag > Integer.MAX_VALUE || (tag >>> 3) == 0) {
      throw new IllegalArgumentException("malformed protobuf: bad tag " + tag + " at " + pos);
    }
    return (int) tag;
  }

  long readVarint() {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= limit) {
        throw new IllegalArgumentException("malformed protobuf: truncated varint");
      }
      byte b = buf[pos++];
      result |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return result;
      }
    }
    throw new IllegalArgumentException("malformed protobuf: varint longer than 10 bytes");
  }

  /** Reads a length-delimited field's length and returns a reader over its content, advancing past it. */
  ProtoReader readMessage() {
    int length = readLength();
    ProtoReader nested = new ProtoReader(buf, pos, length);
    pos += length;
    return nested;
  }

  /** Reads a length-delimited field as UTF-8. */
  String readString() {
    int length = readLength();
    String s = new String(buf, pos, length, StandardCharsets.UTF_8);
    pos += length;
    return s;
  }

  private int readLength() {
    long length = readVarint();
    if (length < 0 || length > limit - pos) {
      throw new IllegalArgumentException("malformed protobuf: length " + length + " exceeds the message");
    }
    return (int) length;
  }

  /** Skips the value of a field with the given tag. */
  void skip(int tag) {
    switch (tag & 7) {
      case ProtoFields.VARINT:
        readVarint();
        return;
      case ProtoFields.FIXED64:
        advance(8);
        return;
      case ProtoFields.LEN:
        advance(readLength());
        return;
      case ProtoFields.FIXED32:
        advance(4);
        return;
      default:
        throw new IllegalArgumentException("malformed protobuf: unsupported wire type " + (tag & 7));
    }
  }

  private void advance(int n) {
    if (n > limit - pos) {
      throw new IllegalArgumentException("malformed protobuf: truncated field");
    }
    pos += n;
  }
}
