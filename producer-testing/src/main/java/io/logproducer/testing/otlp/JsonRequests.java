package io.logproducer.testing.otlp;

import io.logproducer.internal.json.JsonReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads an OTLP/JSON {@code ExportLogsServiceRequest} (the protobuf JSON mapping: lowerCamelCase
 * names, also accepting the original snake_case ones; int64 as strings or numbers; trace and span
 * ids as hex; bytes as base64; enums as numbers or names) into {@link ReceivedLogRecord}s, with the
 * core's {@link JsonReader}. Throws {@link IllegalArgumentException} on malformed input. Stateless,
 * thread-safe.
 */
final class JsonRequests {

  private static final String[] SEVERITIES = {"TRACE", "DEBUG", "INFO", "WARN", "ERROR", "FATAL"};

  private JsonRequests() {}

  /**
   * The log records of an OTLP/JSON request, in order, with their resource's and scope's
   * attributes.
   */
  static List<ReceivedLogRecord> decode(String json) {
    Object root;
    try {
      root = JsonReader.parse(json);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("malformed OTLP/JSON: " + e.getMessage(), e);
    }
    if (!(root instanceof Map)) {
      throw new IllegalArgumentException("malformed OTLP/JSON: the request is not an object");
    }
    List<ReceivedLogRecord> out = new ArrayList<>();
    for (Object rl :
        list(field((Map<?, ?>) root, "resourceLogs", "resource_logs"), "resourceLogs")) {
      Map<?, ?> resourceLogs = object(rl, "resourceLogs[]");
      Map<?, ?> resource = optionalObject(field(resourceLogs, "resource", "resource"), "resource");
      List<String> resourceRepeats = new ArrayList<>();
      Map<String, Object> resourceAttributes =
          keyValues(field(resource, "attributes", "attributes"), 0, resourceRepeats);
      List<String> resourceRepeated = Collections.unmodifiableList(resourceRepeats);
      for (Object sl : list(field(resourceLogs, "scopeLogs", "scope_logs"), "scopeLogs")) {
        Map<?, ?> scopeLogs = object(sl, "scopeLogs[]");
        Map<?, ?> scope = optionalObject(field(scopeLogs, "scope", "scope"), "scope");
        String name = string(field(scope, "name", "name"));
        String version = string(field(scope, "version", "version"));
        List<String> scopeRepeats = new ArrayList<>();
        Map<String, Object> scopeAttributes =
            keyValues(field(scope, "attributes", "attributes"), 0, scopeRepeats);
        List<String> scopeRepeated = Collections.unmodifiableList(scopeRepeats);
        for (Object lr : list(field(scopeLogs, "logRecords", "log_records"), "logRecords")) {
          ReceivedLogRecord r = logRecord(object(lr, "logRecords[]"));
          r.resourceAttributes = resourceAttributes;
          r.scopeName = name;
          r.scopeVersion = version;
          r.scopeAttributes = scopeAttributes;
          r.repeatedResourceAttributeKeys = resourceRepeated;
          r.repeatedScopeAttributeKeys = scopeRepeated;
          out.add(r);
        }
      }
    }
    return Collections.unmodifiableList(out);
  }

  private static ReceivedLogRecord logRecord(Map<?, ?> m) {
    ReceivedLogRecord r = new ReceivedLogRecord();
    r.timeUnixNano = number(field(m, "timeUnixNano", "time_unix_nano"), "timeUnixNano");
    r.observedTimeUnixNano =
        number(field(m, "observedTimeUnixNano", "observed_time_unix_nano"), "observedTimeUnixNano");
    r.severityNumber = severity(field(m, "severityNumber", "severity_number"));
    r.severityText = string(field(m, "severityText", "severity_text"));
    Object body = field(m, "body", "body");
    r.body = body == null ? null : anyValue(object(body, "body"), 0);
    List<String> repeats = new ArrayList<>();
    r.attributes = keyValues(field(m, "attributes", "attributes"), 0, repeats);
    r.repeatedAttributeKeys = Collections.unmodifiableList(repeats);
    r.droppedAttributesCount =
        (int)
            number(
                field(m, "droppedAttributesCount", "dropped_attributes_count"),
                "droppedAttributesCount");
    r.flags = (int) number(field(m, "flags", "flags"), "flags");
    r.traceId = string(field(m, "traceId", "trace_id")).toLowerCase(Locale.ROOT);
    r.spanId = string(field(m, "spanId", "span_id")).toLowerCase(Locale.ROOT);
    r.eventName = string(field(m, "eventName", "event_name"));
    return r;
  }

