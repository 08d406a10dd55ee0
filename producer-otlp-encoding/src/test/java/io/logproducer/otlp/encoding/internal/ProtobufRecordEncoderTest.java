package io.logproducer.otlp.encoding.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.CodedInputStream;
import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.RecordTooLargeException;
import io.logproducer.otlp.encoding.testing.ExpectedProto;
import io.logproducer.otlp.encoding.testing.TestBatch;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.spi.EncodeBuffer;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue.ValueCase;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Decodes the protobuf encoder's output with the generated OTLP classes and compares field by
 * field.
 */
class ProtobufRecordEncoderTest {

  private final ProtobufRecordEncoder encoder = new ProtobufRecordEncoder();

  /** Encodes, checks the ScopeLogs field 2 envelope, and returns the LogRecord message bytes. */
  private byte[] encodeMessage(LogRecord r) throws Exception {
    EncodeBuffer buf = new EncodeBuffer(16);
    encoder.encode(r, buf);
    byte[] all = Arrays.copyOf(buf.array(), buf.size());
    CodedInputStream in = CodedInputStream.newInstance(all);
    assertEquals(0x12, in.readTag(), "ScopeLogs.log_records tag");
    int length = in.readRawVarint32();
    int header = in.getTotalBytesRead();
    assertEquals(all.length - header, length, "length prefix covers exactly the message");
    return Arrays.copyOfRange(all, header, all.length);
  }

  private io.opentelemetry.proto.logs.v1.LogRecord roundTrip(LogRecord r) throws Exception {
    byte[] message = encodeMessage(r);
    io.opentelemetry.proto.logs.v1.LogRecord parsed =
        io.opentelemetry.proto.logs.v1.LogRecord.parseFrom(message);
    io.opentelemetry.proto.logs.v1.LogRecord expected = ExpectedProto.logRecord(r);
    assertEquals(expected, parsed);
    assertArrayEquals(expected.toByteArray(), message, "byte-for-byte what protobuf-java writes");
    return parsed;
  }

