package io.logproducer.testing.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/**
 * The decoders of {@link TopicReader} on hand-written protobuf bytes (field numbers from the OTLP
 * logs proto); the Kafka tests check them again against protobuf-java on what the exporter writes.
 */
class TopicReaderDecodingTest {

  @Test
  void countsAndReadsTheBodiesOfEveryRecordOverResourceAndScopeGroups() {
    byte[] scopeA =
        concat(scope("io.logproducer"), record(stringBody("first")), record(stringBody("二番目")));
    byte[] scopeB = concat(record(intBody(42)), record(new byte[0]), record(stringBody("")));
    byte[] request =
        concat(field(1, concat(resource("svc"), field(2, scopeA))), field(1, field(2, scopeB)));

    assertEquals(5, TopicReader.otlpRecordCount(request));
    assertEquals(
        Arrays.asList("first", "二番目", null, null, ""), TopicReader.otlpStringBodies(request));
    assertEquals(5, TopicReader.OTLP_PROTO_RECORDS.applyAsLong(request));
  }

  @Test
  void skipsFieldsOfEveryWireTypeItDoesNotFollow() {
    byte[] logRecord =
        concat(
            fixed64(1, 1_700_000_000_000_000_000L),
            varintField(2, 9),
            fixed32(13, 7),
            stringBody("kept"),
            field(6, field(1, utf8("k")))); // attributes(6): KeyValue { key(1) }
    byte[] request =
        concat(varintField(9, 300), field(1, concat(field(2, field(2, logRecord)), fixed32(7, 1))));
    assertEquals(Collections.singletonList("kept"), TopicReader.otlpStringBodies(request));
  }

  @Test
  void anEmptyRequestHoldsNoRecords() {
    assertEquals(0, TopicReader.otlpRecordCount(new byte[0]));
  }

  @Test
  void refusesWhatIsNotAWellFormedRequest() {
    byte[] request = field(1, field(2, record(stringBody("truncated"))));
    byte[] truncated = Arrays.copyOf(request, request.length - 3);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TopicReader.otlpRecordCount(truncated));
    assertTrue(
        e.getMessage()
            .startsWith("not a well-formed ExportLogsServiceRequest: malformed protobuf: "),
        e.getMessage());
    assertThrows(
        IllegalArgumentException.class, () -> TopicReader.otlpRecordCount(new byte[] {0x0b}));
    assertThrows(
        IllegalArgumentException.class, () -> TopicReader.otlpRecordCount(new byte[] {0x00}));
    assertThrows(IllegalArgumentException.class, () -> TopicReader.otlpRecordCount(null));
    assertThrows(
        IllegalArgumentException.class,
        () ->
            TopicReader.otlpStringBodies("{\"resourceLogs\":[]}".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void rawMessagesAreOneRecordEachAndUtf8Text() {
    assertEquals(1, TopicReader.RAW_RECORDS.applyAsLong(new byte[0]));
    assertEquals(1, TopicReader.rawRecordCount("x".getBytes(StandardCharsets.UTF_8)));
    assertThrows(IllegalArgumentException.class, () -> TopicReader.rawRecordCount(null));
    assertEquals("日志 line", TopicReader.utf8("日志 line".getBytes(StandardCharsets.UTF_8)));
    assertEquals(null, TopicReader.utf8(null));
  }

  // ------------------------------------------------------------------------------------------
  // protobuf writing

  private static byte[] resource(String serviceName) {
    // Resource { attributes(1): KeyValue { key(1), value(2): AnyValue { string_value(1) } } }
    return field(
        1, field(1, concat(field(1, utf8("service.name")), field(2, field(1, utf8(serviceName))))));
  }

  private static byte[] scope(String name) {
    return field(1, field(1, utf8(name)));
  }

  private static byte[] record(byte[] fields) {
    return field(2, fields);
  }

  private static byte[] stringBody(String body) {
    return field(5, field(1, utf8(body)));
  }

  private static byte[] intBody(long value) {
    return field(5, varintField(3, value));
  }

  private static byte[] field(int number, byte[] payload) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    varint(out, number << 3 | 2);
    varint(out, payload.length);
    out.write(payload, 0, payload.length);
    return out.toByteArray();
  }

  private static byte[] varintField(int number, long value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    varint(out, number << 3);
    varint(out, value);
    return out.toByteArray();
  }

  private static byte[] fixed64(int number, long value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    varint(out, number << 3 | 1);
    for (int i = 0; i < 8; i++) {
      out.write((int) (value >>> (8 * i)));
    }
    return out.toByteArray();
  }

  private static byte[] fixed32(int number, int value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    varint(out, number << 3 | 5);
    for (int i = 0; i < 4; i++) {
      out.write(value >>> (8 * i));
    }
    return out.toByteArray();
  }

  private static void varint(ByteArrayOutputStream out, long value) {
    while ((value & ~0x7fL) != 0) {
      out.write((int) ((value & 0x7f) | 0x80));
      value >>>= 7;
    }
    out.write((int) value);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.write(p, 0, p.length);
    }
    return out.toByteArray();
  }
}