  /**
   * The KeyValues of a JSON array; keys seen before in it are added to {@code repeats} (null: not
   * tracked, inside a value), and the last value is kept.
   */
  private static Map<String, Object> keyValues(Object array, int depth, List<String> repeats) {
    if (array == null) {
      return Collections.emptyMap();
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (Object kv : list(array, "attributes")) {
      Map<?, ?> m = object(kv, "KeyValue");
      Object value = m.get("value");
      if (repeats != null && out.containsKey(string(m.get("key")))) {
        repeats.add(string(m.get("key")));
      }
      out.put(
          string(m.get("key")), value == null ? null : anyValue(object(value, "value"), depth + 1));
    }
    return Collections.unmodifiableMap(out);
  }

  private static Object anyValue(Map<?, ?> v, int depth) {
    if (depth > 32) {
      throw new IllegalArgumentException("malformed OTLP/JSON: AnyValue nested deeper than 32");
    }
    if (v.containsKey("stringValue") || v.containsKey("string_value")) {
      return string(field(v, "stringValue", "string_value"));
    }
    if (v.containsKey("boolValue") || v.containsKey("bool_value")) {
      return Boolean.TRUE.equals(field(v, "boolValue", "bool_value"));
    }
    if (v.containsKey("intValue") || v.containsKey("int_value")) {
      return number(field(v, "intValue", "int_value"), "intValue");
    }
    if (v.containsKey("doubleValue") || v.containsKey("double_value")) {
      Object d = field(v, "doubleValue", "double_value");
      return d instanceof BigDecimal ? ((BigDecimal) d).doubleValue() : Double.valueOf(string(d));
    }
    if (v.containsKey("bytesValue") || v.containsKey("bytes_value")) {
      return Base64.getDecoder().decode(string(field(v, "bytesValue", "bytes_value")));
    }
    if (v.containsKey("arrayValue") || v.containsKey("array_value")) {
      Map<?, ?> array = object(field(v, "arrayValue", "array_value"), "arrayValue");
      List<Object> out = new ArrayList<>();
      for (Object e : list(array.get("values"), "values")) {
        out.add(anyValue(object(e, "AnyValue"), depth + 1));
      }
      return Collections.unmodifiableList(out);
    }
    if (v.containsKey("kvlistValue") || v.containsKey("kvlist_value")) {
      Map<?, ?> kvlist = object(field(v, "kvlistValue", "kvlist_value"), "kvlistValue");
      return keyValues(kvlist.get("values"), depth + 1, null);
    }
    return null;
  }

  private static int severity(Object value) {
    if (value instanceof String && ((String) value).startsWith("SEVERITY_NUMBER_")) {
      String name = ((String) value).substring("SEVERITY_NUMBER_".length());
      for (int i = 0; i < SEVERITIES.length; i++) {
        for (int k = 1; k <= 4; k++) {
          if (name.equals(SEVERITIES[i] + (k == 1 ? "" : Integer.toString(k)))) {
            return i * 4 + k;
          }
        }
      }
      if (name.equals("UNSPECIFIED")) {
        return 0;
      }
      throw new IllegalArgumentException("malformed OTLP/JSON: unknown severityNumber " + value);
    }
    return (int) number(value, "severityNumber");
  }

  private static Object field(Map<?, ?> m, String camel, String snake) {
    Object v = m.get(camel);
    return v != null ? v : m.get(snake);
  }

  private static long number(Object value, String name) {
    if (value == null) {
      return 0;
    }
    Long n = JsonReader.asLong(value);
    if (n == null) {
      throw new IllegalArgumentException(
          "malformed OTLP/JSON: " + name + " is not an integer: " + value);
    }
    return n;
  }

  private static String string(Object value) {
    if (value == null) {
      return "";
    }
    if (!(value instanceof String)) {
      throw new IllegalArgumentException("malformed OTLP/JSON: expected a string, got " + value);
    }
    return (String) value;
  }

  private static List<?> list(Object value, String name) {
    if (value == null) {
      return Collections.emptyList();
    }
    if (!(value instanceof List)) {
      throw new IllegalArgumentException("malformed OTLP/JSON: " + name + " is not an array");
    }
    return (List<?>) value;
  }

  private static Map<?, ?> object(Object value, String name) {
    if (!(value instanceof Map)) {
      throw new IllegalArgumentException("malformed OTLP/JSON: " + name + " is not an object");
    }
    return (Map<?, ?>) value;
  }

  private static Map<?, ?> optionalObject(Object value, String name) {
    return value == null ? Collections.emptyMap() : object(value, name);
  }
}
