package io.logproducer.otlp.encoding.internal;

import io.logproducer.AnyValue;
import io.logproducer.spi.EncodeBuffer;
import java.util.List;
import java.util.Map;

/**
 * Protobuf encoding of OTLP's {@code AnyValue} and {@code KeyValue} (all seven value kinds, nested
 * arrays and key/value lists) and of string fields, in one pass: room for a nested message's length
 * is kept before the message ({@link ProtoWriter#reserveVarint32}, as many bytes as a lower bound
 * of its size needs, from char counts and element counts) and the length is filled in after it
 * ({@link ProtoWriter#fillVarint32}, which moves the message in the rare case the bound took fewer
 * bytes than the size). Field numbers are those of {@code
 * opentelemetry/proto/common/v1/common.proto}. Stateless, thread-safe.
 */
public final class ProtoFields {

  /** Wire type of varint fields. */
  public static final int VARINT = 0;

  /** Wire type of 8-byte fields. */
  public static final int FIXED64 = 1;

  /** Wire type of length-delimited fields. */
  public static final int LEN = 2;

  /** Wire type of 4-byte fields. */
  public static final int FIXED32 = 5;

  // AnyValue { oneof value: string 1, bool 2, int64 3, double 4, ArrayValue 5, KeyValueList 6,
  // bytes 7 }
  private static final int ANY_STRING = tag(1, LEN);
  private static final int ANY_BOOL = tag(2, VARINT);
  private static final int ANY_INT = tag(3, VARINT);
  private static final int ANY_DOUBLE = tag(4, FIXED64);
  private static final int ANY_ARRAY = tag(5, LEN);
  private static final int ANY_KVLIST = tag(6, LEN);
  private static final int ANY_BYTES = tag(7, LEN);
  // ArrayValue { repeated AnyValue values = 1; }  KeyValueList { repeated KeyValue values = 1; }
  private static final int LIST_VALUES = tag(1, LEN);
  // KeyValue { string key = 1; AnyValue value = 2; }
  private static final int KV_KEY = tag(1, LEN);
  private static final int KV_VALUE = tag(2, LEN);

  private ProtoFields() {}

  /** A field tag, {@code (number << 3) | wireType}; all tags used here fit one byte. */
  public static int tag(int fieldNumber, int wireType) {
    return fieldNumber << 3 | wireType;
  }

  /** Bytes of a length-delimited field with a one-byte tag and {@code length} content bytes. */
  static int lenField(int length) {
    return 1 + EncodeBuffer.varintSize32(length) + length;
  }

  /** Writes a string field: tag, UTF-8 length, UTF-8 bytes. */
  static void writeString(int tag, String s, EncodeBuffer out) {
    out.writeByte(tag);
    ProtoWriter.writeUtf8LengthDelimited(out, s);
  }

  /** Writes a message field holding a {@code KeyValue}. */
  static void writeKeyValueField(int tag, String key, AnyValue value, EncodeBuffer out) {
    if (value.getType() == AnyValue.Type.STRING) {
      String s = value.asString();
      int chars = key.length() + s.length();
      // the worst case must be within the buffer's limit: near it, the general path checks each
      // byte as written
      if (chars <= SHORT_KEY_VALUE_CHARS && (long) out.size() + 8 + 3 * chars <= out.limit()) {
        writeShortStringKeyValueField(tag, key, s, out);
        return;
      }
    }
    out.writeByte(tag);
    boolean hasKey = !key.isEmpty(); // proto3: an empty string is not written
    int minValueSize = minAnyValueSize(value);
    int width = EncodeBuffer.varintSize32((hasKey ? 2 + key.length() : 0) + 2 + minValueSize);
    int index = ProtoWriter.reserveVarint32(out, width);
    if (hasKey) {
      writeString(KV_KEY, key, out);
    }
    writeAnyValueField(KV_VALUE, value, minValueSize, out);
    ProtoWriter.fillVarint32(out, index, width);
  }

  /**
   * The most chars of key and string value together that {@link #writeShortStringKeyValueField}
   * takes: the {@code KeyValue}'s content is then at most {@code 2 + 4 + 3 * 40 = 126} bytes (3
   * UTF-8 bytes a char at most), so it and every length inside it fit a one-byte varint.
   */
  private static final int SHORT_KEY_VALUE_CHARS = 40;

