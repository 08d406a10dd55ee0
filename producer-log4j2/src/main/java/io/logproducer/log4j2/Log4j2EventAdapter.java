package io.logproducer.log4j2;

import io.logproducer.LogRecord;
import io.logproducer.Severity;
import io.logproducer.appender.EventAdapter;
import io.logproducer.appender.EventMapper;
import io.logproducer.appender.SemanticAttributes;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
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
 * Reads a log4j2 {@link LogEvent} for the shared {@link EventMapper}, as OpenTelemetry's log4j
 * appender reads it: a {@link MapMessage}'s body is its format when it has one
 * (StructuredDataMessage), else its {@value EventMapper#MAP_MESSAGE_BODY_KEY} entry (then not an
 * attribute); its other entries are the key-value pairs. Under async loggers the event is a mutable
 * ring-buffer slot reused afterwards: it is read only during the mapping. Thread-safe (immutable);
 * entries are visited with non-capturing consumers.
 */
final class Log4j2EventAdapter implements EventAdapter<LogEvent> {

  /** Visits a context or MapMessage entry: the visitor and the builder are the state. */
  static final TriConsumer<String, Object, Object[]> VISIT =
      (k, v, state) -> {
        if (k != null && v != null) {
          ((EntryVisitor) state[0]).visit(k, v, (LogRecord.Builder) state[1]);
        }
      };

  private static final TriConsumer<String, Object, Object[]> VISIT_WITHOUT_MESSAGE =
      (k, v, state) -> {
        if (!EventMapper.MAP_MESSAGE_BODY_KEY.equals(k)) {
          VISIT.accept(k, v, state);
        }
      };

  /**
   * Above this many entries, the context is read through a copy ({@code toMap()}), not {@code
   * forEach}: log4j2 2.24+'s default context map ({@code UnmodifiableArrayBackedMap}, wrapped in a
   * {@code JdkMapAdapterStringMap}) finds each value of {@code forEach} by a linear search, which
   * made one event with 1,000,000 entries take hours. Below it, {@code forEach} allocates nothing.
   */
  static final int LARGE_CONTEXT = 32;

  private final Layout<? extends Serializable> layout;

  /**
   * @param layout the appender's layout, or null
   */
  Log4j2EventAdapter(Layout<? extends Serializable> layout) {
    this.layout = layout;
  }

  @Override
  public long timeUnixNano(LogEvent event) {
    Instant instant = event.getInstant();
    return instant.getEpochSecond() * 1_000_000_000L + instant.getNanoOfSecond();
  }

  @Override
  public Severity severity(LogEvent event) {
    Level level = event.getLevel();
    return level == null ? null : severity(level);
  }

  /**
   * As OpenTelemetry's log4j appender: custom levels by the standard level their intLevel falls in.
   */
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

  @Override
  public String severityText(LogEvent event) {
    Level level = event.getLevel();
    return level == null ? null : level.name();
  }

  @Override
  public String loggerName(LogEvent event) {
    return event.getLoggerName();
  }

  @Override
  public String message(LogEvent event) {
    Message message = event.getMessage();
    if (message instanceof MapMessage) {
      MapMessage<?, ?> m = (MapMessage<?, ?>) message;
      String body = bodyFromEntry(m) ? m.get(EventMapper.MAP_MESSAGE_BODY_KEY) : m.getFormat();
      return body == null || body.isEmpty() ? null : body;
    }
    return message == null ? null : message.getFormattedMessage();
  }

  static boolean bodyFromEntry(MapMessage<?, ?> m) {
    String format = m.getFormat();
    return format == null || format.isEmpty();
  }

  @Override
  public String layout(LogEvent event) {
    if (layout == null) { // useLayout without a layout: the message, as before the layout existed
      return message(event);
    }
    if (layout instanceof StringLayout) {
      return (String) layout.toSerializable(event);
    }
    return new String(layout.toByteArray(event), StandardCharsets.UTF_8);
  }

  @Override
  public String threadName(LogEvent event) {
    return event.getThreadName();
  }

  @Override
  public long threadId(LogEvent event) {
    return event.getThreadId();
  }

  @Override
  public String contextValue(LogEvent event, String key) {
    ReadOnlyStringMap context = event.getContextData();
    if (context == null || context.isEmpty()) {
      return null;
    }
    Object value = context.getValue(key);
    return value == null ? null : String.valueOf(value);
  }

  @Override
  public void forEachContext(LogEvent event, EntryVisitor visitor, LogRecord.Builder builder) {
    ReadOnlyStringMap context = event.getContextData();
    if (context == null || context.isEmpty()) {
      return;
    }
    if (context.size() <= LARGE_CONTEXT) {
      context.forEach(VISIT, new Object[] {visitor, builder});
      return;
    }
    Map<String, ?> copy = context.toMap();
    for (Map.Entry<String, ?> e : copy.entrySet()) {
      if (e.getKey() != null && e.getValue() != null) {
        visitor.visit(e.getKey(), e.getValue(), builder);
      }
    }
  }

  @Override
  public Object keyValue(LogEvent event, String key) {
    Message message = event.getMessage();
    return message instanceof MapMessage ? ((MapMessage<?, ?>) message).get(key) : null;
  }

  @Override
  public void forEachKeyValue(
      LogEvent event, boolean bodyFromLayout, EntryVisitor visitor, LogRecord.Builder builder) {
    Message message = event.getMessage();
    if (message instanceof MapMessage) {
      MapMessage<?, ?> m = (MapMessage<?, ?>) message;
      m.forEach(
          !bodyFromLayout && bodyFromEntry(m) ? VISIT_WITHOUT_MESSAGE : VISIT,
          new Object[] {visitor, builder});
    }
  }

  @Override
  public String markerKey() {
    return SemanticAttributes.LOG4J_MARKER;
  }

  @Override
  public boolean markersAsArray() {
    return false;
  }

  @Override
  public List<String> markerNames(LogEvent event) {
    Marker marker = event.getMarker();
    return marker == null
        ? Collections.<String>emptyList()
        : Collections.singletonList(marker.getName());
  }

  @Override
  public Throwable thrown(LogEvent event) {
    return event.getThrown();
  }

  @Override
  public String[] thrownText(LogEvent event) {
    return null;
  }

  @Override
  public StackTraceElement caller(LogEvent event) {
    return event.getSource();
  }
}
