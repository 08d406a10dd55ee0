package io.logproducer.appender;

import io.logproducer.LogRecord;
import io.logproducer.Severity;
import java.util.List;

/**
 * What {@link EventMapper} reads from one logging framework's event type: one small implementation
 * per framework (logback's {@code ILoggingEvent}, log4j2's {@code LogEvent}), which only reads
 * fields and never decides how they map. Implementations are called concurrently by logging threads
 * and must be thread-safe; they read the event only during the call (log4j2's async loggers reuse
 * the event afterwards).
 *
 * @param <E> the framework's event type
 */
public interface EventAdapter<E> {

  /**
   * Receives one context or key-value entry; non-capturing implementations let a mapper visit
   * entries without allocating.
   */
  interface EntryVisitor {
    /**
     * One entry.
     *
     * @param key the entry's key, not null
     * @param value its value, not null
     * @param builder the record being built
     */
    void visit(String key, Object value, LogRecord.Builder builder);
  }

  /**
   * The event's time.
   *
   * @param event the event
   * @return nanoseconds since the Unix epoch, at the precision the framework recorded
   */
  long timeUnixNano(E event);

  /**
   * The level as OpenTelemetry's appender for this framework maps it.
   *
   * @param event the event
   * @return the severity, or null when the event has no level
   */
  Severity severity(E event);

  /**
   * The level's name.
   *
   * @param event the event
   * @return the name ({@code INFO}), or null when the event has no level
   */
  String severityText(E event);

  /**
   * The logger's name.
   *
   * @param event the event
   * @return the name, or null
   */
  String loggerName(E event);

  /**
   * The message as the body (the formatted message; for a log4j2 {@code MapMessage} without a
   * format, its {@value EventMapper#MAP_MESSAGE_BODY_KEY} entry).
   *
   * @param event the event
   * @return the text, or null for no body
   */
  String message(E event);

  /**
   * The framework's layout (or encoder) output for the event, as the layout wrote it: the mapper
   * removes a trailing line separator.
   *
   * @param event the event
   * @return the text, or null when there is none
   * @throws IllegalStateException if the appender has no layout (the appender refuses to start
   *     then)
   */
  String layout(E event);

  /**
   * The thread that logged the event.
   *
   * @param event the event
   * @return its name, or null
   */
  String threadName(E event);

  /**
   * The id of the thread that logged the event.
   *
   * @param event the event
   * @return the id, or -1 when the framework does not know it (logback, when appending on another
   *     thread)
   */
  long threadId(E event);

  /**
   * One MDC / ThreadContext value.
   *
   * @param event the event
   * @param key the key
   * @return the value as text, or null when absent (or when the framework gives no context)
   */
  String contextValue(E event, String key);

  /**
   * Visits every MDC / ThreadContext entry whose value is not null.
   *
   * @param event the event
   * @param visitor called once per entry, its value a {@link String} or another object
   * @param builder passed to the visitor
   */
  void forEachContext(E event, EntryVisitor visitor, LogRecord.Builder builder);

  /**
   * One key-value pair (logback {@code addKeyValue}, a log4j2 {@code MapMessage} entry).
   *
   * @param event the event
   * @param key the key
   * @return the value, or null when absent
   */
  Object keyValue(E event, String key);

  /**
   * Visits every key-value pair whose value is not null, its type kept.
   *
   * @param event the event
   * @param bodyFromLayout whether the body is the layout's output (log4j2: a {@code MapMessage}'s
   *     {@value EventMapper#MAP_MESSAGE_BODY_KEY} entry is then an attribute, not the body)
   * @param visitor called once per pair
   * @param builder passed to the visitor
   */
  void forEachKeyValue(
      E event, boolean bodyFromLayout, EntryVisitor visitor, LogRecord.Builder builder);

  /**
   * The attribute key of the event's markers: {@value SemanticAttributes#LOGBACK_MARKER} or {@value
   * SemanticAttributes#LOG4J_MARKER}.
   *
   * @return the key
   */
  String markerKey();

  /**
   * Whether markers are written as an array of strings (logback, several markers) or as one string
   * (log4j2, one marker).
   *
   * @return true for an array
   */
  boolean markersAsArray();

  /**
   * The event's marker names.
   *
   * @param event the event
   * @return the names in order, empty for none; never null
   */
  List<String> markerNames(E event);

  /**
   * The event's exception.
   *
   * @param event the event
   * @return the exception, or null when there is none or the framework kept only its text (see
   *     {@link #thrownText})
   */
  Throwable thrown(E event);

  /**
   * An exception the framework kept as text only (a logback event deserialized from elsewhere):
   * type, message and stack trace.
   *
   * @param event the event, whose {@link #thrown} is null
   * @return {@code {type, message, stacktrace}} (each possibly null), or null when the event has no
   *     exception
   */
  String[] thrownText(E event);

  /**
   * The call site that logged the event; asked only with {@code captureCode}.
   *
   * @param event the event
   * @return the caller's frame, or null when not known
   */
  StackTraceElement caller(E event);
}
