package io.logproducer.appender.contract;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.otlp.testing.LoopbackOtlpServer;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The mapping contract both appenders keep: real events logged through the real framework, configured from its XML,
 * received by a real OTLP receiver on 127.0.0.1, and every mapped field pinned against the table in
 * docs/appenders.md ({@link #PINNED}: {@code AppenderMappingTableTest} compares it with the table's rows).
 *
 * <p>A subclass per framework configures three appenders on {@link #endpoint()}, told apart by their
 * {@code service.name}, and routes loggers to them by name:
 *
 * <ul>
 *   <li>{@value #MAIN} (loggers {@code contract.main.*} and the root): the default mapping with
 *       {@code mdcExclude=secret};</li>
 *   <li>{@value #CODE} (loggers {@code contract.code.*}, not additive): {@code captureCode=true},
 *       {@code mdcInclude=user}, {@code captureThread=false}, {@code captureMarkers=false},
 *       {@code captureKeyValues=false};</li>
 *   <li>{@value #LAYOUT} (loggers {@code contract.layout.*}, not additive): {@code useLayout=true} with the pattern
 *       level, {@code |}, logger, {@code |}, message, line separator.</li>
 * </ul>
 *
 * Each uses {@code lingerMillis=20} and {@code sendThreads=1} (batches arrive in order).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class AppenderContract {

  /** {@code service.name} of the default-mapping appender. */
  public static final String MAIN = "contract-main";
  /** {@code service.name} of the caller-data appender. */
  public static final String CODE = "contract-code";
  /** {@code service.name} of the layout appender. */
  public static final String LAYOUT = "contract-layout";

  /**
   * Every record field and attribute key this contract asserts: exactly the names in backticks in the right-hand
   * column of the mapping table in docs/appenders.md.
   */
  public static final Set<String> PINNED = Set.of("time_unix_nano", "observed_time_unix_nano", "severity_number",
      "severity_text", "body", "InstrumentationScope.name", "thread.name", "thread.id", "user", "trace_id",
      "span_id", "flags", "event_name", "logback.marker", "log4j.marker", "count", "big", "ratio", "f", "ok", "raw",
      "name", "list", "exception.type", "exception.message", "exception.stacktrace", "code.function.name",
      "code.file.path", "code.line.number");

  private static final String TRACE_ID = "5b8efff798038103d269b633813fc60c";
  private static final String SPAN_ID = "eee19b7ec3c1b174";
  private static final String TEXT = "日志 ✓ ünïcödé";

  /** One logging call. */
  public record Call(String logger, String level, String message, Map<String, String> mdc, List<String> markers,
      Map<String, Object> keyValues, Throwable thrown) {

    /** A call with a message only. */
    public static Call of(String logger, String level, String message) {
      return new Call(logger, level, message, Map.of(), List.of(), Map.of(), null);
    }
  }

  /** A record as received, with the scope and service it came under. */
  public record Received(String service, String scope, LogRecord record, Map<String, AnyValue> attributes) {
    String body() {
      return record.getBody().getStringValue();
    }
  }

  private LoopbackOtlpServer server;

  /**
   * Configures the framework (three appenders, see the class comment) to send to {@code endpoint}, and starts it.
   *
   * @param endpoint the OTLP/HTTP endpoint
   */
  protected abstract void startFramework(String endpoint) throws Exception;

  /** Stops the framework (its appenders ship what they buffered). Called once per test, also after a failure. */
  protected abstract void stopFramework();

  /**
   * Logs {@code call} on this thread through the framework, in this very method (so its caller data names it): the
   * MDC / ThreadContext entries are set for the call and removed after; key-value pairs through logback's
   * {@code addKeyValue} or a log4j2 {@code MapMessage} whose {@code message} entry is the message.
   *
   * @param call the call
   */
  protected abstract void log(Call call);

  /** {@return the markers' attribute key: {@code logback.marker} or {@code log4j.marker}} */
  protected abstract String markerKey();

  /** {@return whether markers are an array of strings (logback) rather than one string (log4j2)} */
  protected abstract boolean markersAsArray();

  /** {@return the endpoint of the receiver} */
  protected final String endpoint() {
    return server.endpoint();
  }

  @BeforeEach
  final void startContract() throws Exception {
    server = LoopbackOtlpServer.start();
    startFramework(server.endpoint());
  }

  @AfterEach
  final void stopContract() {
    try {
      stopFramework();
    } finally {
      server.close();
    }
  }

  @Test
  void mapsTimeSeverityBodyScopeThreadContextMarkersKeyValuesAndEventName() {
    long before = floorMillis(nanos(Instant.now()));
    Map<String, Object> kv = new LinkedHashMap<>();
    kv.put("count", 42);
    kv.put("big", 5_000_000_000L);
    kv.put("ratio", 0.25d);
    kv.put("f", 1.5f);
    kv.put("ok", true);
    kv.put("raw", new byte[] {1, 2, (byte) 0xff});
    kv.put("name", TEXT);
    kv.put("list", List.of("a", "b"));
    kv.put("otel.event.name", "order.paid");
    log(new Call("contract.main.Orders", "INFO", TEXT + " order 42",
        Map.of("user", "alice", "secret", "s3cr3t", "trace_id", TRACE_ID, "span_id", SPAN_ID, "trace_flags", "01"),
        List.of("AUDIT"), kv, null));
    log(new Call("contract.main.Orders", "WARN", "no trace",
        Map.of("trace_id", "not-a-trace-id", "span_id", SPAN_ID, "otel.event.name", "from.mdc"), List.of(), Map.of(),
        null));
    long after = nanos(Instant.now());

    List<Received> got = awaitRecords(MAIN, 2);
    Received a = got.get(0);
    assertEquals(TEXT + " order 42", a.body(), "body");
    assertEquals(9, a.record().getSeverityNumberValue(), "severity_number");
    assertEquals("INFO", a.record().getSeverityText(), "severity_text");
    long time = a.record().getTimeUnixNano();
    assertTrue(time >= before && time <= after, "time_unix_nano " + time + " in [" + before + ", " + after + "]");
    long observed = a.record().getObservedTimeUnixNano();
    assertTrue(observed >= floorMillis(time) && observed <= nanos(Instant.now()), "observed_time_unix_nano "
        + observed + " vs time " + time);
    assertEquals("contract.main.Orders", a.scope(), "InstrumentationScope.name: the logger name");
    assertEquals(TRACE_ID, HexFormat.of().formatHex(a.record().getTraceId().toByteArray()), "trace_id");
    assertEquals(SPAN_ID, HexFormat.of().formatHex(a.record().getSpanId().toByteArray()), "span_id");
    assertEquals(1, a.record().getFlags(), "flags");
    assertEquals("order.paid", a.record().getEventName(), "event_name from the otel.event.name key-value pair");
    Map<String, AnyValue> attrs = a.attributes();
    assertEquals(Thread.currentThread().getName(), attrs.get("thread.name").getStringValue());
    assertEquals(Thread.currentThread().getId(), attrs.get("thread.id").getIntValue());
    assertEquals("alice", attrs.get("user").getStringValue());
    assertEquals(42L, attrs.get("count").getIntValue());
    assertEquals(5_000_000_000L, attrs.get("big").getIntValue());
    assertEquals(0.25d, attrs.get("ratio").getDoubleValue());
    assertEquals(1.5d, attrs.get("f").getDoubleValue());
    assertTrue(attrs.get("ok").hasBoolValue() && attrs.get("ok").getBoolValue());
    assertArrayEquals(new byte[] {1, 2, (byte) 0xff}, attrs.get("raw").getBytesValue().toByteArray());
    assertEquals(TEXT, attrs.get("name").getStringValue());
    assertEquals("[a, b]", attrs.get("list").getStringValue());
    AnyValue marker = attrs.get(markerKey());
    if (markersAsArray()) {
      assertEquals(List.of("AUDIT"), marker.getArrayValue().getValuesList().stream().map(AnyValue::getStringValue)
          .toList());
    } else {
      assertEquals("AUDIT", marker.getStringValue());
    }
    // Exactly these: secret excluded by mdcExclude, the trace keys consumed as the record's ids, the event name not
    // an attribute, no code.* by default.
    assertEquals(new TreeSet<>(Set.of("thread.name", "thread.id", "user", "count", "big", "ratio", "f", "ok", "raw",
        "name", "list", markerKey())), new TreeSet<>(attrs.keySet()));

    Received b = got.get(1);
    assertEquals("no trace", b.body());
    assertEquals(13, b.record().getSeverityNumberValue());
    assertEquals("WARN", b.record().getSeverityText());
    assertTrue(b.record().getTraceId().isEmpty(), "an invalid trace id sets no ids");
    assertEquals("from.mdc", b.record().getEventName(), "event_name from the otel.event.name MDC entry");
    assertEquals(new TreeSet<>(Set.of("thread.name", "thread.id", "trace_id", "span_id")),
        new TreeSet<>(b.attributes().keySet()));
    assertEquals("not-a-trace-id", b.attributes().get("trace_id").getStringValue());
  }

  @Test
  void everyLevelMapsToItsSeverity() {
    for (String level : List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR")) {
      log(Call.of("contract.main.levels", level, level.toLowerCase()));
    }
    List<Received> got = awaitRecords(MAIN, 5);
    assertEquals(List.of(1, 5, 9, 13, 17), got.stream().map(r -> r.record().getSeverityNumberValue()).toList());
    assertEquals(List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR"),
        got.stream().map(r -> r.record().getSeverityText()).toList());
    assertEquals(List.of("trace", "debug", "info", "warn", "error"), got.stream().map(Received::body).toList());
  }

  @Test
  void exceptionTypeMessageAndStackTrace() {
    Exception error = new IllegalStateException("outer ✓", new IOException("inner cause"));
    log(new Call("contract.main.Errors", "ERROR", "failed", Map.of(), List.of(), Map.of(), error));
    Received r = awaitRecords(MAIN, 1).get(0);
    assertEquals("failed", r.body());
    assertEquals("java.lang.IllegalStateException", r.attributes().get("exception.type").getStringValue());
    assertEquals("outer ✓", r.attributes().get("exception.message").getStringValue());
    String trace = r.attributes().get("exception.stacktrace").getStringValue();
    assertTrue(trace.startsWith("java.lang.IllegalStateException: outer ✓\n\tat " + AppenderContract.class.getName()
        + ".exceptionTypeMessageAndStackTrace(AppenderContract.java:"), trace);
    assertTrue(trace.contains("\nCaused by: java.io.IOException: inner cause\n"), trace);
  }

  @Test
  void codeAttributesAndMdcIncludeOnlyWhenConfigured() {
    log(new Call("contract.code.Caller", "INFO", "with code", Map.of("user", "bob", "other", "x"), List.of("AUDIT"),
        Map.of(), null));
    Received r = awaitRecords(CODE, 1).get(0);
    Map<String, AnyValue> attrs = r.attributes();
    assertEquals(getClass().getName() + ".log", attrs.get("code.function.name").getStringValue());
    assertEquals(getClass().getSimpleName() + ".java", attrs.get("code.file.path").getStringValue());
    assertTrue(attrs.get("code.line.number").getIntValue() > 0, "code.line.number");
    assertEquals("bob", attrs.get("user").getStringValue());
    assertEquals(new TreeSet<>(Set.of("code.function.name", "code.file.path", "code.line.number", "user")),
        new TreeSet<>(attrs.keySet()), "mdcInclude=user; no thread, no marker");
  }

  @Test
  void layoutOutputIsTheBodyWithoutItsTrailingLineSeparator() {
    log(Call.of("contract.layout.Page", "INFO", "hello " + TEXT));
    Received r = awaitRecords(LAYOUT, 1).get(0);
    assertEquals("INFO|contract.layout.Page|hello " + TEXT, r.body());
  }

  @Test
  void producerLoggersNeverReachTheProducerAndStopShipsEverything() {
    log(Call.of("io.logproducer.contract", "INFO", "the producer's own logger"));
    for (int i = 0; i < 100; i++) {
      log(Call.of("contract.main.Stop", "INFO", "event " + i));
    }
    stopFramework(); // at once: what is buffered ships at stop
    List<Received> got = received(MAIN);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      expected.add("event " + i);
    }
    assertEquals(expected, got.stream().map(Received::body).toList());
    startFrameworkAgain();
  }

  private void startFrameworkAgain() {
    try {
      startFramework(server.endpoint()); // for stopContract, which stops it once more
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Waits up to 15 s for {@code n} records of {@code service}; fails if more arrive. */
  protected final List<Received> awaitRecords(String service, int n) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (received(service).size() < n) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out waiting for " + n + " records of " + service + ": got "
            + received(service).size() + " in " + server.exchanges().size() + " requests");
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
    List<Received> got = received(service);
    assertEquals(n, got.size(), "records of " + service);
    assertEquals(List.of(), server.decodeErrors());
    return got;
  }

  /** Every record of {@code service} in every accepted request, in arrival order. */
  protected final List<Received> received(String service) {
    List<Received> out = new ArrayList<>();
    for (LoopbackOtlpServer.Exchange e : server.exchanges()) {
      if (!e.accepted()) {
        continue;
      }
      for (ResourceLogs rl : e.request().request().getResourceLogsList()) {
        AnyValue name = attributeMap(rl.getResource().getAttributesList()).get("service.name");
        if (name == null || !service.equals(name.getStringValue())) {
          continue;
        }
        for (ScopeLogs sl : rl.getScopeLogsList()) {
          for (LogRecord r : sl.getLogRecordsList()) {
            out.add(new Received(service, sl.getScope().getName(), r, attributeMap(r.getAttributesList())));
          }
        }
      }
    }
    return out;
  }

  private static Map<String, AnyValue> attributeMap(List<KeyValue> kvs) {
    Map<String, AnyValue> m = new LinkedHashMap<>();
    Set<String> seen = new LinkedHashSet<>();
    for (KeyValue kv : kvs) {
      if (!seen.add(kv.getKey())) {
        throw new AssertionError("duplicate attribute " + kv.getKey());
      }
      m.put(kv.getKey(), kv.getValue());
    }
    return m;
  }

  private static long nanos(Instant i) {
    return TimeUnit.SECONDS.toNanos(i.getEpochSecond()) + i.getNano();
  }

  private static long floorMillis(long nanos) {
    return nanos / 1_000_000 * 1_000_000;
  }
}
