package io.logproducer.log4j2;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.time.Instant;
import org.apache.logging.log4j.util.ReadOnlyStringMap;

/**
 * What the mapping reads from one log4j2 event, taken on the logging thread for the hand-off's
 * worker ({@link HandOffPath}): the body text (the formatted message, or the layout's output with
 * {@code useLayout}), the level, the time, the logger and thread names, the thread id, the context
 * data (an immutable map kept as it is, a mutable one copied), a {@code MapMessage}'s key-value
 * pairs (copied: numbers, booleans and text as they are, a {@code byte[]} cloned, any other value
 * as its text), the marker's name, the OpenTelemetry span current at the logging call (its
 * immutable {@code SpanContext}, or null) and, only with {@code captureCode}, the caller's frame.
 * Smaller and cheaper than {@code LogEvent.toImmutable()}: no exception (events with one are mapped
 * on the logging thread), no message object, no context stack, no fully-qualified caller class.
 *
 * <p>Immutable once built, safe to read on any thread.
 */
final class CapturedEvent {

  final long timeUnixNano;
  final Level level;
  final String loggerName;
  final String body;
  final String threadName;
  final long threadId;
  final ReadOnlyStringMap context; // immutable, or null for none
  final ReadOnlyStringMap keyValues; // a MapMessage's pairs (immutable), or null for none
  final String markerName; // null for none
  final StackTraceElement caller; // null unless captureCode
  final Object span; // the OpenTelemetry SpanContext current at the logging call, or null

  CapturedEvent(
      Instant instant,
      Level level,
      String loggerName,
      String body,
      String threadName,
      long threadId,
      ReadOnlyStringMap context,
      ReadOnlyStringMap keyValues,
      String markerName,
      StackTraceElement caller,
      Object span) {
    this.timeUnixNano = instant.getEpochSecond() * 1_000_000_000L + instant.getNanoOfSecond();
    this.level = level;
    this.loggerName = loggerName;
    this.body = body;
    this.threadName = threadName;
    this.threadId = threadId;
    this.context = context;
    this.keyValues = keyValues;
    this.markerName = markerName;
    this.caller = caller;
    this.span = span;
  }
}
