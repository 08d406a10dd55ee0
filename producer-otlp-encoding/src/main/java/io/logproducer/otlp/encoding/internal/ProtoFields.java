package io.logproducer.otlp.encoding.internal;

import io.logproducer.AnyValue;
import io.logproducer.spi.EncodeBuffer;
import java.util.List;
import java.util.Map;

/**
 * Protobuf encoding of OTLP's {@code AnyValue} and {@code KeyValue} (all seven value kinds, nested arrays and
 * key/value lists) and of string fields, in two mirrored passes: {@code size*} methods measure and record nested
 * sizes in a {@link SizeCache}, {@code write*} methods read them back in the same order and write each byte once.
 * Field numbers are those of {@code opentelemetry/proto/common/v1/common.proto}. Stateless, thread-safe.
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

  // AnyValue { oneof value: string 1, bool 2, int64 3, double 4, ArrayValue 5, KeyValueList 6, bytes 7 }
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

  private ProtoFields() {
  }

  /** A field tag, {@code (number << 3) | wireType}; all tags used here fit one byte. */
  public static int tag(int fieldNumber, int wireType) {
    return fieldNumber << 3 | wireType;
  }

  /** Bytes of a length-delimited field with a one-byte tag and {@code length} content bytes. */
  static int lenField(int length) {
    return 1 + EncodeBuffer.varintSize32(length) + length;
  }

  /** Size of a string field (tag, length, UTF-8), recording the UTF-8 length. */
  static int sizeString(String s, SizeCache sizes) {
    int marked = EncodeBuffer.utf8LengthMarked(s); // ~length when ASCII: written in bulk
    sizes.push(marked);
    return lenField(EncodeBuffer.markedLength(marked));
  }

  static void writeString(int tag, String s, EncodeBuffer out, SizeCache sizes) {
    int marked = sizes.next();
    out.writeByte(tag);
    out.writeVarint32(EncodeBuffer.markedLength(marked));
    out.writeUtf8Marked(s, marked);
  }

  /** Size of a message field holding a {@code KeyValue}, recording nested sizes. */
  static int sizeKeyValueField(String key, AnyValue value, SizeCache sizes) {
    int slot = sizes.reserve();
    int size = sizeKeyValue(key, value, sizes);
    sizes.set(slot, size);
    return lenField(size);
  }

  static void writeKeyValueField(int tag, String key, AnyValue value, EncodeBuffer out, SizeCache sizes) {
    out.writeByte(tag);
    out.writeVarint32(sizes.next());
    if (!key.isEmpty()) {
      writeString(KV_KEY, key, out, sizes);
    }
    writeAnyValueField(KV_VALUE, value, out, sizes);
  }

  private static int sizeKeyValue(String key, AnyValue value, SizeCache sizes) {
    int size = key.isEmpty() ? 0 : sizeString(key, sizes); // proto3: an empty string is not written
    return size + sizeAnyValueField(value, sizes);
  }

  /** Size of a message field holding an {@code AnyValue}, recording nested sizes. */
  static int sizeAnyValueField(AnyValue value, SizeCache sizes) {
    int slot = sizes.reserve();
    int size = sizeAnyValue(value, sizes);
    sizes.set(slot, size);
    return lenField(size);
  }

  static void writeAnyValueField(int tag, AnyValue value, EncodeBuffer out, SizeCache sizes) {
    out.writeByte(tag);
    out.writeVarint32(sizes.next());
    writeAnyValue(value, out, sizes);
  }

  /** The content size of an {@code AnyValue}; a set oneof member is written even when it holds its default. */
  private static int sizeAnyValue(AnyValue value, SizeCache sizes) {
    switch (value.getType()) {
      case STRING:
        return sizeString(value.asString(), sizes);
      case BOOLEAN:
        return 2;
      case LONG:
        return 1 + EncodeBuffer.varintSize64(value.asLong());
      case DOUBLE:
        return 9;
      case BYTES:
        return lenField(value.asBytes().length);
      case ARRAY: {
        int slot = sizes.reserve();
        int size = 0;
        List<AnyValue> values = value.asArray();
        for (int i = 0, n = values.size(); i < n; i++) {
          size += sizeAnyValueField(values.get(i), sizes);
        }
        sizes.set(slot, size);
        return lenField(size);
      }
      case KEY_VALUE_LIST: {
        int slot = sizes.reserve();
        int size = 0;
        for (Map.Entry<String, AnyValue> e : value.asKeyValueList().entrySet()) {
          size += sizeKeyValueField(e.getKey(), e.getValue(), sizes);
        }
        sizes.set(slot, size);
        return lenField(size);
      }
      default:
        throw new IllegalArgumentException("unknown AnyValue type " + value.getType());
    }
  }

  private static void writeAnyValue(AnyValue value, EncodeBuffer out, SizeCache sizes) {
    switch (value.getType()) {
      case STRING:
        writeString(ANY_STRING, value.asString(), out, sizes);
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
        out.writeFixed64(Double.doubleToRawLongBits(value.asDouble()));
        return;
      case BYTES: {
        byte[] bytes = value.asBytes();
        out.writeByte(ANY_BYTES);
        out.writeVarint32(bytes.length);
        out.writeBytes(bytes);
        return;
      }
      case ARRAY: {
        out.writeByte(ANY_ARRAY);
        out.writeVarint32(sizes.next());
        List<AnyValue> values = value.asArray();
        for (int i = 0, n = values.size(); i < n; i++) {
          writeAnyValueField(LIST_VALUES, values.get(i), out, sizes);
        }
        return;
      }
      case KEY_VALUE_LIST:
        out.writeByte(ANY_KVLIST);
        out.writeVarint32(sizes.next());
        for (Map.Entry<String, AnyValue> e : value.asKeyValueList().entrySet()) {
          writeKeyValueField(LIST_VALUES, e.getKey(), e.getValue(), out, sizes);
        }
        return;
      default:
        throw new IllegalArgumentException("unknown AnyValue type " + value.getType());
    }
  }
}
