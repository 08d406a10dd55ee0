package io.logproducer.log4j2;

import io.logproducer.LogRecord;
import io.logproducer.Severity;
import io.logproducer.appender.ExceptionText;
import io.logproducer.appender.KeyFilter;
import io.logproducer.appender.MappingSettings;
import io.logproducer.appender.SemanticAttributes;
import io.logproducer.appender.TraceContext;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Marker;
import org.apache.logging.log4j.core.Layout;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.StringLayout;
import org.apache.logging.log4j.core.time.Instant;
import org.apache.logging.log4j.message.MapMessage;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.util.ReadOnlyStringMap;
import org.apache.logging.log4j.util.TriConsumer;

/**
 * A log4j2 event as an OpenTelemetry log record, as OpenTelemetry's log4j appender maps it (log data model and
 * semantic conventions). Reads the event only during {@link #map}: under async loggers the event is a mutable
 * ring-buffer slot reused afterwards, so everything is copied into the record. Thread-safe (immutable); the
 * ThreadContext and MapMessage entries are visited with non-capturing consumers, the builder as their state, so
 * the mapping allocates nothing but the record and its values.
 */
final class EventMapper {

  /** MapMessage key whose value is the body when the message has no format (OpenTelemetry's log4j appender). */
  static final String MAP_MESSAGE_BODY_KEY = "message";
  /** Context / MapMessage key whose value is the record's event name (OpenTelemetry's log4j appender). */
  static final String EVENT_NAME_KEY = "event.name";

  private final MappingSettings mapping;
  private final KeyFilter mdcFilter;
  private final Layout<? extends Serializable> layout;
  private final boolean captureContext;

  private final TriConsumer<String, Object, LogRecord.Builder> contextAll = (k, v, b) -> context(k, v, b, false);
  private final TriConsumer<String, Object, LogRecord.Builder> contextWithoutTrace =
      (k, v, b) -> context(k, v, b, true);
  private static final TriConsumer<String, Object, LogRecord.Builder> MAP_ALL = (k, v, b) -> mapEntry(k, v, b, false);
  private static final TriConsumer<String, Object, LogRecord.Builder> MAP_WITHOUT_MESSAGE =
      (k, v, b) -> mapEntry(k, v, b, true);

  EventMapper(MappingSettings mapping, Layout<? extends Serializable> layout) {
    this.mapping = mapping;
    this.mdcFilter = mapping.mdcFilter();
    this.layout = mapping.useLayout() ? layout : null;
    this.captureContext = !mdcFilter.acceptsNone();
  }

  LogRecord map(LogEvent event) {
    LogRecord.Builder b = LogRecord.builder();
    Instant instant = event.getInstant();
    b.setTimeUnixNano(instant.getEpochSecond() * 1_000_000_000L + instant.getNanoOfSecond());
    b.setObservedTimeUnixNano(System.currentTimeMillis() * 1_000_000L);
    Level level = event.getLevel();
    if (level != null) {
      b.setSeverity(severity(level));
      b.setSeverityText(level.name());
    }
    if (mapping.scopeFromLogger()) {
      b.setInstrumentationScopeName(event.getLoggerName());
    }

    ReadOnlyStringMap context = event.getContextData();
    if (context != null && !context.isEmpty()) {
      String eventName = context.getValue(EVENT_NAME_KEY);
      if (eventName != null) {
        b.setEventName(eventName);
      }
      boolean traced = TraceContext.apply(b, context.<String>getValue(SemanticAttributes.MDC_TRACE_ID),
          context.<String>getValue(SemanticAttributes.MDC_SPAN_ID),
          context.<String>getValue(SemanticAttributes.MDC_TRACE_FLAGS));
      if (captureContext) {
        context.forEach(traced ? contextWithoutTrace : contextAll, b);
      }
    }

    Message message = event.getMessage();
    if (layout != null) {
      b.setBody(layoutText(event));
      if (message instanceof MapMessage && mapping.captureKeyValues()) {
        ((MapMessage<?, ?>) message).forEach(MAP_ALL, b);
      }
    } else if (message instanceof MapMessage) {
      mapMessage((MapMessage<?, ?>) message, b);
    } else if (message != null) {
      String body = message.getFormattedMessage();
      if (body != null) {
        b.setBody(body);
      }
    }

    if (mapping.captureMarkers()) {
      Marker marker = event.getMarker();
      if (marker != null) {
        b.setAttribute(SemanticAttributes.LOG4J_MARKER, marker.getName());
      }
    }
    if (mapping.captureThread()) {
      String threadName = event.getThreadName();
      if (threadName != null) {
        b.setAttribute(SemanticAttributes.THREAD_NAME, threadName);
      }
      b.setAttribute(SemanticAttributes.THREAD_ID, event.getThreadId());
    }
    ExceptionText.addTo(b, event.getThrown(), mapping.exceptionMaxFrames());
    if (mapping.captureCode()) {
      StackTraceElement source = event.getSource();
      if (source != null) {
        b.setAttribute(SemanticAttributes.CODE_FUNCTION_NAME, source.getClassName() + "." + source.getMethodName());
        if (source.getFileName() != null) {
          b.setAttribute(SemanticAttributes.CODE_FILE_PATH, source.getFileName());
        }
        if (source.getLineNumber() > 0) {
          b.setAttribute(SemanticAttributes.CODE_LINE_NUMBER, (long) source.getLineNumber());
        }
      }
    }
    return b.build();
  }

