package io.logproducer.appender;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import io.logproducer.Severity;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A logging event as an OpenTelemetry log record, the one mapping both appenders use
 * (OpenTelemetry's log data model and semantic conventions, as its logback and log4j appenders map
 * events; the table is in docs/appenders.md). The framework's fields come through an {@link
 * EventAdapter}; this class decides what they become:
 *
 * <ul>
 *   <li>time → {@code time_unix_nano} (the observed time is when the record is built); level →
 *       severity number and text; message (or the layout's output, its trailing line separator
 *       removed) → body; logger name → instrumentation scope name ({@code scopeFromLogger});
 *   <li>trace context ({@code traceContext}, default {@code otel-then-mdc}): the OpenTelemetry
 *       API's current span, captured on the logging thread ({@link #captureSpan}), when valid; else
 *       valid MDC / ThreadContext {@code trace_id} / {@code span_id} / {@code trace_flags}. When
 *       the record has a trace context, those MDC keys are not attributes;
 *   <li>MDC / ThreadContext: {@value #EVENT_NAME_KEY} → event name, every other entry passing
 *       {@code mdcInclude} / {@code mdcExclude} → a string attribute;
 *   <li>key-value pairs ({@code captureKeyValues}) → typed attributes, {@value #EVENT_NAME_KEY} →
 *       event name (it wins over the MDC's); markers ({@code captureMarkers}); thread name and id
 *       ({@code captureThread}); exception → {@code exception.*}; caller ({@code captureCode}) →
 *       {@code code.*}.
 * </ul>
 *
 * <p>Attributes are capped at the producer's {@code maxAttributesPerRecord} while they are mapped
 * (an MDC of a million entries costs a visit per entry, not a million attributes): the context gets
 * the room the attributes that follow it may need left free (markers 1, exception 3, caller 3, when
 * the event has them), and what does not fit is counted in the record's {@code
 * dropped_attributes_count}; key-value pairs share the room left after the context.
 *
 * <p>Immutable and thread-safe; reads the event only during {@link #map}. Entries are visited with
 * non-capturing visitors, so the mapping allocates little besides the record and its values.
 *
 * @param <E> the framework's event type
 */
public final class EventMapper<E> {

  /**
   * MDC / context / key-value key whose value is the record's event name, not an attribute
   * (OpenTelemetry).
   */
  public static final String EVENT_NAME_KEY = "otel.event.name";

  /**
   * log4j2 {@code MapMessage} key whose value is the body when the message has no format
   * (OpenTelemetry).
   */
  public static final String MAP_MESSAGE_BODY_KEY = "message";

  /** At most {@code exception.type}, {@code exception.message}, {@code exception.stacktrace}. */
  private static final int EXCEPTION_ATTRIBUTES = 3;

  /** At most {@code code.function.name}, {@code code.file.path}, {@code code.line.number}. */
  private static final int CODE_ATTRIBUTES = 3;

  private final EventAdapter<E> adapter;
  private final KeyFilter mdcFilter;
  private final boolean captureContext;
  private final boolean captureKeyValues;
  private final boolean captureMarkers;
  private final boolean captureThread;
  private final boolean captureCode;
  private final boolean useLayout;
  private final boolean scopeFromLogger;
  private final int exceptionMaxFrames;
  private final String traceIdKey;
  private final String spanIdKey;
  private final String traceFlagsKey;
  private final TraceContextOrder traceOrder;
  private final int maxAttributes;

  private final EventAdapter.EntryVisitor contextAll = (k, v, b) -> context(k, v, b, false);
  private final EventAdapter.EntryVisitor contextWithoutTrace = (k, v, b) -> context(k, v, b, true);
  private static final EventAdapter.EntryVisitor KEY_VALUE = EventMapper::keyValue;

  /**
   * Creates a mapper with the settings as they are now (later changes to {@code mapping} are not
   * seen), for a producer with the default {@code maxAttributesPerRecord}.
   *
   * @param mapping the mapping settings, not null
   * @param adapter the framework's adapter, not null
   */
  public EventMapper(MappingSettings mapping, EventAdapter<E> adapter) {
    this(mapping, adapter, ProducerConfig.DEFAULT_MAX_ATTRIBUTES_PER_RECORD);
  }

  /**
   * Creates a mapper with the settings as they are now (later changes to {@code mapping} are not
   * seen).
   *
   * @param mapping the mapping settings, not null
   * @param adapter the framework's adapter, not null
   * @param maxAttributesPerRecord the producer's {@code maxAttributesPerRecord}, at least 0: the
   *     most attributes a record gets; the others are counted as dropped
   */
  public EventMapper(MappingSettings mapping, EventAdapter<E> adapter, int maxAttributesPerRecord) {
    this.maxAttributes = maxAttributesPerRecord;
    this.adapter = adapter;
    this.mdcFilter = mapping.mdcFilter();
    this.captureContext = !mdcFilter.acceptsNone();
    this.captureKeyValues = mapping.captureKeyValues();
    this.captureMarkers = mapping.captureMarkers();
    this.captureThread = mapping.captureThread();
    this.captureCode = mapping.captureCode();
    this.useLayout = mapping.useLayout();
    this.scopeFromLogger = mapping.scopeFromLogger();
    this.exceptionMaxFrames = mapping.exceptionMaxFrames();
    this.traceIdKey = mapping.traceIdKey();
    this.spanIdKey = mapping.spanIdKey();
    this.traceFlagsKey = mapping.traceFlagsKey();
    this.traceOrder = mapping.traceContext();
  }

  /**
   * Whether {@link #captureSpan} may return a span: the order reads it and the OpenTelemetry API is
   * on the class path. Lets a caller skip its own checks (which thread it runs on) when not.
   *
   * @return true if the current span is read
   */
  public boolean readsSpan() {
    return traceOrder.readsSpan() && CurrentSpan.available();
  }

  /**
   * The OpenTelemetry API's current span on this thread, to carry with the event to {@link
   * #map(Object, long, Object)}: call it on the thread that logged the event, at the logging call
   * (on another thread the current span is that thread's). Allocates nothing: the span's immutable
   * {@code SpanContext} itself is returned.
   *
   * @return the current span's context if the order reads it, the API is present and the span is
   *     valid; else null
   */
  public Object captureSpan() {
    return traceOrder.readsSpan() ? CurrentSpan.capture() : null;
  }

  /**
   * Maps one event.
   *
   * @param event the event, read only during this call
   * @return the record
   * @throws RuntimeException if the framework fails while the event is read (the appender counts it
   *     as dropped)
   */
  public LogRecord map(E event) {
    return map(event, captureThread ? adapter.threadId(event) : -1, null);
  }

  /**
   * Maps one event on the thread that logged it, with the span {@link #captureSpan} returned.
   *
   * @param event the event, read only during this call
   * @param span what {@link #captureSpan} returned at the logging call, or null for none
   * @return the record
   * @throws RuntimeException if the framework fails while the event is read (the appender counts it
   *     as dropped)
   */
  public LogRecord mapWithSpan(E event, Object span) {
    return map(event, captureThread ? adapter.threadId(event) : -1, span);
  }

  /**
   * Maps one event that was logged on another thread than this one (the hand-off's worker maps
   * events of the logging threads), with the id of the thread that logged it.
   *
   * @param event the event, read only during this call
   * @param threadId the id of the thread that logged it, or -1 if unknown (no {@code thread.id})
   * @return the record
   * @throws RuntimeException if the framework fails while the event is read (the appender counts it
   *     as dropped)
   */
  public LogRecord map(E event, long threadId) {
    return map(event, threadId, null);
  }

  /**
   * Maps one event that was logged on another thread, with the id of that thread and the span
   * {@link #captureSpan} returned there at the logging call.
   *
   * @param event the event, read only during this call
   * @param threadId the id of the thread that logged it, or -1 if unknown (no {@code thread.id})
   * @param span what {@link #captureSpan} returned at the logging call, or null for none
   * @return the record
   * @throws RuntimeException if the framework fails while the event is read (the appender counts it
   *     as dropped)
   */
  public LogRecord map(E event, long threadId, Object span) {
    LogRecord.Builder b = LogRecord.builder();
    b.setTimeUnixNano(adapter.timeUnixNano(event));
    Severity severity = adapter.severity(event);
    if (severity != null) {
      b.setSeverity(severity);
      b.setSeverityText(adapter.severityText(event));
    }
    String body = useLayout ? trimLineSeparator(adapter.layout(event)) : adapter.message(event);
    if (body != null) {
      b.setBody(body);
    }
    if (scopeFromLogger) {
      b.setInstrumentationScopeName(adapter.loggerName(event));
    }
    List<String> markers =
        captureMarkers ? adapter.markerNames(event) : Collections.<String>emptyList();
    b.setAttributeCountLimit(Math.max(0, maxAttributes - roomAfterContext(event, markers)));
    if (captureThread) {
      String threadName = adapter.threadName(event);
      if (threadName != null) {
        b.setAttribute(SemanticAttributes.THREAD_NAME, threadName);
      }
      if (threadId >= 0) {
        b.setAttribute(SemanticAttributes.THREAD_ID, threadId);
      }
    }
    addContext(b, event, span);
    b.setAttributeCountLimit(maxAttributes);
    addMarkers(b, markers);
    Object eventName = adapter.keyValue(event, EVENT_NAME_KEY);
    if (eventName != null) {
      b.setEventName(
          String.valueOf(
              eventName)); // after the context's: a key-value pair wins, as in OpenTelemetry
    }
    if (captureKeyValues) {
      adapter.forEachKeyValue(event, useLayout, KEY_VALUE, b);
    }
    addThrown(b, event);
    if (captureCode) {
      addCode(b, adapter.caller(event));
    }
    return b.build();
  }

  /**
   * The most attributes the mapping adds after the context (key-value pairs aside): kept free so
   * that a flood of context entries cannot push them out.
   */
  private int roomAfterContext(E event, List<String> markers) {
    return (markers.isEmpty() ? 0 : 1)
        + (adapter.thrown(event) != null ? EXCEPTION_ATTRIBUTES : 0)
        + (captureCode ? CODE_ATTRIBUTES : 0);
  }

  private void addContext(LogRecord.Builder b, E event, Object span) {
    boolean traced;
    switch (traceOrder) {
      case OTEL_THEN_MDC:
        traced = CurrentSpan.apply(b, span) || mdcTrace(b, event);
        break;
      case MDC_THEN_OTEL:
        traced = mdcTrace(b, event) || CurrentSpan.apply(b, span);
        break;
      case OTEL:
        traced = CurrentSpan.apply(b, span);
        break;
      case MDC:
        traced = mdcTrace(b, event);
        break;
      default:
        traced = false;
    }
    String eventName = adapter.contextValue(event, EVENT_NAME_KEY);
    if (eventName != null) {
      b.setEventName(eventName);
    }
    if (captureContext) {
      adapter.forEachContext(event, traced ? contextWithoutTrace : contextAll, b);
    }
  }

  private boolean mdcTrace(LogRecord.Builder b, E event) {
    return TraceContext.apply(
        b,
        adapter.contextValue(event, traceIdKey),
        adapter.contextValue(event, spanIdKey),
        adapter.contextValue(event, traceFlagsKey));
  }

  private void context(String key, Object value, LogRecord.Builder b, boolean skipTrace) {
    if (EVENT_NAME_KEY.equals(key)) {
      return;
    }
    if (skipTrace
        && (traceIdKey.equals(key) || spanIdKey.equals(key) || traceFlagsKey.equals(key))) {
      return;
    }
    if (mdcFilter.accepts(key)) {
      b.setAttribute(key, String.valueOf(value));
    }
  }

  /**
   * A key-value pair as a typed attribute: integers → int, Double/Float → double, Boolean, byte[],
   * else text.
   */
  private static void keyValue(String key, Object value, LogRecord.Builder b) {
    if (EVENT_NAME_KEY.equals(key)) {
      return;
    }
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      b.setAttribute(key, ((Number) value).longValue());
    } else if (value instanceof Double || value instanceof Float) {
      b.setAttribute(key, ((Number) value).doubleValue());
    } else if (value instanceof Boolean) {
      b.setAttribute(key, ((Boolean) value).booleanValue());
    } else if (value instanceof byte[]) {
      b.setAttribute(key, (byte[]) value);
    } else {
      b.setAttribute(key, String.valueOf(value));
    }
  }

  private void addMarkers(LogRecord.Builder b, List<String> names) {
    if (names.isEmpty()) {
      return;
    }
    if (!adapter.markersAsArray()) {
      b.setAttribute(adapter.markerKey(), names.get(0));
      return;
    }
    List<AnyValue> values = new ArrayList<AnyValue>(names.size());
    for (String name : names) {
      values.add(AnyValue.of(name));
    }
    b.setAttribute(adapter.markerKey(), AnyValue.ofArray(values));
  }

  private void addThrown(LogRecord.Builder b, E event) {
    Throwable t = adapter.thrown(event);
    if (t != null) {
      ExceptionText.addTo(b, t, exceptionMaxFrames);
      return;
    }
    String[] text = adapter.thrownText(event);
    if (text == null) {
      return;
    }
    if (text[0] != null) {
      b.setAttribute(SemanticAttributes.EXCEPTION_TYPE, text[0]);
    }
    if (text[1] != null) {
      b.setAttribute(SemanticAttributes.EXCEPTION_MESSAGE, text[1]);
    }
    if (exceptionMaxFrames != 0 && text[2] != null) {
      b.setAttribute(SemanticAttributes.EXCEPTION_STACKTRACE, text[2]);
    }
  }

  private static void addCode(LogRecord.Builder b, StackTraceElement caller) {
    if (caller == null) {
      return;
    }
    b.setAttribute(
        SemanticAttributes.CODE_FUNCTION_NAME,
        caller.getClassName() + "." + caller.getMethodName());
    if (caller.getFileName() != null) {
      b.setAttribute(SemanticAttributes.CODE_FILE_PATH, caller.getFileName());
    }
    if (caller.getLineNumber() > 0) {
      b.setAttribute(SemanticAttributes.CODE_LINE_NUMBER, (long) caller.getLineNumber());
    }
  }

  /**
   * {@code text} without its trailing line separators ({@code \n}, {@code \r\n}), as a layout ends
   * each event.
   *
   * @param text the layout's output, or null
   * @return the text without them, or null
   */
  public static String trimLineSeparator(String text) {
    if (text == null) {
      return null;
    }
    int end = text.length();
    while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
      end--;
    }
    return end == text.length() ? text : text.substring(0, end);
  }
}
