package io.logproducer;

import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * One log record, following OTLP's log data model ({@code LogRecord} in {@code
 * opentelemetry/proto/logs/v1/logs.proto}). Immutable and thread-safe; build one with {@link
 * #builder()}.
 *
 * <p>Fields: {@code time_unix_nano} and {@code observed_time_unix_nano} (nanoseconds since the Unix
 * epoch, 0 = unknown), {@code severity_number} (0–24) and {@code severity_text}, {@code body} (any
 * {@link AnyValue}), attributes (unique non-empty string keys to {@link AnyValue}s, in insertion
 * order), {@code dropped_attributes_count} (attributes left out, e.g. by a limit), {@code trace_id}
 * (16 bytes or absent), {@code span_id} (8 bytes or absent), {@code flags} (W3C trace flags, 32
 * bits), {@code event_name}; and, outside the OTLP model, an optional {@code destination}: an
 * exporter-specific routing target that is not encoded (the GSE {@code dataid} as a decimal string,
 * a Kafka topic; ignored by OTLP).
 */
public final class LogRecord {

  private static final String[] NO_KEYS = new String[0];
  private static final AnyValue[] NO_VALUES = new AnyValue[0];
  private static final Object[] NO_ATTRIBUTES = new Object[0];

  private final long timeUnixNano;
  private final long observedTimeUnixNano;
  private final int severityNumber;
  private final String severityText;
  private final AnyValue body;

  /**
   * Keys and values, interleaved: the key of attribute {@code i} at {@code 2 * i}, its value at
   * {@code 2 * i + 1}; one array per record rather than two.
   */
  private final Object[] attributes;

  private final int droppedAttributesCount;
  private final int longestAttributeValueLength;
  private final byte[] traceId;
  private final byte[] spanId;
  private final int flags;
  private final String eventName;
  private final String instrumentationScopeName;
  private final String destination;

  private LogRecord(Builder b) {
    this.timeUnixNano = b.timeUnixNano;
    this.observedTimeUnixNano =
        b.observedTimeUnixNano != 0
            ? b.observedTimeUnixNano
            : System.currentTimeMillis() * 1_000_000L;
    this.severityNumber = b.severityNumber;
    this.severityText = b.severityText;
    this.body = b.body;
    int n = b.attributeCount;
    if (n == 0) {
      this.attributes = NO_ATTRIBUTES;
    } else {
      Object[] a = new Object[2 * n];
      String[] keys = b.attributeKeys;
      AnyValue[] values = b.attributeValues;
      for (int i = 0; i < n; i++) {
        a[2 * i] = keys[i];
        a[2 * i + 1] = values[i];
      }
      this.attributes = a;
    }
    this.droppedAttributesCount = b.droppedAttributesCount;
    this.longestAttributeValueLength = b.longestAttributeValueLength;
    this.traceId = b.traceId;
    this.spanId = b.spanId;
    this.flags = b.flags;
    this.eventName = b.eventName;
    this.instrumentationScopeName = b.instrumentationScopeName;
    this.destination = b.destination;
  }

  /** {@return a new builder} Builders are not thread-safe; one builder may build many records. */
  public static Builder builder() {
    return new Builder();
  }

  /** {@return the event time in nanoseconds since the Unix epoch; 0 when unknown} */
  public long getTimeUnixNano() {
    return timeUnixNano;
  }

  /**
   * {@return the observation time in nanoseconds since the Unix epoch; the build time when not
   * given}
   */
  public long getObservedTimeUnixNano() {
    return observedTimeUnixNano;
  }

  /** {@return the OTLP severity number, 0 (unspecified) to 24} */
  public int getSeverityNumber() {
    return severityNumber;
  }

  /** {@return the severity text as given, or null} */
  public String getSeverityText() {
    return severityText;
  }

  /** {@return the body, or null when absent} */
  public AnyValue getBody() {
    return body;
  }

  /** {@return the number of attributes, at least 0} */
  public int getAttributeCount() {
    return attributes.length >>> 1;
  }

  /**
   * Key of attribute {@code index}.
   *
   * @param index 0-based, in insertion order, below {@link #getAttributeCount()}
   * @return the key, non-empty
   * @throws ArrayIndexOutOfBoundsException if {@code index} is out of range
   */
  public String getAttributeKey(int index) {
    return (String) attributes[slot(index)];
  }

  /**
   * Value of attribute {@code index}.
   *
   * @param index 0-based, in insertion order, below {@link #getAttributeCount()}
   * @return the value, never null
   * @throws ArrayIndexOutOfBoundsException if {@code index} is out of range
   */
  public AnyValue getAttributeValue(int index) {
    return (AnyValue) attributes[slot(index) + 1];
  }

  /** The index of attribute {@code index}'s key in {@link #attributes}; checks {@code index}. */
  private int slot(int index) {
    if (index < 0 || index >= attributes.length >>> 1) {
      throw new ArrayIndexOutOfBoundsException(
          "attribute index " + index + ", count " + (attributes.length >>> 1));
    }
    return 2 * index;
  }

  /**
   * Looks an attribute up by key; linear in the attribute count. (A record keeps no index of its
   * keys: the lookups done per record, e.g. an exporter's key attribute, are few, and an encoder
   * reads every attribute anyway, so an index would cost every record memory and time to save none.
   * The builder has one, for {@code setAttribute}.)
   *
   * @param key the key
   * @return the value of the attribute named {@code key}, or null when there is none
   */
  public AnyValue getAttribute(String key) {
    Object[] a = attributes;
    for (int i = 0; i < a.length; i += 2) {
      if (a[i].equals(key)) {
        return (AnyValue) a[i + 1];
      }
    }
    return null;
  }

  /**
   * {@return OTLP {@code dropped_attributes_count}: how many attributes were left out of this
   * record, at least 0} Set with {@link Builder#setDroppedAttributesCount(int)}, counted by {@link
   * Builder#setAttributeCountLimit(int)}, and raised by the producer when it applies its attribute
   * limits.
   */
  public int getDroppedAttributesCount() {
    return droppedAttributesCount;
  }

  /**
   * {@return the length of the longest attribute value given for this record's attributes: chars of
   * a string (UTF-16 units, as {@link String#length()}) or bytes of a byte array, at any depth of
   * arrays and key/value lists; 0 when there is none} Exact, unless an attribute's value was
   * replaced by a shorter one (it is then at least the longest value held). It lets the producer
   * see in O(1) that no value exceeds its {@code maxAttributeValueLength}.
   */
  public int getLongestAttributeValueLength() {
    return longestAttributeValueLength;
  }

  /** {@return the 16-byte trace id (internal array: do not modify), or null when absent} */
  public byte[] getTraceId() {
    return traceId;
  }

  /** {@return the 8-byte span id (internal array: do not modify), or null when absent} */
  public byte[] getSpanId() {
    return spanId;
  }

  /** {@return the W3C trace flags (OTLP {@code flags}, fixed32; bit 0: sampled)} */
  public int getFlags() {
    return flags;
  }

  /** {@return the event name (OTLP {@code event_name}), or null} */
  public String getEventName() {
    return eventName;
  }

  /**
   * {@return the name of the record's {@code InstrumentationScope} (e.g. the logger name an
   * appender saw), or null for the exporter's configured scope}
   */
  public String getInstrumentationScopeName() {
    return instrumentationScopeName;
  }

  /**
   * {@return the exporter-specific routing target (GSE dataid in decimal, Kafka topic), or null for
   * the exporter's default} Not part of the encoded record.
   */
  public String getDestination() {
    return destination;
  }

  @Override
  public String toString() {
    StringBuilder sb =
        new StringBuilder("LogRecord{time=")
            .append(timeUnixNano)
            .append(", severity=")
            .append(severityNumber);
    if (severityText != null) {
      sb.append('/').append(severityText);
    }
    sb.append(", body=").append(body);
    for (int i = 0; i < attributes.length; i += 2) {
      sb.append(i == 0 ? ", attributes={" : ", ")
          .append(attributes[i])
          .append('=')
          .append(attributes[i + 1]);
    }
    if (attributes.length > 0) {
      sb.append('}');
    }
    if (droppedAttributesCount > 0) {
      sb.append(", droppedAttributes=").append(droppedAttributesCount);
    }
    return sb.append('}').toString();
  }

  /**
   * Builds {@link LogRecord}s. Setters validate at once and throw {@link IllegalArgumentException}
   * naming the field. Not thread-safe; reusable: {@link #build()} copies what it needs and leaves
   * the builder as it was.
   *
   * <p>Setting an attribute costs O(1) whatever the number of attributes: up to {@value
   * AttributeIndex#LINEAR_MAX} keys are compared one by one (faster than hashing for the usual
   * handful), beyond that a hash index of the keys finds a repeated key.
   */
  public static final class Builder {
    private long timeUnixNano;
    private long observedTimeUnixNano;
    private int severityNumber;
    private String severityText;
    private AnyValue body;
    private String[] attributeKeys = NO_KEYS;
    private AnyValue[] attributeValues = NO_VALUES;
    private int attributeCount;
    private AttributeIndex index;
    private int attributeCountLimit = Integer.MAX_VALUE;
    private int droppedAttributesCount;
    private int longestAttributeValueLength;
    private byte[] traceId;
    private byte[] spanId;
    private int flags;
    private String eventName;
    private String instrumentationScopeName;
    private String destination;

    private Builder() {}

    /**
     * Event time; 0 (the default) means unknown.
     *
     * @param timeUnixNano nanoseconds since the Unix epoch, at least 0
     * @return this builder
     * @throws IllegalArgumentException if negative
     */
    public Builder setTimeUnixNano(long timeUnixNano) {
      if (timeUnixNano < 0) {
        throw new IllegalArgumentException("timeUnixNano must be >= 0, was " + timeUnixNano);
      }
      this.timeUnixNano = timeUnixNano;
      return this;
    }

    /**
     * Event time in the given unit since the Unix epoch.
     *
     * @param time time since the Unix epoch in {@code unit}, at least 0
     * @param unit the unit of {@code time}, not null; converted to nanoseconds, saturating at
     *     {@link Long#MAX_VALUE}
     * @return this builder
     * @throws IllegalArgumentException if {@code unit} is null or {@code time} is negative
     */
    public Builder setTimestamp(long time, TimeUnit unit) {
      if (unit == null) {
        throw new IllegalArgumentException("timestamp unit must not be null");
      }
      return setTimeUnixNano(unit.toNanos(time));
    }

    /**
     * Event time, with nanosecond precision.
     *
     * @param instant the event time, not before the Unix epoch; not null
     * @return this builder
     * @throws IllegalArgumentException if {@code instant} is null or before 1970-01-01T00:00:00Z
     */
    public Builder setTimestamp(Instant instant) {
      if (instant == null) {
        throw new IllegalArgumentException("timestamp must not be null");
      }
      return setTimeUnixNano(
          TimeUnit.SECONDS.toNanos(instant.getEpochSecond()) + instant.getNano());
    }

    /**
     * Observation time; 0 (the default) means the time {@link #build()} is called (millisecond
     * precision).
     *
     * @param observedTimeUnixNano nanoseconds since the Unix epoch, at least 0
     * @return this builder
     * @throws IllegalArgumentException if negative
     */
    public Builder setObservedTimeUnixNano(long observedTimeUnixNano) {
      if (observedTimeUnixNano < 0) {
        throw new IllegalArgumentException(
            "observedTimeUnixNano must be >= 0, was " + observedTimeUnixNano);
      }
      this.observedTimeUnixNano = observedTimeUnixNano;
      return this;
    }

    /**
     * Sets severity number and text ({@code severity_number}, {@code severity_text}).
     *
     * @param severity the severity; not null ({@link Severity#UNSPECIFIED} clears both)
     * @return this builder
     * @throws IllegalArgumentException if {@code severity} is null
     */
    public Builder setSeverity(Severity severity) {
      if (severity == null) {
        throw new IllegalArgumentException(
            "severity must not be null (use Severity.UNSPECIFIED to clear it)");
      }
      this.severityNumber = severity.number();
      this.severityText = severity == Severity.UNSPECIFIED ? null : severity.text();
      return this;
    }

    /**
     * Sets the severity number only; the text is left as it is.
     *
     * @param severityNumber the OTLP {@code SeverityNumber}, 0 (unspecified) to 24; see {@link
     *     Severity}
     * @return this builder
     * @throws IllegalArgumentException if outside [0, 24]
     */
    public Builder setSeverityNumber(int severityNumber) {
      if (severityNumber < 0 || severityNumber > 24) {
        throw new IllegalArgumentException(
            "severityNumber must be in [0, 24], was " + severityNumber);
      }
      this.severityNumber = severityNumber;
      return this;
    }

    /**
     * Free-form severity text (e.g. the logging framework's level name).
     *
     * @param severityText the text; null clears it
     * @return this builder
     */
    public Builder setSeverityText(String severityText) {
      this.severityText = severityText;
      return this;
    }

    /**
     * A string body.
     *
     * @param body the body; null clears it
     * @return this builder
     */
    public Builder setBody(String body) {
      this.body = body == null ? null : AnyValue.of(body);
      return this;
    }

    /**
     * Any body (string, bytes, structured).
     *
     * @param body the body; null clears it
     * @return this builder
     */
    public Builder setBody(AnyValue body) {
      this.body = body;
      return this;
    }

    /**
     * A string attribute; replaces the value of an attribute with the same key, which keeps its
     * position.
     *
     * @param key the key, non-empty
     * @param value the value, not null
     * @return this builder
     * @throws IllegalArgumentException if {@code key} is null or empty, or {@code value} is null
     */
    public Builder setAttribute(String key, String value) {
      if (value == null) {
        throw new IllegalArgumentException("attribute '" + key + "' value must not be null");
      }
      return put(key, AnyValue.of(value));
    }

    /**
     * A boolean attribute; replaces the value of an attribute with the same key, which keeps its
     * position.
     *
     * @param key the key, non-empty
     * @param value the value
     * @return this builder
     * @throws IllegalArgumentException if {@code key} is null or empty
     */
    public Builder setAttribute(String key, boolean value) {
      return put(key, AnyValue.of(value));
    }

    /**
     * A 64-bit integer attribute; replaces the value of an attribute with the same key, which keeps
     * its position.
     *
     * @param key the key, non-empty
     * @param value the value
     * @return this builder
     * @throws IllegalArgumentException if {@code key} is null or empty
     */
    public Builder setAttribute(String key, long value) {
      return put(key, AnyValue.of(value));
    }

    /**
     * A double attribute; replaces the value of an attribute with the same key, which keeps its
     * position.
     *
     * @param key the key, non-empty
     * @param value the value, finite
     * @return this builder
     * @throws IllegalArgumentException if {@code key} is null or empty, or {@code value} is NaN or
     *     infinite
     */
    public Builder setAttribute(String key, double value) {
      if (Double.isNaN(value) || Double.isInfinite(value)) {
        throw new IllegalArgumentException(
            "attribute '" + key + "' must be a finite double, was " + value);
      }
      return put(key, AnyValue.of(value));
    }

    /**
     * A bytes attribute; replaces the value of an attribute with the same key, which keeps its
     * position.
     *
     * @param key the key, non-empty
     * @param value the value, not null; copied
     * @return this builder
     * @throws IllegalArgumentException if {@code key} is null or empty, or {@code value} is null
     */
    public Builder setAttribute(String key, byte[] value) {
      if (value == null) {
        throw new IllegalArgumentException("attribute '" + key + "' value must not be null");
      }
      return put(key, AnyValue.of(value));
    }

    /**
     * Any value, including arrays and nested key/value lists (whose depth {@link AnyValue} already
     * bounds); replaces the value of an attribute with the same key, which keeps its position.
     *
     * @param key the key, non-empty
     * @param value the value, not null
     * @return this builder
     * @throws IllegalArgumentException if {@code key} is null or empty, or {@code value} is null
     */
    public Builder setAttribute(String key, AnyValue value) {
      if (value == null) {
        throw new IllegalArgumentException("attribute '" + key + "' value must not be null");
      }
      return put(key, value);
    }

    /**
     * Removes all attributes and sets the dropped-attributes count back to 0; the attribute count
     * limit stays.
     *
     * @return this builder
     */
    public Builder clearAttributes() {
      Arrays.fill(attributeKeys, 0, attributeCount, null);
      Arrays.fill(attributeValues, 0, attributeCount, null);
      attributeCount = 0;
      index = null;
      droppedAttributesCount = 0;
      longestAttributeValueLength = 0;
      return this;
    }

    /**
     * OTLP {@code dropped_attributes_count}: how many attributes were left out before the record
     * reached this builder (e.g. by an SDK's limit upstream). Attributes refused by {@link
     * #setAttributeCountLimit(int)} are added to it; the producer adds those its own limit drops.
     *
     * @param droppedAttributesCount the count, at least 0; default 0
     * @return this builder
     * @throws IllegalArgumentException if negative
     */
    public Builder setDroppedAttributesCount(int droppedAttributesCount) {
      if (droppedAttributesCount < 0) {
        throw new IllegalArgumentException(
            "droppedAttributesCount must be >= 0, was " + droppedAttributesCount);
      }
      this.droppedAttributesCount = droppedAttributesCount;
      return this;
    }

    /**
     * Caps the number of attributes, as OpenTelemetry's {@code AttributeCountLimit}: from now on an
     * attribute with a new key is not added while the builder holds {@code limit} or more; it is
     * counted in {@code dropped_attributes_count} instead (saturating at {@link
     * Integer#MAX_VALUE}). Setting the value of a key already held still works. Attributes already
     * held above a lowered limit stay. A mapper that copies an unbounded source (an MDC) thus
     * neither holds nor copies what the record may not carry. Not part of the built record.
     *
     * @param limit attributes, at least 0; default {@link Integer#MAX_VALUE} (no limit)
     * @return this builder
     * @throws IllegalArgumentException if negative
     */
    public Builder setAttributeCountLimit(int limit) {
      if (limit < 0) {
        throw new IllegalArgumentException("attributeCountLimit must be >= 0, was " + limit);
      }
      this.attributeCountLimit = limit;
      return this;
    }

    private Builder put(String key, AnyValue value) {
      if (key == null) {
        throw new IllegalArgumentException("attribute key must not be null");
      }
      if (key.isEmpty()) {
        throw new IllegalArgumentException("attribute key must not be empty");
      }
      int i = indexOf(key);
      if (i >= 0) {
        attributeValues[i] = value;
      } else if (attributeCount >= attributeCountLimit) {
        if (droppedAttributesCount < Integer.MAX_VALUE) {
          droppedAttributesCount++;
        }
        return this;
      } else {
        append(key, value);
      }
      int length = valueLength(value);
      if (length > longestAttributeValueLength) {
        longestAttributeValueLength = length;
      }
      return this;
    }

    /**
     * The position of {@code key}, or -1: a scan of a few keys, else the index. The scan compares
     * references first: keys are usually constants, the same instance each time, so a key set again
     * is found without {@code equals}.
     */
    private int indexOf(String key) {
      if (index != null) {
        return index.find(key, attributeKeys);
      }
      for (int i = 0; i < attributeCount; i++) {
        if (attributeKeys[i] == key) {
          return i;
        }
      }
      for (int i = 0; i < attributeCount; i++) {
        if (attributeKeys[i].equals(key)) {
          return i;
        }
      }
      return -1;
    }

    /** Adds a key not held yet; indexes the keys once there are more than a scan is good for. */
    private void append(String key, AnyValue value) {
      if (attributeCount == attributeKeys.length) {
        int n = Math.max(4, attributeCount * 2);
        attributeKeys = Arrays.copyOf(attributeKeys, n);
        attributeValues = Arrays.copyOf(attributeValues, n);
      }
      attributeKeys[attributeCount] = key;
      attributeValues[attributeCount] = value;
      if (index != null) {
        index.add(key, attributeCount, attributeKeys);
      } else if (attributeCount >= AttributeIndex.LINEAR_MAX) {
        index = new AttributeIndex(attributeKeys, attributeCount + 1);
      }
      attributeCount++;
    }

    /**
     * Chars of a string, bytes of a byte array, the longest of those inside an array or key/value
     * list (recursion bounded by {@link AnyValue#MAX_DEPTH}); 0 for other values.
     */
    private static int valueLength(AnyValue value) {
      switch (value.getType()) {
        case STRING:
          return value.asString().length();
        case BYTES:
          return value.asBytes().length;
        case ARRAY:
          {
            int longest = 0;
            for (AnyValue v : value.asArray()) {
              longest = Math.max(longest, valueLength(v));
            }
            return longest;
          }
        case KEY_VALUE_LIST:
          {
            int longest = 0;
            for (AnyValue v : value.asKeyValueList().values()) {
              longest = Math.max(longest, valueLength(v));
            }
            return longest;
          }
        default:
          return 0;
      }
    }

    /**
     * The trace id.
     *
     * @param traceId 16 bytes (copied), or null or empty to clear
     * @return this builder
     * @throws IllegalArgumentException on any other length
     */
    public Builder setTraceId(byte[] traceId) {
      this.traceId = TraceIds.copy("traceId", traceId, 16);
      return this;
    }

    /**
     * The trace id, in hex.
     *
     * @param hex 32 ASCII hex digits ({@code [0-9a-fA-F]}), or null or empty to clear
     * @return this builder
     * @throws IllegalArgumentException if not 32 characters long, or a character is not an ASCII
     *     hex digit (other Unicode digits and letters, e.g. fullwidth {@code 'Ａ'}, are refused);
     *     the message names the character and its index
     */
    public Builder setTraceId(String hex) {
      this.traceId = TraceIds.fromHex("traceId", hex, 16);
      return this;
    }

    /**
     * The span id.
     *
     * @param spanId 8 bytes (copied), or null or empty to clear
     * @return this builder
     * @throws IllegalArgumentException on any other length
     */
    public Builder setSpanId(byte[] spanId) {
      this.spanId = TraceIds.copy("spanId", spanId, 8);
      return this;
    }

    /**
     * The span id, in hex.
     *
     * @param hex 16 ASCII hex digits ({@code [0-9a-fA-F]}), or null or empty to clear
     * @return this builder
     * @throws IllegalArgumentException if not 16 characters long, or a character is not an ASCII
     *     hex digit (other Unicode digits and letters, e.g. fullwidth {@code 'Ａ'}, are refused);
     *     the message names the character and its index
     */
    public Builder setSpanId(String hex) {
      this.spanId = TraceIds.fromHex("spanId", hex, 8);
      return this;
    }

    /**
     * W3C trace flags (OTLP {@code flags}); default 0.
     *
     * @param flags the flags, 32 bits (bit 0: sampled)
     * @return this builder
     */
    public Builder setFlags(int flags) {
      this.flags = flags;
      return this;
    }

    /**
     * OTLP {@code event_name}.
     *
     * @param eventName the name; null clears it
     * @return this builder
     */
    public Builder setEventName(String eventName) {
      this.eventName = eventName;
      return this;
    }

    /**
     * The OTLP {@code InstrumentationScope.name} of this record, as OpenTelemetry's logging
     * appenders set it from the logger name. Null (the default) means the exporter's configured
     * scope. Used by the OTLP exporter when it is built with {@code
     * setInstrumentationScopeFromRecords(true)} (each record then travels in a {@code ScopeLogs} of
     * its own); ignored otherwise, and by GSE.
     *
     * @param name the scope name; null or empty clears it
     * @return this builder
     */
    public Builder setInstrumentationScopeName(String name) {
      this.instrumentationScopeName = name == null || name.isEmpty() ? null : name;
      return this;
    }

    /**
     * Exporter-specific routing target, not encoded: the GSE dataid as a decimal string, a Kafka
     * topic; ignored by OTLP.
     *
     * @param destination the target; null (the default) means the exporter's configured default
     * @return this builder
     */
    public Builder setDestination(String destination) {
      this.destination = destination;
      return this;
    }

    /** {@return a new immutable record} The builder keeps its state and can be reused. */
    public LogRecord build() {
      return new LogRecord(this);
    }
  }
}
