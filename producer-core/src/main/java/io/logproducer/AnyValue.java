package io.logproducer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable value of OTLP's {@code AnyValue}: a string, boolean, 64-bit integer, double, byte array, array of
 * values, or list of key/value pairs (OTLP {@code KeyValueList}), as defined by
 * {@code opentelemetry/proto/common/v1/common.proto}.
 *
 * <p>Doubles must be finite (NaN and infinities cannot be carried by the JSON encodings); map keys and array
 * elements must not be null. Violations throw {@link IllegalArgumentException} naming the offending part.
 * Instances are immutable and thread-safe; {@link #asBytes()} returns the internal array, which callers must not
 * modify.
 */
public final class AnyValue {

  /** The kind of value held, one per OTLP {@code AnyValue} oneof case. */
  public enum Type { STRING, BOOLEAN, LONG, DOUBLE, BYTES, ARRAY, KEY_VALUE_LIST }

  private static final AnyValue TRUE = new AnyValue(Type.BOOLEAN, Boolean.TRUE);
  private static final AnyValue FALSE = new AnyValue(Type.BOOLEAN, Boolean.FALSE);

  private final Type type;
  /** String, Boolean, Long, Double, byte[], List&lt;AnyValue&gt; (unmodifiable) or Map&lt;String, AnyValue&gt;. */
  private final Object value;

  private AnyValue(Type type, Object value) {
    this.type = type;
    this.value = value;
  }

  /** A string value. @throws IllegalArgumentException if {@code value} is null */
  public static AnyValue of(String value) {
    if (value == null) {
      throw new IllegalArgumentException("string value must not be null");
    }
    return new AnyValue(Type.STRING, value);
  }

  /** A boolean value. */
  public static AnyValue of(boolean value) {
    return value ? TRUE : FALSE;
  }

  /** A signed 64-bit integer value. */
  public static AnyValue of(long value) {
    return new AnyValue(Type.LONG, value);
  }

  /** A double value. @throws IllegalArgumentException if {@code value} is NaN or infinite */
  public static AnyValue of(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      throw new IllegalArgumentException("double value must be finite, was " + value);
    }
    return new AnyValue(Type.DOUBLE, value);
  }

  /** A bytes value; the array is copied. @throws IllegalArgumentException if {@code value} is null */
  public static AnyValue of(byte[] value) {
    if (value == null) {
      throw new IllegalArgumentException("bytes value must not be null");
    }
    return new AnyValue(Type.BYTES, value.clone());
  }

  /** An array value. @throws IllegalArgumentException if the array or an element is null */
  public static AnyValue ofArray(AnyValue... values) {
    if (values == null) {
      throw new IllegalArgumentException("array value must not be null");
    }
    return ofArray(Arrays.asList(values));
  }

  /** An array value; the list is copied. @throws IllegalArgumentException if the list or an element is null */
  public static AnyValue ofArray(List<AnyValue> values) {
    if (values == null) {
      throw new IllegalArgumentException("array value must not be null");
    }
    List<AnyValue> copy = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      AnyValue v = values.get(i);
      if (v == null) {
        throw new IllegalArgumentException("array element " + i + " must not be null");
      }
      copy.add(v);
    }
    return new AnyValue(Type.ARRAY, Collections.unmodifiableList(copy));
  }

  /**
   * A key/value list (OTLP {@code kvlist_value}); the map is copied, iteration order preserved.
   *
   * @throws IllegalArgumentException if the map, a key or a value is null
   */
  public static AnyValue ofKeyValueList(Map<String, AnyValue> values) {
    if (values == null) {
      throw new IllegalArgumentException("key/value list must not be null");
    }
    Map<String, AnyValue> copy = new LinkedHashMap<>();
    for (Map.Entry<String, AnyValue> e : values.entrySet()) {
      if (e.getKey() == null) {
        throw new IllegalArgumentException("key/value list key must not be null");
      }
      if (e.getValue() == null) {
        throw new IllegalArgumentException("key/value list value for '" + e.getKey() + "' must not be null");
      }
      copy.put(e.getKey(), e.getValue());
    }
    return new AnyValue(Type.KEY_VALUE_LIST, Collections.unmodifiableMap(copy));
  }

  public Type getType() {
    return type;
  }

  /** @throws IllegalStateException if this is not a {@link Type#STRING} */
  public String asString() {
    check(Type.STRING);
    return (String) value;
  }

  /** @throws IllegalStateException if this is not a {@link Type#BOOLEAN} */
  public boolean asBoolean() {
    check(Type.BOOLEAN);
    return (Boolean) value;
  }

  /** @throws IllegalStateException if this is not a {@link Type#LONG} */
  public long asLong() {
    check(Type.LONG);
    return (Long) value;
  }

  /** @throws IllegalStateException if this is not a {@link Type#DOUBLE} */
  public double asDouble() {
    check(Type.DOUBLE);
    return (Double) value;
  }

  /** The internal array, not a copy: do not modify. @throws IllegalStateException if not {@link Type#BYTES} */
  public byte[] asBytes() {
    check(Type.BYTES);
    return (byte[]) value;
  }

  /** Unmodifiable. @throws IllegalStateException if this is not an {@link Type#ARRAY} */
  @SuppressWarnings("unchecked")
  public List<AnyValue> asArray() {
    check(Type.ARRAY);
    return (List<AnyValue>) value;
  }

  /** Unmodifiable, in insertion order. @throws IllegalStateException if not a {@link Type#KEY_VALUE_LIST} */
  @SuppressWarnings("unchecked")
  public Map<String, AnyValue> asKeyValueList() {
    check(Type.KEY_VALUE_LIST);
    return (Map<String, AnyValue>) value;
  }

  private void check(Type expected) {
    if (type != expected) {
      throw new IllegalStateException("value is " + type + ", not " + expected);
    }
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof AnyValue)) {
      return false;
    }
    AnyValue other = (AnyValue) o;
    if (type != other.type) {
      return false;
    }
    return type == Type.BYTES ? Arrays.equals((byte[]) value, (byte[]) other.value) : value.equals(other.value);
  }

  @Override
  public int hashCode() {
    return 31 * type.hashCode() + (type == Type.BYTES ? Arrays.hashCode((byte[]) value) : value.hashCode());
  }

  @Override
  public String toString() {
    return type == Type.BYTES ? "bytes[" + ((byte[]) value).length + "]" : String.valueOf(value);
  }
}