  /**
   * A {@code KeyValue} with a string value, whose key and value have at most {@link
   * #SHORT_KEY_VALUE_CHARS} chars together (the common attribute): room is checked once and the
   * four one-byte lengths are filled in as the strings are written, with no reserved bytes to move.
   * The same bytes as the general path.
   */
  private static void writeShortStringKeyValueField(
      int tag, String key, String value, EncodeBuffer out) {
    out.ensure(2 + 6 + 3 * (key.length() + value.length()));
    byte[] b = out.array();
    int start = out.size();
    int p = start + 2; // after the field's tag and one-byte length
    if (!key.isEmpty()) { // proto3: an empty key is not written
      b[p] = (byte) KV_KEY;
      int end = ProtoWriter.putUtf8(key, b, p + 2);
      b[p + 1] = (byte) (end - p - 2);
      p = end;
    }
    b[p] = (byte) KV_VALUE;
    b[p + 2] = (byte) ANY_STRING; // a set oneof member is written even when empty
    int end = ProtoWriter.putUtf8(value, b, p + 4);
    b[p + 3] = (byte) (end - p - 4);
    b[p + 1] = (byte) (end - p - 2);
    b[start] = (byte) tag;
    b[start + 1] = (byte) (end - start - 2);
    out.setSize(end);
  }

  /** Writes a message field holding an {@code AnyValue}. */
  static void writeAnyValueField(int tag, AnyValue value, EncodeBuffer out) {
    writeAnyValueField(tag, value, minAnyValueSize(value), out);
  }

  private static void writeAnyValueField(int tag, AnyValue value, int minSize, EncodeBuffer out) {
    out.writeByte(tag);
    int width = EncodeBuffer.varintSize32(minSize);
    int index = ProtoWriter.reserveVarint32(out, width);
    if (value.getType()
        == AnyValue.Type.STRING) { // the common case, kept small enough to be inlined
      writeString(ANY_STRING, value.asString(), out);
    } else {
      writeAnyValue(value, out);
    }
    ProtoWriter.fillVarint32(out, index, width);
  }

  /**
   * A lower bound of an {@code AnyValue}'s content size, without encoding anything: a string's
   * UTF-8 length is at least its number of chars. Its varint width is the width of the size's but
   * for values with many multi-byte chars near a varint boundary.
   */
  private static int minAnyValueSize(AnyValue value) {
    AnyValue.Type type = value.getType();
    if (type == AnyValue.Type.STRING) {
      return 2 + value.asString().length();
    }
    switch (type) {
      case DOUBLE:
        return 9;
      case BYTES:
        return lenField(value.asBytes().length);
      case ARRAY:
        return 2 + 2 * value.asArray().size(); // each element is a field of at least 2 bytes
      case KEY_VALUE_LIST:
        return 2 + 2 * value.asKeyValueList().size();
      default: // BOOLEAN, LONG
        return 2;
    }
  }

  /**
   * Writes the content of an {@code AnyValue}; a set oneof member is written even when it holds its
   * default.
   */
  private static void writeAnyValue(AnyValue value, EncodeBuffer out) {
    switch (value.getType()) {
      case STRING:
        writeString(ANY_STRING, value.asString(), out);
        return;
      case BOOLEAN:
        out.writeByte(ANY_BOOL);
        out.writeByte(value.asBoolean() ? 1 : 0);
        return;
      case LONG:
        out.writeByte(ANY_INT);
        out.writeVarint64(value.asLong());
        return;
      case DOUBLE:
        out.writeByte(ANY_DOUBLE);
        ProtoWriter.writeFixed64(out, Double.doubleToRawLongBits(value.asDouble()));
        return;
      case BYTES:
        {
          byte[] bytes = value.asBytes();
          out.writeByte(ANY_BYTES);
          out.writeVarint32(bytes.length);
          out.writeBytes(bytes);
          return;
        }
      case ARRAY:
        {
          List<AnyValue> values = value.asArray();
          out.writeByte(ANY_ARRAY);
          int width = EncodeBuffer.varintSize32(2 * values.size());
          int index = ProtoWriter.reserveVarint32(out, width);
          for (int i = 0, n = values.size(); i < n; i++) {
            writeAnyValueField(LIST_VALUES, values.get(i), out);
          }
          ProtoWriter.fillVarint32(out, index, width);
          return;
        }
      case KEY_VALUE_LIST:
        {
          Map<String, AnyValue> values = value.asKeyValueList();
          out.writeByte(ANY_KVLIST);
          int width = EncodeBuffer.varintSize32(2 * values.size());
          int index = ProtoWriter.reserveVarint32(out, width);
          for (Map.Entry<String, AnyValue> e : values.entrySet()) {
            writeKeyValueField(LIST_VALUES, e.getKey(), e.getValue(), out);
          }
          ProtoWriter.fillVarint32(out, index, width);
          return;
        }
      default:
        throw new IllegalArgumentException("unknown AnyValue type " + value.getType());
    }
  }
}
