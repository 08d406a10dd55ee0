package io.logproducer.testing.appender;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.otlp.Exchange;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
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
 * The mapping contract both appenders keep, as a JUnit 5 suite: real events logged through the real
 * framework, configured from its XML, received by a real {@link OtlpReceiver} on 127.0.0.1, and
 * every mapped field pinned against the table in docs/appenders.md ({@link #PINNED}: {@code
 * AppenderMappingTableTest} compares it with the table's rows).
 *
 * <p>A subclass per framework configures three appenders on the receiver's endpoint, told apart by
 * their {@code service.name}, and routes loggers to them by name:
 *
 * <ul>
 *   <li>{@value #MAIN} (loggers {@code contract.main.*} and the root): the default mapping with
 *       {@code mdcExclude=secret};
 *   <li>{@value #CODE} (loggers {@code contract.code.*}, not additive): {@code captureCode=true},
 *       {@code mdcInclude=user}, {@code captureThread=false}, {@code captureMarkers=false}, {@code
 *       captureKeyValues=false};
 *   <li>{@value #LAYOUT} (loggers {@code contract.layout.*}, not additive): {@code useLayout=true}
 *       with the pattern level, {@code |}, logger, {@code |}, message, line separator.
 * </ul>
 *
 * Each uses {@code lingerMillis=20} and {@code sendThreads=1} (batches arrive in order). Each test
 * starts a fresh receiver and framework and stops both afterwards; a test takes at most 60 s.
 * Attribute values are compared as the receiver decodes them ({@link ReceivedLogRecord}: an
 * int_value is a {@code Long}, a double_value a {@code Double}).
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
   * Every record field and attribute key this contract asserts: exactly the names in backticks in
   * the right-hand column of the mapping table in docs/appenders.md. Unmodifiable.
   */
  public static final Set<String> PINNED =
      Collections.unmodifiableSet(
          new HashSet<>(
              Arrays.asList(
                  "time_unix_nano",
                  "observed_time_unix_nano",
                  "severity_number",
                  "severity_text",
                  "body",
                  "InstrumentationScope.name",
                  "thread.name",
                  "thread.id",
                  "user",
                  "trace_id",
                  "span_id",
                  "flags",
                  "event_name",
                  "logback.marker",
                  "log4j.marker",
                  "count",
                  "big",
                  "ratio",
                  "f",
                  "ok",
                  "raw",
                  "name",
                  "list",
                  "exception.type",
                  "exception.message",
                  "exception.stacktrace",
                  "code.function.name",
                  "code.file.path",
                  "code.line.number")));

  private static final String TRACE_ID = "5b8efff798038103d269b633813fc60c";
  private static final String SPAN_ID = "eee19b7ec3c1b174";
  private static final String TEXT = "日志 ✓ ünïcödé";

  /** One logging call: what {@link #log(Call)} logs. Immutable. */
  public static final class Call {

    private final String logger;
    private final String level;
    private final String message;
    private final Map<String, String> mdc;
    private final List<String> markers;
    private final Map<String, Object> keyValues;
    private final Throwable thrown;

    /**
     * A call.
     *
     * @param logger the logger's name
     * @param level the level's name: TRACE, DEBUG, INFO, WARN or ERROR
     * @param message the message, logged as is (no placeholders)
     * @param mdc MDC / ThreadContext entries set for the call, in order
     * @param markers marker names, in order (log4j2 subclasses log the first only)
     * @param keyValues key-value pairs, in order
     * @param thrown the exception logged with the call, or null
     */
    public Call(
        String logger,
        String level,
        String message,
        Map<String, String> mdc,
        List<String> markers,
        Map<String, Object> keyValues,
        Throwable thrown) {
      this.logger = logger;
      this.level = level;
      this.message = message;
      this.mdc = mdc;
      this.markers = markers;
      this.keyValues = keyValues;
      this.thrown = thrown;
    }

    /**
     * A call with a message only.
     *
     * @param logger the logger's name
     * @param level the level's name
     * @param message the message
     * @return the call, without MDC entries, markers, key-value pairs or exception
     */
    public static Call of(String logger, String level, String message) {
      return new Call(
          logger,
          level,
          message,
          Collections.<String, String>emptyMap(),
          Collections.<String>emptyList(),
          Collections.<String, Object>emptyMap(),
          null);
    }

    /** {@return the logger's name} */
    public String logger() {
      return logger;
    }

    /** {@return the level's name: TRACE, DEBUG, INFO, WARN or ERROR} */
    public String level() {
      return level;
    }

    /** {@return the message} */
    public String message() {
      return message;
    }

    /** {@return the MDC / ThreadContext entries, in order} */
    public Map<String, String> mdc() {
      return mdc;
    }

    /** {@return the marker names, in order} */
    public List<String> markers() {
      return markers;
    }

    /** {@return the key-value pairs, in order} */
    public Map<String, Object> keyValues() {
      return keyValues;
    }

    /** {@return the exception, or null} */
    public Throwable thrown() {
      return thrown;
    }
  }

  /** A record as received, with the service and scope it came under. Immutable. */
  public static final class Received {

    private final String service;
    private final ReceivedLogRecord record;

    Received(String service, ReceivedLogRecord record) {
      this.service = service;
      this.record = record;
    }

    /** {@return the resource's {@code service.name}} */
    public String service() {
      return service;
    }

    /** {@return the instrumentation scope's name} */
    public String scope() {
      return record.scopeName();
    }

    /** {@return the record as the receiver decoded it} */
    public ReceivedLogRecord record() {
      return record;
    }

    /** {@return the record's attributes, in order} */
    public Map<String, Object> attributes() {
      return record.attributes();
    }

    /** {@return the string body, "" if the body is not a string} */
    public String body() {
      return record.bodyString();
    }
  }

  private OtlpReceiver receiver;

  /**
   * Configures the framework (three appenders, see the class comment) to send to {@code endpoint},
   * and starts it.
   *
   * @param endpoint the OTLP/HTTP endpoint, e.g. {@code http://127.0.0.1:43121}
   * @throws Exception if the framework cannot start; the test fails
   */
  protected abstract void startFramework(String endpoint) throws Exception;

  /**
   * Stops the framework (its appenders ship what they buffered). Called once per test, also after a
   * failure.
   */
  protected abstract void stopFramework();

  /**
   * Logs {@code call} on this thread through the framework, in this very method (so its caller data
   * names it): the MDC / ThreadContext entries are set for the call and removed after; key-value
   * pairs through logback's {@code addKeyValue} or a log4j2 {@code MapMessage} whose {@code
   * message} entry is the message.
   *
   * @param call the call
   */
  protected abstract void log(Call call);

  /** {@return the markers' attribute key: {@code logback.marker} or {@code log4j.marker}} */
  protected abstract String markerKey();

  /** {@return whether markers are an array of strings (logback) rather than one string (log4j2)} */
  protected abstract boolean markersAsArray();

  /** {@return the endpoint of the receiver, e.g. {@code http://127.0.0.1:43121}} */
  protected final String endpoint() {
    return receiver.endpoint();
  }

  @BeforeEach
  final void startContract() throws Exception {
    receiver = OtlpReceiver.start();
    startFramework(receiver.endpoint());
  }

  @AfterEach
  final void stopContract() {
    try {
      stopFramework();
    } finally {
      receiver.close();
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
    kv.put("list", Arrays.asList("a", "b"));
    kv.put("otel.event.name", "order.paid");
    log(
        new Call(
            "contract.main.Orders",
            "INFO",
            TEXT + " order 42",
            map(
                "user",
                "alice",
                "secret",
                "s3cr3t",
                "trace_id",
                TRACE_ID,
                "span_id",
                SPAN_ID,
                "trace_flags",
                "01"),
            Collections.singletonList("AUDIT"),
            kv,
            null));
    log(
        new Call(
            "contract.main.Orders",
            "WARN",
            "no trace",
            map("trace_id", "not-a-trace-id", "span_id", SPAN_ID, "otel.event.name", "from.mdc"),
            Collections.<String>emptyList(),
            Collections.<String, Object>emptyMap(),
            null));
    long after = nanos(Instant.now());

    List<Received> got = awaitRecords(MAIN, 2);
    Received a = got.get(0);
    assertEquals(TEXT + " order 42", a.body(), "body");
    assertEquals(9, a.record().severityNumber(), "severity_number");
    assertEquals("INFO", a.record().severityText(), "severity_text");
    long time = a.record().timeUnixNano();
    assertTrue(
        time >= before && time <= after,
        "time_unix_nano " + time + " in [" + before + ", " + after + "]");
    long observed = a.record().observedTimeUnixNano();
    assertTrue(
        observed >= floorMillis(time) && observed <= nanos(Instant.now()),
        "observed_time_unix_nano " + observed + " vs time " + time);
    assertEquals("contract.main.Orders", a.scope(), "InstrumentationScope.name: the logger name");
    assertEquals(TRACE_ID, a.record().traceId(), "trace_id");
    assertEquals(SPAN_ID, a.record().spanId(), "span_id");
    assertEquals(1, a.record().flags(), "flags");
    assertEquals(
        "order.paid", a.record().eventName(), "event_name from the otel.event.name key-value pair");
    Map<String, Object> attrs = a.attributes();
    assertTypedAttributesAndMarker(attrs);
    // Exactly these: secret excluded by mdcExclude, the trace keys consumed as the record's ids,
    // the event name not an attribute, no code.* by default.
    assertEquals(
        new TreeSet<>(
            Arrays.asList(
                "thread.name",
                "thread.id",
                "user",
                "count",
                "big",
                "ratio",
                "f",
                "ok",
                "raw",
                "name",
                "list",
                markerKey())),
        new TreeSet<>(attrs.keySet()));

    Received b = got.get(1);
    assertEquals("no trace", b.body());
    assertEquals(13, b.record().severityNumber());
    assertEquals("WARN", b.record().severityText());
    assertEquals("", b.record().traceId(), "an invalid trace id sets no ids");
    assertEquals(
        "from.mdc", b.record().eventName(), "event_name from the otel.event.name MDC entry");
    assertEquals(
        new TreeSet<>(Arrays.asList("thread.name", "thread.id", "trace_id", "span_id")),
        new TreeSet<>(b.attributes().keySet()));
    assertEquals("not-a-trace-id", b.attributes().get("trace_id"));
  }

  /**
   * The thread, MDC and typed key-value attributes and the marker of the first record of the
   * mapping test.
   */
  private void assertTypedAttributesAndMarker(Map<String, Object> attrs) {
    assertEquals(Thread.currentThread().getName(), attrs.get("thread.name"));
    assertEquals(Thread.currentThread().getId(), attrs.get("thread.id"));
    assertEquals("alice", attrs.get("user"));
    assertEquals(42L, attrs.get("count"));
    assertEquals(5_000_000_000L, attrs.get("big"));
    assertEquals(0.25d, attrs.get("ratio"));
    assertEquals(1.5d, attrs.get("f"));
    assertEquals(Boolean.TRUE, attrs.get("ok"));
    assertArrayEquals(new byte[] {1, 2, (byte) 0xff}, typed(attrs, "raw", byte[].class));
    assertEquals(TEXT, attrs.get("name"));
    assertEquals("[a, b]", attrs.get("list"));
    Object marker = attrs.get(markerKey());
    if (markersAsArray()) {
      assertEquals(Collections.singletonList("AUDIT"), typed(attrs, markerKey(), List.class));
    } else {
      assertEquals("AUDIT", marker);
    }
  }

  @Test
  void everyLevelMapsToItsSeverity() {
    List<String> levels = Arrays.asList("TRACE", "DEBUG", "INFO", "WARN", "ERROR");
    for (String level : levels) {
      log(Call.of("contract.main.levels", level, level.toLowerCase(java.util.Locale.ROOT)));
    }
    List<Received> got = awaitRecords(MAIN, 5);
    List<Integer> severities = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    List<String> bodies = new ArrayList<>();
    for (Received r : got) {
      severities.add(r.record().severityNumber());
      texts.add(r.record().severityText());
      bodies.add(r.body());
    }
    assertEquals(Arrays.asList(1, 5, 9, 13, 17), severities);
    assertEquals(levels, texts);
    assertEquals(Arrays.asList("trace", "debug", "info", "warn", "error"), bodies);
  }

  @Test
  void exceptionTypeMessageAndStackTrace() {
    Exception error = new IllegalStateException("outer ✓", new IOException("inner cause"));
    log(
        new Call(
            "contract.main.Errors",
            "ERROR",
            "failed",
            Collections.<String, String>emptyMap(),
            Collections.<String>emptyList(),
            Collections.<String, Object>emptyMap(),
            error));
    Received r = awaitRecords(MAIN, 1).get(0);
    assertEquals("failed", r.body());
    assertEquals("java.lang.IllegalStateException", r.attributes().get("exception.type"));
    assertEquals("outer ✓", r.attributes().get("exception.message"));
    String trace = typed(r.attributes(), "exception.stacktrace", String.class);
    assertTrue(
        trace.startsWith(
            "java.lang.IllegalStateException: outer ✓\n\tat "
                + AppenderContract.class.getName()
                + ".exceptionTypeMessageAndStackTrace(AppenderContract.java:"),
        trace);
    assertTrue(trace.contains("\nCaused by: java.io.IOException: inner cause\n"), trace);
  }

  @Test
  void codeAttributesAndMdcIncludeOnlyWhenConfigured() {
    log(
        new Call(
            "contract.code.Caller",
            "INFO",
            "with code",
            map("user", "bob", "other", "x"),
            Collections.singletonList("AUDIT"),
            Collections.<String, Object>emptyMap(),
            null));
    Received r = awaitRecords(CODE, 1).get(0);
    Map<String, Object> attrs = r.attributes();
    assertEquals(getClass().getName() + ".log", attrs.get("code.function.name"));
    assertEquals(getClass().getSimpleName() + ".java", attrs.get("code.file.path"));
    assertTrue(typed(attrs, "code.line.number", Long.class) > 0, "code.line.number");
    assertEquals("bob", attrs.get("user"));
    assertEquals(
        new TreeSet<>(
            Arrays.asList("code.function.name", "code.file.path", "code.line.number", "user")),
        new TreeSet<>(attrs.keySet()),
        "mdcInclude=user; no thread, no marker");
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
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      expected.add("event " + i);
    }
    assertEquals(expected, bodies(received(MAIN)));
    startFrameworkAgain();
  }

  private void startFrameworkAgain() {
    try {
      startFramework(receiver.endpoint()); // for stopContract, which stops it once more
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Waits up to 15 s for {@code n} records of {@code service}; fails if more arrive, or if the
   * receiver refused a request as malformed.
   *
   * @param service the appender's {@code service.name}
   * @param n the number of records expected
   * @return exactly {@code n} records, in arrival order
   * @throws AssertionError on a timeout, another count, a malformed request or a repeated attribute
   *     key
   */
  protected final List<Received> awaitRecords(String service, int n) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (received(service).size() < n) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(
            "timed out waiting for "
                + n
                + " records of "
                + service
                + ": got "
                + received(service).size()
                + " in "
                + receiver.exchanges().size()
                + " requests");
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
    List<Received> got = received(service);
    assertEquals(n, got.size(), "records of " + service);
    assertEquals(Collections.emptyList(), receiver.invalidRequests());
    return got;
  }

  /**
   * Every record of {@code service} in every accepted request, in arrival order.
   *
   * @param service the appender's {@code service.name}
   * @return the records
   * @throws AssertionError if an accepted request repeats an attribute key in one list
   */
  protected final List<Received> received(String service) {
    List<Received> out = new ArrayList<>();
    for (Exchange e : receiver.exchanges()) {
      if (!e.accepted()) {
        continue;
      }
      assertEquals(
          Collections.emptyList(), RepeatedAttributeKeys.in(e.request()), "duplicate attributes");
      for (ReceivedLogRecord r : e.request().records()) {
        if (service.equals(r.resourceAttributes().get("service.name"))) {
          out.add(new Received(service, r));
        }
      }
    }
    return out;
  }

  private static List<String> bodies(List<Received> records) {
    List<String> out = new ArrayList<>();
    for (Received r : records) {
      out.add(r.body());
    }
    return out;
  }

  /** The attribute {@code key}, which must be present and of {@code type}. */
  private static <T> T typed(Map<String, Object> attributes, String key, Class<T> type) {
    Object value = attributes.get(key);
    assertTrue(type.isInstance(value), key + " is a " + type.getSimpleName() + ": " + value);
    return type.cast(value);
  }

  /** An ordered map of {@code keysAndValues} (key, value, key, value…). */
  private static Map<String, String> map(String... keysAndValues) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      m.put(keysAndValues[i], keysAndValues[i + 1]);
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
