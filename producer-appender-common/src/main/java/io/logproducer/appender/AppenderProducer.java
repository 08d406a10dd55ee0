package io.logproducer.appender;

import io.logproducer.BufferExhaustedException;
import io.logproducer.Callback;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.SendResult;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The producer behind one logging appender, and the rules that keep it from hurting the
 * application:
 *
 * <ul>
 *   <li><b>No recursion.</b> {@link #enter(String)} refuses events logged on the producer's own
 *       threads (send threads, the linger thread, exporter I/O threads: every thread named {@code
 *       <clientId>-…}, which is where httpclient5 and the exporters log, and the Kafka client's
 *       {@code … | <clientId>} threads), events of the {@code io.logproducer} loggers, and events
 *       logged while this thread is already inside the appender. Such events are not counted as
 *       dropped: they never were application events.
 *   <li><b>Never blocking, never throwing.</b> {@link #send(LogRecord)} under the appender default
 *       {@code bufferFullPolicy=DROP} never waits; with {@code BLOCK} it waits at most {@code
 *       maxBlockMillis}. A record refused for any reason (full buffer, too large, producer closed)
 *       is counted, never thrown into the logging call. {@link #mapAndSend} maps and sends an event
 *       and catches anything either throws, {@link Error}s included: the event is counted as
 *       dropped, whatever the framework's {@code ignoreExceptions} says.
 *   <li><b>Visible losses.</b> Dropped and failed events are reported through {@code status} (the
 *       framework's own status channel) at most once per {@code reportIntervalMillis}, with counts
 *       since the last report and the last cause.
 *   <li><b>Bounded stop.</b> {@link #stop()} ships what is buffered and closes the producer within
 *       {@code stopTimeoutMillis} (+ 1 s); afterwards no producer thread runs.
 * </ul>
 *
 * <p>Thread-safe: {@link #enter}, {@link #send} and {@link #exit} are called concurrently by
 * logging threads; {@link #start} and {@link #stop} by the framework's lifecycle.
 */
public final class AppenderProducer {

  private static final ThreadLocal<boolean[]> APPENDING =
      new ThreadLocal<boolean[]>() {
        @Override
        protected boolean[] initialValue() {
          return new boolean[1];
        }
      };

  /** Longest exception text in a report's cause (an exception's message may be huge). */
  private static final int MAX_CAUSE_CHARS = 500;

  private final String appenderName;
  private final long stopTimeoutMillis;
  private final long reportIntervalNanos;
  private final Consumer<String> status;
  // Counted by every logging thread during a flood of drops: striped counters, not one contended
  // word.
  private final LongAdder dropped = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final LongAdder spooled = new LongAdder();
  private final AtomicLong reportedDropped = new AtomicLong();
  private final AtomicLong reportedFailed = new AtomicLong();
  private final AtomicLong reportedSpooled = new AtomicLong();
  private final AtomicLong nextReportNanos = new AtomicLong(System.nanoTime());
  private final Callback outcomes = this::onOutcome;
  private volatile String lastCause;
  private volatile Producer producer;
  private volatile boolean ownsProducer = true;
  private volatile String threadPrefix = "\u0000";
  private volatile String kafkaThreadMark;

  /**
   * @param appenderName the appender's name (in reports and the default client id)
   * @param stopTimeoutMillis how long {@link #stop()} lets buffered events ship, at least 0
   * @param reportIntervalMillis least time between two reports of dropped or failed events, at
   *     least 1
   * @param status receives the reports; the framework's status channel (logback {@code addWarn},
   *     log4j2 {@code StatusLogger}), which never re-enters the appender; called on logging and
   *     producer threads
   * @throws IllegalArgumentException if a bound is out of range or {@code status} is null
   */
  public AppenderProducer(
      String appenderName,
      long stopTimeoutMillis,
      long reportIntervalMillis,
      Consumer<String> status) {
    if (stopTimeoutMillis < 0) {
      throw new IllegalArgumentException(
          "stopTimeoutMillis must be >= 0, was " + stopTimeoutMillis);
    }
    if (reportIntervalMillis < 1) {
      throw new IllegalArgumentException(
          "reportIntervalMillis must be >= 1, was " + reportIntervalMillis);
    }
    if (status == null) {
      throw new IllegalArgumentException("status must not be null");
    }
    this.appenderName = appenderName;
    this.stopTimeoutMillis = stopTimeoutMillis;
    this.reportIntervalNanos = TimeUnit.MILLISECONDS.toNanos(reportIntervalMillis);
    this.status = status;
  }

  /**
   * Builds the exporter and starts the producer.
   *
   * @param settings the producer settings
   * @param otlp the OTLP exporter's settings, or null
   * @param gse the GSE exporter's settings, or null; when both are null, OTLP from the environment
   *     ({@code OTEL_EXPORTER_OTLP_*}, default {@code http://localhost:4318})
   * @param scopeName the OTLP {@code InstrumentationScope} name of records without one
   * @param scopeFromRecords whether OTLP writes each record's scope name (the logger name) as its
   *     {@code InstrumentationScope} ({@link MappingSettings#scopeFromLogger()})
   * @throws IllegalArgumentException if both exporters are configured or a setting is invalid (the
   *     message names it)
   * @throws IllegalStateException if the exporter cannot run here (a codec that cannot load, no
   *     Unix sockets)
   */
  public void start(
      ProducerSettings settings,
      OtlpSettings otlp,
      GseSettings gse,
      String scopeName,
      boolean scopeFromRecords) {
    start(settings, otlp, gse, null, scopeName, scopeFromRecords);
  }

  /**
   * Builds the exporter and starts the producer.
   *
   * @param settings the producer settings
   * @param otlp the OTLP exporter's settings, or null
   * @param gse the GSE exporter's settings, or null
   * @param kafka the Kafka exporter's settings, or null; when all three are null, OTLP from the
   *     environment ({@code OTEL_EXPORTER_OTLP_*}, default {@code http://localhost:4318})
   * @param scopeName the OTLP {@code InstrumentationScope} name of records without one
   * @param scopeFromRecords whether OTLP writes each record's scope name (the logger name) as its
   *     {@code InstrumentationScope} ({@link MappingSettings#scopeFromLogger()})
   * @throws IllegalArgumentException if more than one exporter is configured or a setting is
   *     invalid (the message names it)
   * @throws IllegalStateException if the exporter cannot run here (a codec that cannot load, no
   *     Unix sockets)
   */
  public void start(
      ProducerSettings settings,
      OtlpSettings otlp,
      GseSettings gse,
      KafkaSettings kafka,
      String scopeName,
      boolean scopeFromRecords) {
    Producer built =
        SettingsProducer.build(
            appenderName, settings, otlp, gse, kafka, scopeName, scopeFromRecords);
    String clientId = built.getConfig().getClientId();
    threadPrefix = clientId + "-";
    // The Kafka client's threads: "kafka-producer-network-thread | <clientId>", its admin "… |
    // <clientId>-admin".
    kafkaThreadMark = kafka != null ? " | " + clientId : null;
    producer = built;
  }

  /**
   * Uses a producer that someone else built and closes (the Spring Boot starter's, shared with the
   * application's {@code Producer} bean), instead of building one: {@link #stop()} then detaches
   * from it without flushing or closing it, and the appender registers no exit hook for it.
   *
   * @param shared a running producer, not null; its owner closes it after stopping the appender
   * @throws IllegalArgumentException if {@code shared} is null
   * @throws IllegalStateException if {@code shared} is closed
   */
  public void attach(Producer shared) {
    if (shared == null) {
      throw new IllegalArgumentException("the shared producer must not be null");
    }
    if (shared.isClosed()) {
      throw new IllegalStateException("the shared producer is closed");
    }
    String clientId = shared.getConfig().getClientId();
    threadPrefix = clientId + "-";
    kafkaThreadMark = " | " + clientId;
    ownsProducer = false;
    producer = shared;
  }

  /**
   * {@return false when the producer was {@linkplain #attach(Producer) attached} (its owner flushes
   * and closes it), true when {@code start} built it}
   */
  public boolean ownsProducer() {
    return ownsProducer;
  }

  private boolean producerThread() {
    return isProducerThread(Thread.currentThread().getName());
  }

  /**
   * Whether a thread of this name is one of the producer's: its own threads ({@code <clientId>-…}),
   * or the Kafka client's threads it started ({@code … | <clientId>}, {@code … |
   * <clientId>-admin}). For appenders whose events are appended on another thread than the one that
   * logged them (log4j2's async loggers).
   *
   * @param name a thread's name, not null
   * @return true if events logged on it must not re-enter the producer
   */
  public boolean isProducerThread(String name) {
    if (name.startsWith(threadPrefix)) {
      return true;
    }
    String mark = kafkaThreadMark;
    return mark != null && (name.endsWith(mark) || name.endsWith(mark + "-admin"));
  }

  /**
   * Whether an event may enter the appender on this thread; when true, the caller must call {@link
   * #exit()} in a {@code finally} block.
   *
   * @param loggerName the event's logger name, or null
   * @return false for events of the producer's own threads, of the {@code io.logproducer} loggers,
   *     of a nested call on a thread already inside the appender, or when the appender is not
   *     started
   */
  public boolean enter(String loggerName) {
    if (producer == null || (loggerName != null && loggerName.startsWith("io.logproducer."))) {
      return false;
    }
    boolean[] appending = APPENDING.get();
    if (appending[0] || producerThread()) {
      return false;
    }
    appending[0] = true;
    return true;
  }

  /**
   * The checks of {@link #enter(String)} without the per-thread nesting guard, for an appender that
   * only hands the event to its worker on this thread (nothing it does here can log back into it).
   *
   * @param loggerName the event's logger name, or null
   * @return false for events of the producer's own threads, of the {@code io.logproducer} loggers,
   *     or when the appender is not started
   */
  public boolean admits(String loggerName) {
    return producer != null
        && (loggerName == null || !loggerName.startsWith("io.logproducer."))
        && !producerThread();
  }

  /** Leaves the appender on this thread (after {@link #enter(String)} returned true). */
  public void exit() {
    APPENDING.get()[0] = false;
  }

  /**
   * Sends {@code record}; never throws and, under {@code DROP}, never waits. A refused record is
   * counted as dropped.
   *
   * @param record the mapped event
   */
  public void send(LogRecord record) {
    Producer p = producer;
    if (p == null) {
      countDropped("the appender is stopped");
      return;
    }
    try {
      p.send(record, outcomes);
    } catch (BufferExhaustedException e) {
      countDropped("the buffer stayed full for maxBlockMillis");
    } catch (
        RuntimeException e) { // too large, closed, interrupted, a record the exporter cannot encode
      countDropped(e.toString());
    }
  }

  /**
   * Maps {@code event} and sends the record: the one place where the appenders turn an event into a
   * record. Never throws: anything thrown while the event is mapped or sent, {@link Error}s
   * included ({@code StackOverflowError}, {@code OutOfMemoryError} of a huge allocation, {@code
   * LinkageError}), counts the event as dropped with the cause {@code "mapping the event failed: "
   * + t} in the next report. Under {@code DROP} never waits.
   *
   * @param mapper the appender's mapper
   * @param event the event, read only during this call
   * @param <E> the framework's event type
   */
  public <E> void mapAndSend(EventMapper<E> mapper, E event) {
    mapAndSend(mapper, event, NOT_GIVEN);
  }

  /** The thread id argument meaning "ask the event's adapter" (the event's own thread). */
  private static final long NOT_GIVEN = Long.MIN_VALUE;

  /**
   * {@link #mapAndSend(EventMapper, Object)} for an event logged on another thread (the hand-off's
   * worker), with the id of the thread that logged it.
   *
   * @param mapper the appender's mapper
   * @param event the event, read only during this call
   * @param threadId the id of the thread that logged it, or -1 if unknown
   * @param <E> the framework's event type
   */
  public <E> void mapAndSend(EventMapper<E> mapper, E event, long threadId) {
    mapAndSend(mapper, event, threadId, null);
  }

  /**
   * {@link #mapAndSend(EventMapper, Object)} on the thread that logged the event, with the span
   * {@link EventMapper#captureSpan} returned at the logging call.
   *
   * @param mapper the appender's mapper
   * @param event the event, read only during this call
   * @param span what {@link EventMapper#captureSpan} returned, or null
   * @param <E> the framework's event type
   */
  public <E> void mapAndSendWithSpan(EventMapper<E> mapper, E event, Object span) {
    mapAndSend(mapper, event, NOT_GIVEN, span);
  }

  /**
   * {@link #mapAndSend(EventMapper, Object, long)} with the span {@link EventMapper#captureSpan}
   * returned on the logging thread at the logging call.
   *
   * @param mapper the appender's mapper
   * @param event the event, read only during this call
   * @param threadId the id of the thread that logged it, or -1 if unknown
   * @param span what {@link EventMapper#captureSpan} returned, or null
   * @param <E> the framework's event type
   */
  public <E> void mapAndSend(EventMapper<E> mapper, E event, long threadId, Object span) {
    LogRecord record;
    try {
      record =
          threadId == NOT_GIVEN
              ? mapper.mapWithSpan(event, span)
              : mapper.map(event, threadId, span);
    } catch (Throwable t) {
      countDropped(failure(t));
      return;
    }
    try {
      send(record);
    } catch (Throwable t) { // send counts what the producer refuses; this is what it did not expect
      countDropped(failure(t));
    }
  }

  /** The cause of an event lost to {@code t}; never throws (not even if {@code t} does). */
  private static String failure(Throwable t) {
    String text;
    try {
      text = String.valueOf(t);
    } catch (Throwable e) {
      text = t.getClass().getName();
    }
    if (text.length() > MAX_CAUSE_CHARS) {
      text = text.substring(0, MAX_CAUSE_CHARS) + "…";
    }
    return "mapping the event failed: " + text;
  }

  private void onOutcome(SendResult result) {
    switch (result.getStatus()) {
      case DELIVERED:
        return;
      case DROPPED:
        countDropped("the buffer was full (the receiver is slow or down)");
        return;
      case SPOOLED: // not a failure: stored on disk, delivered by this producer or the next one
        spooled.increment();
        maybeReport();
        return;
      default:
        failed.increment();
        lastCause =
            result.getStatus()
                + ": "
                + (result.getMessage() != null ? result.getMessage() : result.getError());
        maybeReport();
    }
  }

  /**
   * Counts one event as dropped without sending it (an event the appender could not map), and
   * reports it with the others. Never throws.
   *
   * @param cause why it was dropped (in the next report)
   */
  public void countDropped(String cause) {
    dropped.increment();
    if (lastCause
        != cause) { // the same constant cause in a flood: no write to a shared line per event
      lastCause = cause;
    }
    maybeReport();
  }

  /** Reports drops and failures since the last report, at most once per interval. */
  private void maybeReport() {
    long now = System.nanoTime();
    long next = nextReportNanos.get();
    if (now - next < 0 || !nextReportNanos.compareAndSet(next, now + reportIntervalNanos)) {
      return;
    }
    long d = dropped.sum();
    long f = failed.sum();
    long s = spooled.sum();
    long newDropped = d - reportedDropped.getAndSet(d);
    long newFailed = f - reportedFailed.getAndSet(f);
    long newSpooled = s - reportedSpooled.getAndSet(s);
    if (newDropped > 0 || newFailed > 0) {
      status.accept(
          String.format(
              Locale.ROOT,
              "logproducer appender '%s': %,d events dropped and %,d failed since"
                  + " the last report (%,d and %,d in all)%s; last cause: %s",
              appenderName,
              newDropped,
              newFailed,
              d,
              f,
              spooledText(newSpooled, s),
              lastCause));
    } else if (newSpooled > 0) {
      status.accept(
          String.format(
              Locale.ROOT,
              "logproducer appender '%s'%s",
              appenderName,
              spooledText(newSpooled, s).replaceFirst("^;", ":")));
    }
  }

  /** The spooled part of a report, empty when nothing was spooled since the last one. */
  private static String spooledText(long newSpooled, long all) {
    return newSpooled == 0
        ? ""
        : String.format(
            Locale.ROOT,
            "; %,d events not delivered yet were stored in the disk spool since the last report"
                + " (%,d in all; the next producer on its directory delivers them)",
            newSpooled,
            all);
  }

  /** {@return the configured {@code stopTimeoutMillis}} */
  public long stopTimeoutMillis() {
    return stopTimeoutMillis;
  }

  /**
   * {@return events dropped since start: refused by the producer, or logged while it was stopped}
   */
  public long droppedCount() {
    return dropped.sum();
  }

  /**
   * {@return events accepted but not delivered (failed, rejected, failed at close); SPOOLED events
   * are not failures and are counted by {@link #spooledCount()}}
   */
  public long failedCount() {
    return failed.sum();
  }

  /**
   * {@return events whose outcome was SPOOLED: not delivered yet, durably stored in the producer's
   * disk spool; this producer, or the next one on the same directory, delivers them}
   */
  public long spooledCount() {
    return spooled.sum();
  }

  /** {@return the running producer, or null before start and after stop} */
  public Producer producer() {
    return producer;
  }

  /**
   * Ships what is buffered and closes the producer within {@code stopTimeoutMillis} (+ 1 s); then
   * reports any drops and failures not yet reported. An {@linkplain #attach(Producer) attached}
   * producer is only let go: its records stay with it, and its owner closes it; their outcomes
   * still reach this appender's counts, and the owner calls {@link #reportNow()} once the producer
   * is closed, so that the records its close failed are in the last report. Idempotent.
   */
  public void stop() {
    stop(stopTimeoutMillis);
  }

  /**
   * Like {@link #stop()} with another grace period (what is left of {@code stopTimeoutMillis} after
   * the appender's own hand-off queue drained).
   *
   * @param timeoutMillis how long buffered events may ship, at least 0
   */
  public void stop(long timeoutMillis) {
    Producer p = producer;
    producer = null;
    if (p != null && ownsProducer) {
      p.close(Math.max(0, timeoutMillis));
    }
    reportNow();
  }

  /**
   * Reports at once, whatever the report interval, the drops and failures not reported yet (nothing
   * when there are none). {@link #stop()} does it after the producer it owns closed; the owner of
   * an {@linkplain #attach(Producer) attached} producer calls it after closing that producer, whose
   * close gives the records still buffered their outcome ({@code FAILED_AT_CLOSE}): they are then
   * in this last report. Never throws.
   */
  public void reportNow() {
    nextReportNanos.set(System.nanoTime());
    maybeReport();
  }
}