  @Test
  void everyFieldOfAFullRecord() throws Exception {
    LogRecord r = TestRecords.full("hello body");
    io.opentelemetry.proto.logs.v1.LogRecord p = roundTrip(r);
    assertEquals(1_700_000_000_123_456_789L, p.getTimeUnixNano());
    assertEquals(1_700_000_000_987_654_321L, p.getObservedTimeUnixNano());
    assertEquals(15, p.getSeverityNumberValue());
    assertEquals("WARN3", p.getSeverityText());
    assertEquals("hello body", p.getBody().getStringValue());
    assertEquals(11, p.getAttributesCount());
    assertEquals("str", p.getAttributes(0).getKey());
    assertEquals("日志 😀 \"quoted\" \\ \n\t\u0001", p.getAttributes(0).getValue().getStringValue());
    assertTrue(p.getAttributes(1).getValue().getBoolValue());
    assertEquals(ValueCase.BOOL_VALUE, p.getAttributes(2).getValue().getValueCase());
    assertFalse(p.getAttributes(2).getValue().getBoolValue());
    assertEquals(-42L, p.getAttributes(3).getValue().getIntValue());
    assertEquals(ValueCase.INT_VALUE, p.getAttributes(4).getValue().getValueCase());
    assertEquals(Long.MAX_VALUE, p.getAttributes(5).getValue().getIntValue());
    assertEquals(3.25, p.getAttributes(6).getValue().getDoubleValue());
    assertEquals(1e-300, p.getAttributes(7).getValue().getDoubleValue());
    assertArrayEquals(
        new byte[] {0, 1, 2, (byte) 0xFF, 0x7F},
        p.getAttributes(8).getValue().getBytesValue().toByteArray());
    assertEquals(5, p.getAttributes(9).getValue().getArrayValue().getValuesCount());
    assertEquals(0.5, p.getAttributes(9).getValue().getArrayValue().getValues(3).getDoubleValue());
    io.opentelemetry.proto.common.v1.KeyValueList kv =
        p.getAttributes(10).getValue().getKvlistValue();
    assertEquals("nested", kv.getValues(1).getKey());
    assertEquals(
        "二",
        kv.getValues(1)
            .getValue()
            .getKvlistValue()
            .getValues(0)
            .getValue()
            .getArrayValue()
            .getValues(1)
            .getStringValue());
    assertEquals(
        ValueCase.KVLIST_VALUE,
        kv.getValues(1).getValue().getKvlistValue().getValues(1).getValue().getValueCase());
    assertArrayEquals(r.getTraceId(), p.getTraceId().toByteArray());
    assertArrayEquals(r.getSpanId(), p.getSpanId().toByteArray());
    assertEquals(1, p.getFlags());
    assertEquals("app.event", p.getEventName());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, Integer.MAX_VALUE})
  void droppedAttributesCountIsField7AsProtobufJavaWritesIt(int dropped) throws Exception {
    LogRecord r =
        LogRecord.builder()
            .setObservedTimeUnixNano(1)
            .setAttribute("kept", "v")
            .setDroppedAttributesCount(dropped)
            .setFlags(1)
            .build();
    io.opentelemetry.proto.logs.v1.LogRecord p = roundTrip(r);
    assertEquals(dropped, p.getDroppedAttributesCount());
    assertEquals(
        dropped,
        roundTrip(LogRecord.builder().setDroppedAttributesCount(dropped).build())
            .getDroppedAttributesCount(),
        "without attributes");
    io.opentelemetry.proto.logs.v1.LogRecord full =
        roundTrip(
            LogRecord.builder()
                .setAttributeCountLimit(3)
                .setAttribute("a", 1L)
                .setAttribute("b", "x")
                .setAttribute("c", true)
                .setAttribute("d", 2L)
                .setAttribute("e", 3L)
                .setTraceId("0102030405060708090a0b0c0d0e0f10")
                .setEventName("evt")
                .build());
    assertEquals(2, full.getDroppedAttributesCount());
    assertEquals(3, full.getAttributesCount());
  }

  @Test
  void aZeroDroppedAttributesCountIsNotWritten() throws Exception {
    byte[] message = encodeMessage(LogRecord.builder().setObservedTimeUnixNano(1).build());
    assertArrayEquals(
        new byte[] {0x59, 1, 0, 0, 0, 0, 0, 0, 0}, message, "only observed_time_unix_nano");
  }

  static Stream<AnyValue> bodies() {
    Map<String, AnyValue> deep = new LinkedHashMap<>();
    deep.put("k", AnyValue.of("")); // OTLP keys must be non-empty; values may be
    deep.put(
        "l3",
        AnyValue.ofKeyValueList(Map.of("l4", AnyValue.ofArray(AnyValue.ofArray(AnyValue.of(7L))))));
    return Stream.of(
        AnyValue.of(""),
        AnyValue.of("x"),
        AnyValue.of(true),
        AnyValue.of(false),
        AnyValue.of(0L),
        AnyValue.of(1L),
        AnyValue.of(127L),
        AnyValue.of(128L),
        AnyValue.of(300L),
        AnyValue.of(-1L),
        AnyValue.of(Long.MIN_VALUE),
        AnyValue.of(Long.MAX_VALUE),
        AnyValue.of(0.0),
        AnyValue.of(-0.0),
        AnyValue.of(1.5),
        AnyValue.of(Double.MIN_VALUE),
        AnyValue.of(Double.MAX_VALUE),
        AnyValue.of(new byte[0]),
        AnyValue.of(new byte[] {1, 2, 3}),
        AnyValue.ofArray(),
        AnyValue.ofArray(AnyValue.of("a"), AnyValue.ofArray(AnyValue.of(true))),
        AnyValue.ofKeyValueList(new LinkedHashMap<>()),
        AnyValue.ofKeyValueList(Map.of("l2", AnyValue.ofKeyValueList(deep))));
  }

  @ParameterizedTest
  @MethodSource("bodies")
  void everyAnyValueKindAsBodyAndAttribute(AnyValue value) throws Exception {
    LogRecord r =
        LogRecord.builder()
            .setObservedTimeUnixNano(5)
            .setBody(value)
            .setAttribute("a", value)
            .build();
    io.opentelemetry.proto.logs.v1.LogRecord p = roundTrip(r);
    assertEquals(ExpectedProto.anyValue(value), p.getBody());
    assertEquals(ExpectedProto.anyValue(value), p.getAttributes(0).getValue());
    assertEquals(expectedCase(value), p.getBody().getValueCase());
  }

  private static ValueCase expectedCase(AnyValue v) {
    switch (v.getType()) {
      case STRING:
        return ValueCase.STRING_VALUE;
      case BOOLEAN:
        return ValueCase.BOOL_VALUE;
      case LONG:
        return ValueCase.INT_VALUE;
      case DOUBLE:
        return ValueCase.DOUBLE_VALUE;
      case BYTES:
        return ValueCase.BYTES_VALUE;
      case ARRAY:
        return ValueCase.ARRAY_VALUE;
      default:
        return ValueCase.KVLIST_VALUE;
    }
  }

  @Test
  void absentFieldsAreNotWritten() throws Exception {
    LogRecord r = LogRecord.builder().setObservedTimeUnixNano(0x0102030405060708L).build();
    byte[] message = encodeMessage(r);
    // only observed_time_unix_nano: tag 11/fixed64 (0x59) and 8 little-endian bytes
    assertArrayEquals(new byte[] {0x59, 8, 7, 6, 5, 4, 3, 2, 1}, message);
    roundTrip(r);
  }

  @Test
  void emptyStringsFollowProto3() throws Exception {
    LogRecord r =
        LogRecord.builder()
            .setObservedTimeUnixNano(1)
            .setSeverityText("")
            .setEventName("")
            .setBody("")
            .setAttribute("k", "")
            .build();
    byte[] message = encodeMessage(r);
    // body: AnyValue{string_value=""} is written (a set oneof); KeyValue{key="k",
    // value={string_value=""}}
    // observed(11): 59 + 8 bytes; body(5): 2A 02 0A 00; attributes(6): 32 07 0A 01 6B 12 02 0A 00
    byte[] expected = {
      0x2A, 2, 0x0A, 0, 0x32, 7, 0x0A, 1, 0x6B, 0x12, 2, 0x0A, 0, 0x59, 1, 0, 0, 0, 0, 0, 0, 0
    };
    assertArrayEquals(expected, message);
    io.opentelemetry.proto.logs.v1.LogRecord p = roundTrip(r);
    assertEquals("", p.getSeverityText());
    assertEquals(ValueCase.STRING_VALUE, p.getBody().getValueCase());
  }

  @Test
  void nonAsciiAndSurrogates() throws Exception {
    String chinese = "中文日志：服务启动";
    String emoji = "ok 😀👍🏽 done";
    String unpairedHigh = "a\uD83Db";
    String unpairedLow = "a\uDE00b";
    String highAtEnd = "end\uD83D";
    LogRecord r =
        LogRecord.builder()
            .setObservedTimeUnixNano(1)
            .setBody(chinese)
            .setAttribute("emoji", emoji)
            .setAttribute("high", unpairedHigh)
            .setAttribute("low", unpairedLow)
            .setAttribute("end", highAtEnd)
            .setAttribute("键", "值")
            .setSeverityText("警告")
            .setEventName("事件")
            .build();
    io.opentelemetry.proto.logs.v1.LogRecord p = roundTrip(r);
    assertEquals(chinese, p.getBody().getStringValue());
    assertEquals(emoji, p.getAttributes(0).getValue().getStringValue());
    assertEquals("a?b", p.getAttributes(1).getValue().getStringValue());
    assertEquals("a?b", p.getAttributes(2).getValue().getStringValue());
    assertEquals("end?", p.getAttributes(3).getValue().getStringValue());
    assertEquals("键", p.getAttributes(4).getKey());
    assertEquals("警告", p.getSeverityText());
    assertEquals("事件", p.getEventName());
  }

  @Test
  void largeVarintsAndExtremes() throws Exception {
    for (int length : new int[] {127, 128, 16_383, 16_384, 2_097_151, 2_097_152}) {
      String body = "x".repeat(length - 3) + "日"; // 3-byte char at the end: UTF-8 length == length
      LogRecord r =
          LogRecord.builder()
              .setObservedTimeUnixNano(-1L >>> 1)
              .setTimeUnixNano(Long.MAX_VALUE)
              .setBody(body)
              .setSeverityNumber(24)
              .setFlags(0xFFFFFFFF)
              .build();
      io.opentelemetry.proto.logs.v1.LogRecord p = roundTrip(r);
      assertEquals(length, p.getBody().getStringValueBytes().size());
      assertEquals(-1, p.getFlags());
      assertEquals(24, p.getSeverityNumberValue());
      assertEquals(Long.MAX_VALUE, p.getTimeUnixNano());
    }
  }

  /**
   * Strings whose UTF-8 length is at or next to a varint boundary, of ASCII, 2-, 3- and 4-byte
   * chars and unpaired surrogates: the length's bytes are kept from the char count, so multi-byte
   * chars make the length outgrow them.
   */
  static Stream<String> boundaryStrings() {
    List<String> strings = new ArrayList<>();
    for (int bytes : new int[] {42, 43, 126, 127, 128, 129, 16_383, 16_384, 16_385}) {
      strings.add("x".repeat(bytes));
      strings.add("x".repeat(bytes - 2) + "é");
      strings.add("é".repeat(bytes / 2) + "x".repeat(bytes % 2));
      strings.add("日".repeat(bytes / 3) + "x".repeat(bytes % 3));
      strings.add("😀".repeat(bytes / 4) + "x".repeat(bytes % 4));
      strings.add("\uD83D".repeat(bytes / 2) + "日".repeat(bytes / 6)); // unpaired: '?', 1 byte each
    }
    strings.add("a".repeat(1023) + "😀" + "b".repeat(200)); // a pair across the 1,024-char slices
    strings.add("a".repeat(1023) + "\uD83D" + "b".repeat(200)); // an unpaired high surrogate there
    strings.add("a".repeat(1024) + "\uDE00" + "b".repeat(200));
    return strings.stream();
  }

  @ParameterizedTest
  @MethodSource("boundaryStrings")
  void stringsAtVarintBoundariesInEveryStringField(String s) throws Exception {
    roundTrip(LogRecord.builder().setObservedTimeUnixNano(1).setBody(s).build());
    roundTrip(
        LogRecord.builder()
            .setObservedTimeUnixNano(1)
            .setSeverityText(s)
            .setEventName(s)
            .setAttribute(s, AnyValue.of(s))
            .setAttribute("k", AnyValue.ofArray(AnyValue.of(s)))
            .setAttribute("l", AnyValue.ofKeyValueList(Map.of(s, AnyValue.of(s))))
            .build());
  }

  @Test
  void nestedMessagesWhoseLengthsCrossVarintBoundaries() throws Exception {
    // A KeyValue's or AnyValue's length bytes are kept from char counts: multi-byte values outgrow
    // them
    for (int chars :
        new int[] {
          36, 40, 41, 42, 43, 44, 45, 60, 61, 62, 63, 64, 65, 66, 70, 5455, 5456, 5460, 8185, 8187,
          8188, 8190, 8192, 8195
        }) {
      for (String c : new String[] {"é", "日", "x"}) {
        String value = c.repeat(chars);
        roundTrip(
            LogRecord.builder()
                .setObservedTimeUnixNano(1)
                .setBody(value)
                .setAttribute("key", value)
                .setAttribute("kv", AnyValue.ofKeyValueList(Map.of("k", AnyValue.of(value))))
                .build());
      }
    }
    // an array's or list's from its number of elements: 4-byte elements (bool) and 9-byte entries
    // ("k": bool)
    for (int count : new int[] {15, 16, 30, 31, 32, 33, 34, 1818, 1819, 1820, 4095, 4096, 4097}) {
      AnyValue[] bools = new AnyValue[count];
      Map<String, AnyValue> entries = new LinkedHashMap<>();
      for (int i = 0; i < count; i++) {
        bools[i] = AnyValue.of(i % 2 == 0);
        entries.put(i < 10 ? "" + i : "k" + i, AnyValue.of(true));
      }
      roundTrip(
          LogRecord.builder()
              .setObservedTimeUnixNano(1)
              .setBody(AnyValue.ofArray(bools))
              .setAttribute("list", AnyValue.ofKeyValueList(entries))
              .build());
    }
  }

  @Test
  void shortStringAttributesAroundTheOneByteLengthLimit() throws Exception {
    // key + value of at most 40 chars take a path that writes one-byte lengths: the worst case of
    // 3-byte chars in
    // both is a 126-byte KeyValue; 41 chars take the general path
    for (int chars = 36; chars <= 44; chars++) {
      for (int keyChars : new int[] {2, chars / 2, chars - 1, chars}) {
        for (String c : new String[] {"日", "é", "x", "😀", "\uD83D"}) {
          String key = c.repeat(keyChars / c.length());
          String value = c.repeat((chars - keyChars) / c.length());
          String both = c.repeat(chars / c.length());
          io.opentelemetry.proto.logs.v1.LogRecord p =
              roundTrip(
                  LogRecord.builder()
                      .setObservedTimeUnixNano(1)
                      .setAttribute(key, value)
                      .setAttribute("k", "")
                      .setAttribute("日", "日")
                      .setAttribute("list", AnyValue.ofKeyValueList(Map.of(key, AnyValue.of(both))))
                      .build());
          assertEquals(4, p.getAttributesCount());
          String decoded = c.equals("\uD83D") ? "?".repeat(value.length()) : value; // unpaired: '?'
          assertEquals(decoded, p.getAttributes(0).getValue().getStringValue());
        }
      }
    }
  }

  @Test
  void aRecordOfExactlyTheLimitIsWrittenAndOneByteLessIsRefused() {
    // the one-piece paths reserve their worst case; near the limit they must give way to
    // byte-by-byte checks
    List<LogRecord> records = new ArrayList<>();
    records.add(TestRecords.full("a body of some length, 日志"));
    records.add(
        LogRecord.builder()
            .setTimeUnixNano(1_700_000_000_000_000_000L)
            .setSeverityNumber(9)
            .setSeverityText("INFO")
            .setAttribute("level", "INFO_1234567")
            .setAttribute("thread", "pool-1-thread-2_1234567")
            .setAttribute(
                "location", "com.example.BatchSender.sendBatch(BatchSender.java:117)_1234567")
            .setBody("0测试日志_____abcdefghijklmnopqrstuvwxyz~!@#$%^&*()_0123456789_1234567".repeat(6))
            .build());
    records.add(
        LogRecord.builder()
            .setTimeUnixNano(1)
            .setSeverityNumber(9)
            .setBody("x".repeat(120))
            .setAttribute("k", "v".repeat(39))
            .build()); // reserves 128 bytes, writes 48
    records.add(
        LogRecord.builder()
            .setTimeUnixNano(1)
            .setBody("y".repeat(100))
            .setAttribute("日日", "日".repeat(38))
            .build());
    records.add(
        LogRecord.builder()
            .setObservedTimeUnixNano(1)
            .setAttribute("a", "b")
            .setBody("x".repeat(130))
            .build());
    for (LogRecord r : records) {
      EncodeBuffer unlimited = new EncodeBuffer(16);
      encoder.encode(r, unlimited);
      byte[] expected = Arrays.copyOf(unlimited.array(), unlimited.size());
      // from 128 bytes on: a smaller record keeps 2 bytes for its 1-byte length while it is written
      // (see
      // ProtobufRecordEncoder.LENGTH_WIDTH), so it needs a limit 1 byte above its size; the
      // producer's limit is the
      // largest record it accepts, far above 128 bytes
      assertTrue(expected.length > 128, () -> "record of " + expected.length + " bytes");
      EncodeBuffer exact = new EncodeBuffer(16);
      exact.setLimit(expected.length);
      encoder.encode(r, exact);
      assertArrayEquals(expected, Arrays.copyOf(exact.array(), exact.size()));
      EncodeBuffer prefilled =
          new EncodeBuffer(16); // the same with bytes before the record, as in a request
      prefilled.setLimit(expected.length + 5);
      prefilled.writeBytes(new byte[5]);
      encoder.encode(r, prefilled);
      assertArrayEquals(expected, Arrays.copyOfRange(prefilled.array(), 5, prefilled.size()));
      EncodeBuffer tooSmall = new EncodeBuffer(16);
      tooSmall.setLimit(expected.length - 1);
      assertThrows(RecordTooLargeException.class, () -> encoder.encode(r, tooSmall));
    }
  }

  @Test
  void recordsWhoseMessageLengthCrossesVarintBoundaries() throws Exception {
    // the message's length is kept in 2 bytes: moved back for a message under 128 bytes, forward
    // from 16,384
    for (int body = 0; body < 140; body++) {
      roundTrip(LogRecord.builder().setObservedTimeUnixNano(1).setBody("b".repeat(body)).build());
    }
    for (int body = 16_340; body < 16_400; body++) {
      roundTrip(LogRecord.builder().setObservedTimeUnixNano(1).setBody("b".repeat(body)).build());
      roundTrip(
          LogRecord.builder().setObservedTimeUnixNano(1).setBody("日".repeat(body / 3)).build());
    }
  }

  @Test
  void aRecordTooLargeForTheBufferIsRefusedBeforeABufferOfItsSizeExists() {
    int limit = 1 << 20;
    for (String body : new String[] {"x".repeat(3_000_000), "日".repeat(1_000_000)}) {
      LogRecord r =
          LogRecord.builder()
              .setObservedTimeUnixNano(1)
              .setBody(body)
              .setAttribute("k", "v")
              .build();
      EncodeBuffer buf = new EncodeBuffer(256);
      buf.setLimit(limit);
      RecordTooLargeException e =
          assertThrows(RecordTooLargeException.class, () -> encoder.encode(r, buf));
      assertTrue(e.getRecordSizeInBytes() > 3_000_000, e.getMessage());
      assertTrue(buf.capacity() <= limit, "grew to " + buf.capacity());
    }
    // and one that fits exactly is written
    LogRecord fits =
        LogRecord.builder().setObservedTimeUnixNano(1).setBody("x".repeat(1000)).build();
    int size = ExpectedProto.logRecord(fits).getSerializedSize();
    EncodeBuffer buf = new EncodeBuffer(16);
    buf.setLimit(1 + 2 + size);
    encoder.encode(fits, buf);
    assertEquals(1 + 2 + size, buf.size());
  }

  @Test
  void manyAttributesAndDeepNesting() throws Exception {
    LogRecord.Builder b = LogRecord.builder().setObservedTimeUnixNano(3);
    for (int i = 0; i < 500; i++) {
      b.setAttribute(
          "attr-" + i, i % 2 == 0 ? AnyValue.of("v" + i) : AnyValue.of((long) i * 1_000_000_007L));
    }
    AnyValue nested = AnyValue.of("leaf");
    for (int depth = 0; depth < 20; depth++) { // protobuf-java's parser stops at 100 levels
      nested =
          depth % 2 == 0
              ? AnyValue.ofArray(nested, AnyValue.of(depth))
              : AnyValue.ofKeyValueList(Map.of("d" + depth, nested));
    }
    LogRecord r = b.setBody(nested).build();
    io.opentelemetry.proto.logs.v1.LogRecord p = roundTrip(r);
    assertEquals(500, p.getAttributesCount());
  }

  @Test
  void concurrentEncodingFromManyThreadsIsConsistent() throws Exception {
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      records.add(TestRecords.full("record " + i + " " + "y".repeat(i * 37)));
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
                  for (int round = 0; round < 40; round++) {
                    for (LogRecord r : records) {
                      buf.reset();
                      encoder.encode(r, buf);
                      byte[] expected = ExpectedProto.logRecord(r).toByteArray();
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
        assertEquals(40 * 50, f.get(60, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void encodingDoesNotAllocate() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    LogRecord r =
        LogRecord.builder()
            .setTimeUnixNano(1)
            .setBody("a body with 日本語")
            .setAttribute("k", "v")
            .setAttribute("n", 12345L)
            .setAttribute("arr", AnyValue.ofArray(AnyValue.of(1L), AnyValue.of("s")))
            .setTraceId("0102030405060708090a0b0c0d0e0f10")
            .setSpanId("0102030405060708")
            .build();
    EncodeBuffer buf = new EncodeBuffer(1024);
    for (int i = 0; i < 20_000; i++) { // warm up (and let the thread-local caches settle)
      buf.reset();
      encoder.encode(r, buf);
    }
    long tid = Thread.currentThread().getId();
    long before = threads.getThreadAllocatedBytes(tid);
    for (int i = 0; i < 100_000; i++) {
      buf.reset();
      encoder.encode(r, buf);
    }
    long allocated = threads.getThreadAllocatedBytes(tid) - before;
    assertTrue(allocated < 100_000, "100,000 encodes allocated " + allocated + " bytes");
  }

  @Test
  void requestFramingParsesAsExportLogsServiceRequest() throws Exception {
    Map<String, AnyValue> resource = new LinkedHashMap<>();
    resource.put("service.name", AnyValue.of("svc-服务"));
    resource.put("host.cpu", AnyValue.of(8L));
    resource.put("bk.data.token", AnyValue.of("token=="));
    ProtobufWireFormat format = new ProtobufWireFormat(resource, "io.logproducer.test", "1.2.3");
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      records.add(i % 5 == 0 ? TestRecords.full("full " + i) : TestRecords.simple("simple " + i));
    }
    TestBatch batch = TestBatch.of(format.encoder(), records);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    format.writeRequest(batch, out);
    ExportLogsServiceRequest parsed = ExportLogsServiceRequest.parseFrom(out.toByteArray());
    ExportLogsServiceRequest expected =
        ExpectedProto.request(resource, "io.logproducer.test", "1.2.3", records);
    assertEquals(expected, parsed);
    assertArrayEquals(expected.toByteArray(), out.toByteArray());
    assertEquals(1, parsed.getResourceLogsCount());
    assertEquals(
        "svc-服务",
        parsed.getResourceLogs(0).getResource().getAttributes(0).getValue().getStringValue());
    assertEquals("1.2.3", parsed.getResourceLogs(0).getScopeLogs(0).getScope().getVersion());
    for (int i = 0; i < 25; i++) {
      String prefix = i % 5 == 0 ? "full " : "simple ";
      assertEquals(
          prefix + i,
          parsed.getResourceLogs(0).getScopeLogs(0).getLogRecords(i).getBody().getStringValue(),
          "order");
    }
  }

  @Test
  void resourceAndScopeFieldsOfEverySizeMatchProtobufJava() throws Exception {
    // the resource and scope fields are encoded once, their lengths kept in one byte and filled in
    // after
    for (String value :
        new String[] {"", "v", "r".repeat(120), "r".repeat(200), "日".repeat(6000)}) {
      Map<String, AnyValue> resource = new LinkedHashMap<>();
      resource.put("service.name", AnyValue.of("svc"));
      resource.put("big", AnyValue.of(value));
      String scope = "scope" + value;
      String version = value.isEmpty() ? null : "1." + value;
      ProtobufWireFormat format = new ProtobufWireFormat(resource, scope, version);
      List<LogRecord> records = List.of(TestRecords.simple("a"), TestRecords.full("b"));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      format.writeRequest(TestBatch.of(format.encoder(), records), out);
      assertArrayEquals(
          ExpectedProto.request(resource, scope, version, records).toByteArray(),
          out.toByteArray(),
          value.length() + " chars");
    }
  }

  @Test
  void largeRequestLengthsAreMultiByteVarints() throws Exception {
    ProtobufWireFormat format =
        new ProtobufWireFormat(Map.of("service.name", AnyValue.of("s")), "scope", null);
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      records.add(TestRecords.simple(i + "z".repeat(10_000)));
    }
    TestBatch batch = TestBatch.of(format.encoder(), records);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    format.writeRequest(batch, out);
    ExportLogsServiceRequest expected =
        ExpectedProto.request(Map.of("service.name", AnyValue.of("s")), "scope", null, records);
    assertArrayEquals(expected.toByteArray(), out.toByteArray());
    assertTrue(out.size() > 3_000_000);
    assertTrue(out.size() - batch.sizeInBytes() <= format.framingOverheadInBytes());
  }

  @Test
  void maxBatchSizeLeavesRoomForWorstCaseFraming() throws Exception {
    Map<String, AnyValue> resource = Map.of("service.name", AnyValue.of("svc"));
    ProtobufWireFormat format = new ProtobufWireFormat(resource, "io.logproducer", null);
    // resource field: 0A 17 (0A 15 (0A 0C "service.name" 12 05 (0A 03 "svc"))) = 25 bytes;
    // scope field: 0A 10 (0A 0E "io.logproducer") = 18 bytes; envelope: two tags and two 5-byte
    // varints = 12
    assertEquals(25, resourceFieldLength(resource));
    assertEquals(12 + 25 + 18, format.framingOverheadInBytes());
    assertEquals(1_000_000 - 55, format.maxBatchSizeInBytes(1_000_000));
  }

  private static int resourceFieldLength(Map<String, AnyValue> resource) {
    io.opentelemetry.proto.resource.v1.Resource.Builder r =
        io.opentelemetry.proto.resource.v1.Resource.newBuilder();
    resource.forEach((k, v) -> r.addAttributes(ExpectedProto.keyValue(k, v)));
    int size = r.build().getSerializedSize();
    return 1 + com.google.protobuf.CodedOutputStream.computeUInt32SizeNoTag(size) + size;
  }
}
