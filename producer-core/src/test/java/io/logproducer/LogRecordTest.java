package io.logproducer;

import static io.logproducer.ProducerConfigTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LogRecordTest {

  @Test
  void holdsEveryFieldOfTheOtlpModel() {
    Map<String, AnyValue> nested = new LinkedHashMap<>();
    nested.put("k", AnyValue.of(1L));
    LogRecord r =
        LogRecord.builder()
            .setTimestamp(Instant.ofEpochSecond(1_700_000_000L, 123))
            .setObservedTimeUnixNano(5)
            .setSeverity(Severity.WARN2)
            .setBody("正文")
            .setAttribute("s", "v")
            .setAttribute("b", true)
            .setAttribute("l", 42L)
            .setAttribute("d", 1.5)
            .setAttribute("bytes", new byte[] {1, 2})
            .setAttribute("map", AnyValue.ofKeyValueList(nested))
            .setTraceId("0102030405060708090a0b0c0d0e0f10")
            .setSpanId("a1a2a3a4a5a6a7a8")
            .setFlags(1)
            .setEventName("evt")
            .setDestination("1500001")
            .build();
    assertEquals(1_700_000_000_000_000_123L, r.getTimeUnixNano());
    assertEquals(5, r.getObservedTimeUnixNano());
    assertEquals(14, r.getSeverityNumber());
    assertEquals("WARN2", r.getSeverityText());
    assertEquals("正文", r.getBody().asString());
    assertEquals(6, r.getAttributeCount());
    assertEquals("bytes", r.getAttributeKey(4));
    assertEquals(42L, r.getAttribute("l").asLong());
    assertEquals(1L, r.getAttribute("map").asKeyValueList().get("k").asLong());
    assertEquals(16, r.getTraceId().length);
    assertEquals((byte) 0x10, r.getTraceId()[15]);
    assertArrayEquals(
        new byte[] {
          (byte) 0xa1,
          (byte) 0xa2,
          (byte) 0xa3,
          (byte) 0xa4,
          (byte) 0xa5,
          (byte) 0xa6,
          (byte) 0xa7,
          (byte) 0xa8
        },
        r.getSpanId());
    assertEquals(1, r.getFlags());
    assertEquals("evt", r.getEventName());
    assertEquals("1500001", r.getDestination());
  }

  @Test
  void invalidValuesAreRejectedNamingTheField() {
    assertMessage(
        "traceId must be 16 bytes, was 3", () -> LogRecord.builder().setTraceId(new byte[3]));
    assertMessage(
        "spanId must be 8 bytes, was 16", () -> LogRecord.builder().setSpanId(new byte[16]));
    assertMessage(
        "traceId must be 32 hex digits, was 4 characters",
        () -> LogRecord.builder().setTraceId("abcd"));
    assertMessage(
        "spanId must be ASCII hex digits [0-9a-fA-F], was 'zz02030405060708': 'z' (U+007A) at index 0",
        () -> LogRecord.builder().setSpanId("zz02030405060708"));
    assertMessage(
        "attribute key must not be null", () -> LogRecord.builder().setAttribute(null, "v"));
    assertMessage(
        "attribute 'x' must be a finite double, was NaN",
        () -> LogRecord.builder().setAttribute("x", Double.NaN));
    assertMessage(
        "attribute 'x' must be a finite double, was Infinity",
        () -> LogRecord.builder().setAttribute("x", Double.POSITIVE_INFINITY));
    assertMessage(
        "attribute 'x' value must not be null",
        () -> LogRecord.builder().setAttribute("x", (String) null));
    assertMessage(
        "severityNumber must be in [0, 24], was 25",
        () -> LogRecord.builder().setSeverityNumber(25));
    assertMessage(
        "timeUnixNano must be >= 0, was -1", () -> LogRecord.builder().setTimeUnixNano(-1));
    assertMessage("double value must be finite, was NaN", () -> AnyValue.of(Double.NaN));
    assertMessage(
        "array element 1 must not be null", () -> AnyValue.ofArray(AnyValue.of(1L), null));
    Map<String, AnyValue> bad = new LinkedHashMap<>();
    bad.put(null, AnyValue.of(1L));
    assertMessage("key/value list key must not be null", () -> AnyValue.ofKeyValueList(bad));
  }

  @Test
  void hexIdsAcceptOnlyAsciiHexDigits() {
    // Character.digit(c, 16) accepts these: fullwidth 'Ａ' is 10, Arabic-Indic '١' is 1
    assertMessage(
        "traceId must be ASCII hex digits [0-9a-fA-F], was '0102030405060708090a0b0c0d0e0fＡ0': "
            + "'Ａ' (U+FF21) at index 30",
        () -> LogRecord.builder().setTraceId("0102030405060708090a0b0c0d0e0f\uFF210"));
    assertMessage(
        "spanId must be ASCII hex digits [0-9a-fA-F], was 'a1a2a3a4a5a6a7a١': '١' (U+0661) at index 15",
        () -> LogRecord.builder().setSpanId("a1a2a3a4a5a6a7a\u0661"));
    assertMessage(
        "spanId must be ASCII hex digits [0-9a-fA-F], was '０1a2a3a4a5a6a7a8': '０' (U+FF10) at index 0",
        () -> LogRecord.builder().setSpanId("\uFF101a2a3a4a5a6a7a8"));
    assertMessage(
        "traceId must be ASCII hex digits [0-9a-fA-F], was '0102030405060708090a0b0c0d0e0f1g': "
            + "'g' (U+0067) at index 31",
        () -> LogRecord.builder().setTraceId("0102030405060708090a0b0c0d0e0f1g"));
    // every ASCII hex digit, both cases
    LogRecord r =
        LogRecord.builder()
            .setTraceId("0123456789abcdefABCDEF0123456789")
            .setSpanId("FEDCBA9876543210")
            .build();
    assertArrayEquals(
        new byte[] {
          0x01,
          0x23,
          0x45,
          0x67,
          (byte) 0x89,
          (byte) 0xab,
          (byte) 0xcd,
          (byte) 0xef,
          (byte) 0xab,
          (byte) 0xcd,
          (byte) 0xef,
          0x01,
          0x23,
          0x45,
          0x67,
          (byte) 0x89
        },
        r.getTraceId());
    assertArrayEquals(
        new byte[] {(byte) 0xfe, (byte) 0xdc, (byte) 0xba, (byte) 0x98, 0x76, 0x54, 0x32, 0x10},
        r.getSpanId());
  }

  @Test
  void emptyAttributeKeyIsRejectedByEverySetter() {
    // OTLP: "The attribute key MUST be a non-null and non-empty string"
    LogRecord.Builder b = LogRecord.builder();
    assertMessage("attribute key must not be empty", () -> b.setAttribute("", "v"));
    assertMessage("attribute key must not be empty", () -> b.setAttribute("", true));
    assertMessage("attribute key must not be empty", () -> b.setAttribute("", 1L));
    assertMessage("attribute key must not be empty", () -> b.setAttribute("", 1.5));
    assertMessage("attribute key must not be empty", () -> b.setAttribute("", new byte[] {1}));
    assertMessage("attribute key must not be empty", () -> b.setAttribute("", AnyValue.of(1L)));
    assertEquals(0, b.build().getAttributeCount());
    assertEquals(1, b.setAttribute(" ", "blank is a valid key").build().getAttributeCount());
  }

  @Test
  void duplicateKeysKeepTheLastValueInFirstPosition() {
    LogRecord r =
        LogRecord.builder()
            .setAttribute("a", "1")
            .setAttribute("b", "2")
            .setAttribute("a", "3")
            .build();
    assertEquals(2, r.getAttributeCount());
    assertEquals("a", r.getAttributeKey(0));
    assertEquals("3", r.getAttributeValue(0).asString());
  }

  @Test
  void builderIsReusableAndRecordsAreIndependent() {
    LogRecord.Builder b = LogRecord.builder().setBody("one").setAttribute("k", "v");
    LogRecord first = b.build();
    b.setBody("two").setAttribute("k2", "v2");
    LogRecord second = b.build();
    assertEquals("one", first.getBody().asString());
    assertEquals(1, first.getAttributeCount());
    assertEquals(2, second.getAttributeCount());
    b.clearAttributes();
    assertEquals(0, b.build().getAttributeCount());
    assertEquals(2, second.getAttributeCount());
  }

  @Test
  void observedTimeDefaultsToNowAndEmptyIdsClear() {
    long before = System.currentTimeMillis() * 1_000_000L;
    LogRecord r = LogRecord.builder().setTraceId(new byte[0]).setSpanId("").build();
    assertTrue(r.getObservedTimeUnixNano() >= before);
    assertNull(r.getTraceId());
    assertNull(r.getSpanId());
    assertEquals(0, r.getTimeUnixNano());
    assertNull(r.getBody());
  }

  @Test
  void anyValueAccessorsCheckTheType() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> AnyValue.of("s").asLong());
    assertEquals("value is STRING, not LONG", e.getMessage());
    assertEquals(AnyValue.of(new byte[] {1}), AnyValue.of(new byte[] {1}));
    assertEquals(Severity.FATAL4, Severity.fromNumber(24));
    assertEquals("INFO", Severity.INFO.text());
  }

  @Test
  void aReusedBuilderLeavesBuiltRecordsAsTheyWere() {
    LogRecord.Builder b = LogRecord.builder().setAttribute("level", "INFO_1");
    b.setAttribute("thread", "t-1").setAttribute("location", "L_1");
    LogRecord first = b.build();
    // the same constant keys (found by reference), and an equal key that is another instance
    b.setAttribute("level", "INFO_2").setAttribute(new String("thread"), "t-2");
    LogRecord second = b.setAttribute("extra", 7L).build();

    assertEquals(3, first.getAttributeCount());
    assertEquals("level=INFO_1 thread=t-1 location=L_1", attributes(first));
    assertEquals(4, second.getAttributeCount());
    assertEquals("level=INFO_2 thread=t-2 location=L_1 extra=7", attributes(second));
    assertEquals(AnyValue.of("t-2"), second.getAttribute("thread"));
    assertNull(first.getAttribute("extra"));
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> first.getAttributeKey(3));
    assertThrows(ArrayIndexOutOfBoundsException.class, () -> first.getAttributeValue(-1));
    assertThrows(
        ArrayIndexOutOfBoundsException.class, () -> LogRecord.builder().build().getAttributeKey(0));
  }

  private static String attributes(LogRecord r) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < r.getAttributeCount(); i++) {
      sb.append(i == 0 ? "" : " ").append(r.getAttributeKey(i)).append('=');
      AnyValue v = r.getAttributeValue(i);
      sb.append(v.getType() == AnyValue.Type.STRING ? v.asString() : String.valueOf(v.asLong()));
    }
    return sb.toString();
  }
}
