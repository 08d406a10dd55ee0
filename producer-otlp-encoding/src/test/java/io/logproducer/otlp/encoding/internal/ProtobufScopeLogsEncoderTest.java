package io.logproducer.otlp.encoding.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.CodedInputStream;
import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.otlp.encoding.testing.ExpectedProto;
import io.logproducer.otlp.encoding.testing.TestBatch;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The scope taken from the records, protobuf: each record is a {@code ResourceLogs.scope_logs}
 * entry of its own, decoded with the generated OTLP classes and compared with what protobuf-java
 * writes, byte for byte.
 */
class ProtobufScopeLogsEncoderTest {

  private static final Map<String, AnyValue> RESOURCE = Map.of("service.name", AnyValue.of("svc"));
  private static final String SCOPE = "io.logproducer.test";
  private static final String VERSION = "1.2.3";

  private final RecordEncoder encoder =
      new ProtobufWireFormat(RESOURCE, SCOPE, VERSION, true).encoder();

  /** Encodes, checks the ResourceLogs field 2 envelope, and returns the ScopeLogs message bytes. */
  private byte[] encodeMessage(LogRecord r) throws Exception {
    EncodeBuffer buf = new EncodeBuffer(16);
    encoder.encode(r, buf);
    byte[] all = Arrays.copyOf(buf.array(), buf.size());
    CodedInputStream in = CodedInputStream.newInstance(all);
    assertEquals(0x12, in.readTag(), "ResourceLogs.scope_logs tag");
    int length = in.readRawVarint32();
    int header = in.getTotalBytesRead();
    assertEquals(all.length - header, length, "length prefix covers exactly the message");
    return Arrays.copyOfRange(all, header, all.length);
  }

  /**
   * Decodes the record's ScopeLogs and checks it equals, byte for byte, what protobuf-java makes of
   * it.
   */
  private ScopeLogs roundTrip(LogRecord r) throws Exception {
    byte[] message = encodeMessage(r);
    ScopeLogs parsed = ScopeLogs.parseFrom(message);
    ScopeLogs expected = ExpectedProto.scopeLogs(r, SCOPE, VERSION);
    assertEquals(expected, parsed);
    assertArrayEquals(expected.toByteArray(), message, "byte-for-byte what protobuf-java writes");
    assertEquals(1, parsed.getLogRecordsCount());
    assertEquals(ExpectedProto.logRecord(r), parsed.getLogRecords(0));
    return parsed;
  }

  @Test
  void aNamedRecordHasItsOwnScopeWithoutVersion() throws Exception {
    ScopeLogs p = roundTrip(TestRecords.full("named", "com.example.Foo"));
    assertEquals("com.example.Foo", p.getScope().getName());
    assertEquals("", p.getScope().getVersion());
    assertEquals("named", p.getLogRecords(0).getBody().getStringValue());
  }

  @Test
  void aRecordWithoutNameHasTheExportersScopeAndVersion() throws Exception {
    ScopeLogs p = roundTrip(TestRecords.full("unnamed"));
    assertEquals(SCOPE, p.getScope().getName());
    assertEquals(VERSION, p.getScope().getVersion());
  }

  @Test
  void emptyOrNullNameMeansTheExportersScope() throws Exception {
    LogRecord empty = TestRecords.simple("e", "");
    LogRecord cleared =
        LogRecord.builder()
            .setBody("c")
            .setInstrumentationScopeName("x")
            .setInstrumentationScopeName(null)
            .build();
    assertNull(empty.getInstrumentationScopeName());
    assertNull(cleared.getInstrumentationScopeName());
    assertEquals(SCOPE, roundTrip(empty).getScope().getName());
    assertEquals(VERSION, roundTrip(cleared).getScope().getVersion());
  }

  @Test
  void nonAsciiAndSurrogatesInNames() throws Exception {
    String[] names = {
      "服务.日志", "ok 😀👍🏽", "é", "a\uD83Db", "end\uD83D", "\uDE00", "tab\tquote\"back\\"
    };
    String[] decoded = {"服务.日志", "ok 😀👍🏽", "é", "a?b", "end?", "?", "tab\tquote\"back\\"};
    for (int i = 0; i < names.length; i++) {
      ScopeLogs p = roundTrip(TestRecords.simple("b" + i, names[i]));
      assertEquals(decoded[i], p.getScope().getName(), names[i]);
    }
  }

