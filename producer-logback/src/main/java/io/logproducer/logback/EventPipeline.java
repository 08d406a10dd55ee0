package io.logproducer.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.StackTraceElementProxy;
import io.logproducer.Producer;
import io.logproducer.appender.AppenderProducer;
import io.logproducer.appender.EventMapper;
import io.logproducer.appender.HandOff;
import io.logproducer.appender.QueueBudget;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The path of one started appender's events to its producer: through the appender's own {@link
 * HandOff} queue to its worker thread, which maps and sends (the default, {@code queueSize} &gt;
 * 0), or on the logging thread (the recursion guard, mapping, send: {@code queueSize} 0, and events
 * too large for the queue, see {@link QueueLimits}). A full queue makes the logging thread wait for
 * room while the worker makes progress; if the worker stalls ({@link HandOff#STALL_MILLIS}), the
 * logging thread maps and sends the event itself. The queue never drops an event. One thread's
 * events keep their order: they go through the one queue, and before an event is mapped on the
 * logging thread, the events queued before it are sent (only a stalled worker breaks this).
 * Thread-safe: {@link #append} is called concurrently by logging threads, {@link #stop} by the
 * lifecycle (a second call waits for the first, then returns).
 *
 * <p>No event that reaches it is lost uncounted, the stop included: {@link #stop} first ships what
 * is buffered while still taking events (logback goes on appending to an appender it is stopping
 * until it detaches it, after it stopped every appender), then shuts the {@link AppendGate}, waits
 * for the appends inside, and closes the producer; every event that comes after goes to the stop's
 * {@link HandOver} (a reconfiguration's) or is counted as dropped, and the first one dropped is
 * reported through the status channel.
 */
final class EventPipeline {

  /** The cause of drops after the stop, in the producer's reports. */
  static final String STOPPED_CAUSE =
      "the appender was stopped (a reset, a reconfiguration or the context's stop)";

  /** A flush shorter than this is the last one before the producer closes: 20 ms. */
  private static final long SHORT_FLUSH_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

  /** At most this many flushes while still taking events. */
  private static final int MAX_FLUSHES = 3;

  private final AppendGate gate = new AppendGate();
  private final AtomicBoolean droppedAfterStop = new AtomicBoolean();
  private final Consumer<String> status;
  private boolean stopped; // guarded by stopLock
  private volatile boolean stopping;
  private final AppenderProducer producer;
  private final EventMapper<ILoggingEvent> mapper;
  private final boolean captureCode;
  private final HandOff<ILoggingEvent> handOff; // null: mapped and sent on the logging thread
  private final Producer.Upstream upstream; // the queue, for the producer's flush and close
  private final Producer registeredWith;
  private final QueueBudget budget = new QueueBudget();
  private volatile HandOver handOver; // set by a stop for a reconfiguration

  /**
   * @param queueSize 0 for the logging thread, else the hand-off queue's capacity, in [1, 1048576]
   * @param status the appender's status channel (logback's {@code addWarn})
   * @throws IllegalArgumentException if {@code queueSize} is out of range (the message names it)
   */
  EventPipeline(
      AppenderProducer producer,
      EventMapper<ILoggingEvent> mapper,
      boolean captureCode,
      int queueSize,
      Consumer<String> status) {
    DeferredFormat.initialize(); // on the starting thread, not on a first logging virtual thread
    this.status = status;
    this.producer = producer;
    this.mapper = mapper;
    this.captureCode = captureCode;
    if (queueSize != 0) {
      handOff =
          new HandOff<ILoggingEvent>(
              producer.producer().getConfig().getClientId() + "-handoff",
              queueSize,
              (HandOff.Receiver<ILoggingEvent>) this::sendQueued);
      upstream = handOff::awaitDrained;
      registeredWith = producer.producer();
      registeredWith.addUpstream(upstream);
    } else {
      handOff = null;
      upstream = null;
      registeredWith = null;
    }
  }

  /**
   * Maps and sends {@code event}, or queues it for the worker; once the stop has shut the gate,
   * counts it as dropped. Never blocks under {@code DROP}, never throws.
   */
  void append(ILoggingEvent event) {
    if (!gate.enter()) {
      refused(event, loggingThreadId(event), false);
      return;
    }
    try {
      appendOpen(event);
    } finally {
      gate.exit();
    }
  }

  /**
   * An event of another appender's hand-over ({@link HandOver}): the successor's path for it, with
   * the id of the thread that logged it (the caller may be another thread). The event was prepared
   * for another thread. Never throws.
   *
   * @param event the event
   * @param threadId the id of the thread that logged it, or -1 if unknown
   */
  void appendHandedOver(ILoggingEvent event, long threadId) {
    if (!gate.enter()) {
      refused(event, threadId, true); // stopped in its turn: its own hand-over, if any
      return;
    }
    try {
      HandOff<ILoggingEvent> h = handOff;
      if (h != null) {
        if (!producer.admits(event.getLoggerName())) {
          if (producer.producer() == null) {
            refused(event, threadId, true);
          }
          return;
        }
        long large = largeBytes(event);
        if (large == 0 ? h.put(event, threadId) : queuedLarge(h, event, threadId, large)) {
          return;
        }
        h.awaitDrained(HandOff.STALL_MILLIS); // in order, as for an event mapped here
      }
      if (!producer.enter(event.getLoggerName())) {
        if (producer.producer() == null) {
          refused(event, threadId, true);
        }
        return;
      }
      try {
        producer.mapAndSend(mapper, event, threadId);
      } finally {
        producer.exit();
      }
    } finally {
      gate.exit();
    }
  }

  private boolean queuedLarge(HandOff<ILoggingEvent> h, ILoggingEvent event, long tag, long large) {
    if (!budget.tryReserve(large)) {
      return false;
    }
    if (h.put(event, tag)) {
      return true;
    }
    budget.release(large);
    return false;
  }

  /** The id of the thread logging {@code event} if that is this thread, else -1 (unknown). */
  private static long loggingThreadId(ILoggingEvent event) {
    Thread t = Thread.currentThread();
    String threadName = event.getThreadName();
    return threadName != null && threadName.equals(t.getName()) ? t.getId() : -1;
  }

  /**
   * Sets the hand-over that takes the events reaching this pipeline once its gate is shut (a stop
   * for a reconfiguration); called before {@link #stop}.
   *
   * @param handOver the stopped appender's hand-over
   */
  void handOverTo(HandOver handOver) {
    this.handOver = handOver;
  }

  /** {@return the most events a hand-over of this pipeline holds: the queue's capacity} */
  int handOverCapacity() {
    return handOff != null ? handOff.capacity() : QueueBudget.DEFAULT_QUEUE_SIZE;
  }

  /** {@return the budget of large queued events, shared with a hand-over after the stop} */
  QueueBudget budget() {
    return budget;
  }

  /** {@return whether caller data is computed on the logging thread} */
  boolean captureCode() {
    return captureCode;
  }

  /**
   * An event that reached the stopped appender (unless it is one the appender never takes: the
   * producer's own threads', the {@code io.logproducer} loggers'): to the hand-over, if the stop
   * was a reconfiguration's, else counted as dropped.
   */
  private void refused(ILoggingEvent event, long threadId, boolean prepared) {
    String logger = event.getLoggerName();
    if ((logger != null && logger.startsWith("io.logproducer."))
        || producer.isProducerThread(Thread.currentThread().getName())) {
      return;
    }
    HandOver h = handOver;
    if (h != null) {
      h.accept(event, threadId, prepared);
      return;
    }
    dropAfterStop();
  }

  /**
   * Counts an event that reached the stopped appender as dropped; the first one is reported at
   * once, the later ones with the producer's periodic reports.
   */
  private void dropAfterStop() {
    producer.countDropped(STOPPED_CAUSE);
    if (!droppedAfterStop.getAndSet(true)) {
      status.accept(
          "logproducer appender: events still reach it after it stopped (logback detaches an"
              + " appender only after stopping all of them); they are counted as dropped");
    }
  }

  /** {@link #append} once through the gate. */
  private void appendOpen(ILoggingEvent event) {
    // The OpenTelemetry span current at the logging call: only on the thread that logged the event
    // (on an AsyncAppender's worker the current span is the worker's, not the event's).
    Object span = mapper.readsSpan() && loggingThreadId(event) >= 0 ? mapper.captureSpan() : null;
    HandOff<ILoggingEvent> h = handOff;
    if (h != null && queued(h, event, span)) {
      return;
    }
    if (!producer.enter(event.getLoggerName())) {
      countIfClosed(event);
      return;
    }
    try {
      producer.mapAndSendWithSpan(mapper, event, span);
    } finally {
      producer.exit();
    }
  }

  /**
   * Puts {@code event} into the queue (waiting for room while the worker makes progress); a large
   * event only if the {@link QueueBudget} takes it.
   *
   * @return true if the event was queued or is one the appender ignores; false if the caller must
   *     map and send it on this thread
   */
  private boolean queued(HandOff<ILoggingEvent> h, ILoggingEvent event, Object span) {
    // Only a hand-off here: nothing below can log back into the producer on this thread (the
    // nesting guard is for the synchronous path; logback's own guard stops a nested append anyway).
    if (!producer.admits(event.getLoggerName())) {
      countIfClosed(event);
      return true;
    }
    String threadName = event.getThreadName();
    if (threadName == null || !threadName.equals(Thread.currentThread().getName())) {
      return false; // already off the logging thread (an AsyncAppender's worker): no second queue
    }
    if (captureCode) {
      event.getCallerData(); // computed here, on the logging thread: the worker's stack is not it
    }
    // What prepareForDeferredProcessing() does (the thread name is taken above), with a context
    // that gives no MDC left to the adapter on this thread, which reports that once; a message
    // whose arguments cannot change is formatted by the worker (DeferredFormat).
    Map<String, String> mdc;
    try {
      mdc = event.getMDCPropertyMap();
    } catch (RuntimeException e) { // a LoggerContext made by hand without an MDC adapter
      return inOrderInline(h);
    }
    long tag = Thread.currentThread().getId();
    int bound = DeferredFormat.boundedChars(event);
    if (bound >= 0
        && QueueBudget.isSmall(
            bound, mdc == null ? 0 : mdc.size(), event.getThrowableProxy() != null)) {
      return h.put(event, tag, span); // small for any message within the bound: largeBytes is 0
    }
    event.getFormattedMessage();
    long large = largeBytes(event);
    if (large == 0) {
      return h.put(event, tag, span);
    }
    if (!budget.tryReserve(large)) {
      return inOrderInline(h);
    }
    if (h.put(event, tag, span)) {
      return true;
    }
    budget.release(large);
    return false;
  }

  /**
   * The {@link QueueBudget#estimate} of a large event, 0 for a small one; the same on the worker as
   * on the logging thread (the event's message, MDC and exception no longer change).
   */
  static long largeBytes(ILoggingEvent event) {
    String message = event.getFormattedMessage();
    Map<String, String> mdc = event.getMDCPropertyMap();
    IThrowableProxy thrown = event.getThrowableProxy();
    int chars = message == null ? 0 : message.length();
    int entries = mdc == null ? 0 : mdc.size();
    if (QueueBudget.isSmall(chars, entries, thrown != null)) {
      return 0;
    }
    long frames = 0;
    for (int depth = 0; thrown != null && depth < 64; depth++, thrown = thrown.getCause()) {
      StackTraceElementProxy[] trace = thrown.getStackTraceElementProxyArray();
      frames += trace == null ? 0 : trace.length;
    }
    return QueueBudget.estimate(chars, entries, frames);
  }

  /**
   * Before an event is mapped on the logging thread instead of queued: lets the worker send the
   * events queued before it (at most {@link HandOff#STALL_MILLIS}; at once when the queue is
   * empty), so that one thread's events keep their order.
   *
   * @return false: the caller maps and sends the event
   */
  private static boolean inOrderInline(HandOff<ILoggingEvent> h) {
    h.awaitDrained(HandOff.STALL_MILLIS);
    return false;
  }

  /**
   * The worker's consumer: maps and sends an event of the thread {@code threadId}, with the span
   * current there at the logging call.
   */
  private void sendQueued(ILoggingEvent event, long threadId, Object span) {
    producer.mapAndSend(mapper, event, threadId, span);
    long large;
    try {
      large = largeBytes(event);
    } catch (RuntimeException e) { // read on the logging thread already: cannot fail here
      return;
    }
    if (large != 0) {
      budget.release(large);
    }
  }

  /**
   * An event the producer refused to take in ({@code enter}/{@code admits} false) is dropped, not
   * ignored, when the reason is that the producer is closed (the stop ran out of time waiting at
   * the gate).
   */
  private void countIfClosed(ILoggingEvent event) {
    if (producer.producer() == null) {
      refused(event, loggingThreadId(event), false);
    }
  }

  /**
   * Serializes {@link #stop()}: a lock, not a monitor, since it is held across the stop's flush and
   * close (a virtual thread blocked in a monitor pins its carrier on Java 21).
   */
  private final java.util.concurrent.locks.ReentrantLock stopLock =
      new java.util.concurrent.locks.ReentrantLock();

  /**
   * Stops within {@code stopTimeoutMillis} (+ 1 s): flushes the producer while events are still
   * taken (at most {@value #MAX_FLUSHES} times, until a flush takes less than 20 ms), shuts the
   * gate and waits for the appends inside, drains the queue (events left after the timeout are
   * counted as dropped), then closes the producer with what is left of the time. Idempotent.
   */
  void stop() {
    stopLock.lock();
    try {
      if (stopped) {
        return;
      }
      stopped = true;
      stopping = true;
      long timeout = producer.stopTimeoutMillis();
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout);
      // A shared producer (the Spring Boot starter's) keeps what it holds: its owner flushes it.
      StopFlush flush = new StopFlush(producer.ownsProducer() ? producer.producer() : null);
      flush.flushWhileTaking(deadline, MAX_FLUSHES, SHORT_FLUSH_NANOS);
      gate.close(millisLeft(deadline));
      if (handOff != null) {
        for (long lost = handOff.stop(millisLeft(deadline)); lost > 0; lost--) {
          producer.countDropped(
              "the appender stopped before its queue drained (stopTimeoutMillis)");
        }
        registeredWith.removeUpstream(upstream);
      }
      producer.stop(millisLeft(deadline));
      flush.awaitEnd(200);
    } finally {
      stopLock.unlock();
    }
  }

  /** {@return whether {@link #stop} has begun} */
  boolean isStopping() {
    return stopping;
  }

  private static long millisLeft(long deadlineNanos) {
    return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
  }
}
