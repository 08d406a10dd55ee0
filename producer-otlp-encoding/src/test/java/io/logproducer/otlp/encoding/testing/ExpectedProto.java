package io.logproducer.otlp.encoding.testing;

import com.google.protobuf.ByteString;
import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.resource.v1.Resource;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Builds, with the generated OTLP classes (an independent implementation), the message our encoders
 * should produce for a record, so tests compare decoded output with it field by field ({@code
 * equals}) and byte by byte.
 */
public final class ExpectedProto {

  private ExpectedProto() {}

  /** The generated {@code LogRecord} for {@code r}. */
  public static io.opentelemetry.proto.logs.v1.LogRecord logRecord(LogRecord r) {
    io.opentelemetry.proto.logs.v1.LogRecord.Builder b =
        io.opentelemetry.proto.logs.v1.LogRecord.newBuilder()
            .setTimeUnixNano(r.getTimeUnixNano())
            .setObservedTimeUnixNano(r.getObservedTimeUnixNano())
            .setSeverityNumberValue(r.getSeverityNumber())
            .setFlags(r.getFlags())
            .setDroppedAttributesCount(r.getDroppedAttributesCount());
    if (r.getSeverityText() != null) {
      b.setSeverityText(utf8(r.getSeverityText()));
    }
    if (r.getBody() != null) {
      b.setBody(anyValue(r.getBody()));
    }
    for (int i = 0; i < r.getAttributeCount(); i++) {
      b.addAttributes(keyValue(r.getAttributeKey(i), r.getAttributeValue(i)));
    }
    if (r.getTraceId() != null) {
      b.setTraceId(ByteString.copyFrom(r.getTraceId()));
    }
    if (r.getSpanId() != null) {
      b.setSpanId(ByteString.copyFrom(r.getSpanId()));
    }
    if (r.getEventName() != null) {
      b.setEventName(utf8(r.getEventName()));
    }
    return b.build();
  }

  public static KeyValue keyValue(String key, AnyValue value) {
    return KeyValue.newBuilder().setKey(utf8(key)).setValue(anyValue(value)).build();
  }

  public static io.opentelemetry.proto.common.v1.AnyValue anyValue(AnyValue v) {
    io.opentelemetry.proto.common.v1.AnyValue.Builder b =
        io.opentelemetry.proto.common.v1.AnyValue.newBuilder();
    switch (v.getType()) {
      case STRING:
        return b.setStringValue(utf8(v.asString())).build();
      case BOOLEAN:
        return b.setBoolValue(v.asBoolean()).build();
      case LONG:
        return b.setIntValue(v.asLong()).build();
      case DOUBLE:
        return b.setDoubleValue(v.asDouble()).build();
      case BYTES:
        return b.setBytesValue(ByteString.copyFrom(v.asBytes())).build();
      case ARRAY:
        {
          ArrayValue.Builder a = ArrayValue.newBuilder();
          for (AnyValue e : v.asArray()) {
            a.addValues(anyValue(e));
          }
          return b.setArrayValue(a).build();
        }
      case KEY_VALUE_LIST:
        {
          KeyValueList.Builder l = KeyValueList.newBuilder();
          for (Map.Entry<String, AnyValue> e : v.asKeyValueList().entrySet()) {
            l.addValues(keyValue(e.getKey(), e.getValue()));
          }
          return b.setKvlistValue(l).build();
        }
      default:
        throw new AssertionError(v.getType());
    }
  }

  /** The whole request for these records under one resource and scope. */
  public static ExportLogsServiceRequest request(
      Map<String, AnyValue> resource,
      String scopeName,
      String scopeVersion,
      List<LogRecord> records) {
    Resource.Builder res = Resource.newBuilder();
    for (Map.Entry<String, AnyValue> e : resource.entrySet()) {
      res.addAttributes(keyValue(e.getKey(), e.getValue()));
    }
    InstrumentationScope.Builder scope = InstrumentationScope.newBuilder().setName(scopeName);
    if (scopeVersion != null) {
      scope.setVersion(scopeVersion);
    }
    ScopeLogs.Builder scopeLogs = ScopeLogs.newBuilder().setScope(scope);
    for (LogRecord r : records) {
      scopeLogs.addLogRecords(logRecord(r));
    }
    return ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(ResourceLogs.newBuilder().setResource(res).addScopeLogs(scopeLogs))
        .build();
  }

  /**
   * The whole request for these records with the scope taken from the records: one {@code
   * ScopeLogs} per record, scoped by its {@link LogRecord#getInstrumentationScopeName() scope name}
   * (name only), or by the exporter's {@code scopeName} and {@code scopeVersion} when it has none.
   */
  public static ExportLogsServiceRequest scopedRequest(
      Map<String, AnyValue> resource,
      String scopeName,
      String scopeVersion,
      List<LogRecord> records) {
    Resource.Builder res = Resource.newBuilder();
    for (Map.Entry<String, AnyValue> e : resource.entrySet()) {
      res.addAttributes(keyValue(e.getKey(), e.getValue()));
    }
    ResourceLogs.Builder resourceLogs = ResourceLogs.newBuilder().setResource(res);
    for (LogRecord r : records) {
      resourceLogs.addScopeLogs(scopeLogs(r, scopeName, scopeVersion));
    }
    return ExportLogsServiceRequest.newBuilder().addResourceLogs(resourceLogs).build();
  }

  /**
   * The {@code ScopeLogs} of its own that {@code r} travels in when the scope is taken from the
   * records.
   */
  public static ScopeLogs scopeLogs(LogRecord r, String scopeName, String scopeVersion) {
    InstrumentationScope.Builder scope = InstrumentationScope.newBuilder();
    if (r.getInstrumentationScopeName() != null) {
      scope.setName(utf8(r.getInstrumentationScopeName()));
    } else {
      scope.setName(scopeName);
      if (scopeVersion != null) {
        scope.setVersion(scopeVersion);
      }
    }
    return ScopeLogs.newBuilder().setScope(scope).addLogRecords(logRecord(r)).build();
  }

  /** What a string becomes in UTF-8 and back: an unpaired surrogate turns into '?'. */
  public static String utf8(String s) {
    return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
  }
}
