package io.logproducer.internal;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The producer's attribute limits, {@code maxAttributesPerRecord} and {@code
 * maxAttributeValueLength} (OpenTelemetry's {@code LogLimits}), applied to each record at {@code
 * send} before it is encoded. A record within both is returned as it is, in O(1): its attribute
 * count and its longest value ({@link LogRecord#getLongestAttributeValueLength()}) are known. A
 * record over either is replaced by a copy that keeps its first {@code maxAttributesPerRecord}
 * attributes, adds the others to its {@code dropped_attributes_count} (saturating at {@link
 * Integer#MAX_VALUE}) and truncates longer values: strings to {@code maxAttributeValueLength} chars
 * (one fewer rather than split a surrogate pair), byte arrays to as many bytes, inside arrays and
 * key/value lists too. Every other field is copied as it is. Immutable; thread-safe.
 */
final class AttributeLimits {

  private final int maxAttributes;
  private final int maxValueLength;

  AttributeLimits(ProducerConfig config) {
    this(config.getMaxAttributesPerRecord(), config.getMaxAttributeValueLength());
  }

  AttributeLimits(int maxAttributes, int maxValueLength) {
    this.maxAttributes = maxAttributes;
    this.maxValueLength = maxValueLength;
  }

  /**
   * The record within the limits.
   *
   * @param record a record
   * @return {@code record} itself when it is within them, else a limited copy
   */
  LogRecord apply(LogRecord record) {
    if (record.getAttributeCount() <= maxAttributes
        && record.getLongestAttributeValueLength() <= maxValueLength) {
      return record;
    }
    return limited(record);
  }

  private LogRecord limited(LogRecord r) {
    int n = r.getAttributeCount();
    int keep = Math.min(n, maxAttributes);
    LogRecord.Builder b = copyOfAllButAttributes(r);
    boolean changed = keep < n;
    for (int i = 0; i < keep; i++) {
      AnyValue value = r.getAttributeValue(i);
      AnyValue truncated = truncate(value);
      changed |= truncated != value;
      b.setAttribute(r.getAttributeKey(i), truncated);
    }
    if (!changed) { // the record's longest value was one it no longer holds
      return r;
    }
    long dropped = (long) r.getDroppedAttributesCount() + (n - keep);
    return b.setDroppedAttributesCount((int) Math.min(Integer.MAX_VALUE, dropped)).build();
  }

  private static LogRecord.Builder copyOfAllButAttributes(LogRecord r) {
    return LogRecord.builder()
        .setTimeUnixNano(r.getTimeUnixNano())
        .setObservedTimeUnixNano(r.getObservedTimeUnixNano())
        .setSeverityNumber(r.getSeverityNumber())
        .setSeverityText(r.getSeverityText())
        .setBody(r.getBody())
        .setTraceId(r.getTraceId())
        .setSpanId(r.getSpanId())
        .setFlags(r.getFlags())
        .setEventName(r.getEventName())
        .setInstrumentationScopeName(r.getInstrumentationScopeName())
        .setDestination(r.getDestination());
  }

  /** {@code value} within the length limit: itself when it is, else a truncated copy. */
  AnyValue truncate(AnyValue value) {
    switch (value.getType()) {
      case STRING:
        {
          String s = value.asString();
          return s.length() <= maxValueLength ? value : AnyValue.of(truncate(s, maxValueLength));
        }
      case BYTES:
        {
          byte[] bytes = value.asBytes();
          return bytes.length <= maxValueLength
              ? value
              : AnyValue.of(Arrays.copyOf(bytes, maxValueLength));
        }
      case ARRAY:
        return truncateArray(value);
      case KEY_VALUE_LIST:
        return truncateKeyValueList(value);
      default:
        return value;
    }
  }

  private AnyValue truncateArray(AnyValue value) {
    List<AnyValue> elements = value.asArray();
    List<AnyValue> out = null;
    for (int i = 0; i < elements.size(); i++) {
      AnyValue e = elements.get(i);
      AnyValue t = truncate(e);
      if (t != e && out == null) {
        out = new ArrayList<AnyValue>(elements.subList(0, i));
      }
      if (out != null) {
        out.add(t);
      }
    }
    return out == null ? value : AnyValue.ofArray(out);
  }

  private AnyValue truncateKeyValueList(AnyValue value) {
    Map<String, AnyValue> entries = value.asKeyValueList();
    Map<String, AnyValue> out = new LinkedHashMap<String, AnyValue>();
    boolean changed = false;
    for (Map.Entry<String, AnyValue> e : entries.entrySet()) {
      AnyValue t = truncate(e.getValue());
      changed |= t != e.getValue();
      out.put(e.getKey(), t);
    }
    return changed ? AnyValue.ofKeyValueList(out) : value;
  }

  /**
   * The first {@code max} chars of {@code s} ({@code s.length() > max}), one fewer when the cut
   * would split a surrogate pair.
   */
  static String truncate(String s, int max) {
    int end = max;
    if (end > 0
        && Character.isHighSurrogate(s.charAt(end - 1))
        && Character.isLowSurrogate(s.charAt(end))) {
      end--;
    }
    return s.substring(0, end);
  }
}
