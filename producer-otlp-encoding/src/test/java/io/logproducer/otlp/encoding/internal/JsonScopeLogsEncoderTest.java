package io.logproducer.otlp.encoding.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.otlp.encoding.testing.ExpectedProto;
import io.logproducer.otlp.encoding.testing.OtlpJson;
import io.logproducer.otlp.encoding.testing.TestBatch;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scope taken from the records, OTLP/JSON: exact text, and requests parsed with JsonFormat
 * compared with the protobuf path and with what protobuf-java builds.
 */
class JsonScopeLogsEncoderTest {

  private static String encode(RecordEncoder encoder, LogRecord r) {
    EncodeBuffer buf = new EncodeBuffer(16);
    encoder.encode(r, buf);
    return new String(buf.array(), 0, buf.size(), StandardCharsets.UTF_8);
  }

  private static String request(WireFormat format, List<LogRecord> records) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    format.writeRequest(TestBatch.of(format.encoder(), records), out);
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  void exactTextOfNamedAndUnnamedRecords() {
    RecordEncoder encoder = new JsonWireFormat(Map.of(), "io.logproducer", "1.0", true).encoder();
    LogRecord.Builder b = LogRecord.builder().setObservedTimeUnixNano(5).setBody("hi");
    assertEquals(
        "{\"scope\":{\"name\":\"com.example.Foo\"},\"logRecords\":[{\"observedTimeUnixNano\":\"5\","
            + "\"body\":{\"stringValue\":\"hi\"}}]}",
        encode(encoder, b.setInstrumentationScopeName("com.example.Foo").build()));
    assertEquals(
        "{\"scope\":{\"name\":\"io.logproducer\",\"version\":\"1.0\"},\"logRecords\":["
            + "{\"observedTimeUnixNano\":\"5\",\"body\":{\"stringValue\":\"hi\"}}]}",
        encode(encoder, b.setInstrumentationScopeName(null).build()));
    assertEquals(
        "{\"scope\":{\"name\":\"a\\\"b\\\\c\\n日志😀?\"},\"logRecords\":[{\"observedTimeUnixNano\":\"5\","
            + "\"body\":{\"stringValue\":\"hi\"}}]}",
        encode(encoder, b.setInstrumentationScopeName("a\"b\\c\n日志😀\uD800").build()));
  }

  @Test
  void framingOfAScopedRequest() throws Exception {
    LogRecord unnamed = LogRecord.builder().setObservedTimeUnixNano(1).build();
    LogRecord named =
        LogRecord.builder().setObservedTimeUnixNano(2).setInstrumentationScopeName("l").build();
    String json =
        request(
            new JsonWireFormat(Map.of("service.name", AnyValue.of("s")), "scope", null, true),
            List.of(unnamed, named));
    assertEquals(
        "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
            + "{\"stringValue\":\"s\"}}]},\"scopeLogs\":["
            + "{\"scope\":{\"name\":\"scope\"},\"logRecords\":[{\"observedTimeUnixNano\":\"1\"}]},"
            + "{\"scope\":{\"name\":\"l\"},\"logRecords\":[{\"observedTimeUnixNano\":\"2\"}]}]}]}",
        json);
  }

  @Test
  void sameRequestAsTheProtobufPath() throws Exception {
    Map<String, AnyValue> resource = new LinkedHashMap<>();
    resource.put("service.name", AnyValue.of("svc \"quoted\" 服务"));
    resource.put("host.cpu", AnyValue.of(8L));
    String[] loggers = {
      "com.example.A", null, "日志.记录器 😀", "com.example.A", "q\"uo\\te\t", "a\uDE00b", null
    };
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < 35; i++) {
      String logger = loggers[i % loggers.length];
      records.add(
          i % 3 == 0
              ? TestRecords.full("full " + i, logger)
              : TestRecords.simple("simple " + i + " 😀", logger));
    }
    String json =
        request(new JsonWireFormat(resource, "io.logproducer.test", "9.9", true), records);
    ExportLogsServiceRequest fromJson = OtlpJson.parseRequest(json);

    ProtobufWireFormat proto = new ProtobufWireFormat(resource, "io.logproducer.test", "9.9", true);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    proto.writeRequest(TestBatch.of(proto.encoder(), records), out);
    ExportLogsServiceRequest fromProto = ExportLogsServiceRequest.parseFrom(out.toByteArray());

    assertEquals(fromProto, fromJson);
    assertEquals(
        ExpectedProto.scopedRequest(resource, "io.logproducer.test", "9.9", records), fromJson);
    List<ScopeLogs> scopeLogs = fromJson.getResourceLogs(0).getScopeLogsList();
    assertEquals(35, scopeLogs.size());
    for (int i = 0; i < 35; i++) {
      String logger = loggers[i % loggers.length];
      assertEquals(
          logger == null ? "io.logproducer.test" : ExpectedProto.utf8(logger),
          scopeLogs.get(i).getScope().getName(),
          "scope of record " + i);
      assertEquals(logger == null ? "9.9" : "", scopeLogs.get(i).getScope().getVersion());
      assertEquals(1, scopeLogs.get(i).getLogRecordsCount());
    }
    assertTrue(json.endsWith("}]}]}]}"), json); // the last record's "]}", then "]}]}"
  }

  @Test
  void withoutScopeFromRecordsNamesAreIgnored() throws Exception {
    JsonWireFormat format = new JsonWireFormat(Map.of(), "scope", "1");
    List<LogRecord> plain = List.of(TestRecords.full("a"), TestRecords.simple("b"));
    List<LogRecord> named =
        List.of(TestRecords.full("a", "com.example.A"), TestRecords.simple("b", "x"));
    assertEquals(request(format, plain), request(format, named));
    assertEquals(
        ExpectedProto.request(Map.of(), "scope", "1", plain),
        OtlpJson.parseRequest(request(format, named)));
  }

  @Test
  void shortestRecordIsMinRecordBytes() {
    RecordEncoder encoder = new JsonWireFormat(Map.of(), "", null, true).encoder();
    String json = encode(encoder, LogRecord.builder().setObservedTimeUnixNano(1).build());
    assertEquals("{\"scope\":{},\"logRecords\":[{\"observedTimeUnixNano\":\"1\"}]}", json);
    assertEquals(JsonScopeLogsEncoder.MIN_RECORD_BYTES, json.length());
    // a named record is longer still: the shortest name is one character
    assertTrue(
        encode(encoder, LogRecord.builder().setInstrumentationScopeName("n").build()).length()
            > JsonScopeLogsEncoder.MIN_RECORD_BYTES);
  }

  @Test
  void maxBatchSizeHoldsWithOneCommaPerShortestRecord() throws Exception {
    JsonWireFormat format =
        new JsonWireFormat(Map.of("service.name", AnyValue.of("svc")), "", null, true);
    int maxRequest = 10_000;
    int maxBatch = format.maxBatchSizeInBytes(maxRequest);
    LogRecord shortest = LogRecord.builder().setObservedTimeUnixNano(1).build();
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < maxBatch / JsonScopeLogsEncoder.MIN_RECORD_BYTES; i++) {
      records.add(shortest);
    }
    String json = request(format, records);
    int bytes = json.getBytes(StandardCharsets.UTF_8).length;
    assertTrue(bytes <= maxRequest, bytes + " > " + maxRequest);
    assertTrue(bytes > maxRequest - 100, "bound is tight: " + bytes);
    assertTrue(
        maxBatch
            > new JsonWireFormat(Map.of("service.name", AnyValue.of("svc")), "", null, false)
                .maxBatchSizeInBytes(maxRequest),
        "fewer commas per byte than with one ScopeLogs");
  }
}
