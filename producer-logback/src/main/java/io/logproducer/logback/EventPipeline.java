package io.logproducer.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.logproducer.appender.AppenderProducer;
import io.logproducer.appender.EventMapper;
import io.logproducer.appender.HandOff;
import java.util.concurrent.TimeUnit;

/**
 * The path of one started appender's events to its producer: on the logging thread (the recursion
 * guard, mapping, send), or, with a {@code queueSize}, through the appender's own {@link HandOff}
 * queue to its worker thread, which maps and sends. Thread-safe: {@link #append} is called
 * concurrently by logging threads, {@link #stop} once by the lifecycle.
 */
final class EventPipeline {

  private final AppenderProducer producer;
  private final EventMapper<ILoggingEvent> mapper;
  private final boolean captureCode;
  private final HandOff<ILoggingEvent> handOff; // null: mapped and sent on the logging thread
  private final String queueFullCause;

  /**
   * @param queueSize 0 for the logging thread, else the hand-off queue's capacity, in [1, 1048576]
   * @throws IllegalArgumentException if {@code queueSize} is out of range (the message names it)
   */
  EventPipeline(
      AppenderProducer producer,
      EventMapper<ILoggingEvent> mapper,
      boolean captureCode,
      int queueSize) {
    this.producer = producer;
    this.mapper = mapper;
    this.captureCode = captureCode;
    if (queueSize != 0) {
      handOff =
          new HandOff<ILoggingEvent>(
              producer.producer().getConfig().getClientId() + "-handoff", queueSize, this::sendNow);
      queueFullCause = "the appender's queue was full (queueSize " + handOff.capacity() + ")";
    } else {
      handOff = null;
      queueFullCause = null;
    }
  }

  /**
   * Maps and sends {@code event}, or queues it for the worker; never blocks under {@code DROP},
   * never throws.
   */
  void append(ILoggingEvent event) {
    HandOff<ILoggingEvent> h = handOff;
    if (h != null) {
      // Only a hand-off here: nothing below can log back into the producer on this thread (the
      // nesting guard is
      // for the synchronous path, which maps and sends; logback's own guard stops a nested append
      // anyway).
      if (!producer.admits(event.getLoggerName())) {
        return;
      }
      if (h.looksFull()) { // dropped anyway: spend no more of the logging thread on it (no
        // formatting, no MDC copy)
        producer.countDropped(queueFullCause);
        return;
      }
      if (captureCode) {
        event
            .getCallerData(); // computed here, on the logging thread: the worker's stack is not the
        // caller's
      }
      event.prepareForDeferredProcessing(); // formats the message, copies the MDC: readable on the
      // worker
      if (!h.offer(event)) {
        producer.countDropped(queueFullCause);
      }
      return;
    }
    if (!producer.enter(event.getLoggerName())) {
      return;
    }
    try {
      sendNow(event);
    } finally {
      producer.exit();
    }
  }

  private void sendNow(ILoggingEvent event) {
    producer.mapAndSend(mapper, event);
  }

  /**
   * Drains the queue (events left after the timeout are counted as dropped), then closes the
   * producer with what is left of {@code stopTimeoutMillis}.
   */
  void stop() {
    long timeout = producer.stopTimeoutMillis();
    if (handOff != null) {
      long start = System.nanoTime();
      for (long lost = handOff.stop(timeout); lost > 0; lost--) {
        producer.countDropped("the appender stopped before its queue drained (stopTimeoutMillis)");
      }
      timeout -= TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }
    producer.stop(timeout);
  }
}
