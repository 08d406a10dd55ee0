package io.logproducer.gse.internal;

import io.logproducer.AnyValue;
import io.logproducer.spi.EncodeBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * {@link AnyValue}s rendered the way bk-collector renders OTLP values: as Go's {@code
 * encoding/json} marshals pdata's {@code AsRaw()} (maps with sorted keys, bytes as standard base64,
 * float64 as {@link GoJson#goFloat}), and pdata's {@code Value.AsString()} for bodies. Stateless;
 * thread-safe.
 */
public final class GoValues {

  private GoValues() {}

  /**
   * pdata's {@code AsString()}: a string as it is; null (empty) as ""; bool, int, double as text;
   * bytes as base64; arrays and maps as their {@code json.Marshal} (HTML-escaped) text.
   */
  public static String asString(AnyValue v) {
    if (v == null) {
      return "";
    }
    switch (v.getType()) {
      case STRING:
        return v.asString();
      case BOOLEAN:
        return v.asBoolean() ? "true" : "false";
      case LONG:
        return Long.toString(v.asLong());
      case DOUBLE:
        return GoJson.goFloat(v.asDouble());
      case BYTES:
        return Base64.getEncoder().encodeToString(v.asBytes());
      default:
        EncodeBuffer j = new EncodeBuffer(256);
        value1(j, v);
        return new String(j.array(), 0, j.size(), StandardCharsets.UTF_8);
    }
  }

  /** Writes {@code v} as level-1 JSON ({@code json.Marshal}). */
  public static void value1(EncodeBuffer j, AnyValue v) {
    switch (v.getType()) {
      case STRING:
        GoJson.string1(j, v.asString());
        return;
      case ARRAY:
        List<AnyValue> list = v.asArray();
        j.writeByte('[');
        for (int i = 0; i < list.size(); i++) {
          if (i > 0) {
            j.writeByte(',');
          }
          value1(j, list.get(i));
        }
        j.writeByte(']');
        return;
      case KEY_VALUE_LIST:
        Map<String, AnyValue> map = v.asKeyValueList();
        String[] keys = sortedKeys(map);
        j.writeByte('{');
        for (int i = 0; i < keys.length; i++) {
          if (i > 0) {
            j.writeByte(',');
          }
          GoJson.string1(j, keys[i]);
          j.writeByte(':');
          value1(j, map.get(keys[i]));
        }
        j.writeByte('}');
        return;
      default:
        scalar(j, v);
    }
  }

  /** Writes {@code v} as level-2 JSON (inside an outer string). */
  public static void value2(EncodeBuffer j, AnyValue v) {
    switch (v.getType()) {
      case STRING:
        GoJson.string2(j, v.asString());
        return;
      case ARRAY:
        List<AnyValue> list = v.asArray();
        j.writeByte('[');
        for (int i = 0; i < list.size(); i++) {
          if (i > 0) {
            j.writeByte(',');
          }
          value2(j, list.get(i));
        }
        j.writeByte(']');
        return;
      case KEY_VALUE_LIST:
        map2(j, v.asKeyValueList());
        return;
      case BYTES:
        j.writeByte('\\');
        j.writeByte('"');
        GoJson.ascii(j, Base64.getEncoder().encodeToString(v.asBytes()));
        j.writeByte('\\');
        j.writeByte('"');
        return;
      default:
        scalar(j, v);
    }
  }

  /** Writes a map as a level-2 JSON object with sorted keys. */
  public static void map2(EncodeBuffer j, Map<String, AnyValue> map) {
    String[] keys = sortedKeys(map);
    j.writeByte('{');
    for (int i = 0; i < keys.length; i++) {
      if (i > 0) {
        j.writeByte(',');
      }
      GoJson.string2(j, keys[i]);
      j.writeByte(':');
      value2(j, map.get(keys[i]));
    }
    j.writeByte('}');
  }

  /** Booleans, numbers and (level 1) bytes: the same text at both levels. */
  private static void scalar(EncodeBuffer j, AnyValue v) {
    switch (v.getType()) {
      case BOOLEAN:
        GoJson.ascii(j, v.asBoolean() ? "true" : "false");
        return;
      case LONG:
        GoJson.number(j, v.asLong());
        return;
      case DOUBLE:
        GoJson.floatNumber(j, v.asDouble());
        return;
      case BYTES:
        j.writeByte('"');
        GoJson.ascii(j, Base64.getEncoder().encodeToString(v.asBytes()));
        j.writeByte('"');
        return;
      default:
        throw new IllegalStateException("not a scalar: " + v.getType());
    }
  }

  private static String[] sortedKeys(Map<String, AnyValue> map) {
    String[] keys = map.keySet().toArray(new String[0]);
    Arrays.sort(keys);
    return keys;
  }
}