  @Test
  void multiByteLengthsOfNameScopeAndScopeLogs() throws Exception {
    // names whose own length, the scope's (name + 2) or the ScopeLogs's crosses a varint boundary,
    // ASCII (copied
    // in bulk) and not; then records of 100 B .. 2 MiB
    for (int nameLength :
        new int[] {1, 110, 114, 115, 125, 126, 127, 128, 16_370, 16_381, 16_382, 16_384, 70_000}) {
      for (String name : new String[] {"n".repeat(nameLength), "名".repeat(nameLength / 3 + 1)}) {
        roundTrip(
            LogRecord.builder()
                .setObservedTimeUnixNano(1)
                .setInstrumentationScopeName(name)
                .build());
      }
    }
    for (int bodyLength : new int[] {100, 127, 128, 16_383, 16_384, 2_097_152}) {
      roundTrip(
          LogRecord.builder()
              .setObservedTimeUnixNano(1)
              .setBody("x".repeat(bodyLength))
              .setInstrumentationScopeName("s")
              .build());
      roundTrip(
          LogRecord.builder().setObservedTimeUnixNano(1).setBody("x".repeat(bodyLength)).build());
    }
  }

  @Test
  void scopeLogsWhoseLengthCrossesVarintBoundaries() throws Exception {
    // the ScopeLogs's length is kept in 2 bytes: moved back under 128 bytes, forward from 16,384
    for (String name : new String[] {null, "s", "名".repeat(40)}) {
      for (int body = 0; body < 140; body++) {
        roundTrip(
            LogRecord.builder()
                .setObservedTimeUnixNano(1)
                .setBody("b".repeat(body))
                .setInstrumentationScopeName(name)
                .build());
      }
      for (int body = 16_300; body < 16_400; body += 3) {
        roundTrip(
            LogRecord.builder()
                .setObservedTimeUnixNano(1)
                .setBody("b".repeat(body))
                .setInstrumentationScopeName(name)
                .build());
      }
    }
  }

  @Test
  void aBatchIsOneScopeLogsPerRecordInOrder() throws Exception {
    Map<String, AnyValue> resource = new LinkedHashMap<>();
    resource.put("service.name", AnyValue.of("svc-服务"));
    resource.put("host.cpu", AnyValue.of(8L));
    ProtobufWireFormat format = new ProtobufWireFormat(resource, SCOPE, VERSION, true);
    List<LogRecord> records = new ArrayList<>();
    List<String> expectedNames = new ArrayList<>();
    String[] loggers = {"com.example.A", null, "com.example.B", "com.example.A", "日志.记录器", null};
    for (int i = 0; i < 30; i++) {
      String logger = loggers[i % loggers.length];
      records.add(
          i % 5 == 0
              ? TestRecords.full("full " + i, logger)
              : TestRecords.simple("simple " + i, logger));
      expectedNames.add(logger != null ? logger : SCOPE);
    }
    TestBatch batch = TestBatch.of(format.encoder(), records);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    format.writeRequest(batch, out);
    ExportLogsServiceRequest parsed = ExportLogsServiceRequest.parseFrom(out.toByteArray());
    ExportLogsServiceRequest expected =
        ExpectedProto.scopedRequest(resource, SCOPE, VERSION, records);
    assertEquals(expected, parsed);
    assertArrayEquals(
        expected.toByteArray(), out.toByteArray(), "byte-for-byte what protobuf-java writes");
    assertEquals(1, parsed.getResourceLogsCount());
    ResourceLogs rl = parsed.getResourceLogs(0);
    assertEquals("svc-服务", rl.getResource().getAttributes(0).getValue().getStringValue());
    assertEquals(30, rl.getScopeLogsCount());
    for (int i = 0; i < 30; i++) {
      ScopeLogs sl = rl.getScopeLogs(i);
      assertEquals(expectedNames.get(i), sl.getScope().getName(), "scope of record " + i);
      assertEquals(loggers[i % loggers.length] == null ? VERSION : "", sl.getScope().getVersion());
      assertEquals(1, sl.getLogRecordsCount());
      String prefix = i % 5 == 0 ? "full " : "simple ";
      assertEquals(prefix + i, sl.getLogRecords(0).getBody().getStringValue(), "order");
    }
  }