  /**
   * OpenTelemetry's log4j appender: the body is the message's format when it has one (StructuredDataMessage), else
   * its {@code message} entry (then not an attribute); every other entry is an attribute under its own key, its
   * type kept; {@code event.name} is the event name.
   */
  private void mapMessage(MapMessage<?, ?> m, LogRecord.Builder b) {
    String body = m.getFormat();
    boolean bodyFromEntry = body == null || body.isEmpty();
    if (bodyFromEntry) {
      body = m.get(MAP_MESSAGE_BODY_KEY);
    }
    if (body != null && !body.isEmpty()) {
      b.setBody(body);
    }
    String eventName = m.get(EVENT_NAME_KEY);
    if (eventName != null) {
      b.setEventName(eventName);
    }
    if (mapping.captureKeyValues()) {
      m.forEach(bodyFromEntry ? MAP_WITHOUT_MESSAGE : MAP_ALL, b);
    }
  }

  private void context(String key, Object value, LogRecord.Builder b, boolean skipTrace) {
    if (value == null || EVENT_NAME_KEY.equals(key)) {
      return;
    }
    if (skipTrace && (SemanticAttributes.MDC_TRACE_ID.equals(key) || SemanticAttributes.MDC_SPAN_ID.equals(key)
        || SemanticAttributes.MDC_TRACE_FLAGS.equals(key))) {
      return;
    }
    if (mdcFilter.accepts(key)) {
      b.setAttribute(key, String.valueOf(value));
    }
  }

  private static void mapEntry(String key, Object value, LogRecord.Builder b, boolean skipMessage) {
    if (value == null || EVENT_NAME_KEY.equals(key) || (skipMessage && MAP_MESSAGE_BODY_KEY.equals(key))) {
      return;
    }
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
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

  private String layoutText(LogEvent event) {
    if (layout instanceof StringLayout) {
      return (String) layout.toSerializable(event);
    }
    return new String(layout.toByteArray(event), StandardCharsets.UTF_8);
  }

  /** As OpenTelemetry's log4j appender: custom levels by the standard level their intLevel falls in. */
  static Severity severity(Level level) {
    switch (level.getStandardLevel()) {
      case ALL:
      case TRACE:
        return Severity.TRACE;
      case DEBUG:
        return Severity.DEBUG;
      case INFO:
        return Severity.INFO;
      case WARN:
        return Severity.WARN;
      case ERROR:
        return Severity.ERROR;
      case FATAL:
        return Severity.FATAL;
      default:
        return Severity.UNSPECIFIED;
    }
  }
}
