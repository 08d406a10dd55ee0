package io.logproducer.otlp.encoding.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.Severity;
import io.logproducer.otlp.encoding.testing.ExpectedProto;
import io.logproducer.otlp.encoding.testing.OtlpJson;
import io.logproducer.otlp.encoding.testing.TestBatch;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.spi.EncodeBuffer;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Parses the JSON encoder's output with protobuf-java-util's JsonFormat and compares with the
 * protobuf path.
 */
class JsonRecordEncoderTest {

  private final JsonRecordEncoder encoder = new JsonRecordEncoder();

  private String encode(LogRecord r) {
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
  void exactTextOfASmallRecord() {
    LogRecord r =
        LogRecord.builder()
            .setTimeUnixNano(1)
            .setObservedTimeUnixNano(5)
            .setSeverity(Severity.INFO)
            .setBody("hi")
            .setAttribute("k", -3L)
            .setFlags(1)
            .setTraceId("0102030405060708090a0b0c0d0e0fff")
            .setSpanId("a1a2a3a4a5a6a7a8")
            .setEventName("e")
            .build();
    assertEquals(
        "{\"observedTimeUnixNano\":\"5\",\"timeUnixNano\":\"1\",\"severityNumber\":9,"
            + "\"severityText\":\"INFO\",\"body\":{\"stringValue\":\"hi\"},"
            + "\"attributes\":[{\"key\":\"k\",\"value\":{\"intValue\":\"-3\"}}],\"flags\":1,"
            + "\"traceId\":\"0102030405060708090a0b0c0d0e0fff\",\"spanId\":\"a1a2a3a4a5a6a7a8\",\"eventName\":\"e\"}",
        encode(r));
  }

  @Test
  void droppedAttributesCountIsANumberWrittenOnlyWhenAboveZero() {
    LogRecord.Builder b =
        LogRecord.builder().setObservedTimeUnixNano(5).setAttribute("k", "v").setFlags(1);
    assertEquals(
        "{\"observedTimeUnixNano\":\"5\",\"attributes\":[{\"key\":\"k\",\"value\":{\"stringValue\":"
            + "\"v\"}}],\"flags\":1}",
        encode(b.build()));
    assertEquals(
        "{\"observedTimeUnixNano\":\"5\",\"attributes\":[{\"key\":\"k\",\"value\":{\"stringValue\":"
            + "\"v\"}}],\"droppedAttributesCount\":4294967,\"flags\":1}",
        encode(b.setDroppedAttributesCount(4_294_967).build()));
    assertEquals(
        "{\"observedTimeUnixNano\":\"5\",\"droppedAttributesCount\":2147483647}",
        encode(
            LogRecord.builder()
                .setObservedTimeUnixNano(5)
                .setDroppedAttributesCount(Integer.MAX_VALUE)
                .build()));
  }

  @Test
  void everyAnyValueKindExactly() {
    Map<String, AnyValue> kv = new LinkedHashMap<>();
    kv.put("a", AnyValue.of(true));
    kv.put("b", AnyValue.ofArray());
    LogRecord r =
        LogRecord.builder()
            .setObservedTimeUnixNano(7)
            .setBody(
                AnyValue.ofArray(
                    AnyValue.of("s"),
                    AnyValue.of(false),
                    AnyValue.of(Long.MIN_VALUE),
                    AnyValue.of(2.5),
                    AnyValue.of(new byte[] {(byte) 0xFB, (byte) 0xFF}),
                    AnyValue.ofKeyValueList(kv),
                    AnyValue.ofKeyValueList(new LinkedHashMap<>())))
            .build();
    assertEquals(
        "{\"observedTimeUnixNano\":\"7\",\"body\":{\"arrayValue\":{\"values\":["
            + "{\"stringValue\":\"s\"},{\"boolValue\":false},{\"intValue\":\"-9223372036854775808\"},"
            + "{\"doubleValue\":2.5},{\"bytesValue\":\"+/8=\"},"
            + "{\"kvlistValue\":{\"values\":[{\"key\":\"a\",\"value\":{\"boolValue\":true}},"
            + "{\"key\":\"b\",\"value\":{\"arrayValue\":{\"values\":[]}}}]}},"
            + "{\"kvlistValue\":{\"values\":[]}}]}}}",
        encode(r));
  }

  @Test
  void stringEscaping() {
    String s = "a\"b\\c/\n\r\t\b\f\u0000\u0001\u001f\u007f é中😀 \uD800x\uDC00";
    LogRecord r = LogRecord.builder().setObservedTimeUnixNano(1).setBody(s).build();
    assertEquals(
        "{\"observedTimeUnixNano\":\"1\",\"body\":{\"stringValue\":"
            + "\"a\\\"b\\\\c/\\n\\r\\t\\b\\f\\u0000\\u0001\\u001f\u007f é中😀 ?x?\"}}",
        encode(r));
  }

  @Test
  void negativeZeroKeepsItsSign() {
    // (not in the JsonFormat comparison: its parser turns -0.0 into 0.0)
    LogRecord r = LogRecord.builder().setObservedTimeUnixNano(1).setBody(AnyValue.of(-0.0)).build();
    assertEquals("{\"observedTimeUnixNano\":\"1\",\"body\":{\"doubleValue\":-0.0}}", encode(r));
  }

  @Test
  void shortestRecordIsMinRecordBytes() {
    String json = encode(LogRecord.builder().setObservedTimeUnixNano(1).build());
    assertEquals("{\"observedTimeUnixNano\":\"1\"}", json);
    assertEquals(JsonRecordEncoder.MIN_RECORD_BYTES, json.length());
  }

  @Test
  void sameRequestAsTheProtobufPath() throws Exception {
    Map<String, AnyValue> resource = new LinkedHashMap<>();
    resource.put("service.name", AnyValue.of("svc \"quoted\" 服务"));
    resource.put("host.cpu", AnyValue.of(8L));
    resource.put("ratio", AnyValue.of(0.25));
    resource.put("on", AnyValue.of(true));
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      records.add(
          i % 3 == 0 ? TestRecords.full("full " + i) : TestRecords.simple("simple " + i + " 😀"));
    }
    records.add(
        LogRecord.builder()
            .setObservedTimeUnixNano(9)
            .setBody("")
            .setAttribute("k", "")
            .setAttribute("big", Double.MAX_VALUE)
            .setAttribute("min", Double.MIN_VALUE)
            .setFlags(0xFFFFFFFF)
            .setSeverityNumber(24)
            .build());
    for (int dropped : new int[] {1, 128, Integer.MAX_VALUE}) {
      records.add(
          LogRecord.builder()
              .setObservedTimeUnixNano(dropped)
              .setAttribute("kept", "v")
              .setDroppedAttributesCount(dropped)
              .build());
    }
    String json = request(new JsonWireFormat(resource, "io.logproducer.test", "9.9"), records);
    ExportLogsServiceRequest fromJson = OtlpJson.parseRequest(json);

    ProtobufWireFormat proto = new ProtobufWireFormat(resource, "io.logproducer.test", "9.9");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    proto.writeRequest(TestBatch.of(proto.encoder(), records), out);
    ExportLogsServiceRequest fromProto = ExportLogsServiceRequest.parseFrom(out.toByteArray());

    assertEquals(fromProto, fromJson);
    assertEquals(ExpectedProto.request(resource, "io.logproducer.test", "9.9", records), fromJson);
    assertEquals(34, fromJson.getResourceLogs(0).getScopeLogs(0).getLogRecordsCount());
    assertEquals(
        Integer.MAX_VALUE,
        fromJson.getResourceLogs(0).getScopeLogs(0).getLogRecords(33).getDroppedAttributesCount());
    assertEquals(-1, fromJson.getResourceLogs(0).getScopeLogs(0).getLogRecords(30).getFlags());
    assertTrue(
        json.startsWith(
            "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\","
                + "\"value\":{\"stringValue\":\"svc \\\"quoted\\\" 服务\"}}"),
        json);
    assertTrue(json.endsWith("}]}]}]}"), json);
  }

