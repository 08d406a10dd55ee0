package io.logproducer.testing.otlp;

import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One OTLP {@code LogRecord} as {@link OtlpReceiver} decoded it (strict mode), with its resource's
 * and scope's attributes. Values of the OTLP {@code AnyValue} are plain Java objects: {@code
 * String}, {@code Long} (int_value), {@code Double}, {@code Boolean}, {@code byte[]}, {@code
 * List<Object>} (array_value) and {@code Map<String, Object>} (kvlist_value, in order); an absent
 * value is null. Immutable once received, hence thread-safe.
 */
public final class ReceivedLogRecord {

  // Set once by the decoder before the record is published (through the receiver's concurrent
  // lists).
  Map<String, Object> resourceAttributes = Collections.emptyMap();
  String scopeName = "";
  String scopeVersion = "";
  Map<String, Object> scopeAttributes = Collections.emptyMap();
  long timeUnixNano;
  long observedTimeUnixNano;
  int severityNumber;
  String severityText = "";
  Object body;
  Map<String, Object> attributes = Collections.emptyMap();
  int droppedAttributesCount;
  List<String> repeatedAttributeKeys = Collections.emptyList();
  List<String> repeatedResourceAttributeKeys = Collections.emptyList();
  List<String> repeatedScopeAttributeKeys = Collections.emptyList();
  int flags;
  String traceId = "";
  String spanId = "";
  String eventName = "";

  ReceivedLogRecord() {}

  /** {@return the resource's attributes, in order; unmodifiable} */
  public Map<String, Object> resourceAttributes() {
    return resourceAttributes;
  }

  /** {@return the instrumentation scope's name, "" if unset} */
  public String scopeName() {
    return scopeName;
  }

  /** {@return the instrumentation scope's version, "" if unset} */
  public String scopeVersion() {
    return scopeVersion;
  }

  /** {@return the instrumentation scope's attributes, in order; unmodifiable} */
  public Map<String, Object> scopeAttributes() {
    return scopeAttributes;
  }

  /**
   * {@return {@code time_unix_nano}: when the event happened, nanoseconds since the epoch; 0 if
   * unset}
   */
  public long timeUnixNano() {
    return timeUnixNano;
  }

  /**
   * {@return {@code observed_time_unix_nano}: when the event was observed, nanoseconds since the
   * epoch; 0 if unset}
   */
  public long observedTimeUnixNano() {
    return observedTimeUnixNano;
  }

  /** {@return {@code severity_number}: 1–24, 0 if unset} */
  public int severityNumber() {
    return severityNumber;
  }

  /** {@return {@code severity_text}, "" if unset} */
  public String severityText() {
    return severityText;
  }

  /** {@return the body as a Java value (see the class comment), null if unset} */
  public Object body() {
    return body;
  }

  /**
   * {@return the body if it is a string, else "" (as protobuf-java's {@code
   * getBody().getStringValue()})}
   */
  public String bodyString() {
    return body instanceof String ? (String) body : "";
  }

  /**
   * {@return the record's attributes, in order (a repeated key keeps its last value); unmodifiable}
   */
  public Map<String, Object> attributes() {
    return attributes;
  }

  /**
   * {@return one attribute's value, or null}
   *
   * @param key the attribute's key
   */
  public Object attribute(String key) {
    return attributes.get(key);
  }

  /**
   * Keys that occur more than once in this record's own attribute list (a well-formed OTLP producer
   * writes each key once): {@link #attributes()} keeps the last value of each.
   *
   * @return the repeated keys, once per extra occurrence, in wire order; empty if all are distinct;
   *     unmodifiable
   */
  public List<String> repeatedAttributeKeys() {
    return repeatedAttributeKeys;
  }

  /**
   * Keys that occur more than once in the attributes of this record's {@code Resource}: {@link
   * #resourceAttributes()} keeps the last value of each.
   *
   * @return the repeated keys, once per extra occurrence, in wire order; empty if all are distinct;
   *     the same list for every record of one {@code ResourceLogs}; unmodifiable
   */
  public List<String> repeatedResourceAttributeKeys() {
    return repeatedResourceAttributeKeys;
  }

  /**
   * Keys that occur more than once in the attributes of this record's {@code InstrumentationScope}:
   * {@link #scopeAttributes()} keeps the last value of each.
   *
   * @return the repeated keys, once per extra occurrence, in wire order; empty if all are distinct;
   *     the same list for every record of one {@code ScopeLogs}; unmodifiable
   */
  public List<String> repeatedScopeAttributeKeys() {
    return repeatedScopeAttributeKeys;
  }

  /** {@return {@code dropped_attributes_count}} */
  public int droppedAttributesCount() {
    return droppedAttributesCount;
  }

  /** {@return {@code flags} (W3C trace flags in the low 8 bits)} */
  public int flags() {
    return flags;
  }

  /** {@return {@code trace_id} as 32 lower-case hex digits, "" if unset} */
  public String traceId() {
    return traceId;
  }

  /** {@return {@code span_id} as 16 lower-case hex digits, "" if unset} */
  public String spanId() {
    return spanId;
  }

  /** {@return {@code event_name}, "" if unset} */
  public String eventName() {
    return eventName;
  }

  @Override
  public String toString() {
    return "ReceivedLogRecord{time="
        + timeUnixNano
        + ", severity="
        + severityNumber
        + "/"
        + severityText
        + ", body="
        + body
        + ", attributes="
        + attributes
        + ", scope="
        + scopeName
        + "}";
  }
}
