package io.logproducer.log4j2;

import io.logproducer.LogRecord;
import io.logproducer.Severity;
import io.logproducer.appender.EventAdapter;
import io.logproducer.appender.SemanticAttributes;
import java.util.Collections;
import java.util.List;

/**
 * Reads a {@link CapturedEvent} for the shared mapper on the hand-off's worker, as {@link
 * Log4j2EventAdapter} reads the log4j2 event it was taken from: the same severities, the body taken
 * on the logging thread (the message, or the layout's output with {@code useLayout}), the context
 * entries, a {@code MapMessage}'s key-value pairs (its body entry left out at capture when it is
 * the body), the marker. Captured events never hold an exception (such events are mapped on the
 * logging thread). Thread-safe (stateless).
 */
final class CapturedEventAdapter implements EventAdapter<CapturedEvent> {

  @Override
  public long timeUnixNano(CapturedEvent event) {
    return event.timeUnixNano;
  }

  @Override
  public Severity severity(CapturedEvent event) {
    return event.level == null ? null : Log4j2EventAdapter.severity(event.level);
  }

  @Override
  public String severityText(CapturedEvent event) {
    return event.level == null ? null : event.level.name();
  }

  @Override
  public String loggerName(CapturedEvent event) {
    return event.loggerName;
  }

  @Override
  public String message(CapturedEvent event) {
    return event.body;
  }

  @Override
  public String layout(CapturedEvent event) {
    return event.body;
  }

  @Override
  public String threadName(CapturedEvent event) {
    return event.threadName;
  }

  @Override
  public long threadId(CapturedEvent event) {
    return event.threadId;
  }

  @Override
  public String contextValue(CapturedEvent event, String key) {
    if (event.context == null || event.context.isEmpty()) {
      return null;
    }
    Object value = event.context.getValue(key);
    return value == null ? null : String.valueOf(value);
  }

  @Override
  public void forEachContext(CapturedEvent event, EntryVisitor visitor, LogRecord.Builder builder) {
    if (event.context != null && !event.context.isEmpty()) {
      event.context.forEach(Log4j2EventAdapter.VISIT, new Object[] {visitor, builder});
    }
  }

  @Override
  public Object keyValue(CapturedEvent event, String key) {
    return event.keyValues == null ? null : event.keyValues.getValue(key);
  }

  @Override
  public void forEachKeyValue(
      CapturedEvent event,
      boolean bodyFromLayout,
      EntryVisitor visitor,
      LogRecord.Builder builder) {
    if (event.keyValues != null && !event.keyValues.isEmpty()) {
      event.keyValues.forEach(Log4j2EventAdapter.VISIT, new Object[] {visitor, builder});
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
  public List<String> markerNames(CapturedEvent event) {
    return event.markerName == null
        ? Collections.<String>emptyList()
        : Collections.singletonList(event.markerName);
  }

  @Override
  public Throwable thrown(CapturedEvent event) {
    return null;
  }

  @Override
  public String[] thrownText(CapturedEvent event) {
    return null;
  }

  @Override
  public StackTraceElement caller(CapturedEvent event) {
    return event.caller;
  }
}
