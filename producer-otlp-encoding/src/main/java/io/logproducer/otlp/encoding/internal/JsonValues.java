package io.logproducer.otlp.encoding.internal;

import io.logproducer.AnyValue;
import io.logproducer.spi.EncodeBuffer;
import java.util.List;
import java.util.Map;

/**
 * OTLP/JSON encoding of {@code AnyValue} and {@code KeyValue} ({@code
 * opentelemetry/proto/common/v1/common.proto} under the proto3 JSON mapping, with OTLP's rules):
 * {@code stringValue}, {@code boolValue}, {@code intValue} as a decimal string, {@code doubleValue}
 * as a number, {@code bytesValue} as base64, {@code arrayValue} and {@code kvlistValue} as {@code
 * {"values":[...]}}. Stateless, thread-safe.
 */
final class JsonValues {

  private static final byte[] STRING_VALUE = JsonOutput.ascii("{\"stringValue\":");
  private static final byte[] BOOL_TRUE = JsonOutput.ascii("{\"boolValue\":true}");
  private static final byte[] BOOL_FALSE = JsonOutput.ascii("{\"boolValue\":false}");
  private static final byte[] INT_VALUE = JsonOutput.ascii("{\"intValue\":");
  private static final byte[] DOUBLE_VALUE = JsonOutput.ascii("{\"doubleValue\":");
  private static final byte[] BYTES_VALUE = JsonOutput.ascii("{\"bytesValue\":");
  private static final byte[] ARRAY_VALUE = JsonOutput.ascii("{\"arrayValue\":{\"values\":[");
  private static final byte[] KVLIST_VALUE = JsonOutput.ascii("{\"kvlistValue\":{\"values\":[");
  private static final byte[] END_LIST_VALUE = JsonOutput.ascii("]}}");
  private static final byte[] KEY = JsonOutput.ascii("{\"key\":");
  private static final byte[] VALUE = JsonOutput.ascii(",\"value\":");

  private JsonValues() {}

  /** Writes an {@code AnyValue} object. */
  static void writeAnyValue(EncodeBuffer out, AnyValue value) {
    switch (value.getType()) {
      case STRING:
        out.writeBytes(STRING_VALUE);
        JsonOutput.writeString(out, value.asString());
        out.writeByte('}');
        return;
      case BOOLEAN:
        out.writeBytes(value.asBoolean() ? BOOL_TRUE : BOOL_FALSE);
        return;
      case LONG:
        out.writeBytes(INT_VALUE);
        JsonOutput.writeQuotedLong(out, value.asLong());
        out.writeByte('}');
        return;
      case DOUBLE:
        out.writeBytes(DOUBLE_VALUE);
        JsonOutput.writeDouble(out, value.asDouble());
        out.writeByte('}');
        return;
      case BYTES:
        out.writeBytes(BYTES_VALUE);
        JsonOutput.writeBase64(out, value.asBytes());
        out.writeByte('}');
        return;
      case ARRAY:
        {
          out.writeBytes(ARRAY_VALUE);
          List<AnyValue> values = value.asArray();
          for (int i = 0, n = values.size(); i < n; i++) {
            if (i > 0) {
              out.writeByte(',');
            }
            writeAnyValue(out, values.get(i));
          }
          out.writeBytes(END_LIST_VALUE);
          return;
        }
      case KEY_VALUE_LIST:
        {
          out.writeBytes(KVLIST_VALUE);
          boolean first = true;
          for (Map.Entry<String, AnyValue> e : value.asKeyValueList().entrySet()) {
            if (!first) {
              out.writeByte(',');
            }
            first = false;
            writeKeyValue(out, e.getKey(), e.getValue());
          }
          out.writeBytes(END_LIST_VALUE);
          return;
        }
      default:
        throw new IllegalArgumentException("unknown AnyValue type " + value.getType());
    }
  }

  /** Writes a {@code KeyValue} object. */
  static void writeKeyValue(EncodeBuffer out, String key, AnyValue value) {
    out.writeBytes(KEY);
    JsonOutput.writeString(out, key);
    out.writeBytes(VALUE);
    writeAnyValue(out, value);
    out.writeByte('}');
  }

  /**
   * Writes {@code "attributes":[...]} for a map, or nothing when it is empty; returns whether it
   * wrote.
   */
  static boolean writeAttributes(EncodeBuffer out, Map<String, AnyValue> attributes) {
    if (attributes.isEmpty()) {
      return false;
    }
    out.writeAscii("\"attributes\":[");
    boolean first = true;
    for (Map.Entry<String, AnyValue> e : attributes.entrySet()) {
      if (!first) {
        out.writeByte(',');
      }
      first = false;
      writeKeyValue(out, e.getKey(), e.getValue());
    }
    out.writeByte(']');
    return true;
  }
}
