package io.logproducer.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import io.logproducer.Severity;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The producer's attribute limits, as {@code send} applies them. */
class AttributeLimitsTest {

  private static LogRecord.Builder full() {
    return LogRecord.builder()
        .setTimeUnixNano(11)
        .setObservedTimeUnixNano(22)
        .setSeverity(Severity.ERROR2)
        .setSeverityText("SEVERE")
        .setBody(AnyValue.of("b".repeat(50)))
        .setTraceId("0102030405060708090a0b0c0d0e0f10")
        .setSpanId("a1a2a3a4a5a6a7a8")
        .setFlags(1)
        .setEventName("evt")
        .setInstrumentationScopeName("scope")
        .setDestination("topic");
  }

  private static LogRecord.Builder withAttributes(int n) {
    LogRecord.Builder b = full();
    for (int i = 0; i < n; i++) {
      b.setAttribute("k" + i, "v" + i);
    }
    return b;
  }

  @Test
  void aRecordWithinTheLimitsIsSentAsItIs() {
    AttributeLimits limits = new AttributeLimits(ProducerConfig.defaults());
    LogRecord atTheLimit = withAttributes(128).build();
    assertSame(atTheLimit, limits.apply(atTheLimit));
    LogRecord none = LogRecord.builder().build();
    assertSame(none, limits.apply(none));
    AttributeLimits tight = new AttributeLimits(3, 4);
    LogRecord fits = LogRecord.builder().setAttribute("a", "1234").setAttribute("b", 5L).build();
    assertSame(fits, tight.apply(fits));
  }

  @Test
  void keepsTheFirstAttributesAndCountsTheRestWithTheRecordsOwn() {
    LogRecord r = withAttributes(1000).setDroppedAttributesCount(7).build();
    LogRecord limited = new AttributeLimits(128, Integer.MAX_VALUE).apply(r);
    assertEquals(128, limited.getAttributeCount());
    for (int i = 0; i < 128; i++) {
      assertEquals("k" + i, limited.getAttributeKey(i));
      assertSame(r.getAttributeValue(i), limited.getAttributeValue(i));
    }
    assertEquals(7 + 872, limited.getDroppedAttributesCount());
    assertEverythingElseEqual(r, limited);
    LogRecord nothing = new AttributeLimits(0, Integer.MAX_VALUE).apply(r);
    assertEquals(0, nothing.getAttributeCount());
    assertEquals(1007, nothing.getDroppedAttributesCount());
  }

  @Test
  void theDroppedCountSaturates() {
    LogRecord r = withAttributes(10).setDroppedAttributesCount(Integer.MAX_VALUE - 3).build();
    assertEquals(
        Integer.MAX_VALUE, new AttributeLimits(2, 100).apply(r).getDroppedAttributesCount());
  }

