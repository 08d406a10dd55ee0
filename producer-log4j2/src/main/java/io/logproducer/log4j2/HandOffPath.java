package io.logproducer.log4j2;

import io.logproducer.Producer;
import io.logproducer.appender.AppenderProducer;
import io.logproducer.appender.EventMapper;
import io.logproducer.appender.HandOff;
import io.logproducer.appender.MappingSettings;
import java.util.concurrent.atomic.LongAdder;
import org.apache.logging.log4j.Marker;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.message.MapMessage;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.util.ReadOnlyStringMap;
import org.apache.logging.log4j.util.SortedArrayStringMap;
import org.apache.logging.log4j.util.StringMap;
import org.apache.logging.log4j.util.TriConsumer;

/**
 * The {@code queueSize} hand-off of one started appender: on the logging thread an event is taken
 * as a small {@link CapturedEvent} and queued in a {@link HandOff}, whose worker thread ({@code
 * <clientId>-handoff}) maps and sends it; mapping and encoding leave the logging thread.
 *
 * <p>Nothing is dropped because the queue is full: a logging thread that finds it full waits for
 * room while the worker makes progress, and maps and sends the event itself if the worker stalls
 * ({@link HandOff#STALL_MILLIS}). To bound the queue's memory, events with a message (or layout
 * output) longer than {@value #MAX_QUEUED_BODY_CHARS} characters, an exception, more than {@value
 * Log4j2EventAdapter#LARGE_CONTEXT} context entries or {@code MapMessage} pairs are mapped on the
 * logging thread too, after the events queued before them were sent (one thread's events keep their
 * order). The producer's flush and close cover the queue ({@link Producer#addUpstream}). Every
 * event is sent or counted as dropped exactly once: an event still queued when {@link #stop} runs
 * out of time, or one that comes while the stop runs and finds the queue closed, is counted as
 * dropped.
 *
 * <p>Thread-safe: {@link #append} from any number of logging threads; {@link #stop} once, from the
 * appender's lifecycle.
 */
final class HandOffPath {

  /** Longest body (message or layout output) queued; a longer one is mapped inline: {@value}. */
  static final int MAX_QUEUED_BODY_CHARS = 2048;

  /** The cause of events that came while the appender stopped, in the drop reports. */
  static final String STOPPED_CAUSE = "the appender was stopping (its queue was closed)";

  /** The cause of events still queued when the stop ran out of time. */
  static final String NOT_DRAINED_CAUSE =
      "the appender stopped before its queue drained (stopTimeoutMillis)";

  private final AppenderProducer producer;
  private final EventMapper<LogEvent> inlineMapper;
  private final Log4j2EventAdapter adapter;
  private final EventMapper<CapturedEvent> queuedMapper;
  private final boolean useLayout;
  private final boolean captureCode;
  private final HandOff<CapturedEvent> handOff;
  private final Producer.Upstream upstream;
  private final Producer registeredWith;
  private volatile boolean stopping;

  /** Events mapped on the logging thread because the worker stalled (for tests and reports). */
  private final LongAdder sentInlineWhenFull = new LongAdder();

  /**
   * Starts the worker.
   *
   * @param producer the appender's started producer
   * @param inlineMapper maps events on the logging thread (a full queue, a large event)
   * @param adapter reads the events, as {@code inlineMapper} does
   * @param mapping the appender's mapping
   * @param maxAttributesPerRecord the producer's {@code maxAttributesPerRecord}
   * @param queueSize the queue's capacity, in [1, 1048576] (rounded up to a power of two)
   * @throws IllegalArgumentException if {@code queueSize} is out of range
   */
  HandOffPath(
      AppenderProducer producer,
      EventMapper<LogEvent> inlineMapper,
      Log4j2EventAdapter adapter,
      MappingSettings mapping,
      int maxAttributesPerRecord,
      int queueSize) {
    this.producer = producer;
    this.inlineMapper = inlineMapper;
    this.adapter = adapter;
    this.queuedMapper =
        new EventMapper<CapturedEvent>(mapping, new CapturedEventAdapter(), maxAttributesPerRecord);
    this.useLayout = mapping.useLayout();
    this.captureCode = mapping.captureCode();
    this.handOff =
        new HandOff<CapturedEvent>(
            producer.producer().getConfig().getClientId() + "-handoff",
            queueSize,
            this::sendQueued);
    this.upstream = handOff::awaitDrained;
    this.registeredWith = producer.producer();
    registeredWith.addUpstream(upstream); // the producer's flush and close cover the queue
  }

  /**
   * Queues the event, or maps and sends it on this thread (see the class comment); never throws.
   *
   * @param event the event, read only during this call (an async logger reuses it afterwards)
   * @param span the OpenTelemetry span current at the logging call ({@link
   *     EventMapper#captureSpan}), or null
   */
  void append(LogEvent event, Object span) {
    if (!producer.admits(event.getLoggerName())) {
      return;
    }
    CapturedEvent captured = capture(event, span);
    if (captured == null) {
      // Too large for the queue: mapped here, after the events queued before it (their order).
      handOff.awaitDrained(HandOff.STALL_MILLIS);
    } else {
      if (queue(captured)) {
        return;
      }
      if (stopping) {
        producer.countDropped(STOPPED_CAUSE);
        return;
      }
      sentInlineWhenFull.increment();
    }
    sendInline(producer, inlineMapper, event, span);
  }

  /**
   * The one place an event enters the queue: waits for room while the worker makes progress; false
   * when the queue is closed or its worker stalled ({@link HandOff#STALL_MILLIS}).
   */
  private boolean queue(CapturedEvent captured) {
    return handOff.put(captured, captured.threadId);
  }

