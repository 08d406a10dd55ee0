package io.logproducer.testing.otlp;

import java.util.Collections;
import java.util.Map;

/**
 * One OTLP {@code LogRecord} as {@link OtlpReceiver} decoded it (strict mode), with its resource's and scope's
 * attributes. Values of the OTLP {@code AnyValue} are plain Java objects: {@code String}, {@code Long} (int_value),
 * {@code Double}, {@code Boolean}, {@code byte[]}, {@code List<Object>} (array_value) and
 * {@code Map<String, Object>} (kvlist_value, in order); an absent value is null. Immutable once received, hence
 * thread-safe.
 */
public final class ReceivedLogRecord {

  // Set once by the decoder before the record is published (through the receiver's concurrent lists).
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
  int flags;
  String traceId = "";
  String spanId = "";
  String eventName = "";

  ReceivedLogRecord() {
  }

  /** The resource's attributes, in order; unmodifiable. */
  public Map<String, Object> resourceAttributes() {
    return resourceAttributes;
  }

  /** The instrumentation scope's name, "" if unset. */
  public String scopeName() {
    return scopeName;
  }

  /** The instrumentation scope's version, "" if unset. */
  public String scopeVersion() {
    return scopeVersion;
  }

  /** The instrumentation scope's attributes, in order; unmodifiable. */
  public Map<String, Object> scopeAttributes() {
    return scopeAttributes;
  }

  /** {@code time_unix_nano}: when the event happened, nanoseconds since the epoch; 0 if unset. */
  public long timeUnixNano() {
    return timeUnixNano;
  }

  /** {@code observed_time_unix_nano}: when the event was observed, nanoseconds since the epoch; 0 if unset. */
  public long observedTimeUnixNano() {
    return observedTimeUnixNano;
  }

  /** {@code severity_number}: 1–24, 0 if unset. */
  public int severityNumber() {
    return severityNumber;
  }

  /** {@code severity_text}, "" if unset. */
  public String severityText() {
    return severityText;
  }

  /** The body as a Java value (see the class comment), null if unset. */
  public Object body() {
    return body;
  }

  /** The body if it is a string, else "" (as protobuf-java's {@code getBody().getStringValue()}). */
  public String bodyString() {
    return body instanceof String ? (String) body : "";
  }

  /** The record's attributes, in order (a repeated key keeps its last value); unmodifiable. */
  public Map<String, Object> attributes() {
    return attributes;
  }

  /** One attribute's value, or null. */
  public Object attribute(String key) {
    return attributes.get(key);
  }

  /** {@code dropped_attributes_count}. */
  public int droppedAttributesCount() {
    return droppedAttributesCount;
  }

  /** {@code flags} (W3C trace flags in the low 8 bits). */
  public int flags() {
    return flags;
  }

  /** {@code trace_id} as 32 lower-case hex digits, "" if unset. */
  public String traceId() {
    return traceId;
  }

  /** {@code span_id} as 16 lower-case hex digits, "" if unset. */
  public String spanId() {
    return spanId;
  }

  /** {@code event_name}, "" if unset. */
  public String eventName() {
    return eventName;
  }

  @Override
  public String toString() {
    return "ReceivedLogRecord{time=" + timeUnixNano + ", severity=" + severityNumber + "/" + severityText + ", body="
        + body + ", attributes=" + attributes + ", scope=" + scopeName + "}";
  }
}