  @Test
  void stringsAreTruncatedAtTheLimitAndNeverInsideASurrogatePair() {
    int limit = 10;
    String nine = "123456789";
    String ten = nine + "0";
    String eleven = ten + "1";
    String pairAcross = nine + "😀"; // the pair is chars 9 and 10: cutting at 10 would split it
    String pairBefore = "12345678😀" + "x"; // chars 8, 9: kept whole
    LogRecord r =
        LogRecord.builder()
            .setAttribute("nine", nine)
            .setAttribute("ten", ten)
            .setAttribute("eleven", eleven)
            .setAttribute("pairAcross", pairAcross + "tail")
            .setAttribute("pairBefore", pairBefore)
            .setAttribute("bytes", new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
            .setAttribute("n", Long.MAX_VALUE)
            .setBody(eleven + eleven)
            .build();
    LogRecord limited = new AttributeLimits(128, limit).apply(r);
    assertSame(r.getAttributeValue(0), limited.getAttributeValue(0), "limit - 1: untouched");
    assertSame(r.getAttributeValue(1), limited.getAttributeValue(1), "limit: untouched");
    assertEquals(ten, limited.getAttribute("eleven").asString(), "limit + 1: cut to the limit");
    assertEquals(nine, limited.getAttribute("pairAcross").asString(), "one char fewer");
    assertEquals("12345678😀", limited.getAttribute("pairBefore").asString());
    assertArrayEquals(
        new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, limited.getAttribute("bytes").asBytes());
    assertEquals(Long.MAX_VALUE, limited.getAttribute("n").asLong());
    assertEquals(eleven + eleven, limited.getBody().asString(), "the body is not an attribute");
    assertEquals(0, limited.getDroppedAttributesCount(), "truncation drops nothing");
    assertEquals(10, limited.getLongestAttributeValueLength());
    assertEquals("", AttributeLimits.truncate("😀", 1), "a lone pair under a limit of 1");
    assertEquals("", new AttributeLimits(5, 0).apply(r).getAttribute("nine").asString());
  }

  @Test
  void stringsInsideArraysAndKeyValueListsAreTruncatedToo() {
    Map<String, AnyValue> inner = new LinkedHashMap<>();
    inner.put("short", AnyValue.of("ok"));
    inner.put("long", AnyValue.of("abcdefgh"));
    AnyValue array =
        AnyValue.ofArray(
            AnyValue.of("abc"),
            AnyValue.of("abcdefgh"),
            AnyValue.of(3L),
            AnyValue.ofArray(AnyValue.of("xyzxyzxyz")),
            AnyValue.ofKeyValueList(inner));
    AnyValue untouched = AnyValue.ofArray(AnyValue.of("abc"), AnyValue.of(true));
    LogRecord r =
        LogRecord.builder().setAttribute("array", array).setAttribute("same", untouched).build();
    LogRecord limited = new AttributeLimits(128, 4).apply(r);
    AnyValue a = limited.getAttribute("array");
    assertEquals("abc", a.asArray().get(0).asString());
    assertEquals("abcd", a.asArray().get(1).asString());
    assertEquals(3L, a.asArray().get(2).asLong());
    assertEquals("xyzx", a.asArray().get(3).asArray().get(0).asString());
    assertEquals("ok", a.asArray().get(4).asKeyValueList().get("short").asString());
    assertEquals("abcd", a.asArray().get(4).asKeyValueList().get("long").asString());
    assertSame(untouched, limited.getAttribute("same"));
  }

  @Test
  void aRecordWhoseLongValueWasReplacedIsStillSentAsItIs() {
    LogRecord r =
        LogRecord.builder().setAttribute("a", "x".repeat(100)).setAttribute("a", "short").build();
    assertEquals(100, r.getLongestAttributeValueLength(), "an upper bound after a replacement");
    assertSame(r, new AttributeLimits(128, 10).apply(r));
  }

  @Test
  void bothLimitsAtOnce() {
    LogRecord.Builder b = full();
    for (int i = 0; i < 6; i++) {
      b.setAttribute("k" + i, "value-" + i);
    }
    LogRecord r = b.build();
    LogRecord limited = new AttributeLimits(4, 5).apply(r);
    assertNotSame(r, limited);
    assertEquals(4, limited.getAttributeCount());
    assertEquals("value", limited.getAttributeValue(3).asString());
    assertEquals(2, limited.getDroppedAttributesCount());
    assertEverythingElseEqual(r, limited);
  }

  private static void assertEverythingElseEqual(LogRecord expected, LogRecord actual) {
    assertEquals(expected.getTimeUnixNano(), actual.getTimeUnixNano());
    assertEquals(expected.getObservedTimeUnixNano(), actual.getObservedTimeUnixNano());
    assertEquals(expected.getSeverityNumber(), actual.getSeverityNumber());
    assertEquals(expected.getSeverityText(), actual.getSeverityText());
    assertEquals(expected.getBody(), actual.getBody());
    assertArrayEquals(expected.getTraceId(), actual.getTraceId());
    assertArrayEquals(expected.getSpanId(), actual.getSpanId());
    assertEquals(expected.getFlags(), actual.getFlags());
    assertEquals(expected.getEventName(), actual.getEventName());
    assertEquals(expected.getInstrumentationScopeName(), actual.getInstrumentationScopeName());
    assertEquals(expected.getDestination(), actual.getDestination());
  }
}