  @Test
  void framingWithoutVersionAndWithOneRecord() throws Exception {
    LogRecord r = LogRecord.builder().setObservedTimeUnixNano(1).build();
    String json =
        request(
            new JsonWireFormat(Map.of("service.name", AnyValue.of("s")), "scope", null),
            List.of(r));
    assertEquals(
        "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":"
            + "{\"stringValue\":\"s\"}}]},\"scopeLogs\":[{\"scope\":{\"name\":\"scope\"},\"logRecords\":["
            + "{\"observedTimeUnixNano\":\"1\"}]}]}]}",
        json);
    String empty = request(new JsonWireFormat(Map.of(), "scope", "1"), List.of(r, r));
    assertEquals(
        "{\"resourceLogs\":[{\"resource\":{},\"scopeLogs\":[{\"scope\":{\"name\":\"scope\","
            + "\"version\":\"1\"},\"logRecords\":[{\"observedTimeUnixNano\":\"1\"},"
            + "{\"observedTimeUnixNano\":\"1\"}]}]}]}",
        empty);
  }

  @Test
  void maxBatchSizeHoldsWithOneCommaPerShortestRecord() throws Exception {
    JsonWireFormat format =
        new JsonWireFormat(Map.of("service.name", AnyValue.of("svc")), "io.logproducer", null);
    int maxRequest = 10_000;
    int maxBatch = format.maxBatchSizeInBytes(maxRequest);
    LogRecord shortest = LogRecord.builder().setObservedTimeUnixNano(1).build();
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < maxBatch / JsonRecordEncoder.MIN_RECORD_BYTES; i++) {
      records.add(shortest);
    }
    String json = request(format, records);
    int bytes = json.getBytes(StandardCharsets.UTF_8).length;
    assertTrue(bytes <= maxRequest, bytes + " > " + maxRequest);
    assertTrue(bytes > maxRequest - 100, "bound is tight: " + bytes);
  }

  @Test
  void numbersAndBytesAgreeWithTheJdk() {
    Random random = new Random(42);
    EncodeBuffer buf = new EncodeBuffer(16);
    long[] edge = {0, 1, 9, 10, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 63 | 5, -10};
    for (int i = 0; i < 10_000; i++) {
      long v = i < edge.length ? edge[i] : random.nextLong() >> random.nextInt(64);
      buf.reset();
      JsonOutput.writeLong(buf, v);
      assertEquals(
          Long.toString(v), new String(buf.array(), 0, buf.size(), StandardCharsets.US_ASCII));
      buf.reset();
      JsonOutput.writeUnsignedLong(buf, v);
      assertEquals(
          Long.toUnsignedString(v),
          new String(buf.array(), 0, buf.size(), StandardCharsets.US_ASCII));
    }
    for (int n = 0; n < 40; n++) {
      byte[] bytes = new byte[n];
      random.nextBytes(bytes);
      buf.reset();
      JsonOutput.writeBase64(buf, bytes);
      assertEquals(
          "\"" + Base64.getEncoder().encodeToString(bytes) + "\"",
          new String(buf.array(), 0, buf.size(), StandardCharsets.US_ASCII));
      buf.reset();
      JsonOutput.writeHex(buf, bytes);
      assertEquals(
          "\"" + io.logproducer.otlp.encoding.testing.OtlpJson.formatHex(bytes) + "\"",
          new String(buf.array(), 0, buf.size(), StandardCharsets.US_ASCII));
    }
  }
}