  /**
   * Maps and sends {@code event} on this thread, unless this thread is already inside the appender
   * or the producer is closed.
   */
  static void sendInline(
      AppenderProducer producer, EventMapper<LogEvent> mapper, LogEvent event, Object span) {
    if (!producer.enter(event.getLoggerName())) {
      return;
    }
    try {
      producer.mapAndSendWithSpan(mapper, event, span);
    } finally {
      producer.exit();
    }
  }

  private void sendQueued(CapturedEvent event) {
    producer.mapAndSendWithSpan(queuedMapper, event, event.span);
  }

  /**
   * What the worker needs of {@code event}, or null when the event is mapped on the logging thread:
   * too large for the queue, or unreadable (reading it again inline then counts it as dropped).
   */
  private CapturedEvent capture(LogEvent event, Object span) {
    try {
      if (event.getThrown() != null) {
        return null;
      }
      ReadOnlyStringMap context = frozenContext(event.getContextData());
      if (context == LARGE) {
        return null;
      }
      Message message = event.getMessage();
      ReadOnlyStringMap keyValues = null;
      if (message instanceof MapMessage) {
        keyValues = keyValues((MapMessage<?, ?>) message);
        if (keyValues == LARGE) {
          return null;
        }
      }
      String body = useLayout ? adapter.layout(event) : adapter.message(event);
      if (body != null && body.length() > MAX_QUEUED_BODY_CHARS) {
        return null;
      }
      Marker marker = event.getMarker();
      return new CapturedEvent(
          event.getInstant(),
          event.getLevel(),
          event.getLoggerName(),
          body,
          event.getThreadName(),
          event.getThreadId(),
          context,
          keyValues,
          marker == null ? null : marker.getName(),
          captureCode ? event.getSource() : null,
          span);
    } catch (Throwable t) { // read again inline, where the mapping counts it
      return null;
    }
  }

  /** Marks a context too large to queue. */
  private static final ReadOnlyStringMap LARGE = new SortedArrayStringMap(0);

  /**
   * The context as an immutable map: a frozen one as it is (log4j2's default for synchronous
   * loggers), a mutable one (an async logger's reused slot, a garbage-free event) copied; null for
   * none, {@link #LARGE} when it has more entries than the queue takes.
   */
  private static ReadOnlyStringMap frozenContext(ReadOnlyStringMap context) {
    if (context == null || context.isEmpty()) {
      return null;
    }
    if (context.size() > Log4j2EventAdapter.LARGE_CONTEXT) {
      return LARGE;
    }
    if (context instanceof StringMap && ((StringMap) context).isFrozen()) {
      return context;
    }
    SortedArrayStringMap copy = new SortedArrayStringMap(context);
    copy.freeze();
    return copy;
  }

  /** Copies one key-value pair (see {@link #keyValues}); the state is the copy. */
  private static final TriConsumer<String, Object, SortedArrayStringMap> COPY_PAIR =
      (k, v, copy) -> {
        if (k != null && v != null) {
          copy.putValue(k, frozenValue(v));
        }
      };

  private static final TriConsumer<String, Object, SortedArrayStringMap> COPY_PAIR_NOT_BODY =
      (k, v, copy) -> {
        if (!EventMapper.MAP_MESSAGE_BODY_KEY.equals(k)) {
          COPY_PAIR.accept(k, v, copy);
        }
      };

  /**
   * A {@code MapMessage}'s pairs as the mapping reads them, copied (the application may change the
   * message or its values after the call): without its body entry when that entry is the body; null
   * for none, {@link #LARGE} when it has more pairs than the queue takes.
   */
  private ReadOnlyStringMap keyValues(MapMessage<?, ?> message) {
    int size = message.getIndexedReadOnlyStringMap().size();
    if (size == 0) {
      return null;
    }
    if (size > Log4j2EventAdapter.LARGE_CONTEXT) {
      return LARGE;
    }
    SortedArrayStringMap copy = new SortedArrayStringMap(size);
    message.forEach(
        !useLayout && Log4j2EventAdapter.bodyFromEntry(message) ? COPY_PAIR_NOT_BODY : COPY_PAIR,
        copy);
    copy.freeze();
    return copy;
  }

  /**
   * A pair's value as the mapping will read it: the types it keeps (integers, floating point,
   * booleans, text) as they are, a {@code byte[]} cloned, anything else as its text now.
   */
  private static Object frozenValue(Object v) {
    if (v instanceof String
        || v instanceof Long
        || v instanceof Integer
        || v instanceof Short
        || v instanceof Byte
        || v instanceof Double
        || v instanceof Float
        || v instanceof Boolean) {
      return v;
    }
    if (v instanceof byte[]) {
      return ((byte[]) v).clone();
    }
    return String.valueOf(v);
  }

  /**
   * Closes the queue and lets the worker send what it holds for up to {@code timeoutMillis}; events
   * left are counted as dropped.
   *
   * @param timeoutMillis at least 0
   */
  void stop(long timeoutMillis) {
    stopping = true;
    for (long lost = handOff.stop(timeoutMillis); lost > 0; lost--) {
      producer.countDropped(NOT_DRAINED_CAUSE);
    }
    registeredWith.removeUpstream(upstream);
  }

  /** {@return how many events gave up waiting for a stalled worker and were mapped here} */
  long sentInlineWhenFull() {
    return sentInlineWhenFull.sum();
  }

  /** {@return how many times a logging thread found the queue full and waited for room} */
  long waits() {
    return handOff.waitCount();
  }

  /** {@return the queue's capacity (a power of two)} */
  int capacity() {
    return handOff.capacity();
  }
}