  @Test
  void withoutScopeFromRecordsNamesAreIgnoredAndBytesUnchanged() throws Exception {
    ProtobufWireFormat format = new ProtobufWireFormat(RESOURCE, SCOPE, VERSION);
    List<LogRecord> plain = List.of(TestRecords.full("a"), TestRecords.simple("b"));
    List<LogRecord> named =
        List.of(TestRecords.full("a", "com.example.A"), TestRecords.simple("b", "com.example.B"));
    ByteArrayOutputStream withNames = new ByteArrayOutputStream();
    format.writeRequest(TestBatch.of(format.encoder(), named), withNames);
    ByteArrayOutputStream withoutNames = new ByteArrayOutputStream();
    format.writeRequest(TestBatch.of(format.encoder(), plain), withoutNames);
    assertArrayEquals(withoutNames.toByteArray(), withNames.toByteArray());
    assertArrayEquals(
        ExpectedProto.request(RESOURCE, SCOPE, VERSION, plain).toByteArray(),
        withNames.toByteArray());
    assertTrue(
        new ProtobufWireFormat(RESOURCE, SCOPE, VERSION, false).encoder()
            instanceof ProtobufRecordEncoder);
  }

  @Test
  void maxBatchSizeLeavesRoomForTheResourceLogsOnly() throws Exception {
    ProtobufWireFormat scoped = new ProtobufWireFormat(RESOURCE, "io.logproducer", null, true);
    ProtobufWireFormat shared = new ProtobufWireFormat(RESOURCE, "io.logproducer", null, false);
    // resource field: 0A 17 (0A 15 (0A 0C "service.name" 12 05 (0A 03 "svc"))) = 25 bytes; one tag
    // and a 5-byte
    // varint: no scope_logs head or scope here, every record carries its own
    assertEquals(6 + 25, scoped.framingOverheadInBytes());
    assertEquals(6 + 25 + 6 + 18, shared.framingOverheadInBytes());
    assertEquals(1_000_000 - 31, scoped.maxBatchSizeInBytes(1_000_000));
  }

  @Test
  void largeRequestsStayWithinTheFramingBound() throws Exception {
    ProtobufWireFormat format = new ProtobufWireFormat(RESOURCE, SCOPE, VERSION, true);
    for (int count : new int[] {1, 3, 300}) {
      List<LogRecord> records = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        records.add(
            TestRecords.simple(
                i + "z".repeat(count == 300 ? 10_000 : 10), i % 2 == 0 ? "logger." + i : null));
      }
      TestBatch batch = TestBatch.of(format.encoder(), records);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      format.writeRequest(batch, out);
      assertArrayEquals(
          ExpectedProto.scopedRequest(RESOURCE, SCOPE, VERSION, records).toByteArray(),
          out.toByteArray());
      assertTrue(out.size() - batch.sizeInBytes() <= format.framingOverheadInBytes());
      assertTrue(out.size() <= batch.sizeInBytes() + format.framingOverheadInBytes());
    }
  }

  @Test
  void concurrentEncodingFromManyThreadsIsConsistent() throws Exception {
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      records.add(
          TestRecords.full(
              "record " + i + " " + "y".repeat(i * 37),
              i % 3 == 0 ? null : "logger-" + (i % 7) + "-日志"));
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> futures = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        futures.add(
            pool.submit(
                () -> {
                  EncodeBuffer buf = new EncodeBuffer(64);
                  int checked = 0;
                  for (int round = 0; round < 20; round++) {
                    for (LogRecord r : records) {
                      buf.reset();
                      encoder.encode(r, buf);
                      byte[] expected = ExpectedProto.scopeLogs(r, SCOPE, VERSION).toByteArray();
                      byte[] actual =
                          Arrays.copyOfRange(buf.array(), buf.size() - expected.length, buf.size());
                      assertArrayEquals(expected, actual);
                      checked++;
                    }
                  }
                  return checked;
                }));
      }
      for (Future<Integer> f : futures) {
        assertEquals(20 * 50, f.get(60, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void encodingDoesNotAllocate() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    LogRecord.Builder b =
        LogRecord.builder()
            .setTimeUnixNano(1)
            .setBody("a body with 日本語")
            .setAttribute("k", "v")
            .setTraceId("0102030405060708090a0b0c0d0e0f10");
    LogRecord[] records = {
      b.setInstrumentationScopeName("com.example.service.Handler").build(),
      b.setInstrumentationScopeName("服务.处理器").build(),
      b.setInstrumentationScopeName(null).build()
    };
    EncodeBuffer buf = new EncodeBuffer(1024);
    for (int i = 0; i < 30_000; i++) { // warm up (and let the thread-local caches settle)
      buf.reset();
      encoder.encode(records[i % 3], buf);
    }
    long tid = Thread.currentThread().getId();
    long before = threads.getThreadAllocatedBytes(tid);
    for (int i = 0; i < 100_000; i++) {
      buf.reset();
      encoder.encode(records[i % 3], buf);
    }
    long allocated = threads.getThreadAllocatedBytes(tid) - before;
    assertTrue(allocated < 100_000, "100,000 encodes allocated " + allocated + " bytes");
  }
}
