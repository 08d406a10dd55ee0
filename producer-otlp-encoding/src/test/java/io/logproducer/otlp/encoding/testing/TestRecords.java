package io.logproducer.otlp.encoding.testing;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.Severity;
import java.util.LinkedHashMap;
import java.util.Map;

/** Sample records for tests. */
public final class TestRecords {

  private TestRecords() {}

  /** A record with every field set and attributes of every kind, nested, with non-ASCII text. */
  public static LogRecord full(String body) {
    return full(body, null);
  }

  /** {@link #full(String)} with an InstrumentationScope name (null: none). */
  public static LogRecord full(String body, String scopeName) {
    Map<String, AnyValue> inner = new LinkedHashMap<>();
    inner.put("deep", AnyValue.ofArray(AnyValue.of(1L), AnyValue.of("二"), AnyValue.ofArray()));
    inner.put("empty", AnyValue.ofKeyValueList(new LinkedHashMap<>()));
    Map<String, AnyValue> kv = new LinkedHashMap<>();
    kv.put("k1", AnyValue.of("v1"));
    kv.put("nested", AnyValue.ofKeyValueList(inner));
    return LogRecord.builder()
        .setTimeUnixNano(1_700_000_000_123_456_789L)
        .setObservedTimeUnixNano(1_700_000_000_987_654_321L)
        .setSeverity(Severity.WARN3)
        .setBody(body)
        .setAttribute("str", "日志 😀 \"quoted\" \\ \n\t\u0001")
        .setAttribute("bool", true)
        .setAttribute("false", false)
        .setAttribute("long", -42L)
        .setAttribute("zero", 0L)
        .setAttribute("max", Long.MAX_VALUE)
        .setAttribute("double", 3.25)
        .setAttribute("tiny", 1e-300)
        .setAttribute("bytes", new byte[] {0, 1, 2, (byte) 0xFF, 0x7F})
        .setAttribute(
            "array",
            AnyValue.ofArray(
                AnyValue.of("a"),
                AnyValue.of(2L),
                AnyValue.of(false),
                AnyValue.of(0.5),
                AnyValue.of(new byte[] {9})))
        .setAttribute("kvlist", AnyValue.ofKeyValueList(kv))
        .setTraceId("0102030405060708090a0b0c0d0e0f10")
        .setSpanId("a1a2a3a4a5a6a7a8")
        .setFlags(0x01)
        .setEventName("app.event")
        .setInstrumentationScopeName(scopeName)
        .build();
  }

  /**
   * An INFO record with a string body and one attribute. Its observed time is fixed too (unset, it
   * would be the moment the record is built, and two records built a millisecond apart would
   * differ).
   */
  public static LogRecord simple(String body) {
    return simple(body, null);
  }

  /** {@link #simple(String)} with an InstrumentationScope name (null: none). */
  public static LogRecord simple(String body, String scopeName) {
    return LogRecord.builder()
        .setTimeUnixNano(1_700_000_000_000_000_000L)
        .setObservedTimeUnixNano(1_700_000_000_000_000_000L)
        .setSeverity(Severity.INFO)
        .setBody(body)
        .setAttribute("thread", Thread.currentThread().getName())
        .setInstrumentationScopeName(scopeName)
        .build();
  }
}
