package io.logproducer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable value of OTLP's {@code AnyValue}: a string, boolean, 64-bit integer, double, byte
 * array, array of values, or list of key/value pairs (OTLP {@code KeyValueList}), as defined by
 * {@code opentelemetry/proto/common/v1/common.proto}.
 *
 * <p>Doubles must be finite (NaN and infinities cannot be carried by the JSON encodings); key/value
 * list keys must be non-empty strings (OTLP: "The attribute key MUST be a non-null and non-empty
 * string"); array elements and key/value list values must not be null; nesting must not exceed
 * {@link #MAX_DEPTH}. Violations throw {@link IllegalArgumentException} naming the offending part,
 * so no invalid value can reach an encoder. Instances are immutable and thread-safe; {@link
 * #asBytes()} returns the internal array, which callers must not modify.
 */
public final class AnyValue {

  /** The kind of value held, one per OTLP {@code AnyValue} oneof case. */
  public enum Type {
    /** A string ({@code string_value}); read with {@link AnyValue#asString()}. */
    STRING,
    /** A boolean ({@code bool_value}); read with {@link AnyValue#asBoolean()}. */
    BOOLEAN,
    /** A signed 64-bit integer ({@code int_value}); read with {@link AnyValue#asLong()}. */
    LONG,
    /** A finite double ({@code double_value}); read with {@link AnyValue#asDouble()}. */
    DOUBLE,
    /** A byte array ({@code bytes_value}); read with {@link AnyValue#asBytes()}. */
    BYTES,
    /**
     * An array of values ({@code array_value}, an {@code ArrayValue}); read with {@link
     * AnyValue#asArray()}.
     */
    ARRAY,
    /**
     * Key/value pairs ({@code kvlist_value}, a {@code KeyValueList}) with non-empty string keys, in
     * insertion order; read with {@link AnyValue#asKeyValueList()}.
     */
    KEY_VALUE_LIST
  }

  /**
   * The deepest nesting allowed, counted in {@code AnyValue} levels: a scalar (string, boolean,
   * integer, double, bytes) and an empty array or key/value list have depth 1; an array or
   * key/value list has depth 1 + the largest depth of its elements or values. {@link #ofArray} and
   * {@link #ofKeyValueList} refuse to build a value deeper than this, which bounds the recursion of
   * the encoders (and of {@link #equals}, {@link #hashCode} and {@link #toString}) so that a deep
   * value cannot end in a {@link StackOverflowError}.
   *
   * <p>The number matches protobuf-java's default recursion limit (100, {@code CodedInputStream}),
   * but that limit counts protobuf messages, and each {@code AnyValue} level is two ({@code
   * ArrayValue}, {@code AnyValue}) or three ({@code KeyValueList}, {@code KeyValue}, {@code
   * AnyValue}) messages below the {@code LogRecord}, itself three below the request: receivers with
   * protobuf-java's defaults accept only about 30 (nested key/value lists) to 50 (nested arrays)
   * levels. Keep data shallower than that when sending OTLP/protobuf.
   */
  public static final int MAX_DEPTH = 100;

  private static final AnyValue TRUE = new AnyValue(Type.BOOLEAN, Boolean.TRUE, 1);
  private static final AnyValue FALSE = new AnyValue(Type.BOOLEAN, Boolean.FALSE, 1);

  private final Type type;

  /**
   * String, Boolean, Long, Double, byte[], List&lt;AnyValue&gt; (unmodifiable) or Map&lt;String,
   * AnyValue&gt;.
   */
  private final Object value;

  /**
   * Nesting depth, 1 to {@link #MAX_DEPTH}: 1 for a scalar, 1 + the deepest child for an array or
   * kvlist.
   */
  private final int depth;

  private AnyValue(Type type, Object value, int depth) {
    this.type = type;
    this.value = value;
    this.depth = depth;
  }

  /**
   * The depth of a container whose deepest child has {@code maxChildDepth} (0 when empty); not
   * recursive.
   */
  private static int containerDepth(String what, int maxChildDepth) {
    int depth = maxChildDepth + 1;
    if (depth > MAX_DEPTH) {
      throw new IllegalArgumentException(
          "AnyValue nesting depth exceeds "
              + MAX_DEPTH
              + ": this "
              + what
              + " would have depth "
              + depth);
    }
    return depth;
  }

  /**
   * A string value.
   *
   * @param value the string
   * @return a {@link Type#STRING} value
   * @throws IllegalArgumentException if {@code value} is null
   */
  public static AnyValue of(String value) {
    if (value == null) {
      throw new IllegalArgumentException("string value must not be null");
    }
    return new AnyValue(Type.STRING, value, 1);
  }

  /**
   * A boolean value.
   *
   * @param value the boolean
   * @return a {@link Type#BOOLEAN} value (one shared instance per boolean)
   */
  public static AnyValue of(boolean value) {
    return value ? TRUE : FALSE;
  }

  /**
   * A signed 64-bit integer value.
   *
   * @param value the integer
   * @return a {@link Type#LONG} value
   */
  public static AnyValue of(long value) {
    return new AnyValue(Type.LONG, value, 1);
  }

  /**
   * A double value.
   *
   * @param value the double, finite
   * @return a {@link Type#DOUBLE} value
   * @throws IllegalArgumentException if {@code value} is NaN or infinite
   */
  public static AnyValue of(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      throw new IllegalArgumentException("double value must be finite, was " + value);
    }
    return new AnyValue(Type.DOUBLE, value, 1);
  }

  /**
   * A bytes value; the array is copied.
   *
   * @param value the bytes, possibly empty
   * @return a {@link Type#BYTES} value
   * @throws IllegalArgumentException if {@code value} is null
   */
  public static AnyValue of(byte[] value) {
    if (value == null) {
      throw new IllegalArgumentException("bytes value must not be null");
    }
    return new AnyValue(Type.BYTES, value.clone(), 1);
  }

  /**
   * An array value.
   *
   * @param values the elements, in order; the array is copied
   * @return an {@link Type#ARRAY} value
   * @throws IllegalArgumentException if the array or an element is null, or if the result would be
   *     nested deeper than {@link #MAX_DEPTH} (an element already has depth {@code MAX_DEPTH})
   */
  public static AnyValue ofArray(AnyValue... values) {
    if (values == null) {
      throw new IllegalArgumentException("array value must not be null");
    }
    return ofArray(Arrays.asList(values));
  }

  /**
   * An array value; the list is copied.
   *
   * @param values the elements, in order
   * @return an {@link Type#ARRAY} value
   * @throws IllegalArgumentException if the list or an element is null, or if the result would be
   *     nested deeper than {@link #MAX_DEPTH} (an element already has depth {@code MAX_DEPTH})
   */
  public static AnyValue ofArray(List<AnyValue> values) {
    if (values == null) {
      throw new IllegalArgumentException("array value must not be null");
    }
    List<AnyValue> copy = new ArrayList<>(values);
    int maxChildDepth = 0;
    for (int i = 0; i < copy.size(); i++) {
      AnyValue v = copy.get(i);
      if (v == null) {
        throw new IllegalArgumentException("array element " + i + " must not be null");
      }
      maxChildDepth = Math.max(maxChildDepth, v.depth);
    }
    int depth = containerDepth("array", maxChildDepth);
    return new AnyValue(Type.ARRAY, Collections.unmodifiableList(copy), depth);
  }

  /**
   * A key/value list (OTLP {@code kvlist_value}); the map is copied, iteration order preserved.
   *
   * @param values the pairs, keys non-empty
   * @return a {@link Type#KEY_VALUE_LIST} value
   * @throws IllegalArgumentException if the map, a key or a value is null, if a key is empty (OTLP
   *     attribute keys must be non-empty), or if the result would be nested deeper than {@link
   *     #MAX_DEPTH} (a value already has depth {@code MAX_DEPTH})
   */
  public static AnyValue ofKeyValueList(Map<String, AnyValue> values) {
    if (values == null) {
      throw new IllegalArgumentException("key/value list must not be null");
    }
    Map<String, AnyValue> copy = new LinkedHashMap<>();
    int maxChildDepth = 0;
    for (Map.Entry<String, AnyValue> e : values.entrySet()) {
      String key = e.getKey();
      AnyValue v = e.getValue();
      if (key == null) {
        throw new IllegalArgumentException("key/value list key must not be null");
      }
      if (key.isEmpty()) {
        throw new IllegalArgumentException("key/value list key must not be empty");
      }
      if (v == null) {
        throw new IllegalArgumentException(
            "key/value list value for '" + key + "' must not be null");
      }
      maxChildDepth = Math.max(maxChildDepth, v.depth);
      copy.put(key, v);
    }
    int depth = containerDepth("key/value list", maxChildDepth);
    return new AnyValue(Type.KEY_VALUE_LIST, Collections.unmodifiableMap(copy), depth);
  }

  /**
   * The kind of value held, which says which {@code as…} accessor may be called.
   *
   * @return the type, never null
   */
  public Type getType() {
    return type;
  }

  /**
   * The string.
   *
   * @return the string, never null
   * @throws IllegalStateException if this is not a {@link Type#STRING}
   */
  public String asString() {
    check(Type.STRING);
    return (String) value;
  }

  /**
   * The boolean.
   *
   * @return the boolean
   * @throws IllegalStateException if this is not a {@link Type#BOOLEAN}
   */
  public boolean asBoolean() {
    check(Type.BOOLEAN);
    return (Boolean) value;
  }

  /**
   * The 64-bit integer.
   *
   * @return the integer
   * @throws IllegalStateException if this is not a {@link Type#LONG}
   */
  public long asLong() {
    check(Type.LONG);
    return (Long) value;
  }

  /**
   * The double.
   *
   * @return the double, finite
   * @throws IllegalStateException if this is not a {@link Type#DOUBLE}
   */
  public double asDouble() {
    check(Type.DOUBLE);
    return (Double) value;
  }

  /**
   * The bytes.
   *
   * @return the internal array, not a copy: do not modify
   * @throws IllegalStateException if this is not {@link Type#BYTES}
   */
  public byte[] asBytes() {
    check(Type.BYTES);
    return (byte[]) value;
  }

  /**
   * The elements.
   *
   * @return the elements, in order; unmodifiable
   * @throws IllegalStateException if this is not an {@link Type#ARRAY}
   */
  @SuppressWarnings("unchecked")
  public List<AnyValue> asArray() {
    check(Type.ARRAY);
    return (List<AnyValue>) value;
  }

  /**
   * The key/value pairs.
   *
   * @return the pairs, in insertion order; unmodifiable
   * @throws IllegalStateException if this is not a {@link Type#KEY_VALUE_LIST}
   */
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
    if (type != other.type || depth != other.depth) {
      return false;
    }
    return type == Type.BYTES
        ? Arrays.equals((byte[]) value, (byte[]) other.value)
        : value.equals(other.value);
  }

  @Override
  public int hashCode() {
    return 31 * type.hashCode()
        + (type == Type.BYTES ? Arrays.hashCode((byte[]) value) : value.hashCode());
  }

  @Override
  public String toString() {
    return type == Type.BYTES ? "bytes[" + ((byte[]) value).length + "]" : String.valueOf(value);
  }
}
