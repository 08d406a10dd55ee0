package io.logproducer.logback;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Context;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.Layout;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.joran.spi.DefaultClass;
import ch.qos.logback.core.spi.FilterReply;
import ch.qos.logback.core.status.StatusListener;
import io.logproducer.Producer;
import io.logproducer.appender.AppenderProducer;
import io.logproducer.appender.AppenderSpoolSettings;
import io.logproducer.appender.EventMapper;
import io.logproducer.appender.ExitHook;
import io.logproducer.appender.GseSettings;
import io.logproducer.appender.KafkaSettings;
import io.logproducer.appender.MappingSettings;
import io.logproducer.appender.OtlpSettings;
import io.logproducer.appender.ProducerSettings;
import io.logproducer.appender.QueueBudget;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A logback appender that ships every event through a logproducer {@link Producer}, over OTLP/HTTP
 * or to a BlueKing GSE agent, mapped as OpenTelemetry's logback appender maps events to its log
 * data model.
 *
 * <p>Configured from logback's XML with nested elements: {@code <otlp>} ({@link OtlpSettings}),
 * {@code <gse>} ({@link GseSettings}) or {@code <kafka>} ({@link KafkaSettings}) for the exporter
 * (none: OTLP from the {@code OTEL_EXPORTER_OTLP_*} environment variables), {@code <producer>}
 * ({@link ProducerSettings}, appender default {@code bufferFullPolicy=DROP}), {@code <spool>}
 * ({@link AppenderSpoolSettings}: a disk spool, off by default), {@code <mapping>} ({@link
 * MappingSettings}), {@code <stopTimeoutMillis>}, {@code <reportIntervalMillis>}, and an optional
 * {@code <encoder>} or {@code <layout>} whose output is the body when {@code mapping.useLayout} is
 * set.
 *
 * <p>It never hurts the application: no appender-wide lock on the logging path, never blocking
 * under {@code DROP} (the default), never throwing, no recursion (events of the producer's own
 * threads and of the {@code io.logproducer} loggers, or logged while this thread is inside the
 * appender, are ignored), drops reported through logback's status channel at most once per {@code
 * reportIntervalMillis}, and a bounded {@link #stop()} after which no producer thread runs. A
 * setting with an invalid value is reported through the status channel with its name, and the
 * appender does not start.
 *
 * <p>Nothing that reaches it is lost uncounted, a reset or a reconfiguration included: logback
 * stops every appender of a logger before it detaches them, and goes on appending meanwhile. {@link
 * #stop()} therefore ships what is buffered while still taking events, and only then closes the
 * producer; an event that arrives after that is, when logback's {@code reset()} stopped it (a
 * reconfiguration), handed to the appender of the same name the new configuration starts ({@code
 * HandOver}), else counted as dropped ({@link #droppedCount()}), never discarded by logback as an
 * event for a stopped appender ({@link #doAppend}).
 *
 * <p>This class holds the settings and the lifecycle only: events are mapped by the mapping both
 * appenders share, {@link EventMapper} (reading logback's events through {@code
 * LogbackEventAdapter}), and reach the producer through {@code EventPipeline} (on the logging
 * thread, or through the {@code queueSize} hand-off).
 */
public class LogproducerAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {

  /** The {@code InstrumentationScope} name of records whose logger name is not used as scope. */
  public static final String SCOPE_NAME = "io.logproducer.logback";

  /** The object Spring Boot's LogbackLoggingSystem puts in the context it manages. */
  static final String SPRING_BOOT_MARKER = "org.springframework.boot.logging.LoggingSystem";

  private OtlpSettings otlp;
  private GseSettings gse;
  private KafkaSettings kafka;
  private ProducerSettings producerSettings = new ProducerSettings();
  private MappingSettings mapping = new MappingSettings();
  private AppenderSpoolSettings spool;
  private long stopTimeoutMillis = 10_000;
  private long reportIntervalMillis = 10_000;
  private Encoder<ILoggingEvent> encoder;
  private Layout<ILoggingEvent> layout;

  private final List<String> settingErrors = new CopyOnWriteArrayList<String>();
  private volatile StatusListener settingErrorListener;
  private volatile AppenderProducer appenderProducer;
  private volatile EventPipeline pipeline;
  private int queueSize = QueueBudget.DEFAULT_QUEUE_SIZE;
  private Boolean exitHookWanted; // the producer settings' shutdownHookEnabled, read at first start
  private volatile Producer sharedProducer; // useProducer: built and closed by its owner
  private volatile ExitHook exitHook;
  private volatile boolean stoppingAtExit; // the exit hook's stop: no hand-over

  /** logback's re-entrancy guard, per appender and thread, as {@code doAppend} has it. */
  private final ThreadLocal<boolean[]> appending = ThreadLocal.withInitial(() -> new boolean[1]);

  /** Status messages of {@link #doAppend} so far (at most {@value #MAX_APPEND_REPORTS} each). */
  private final AtomicInteger notStartedReports = new AtomicInteger();

  private final AtomicInteger failureReports = new AtomicInteger();
  private static final int MAX_APPEND_REPORTS = 3;

  /**
   * Creates an appender with the defaults; logback's configurator calls the setters, then {@link
   * #start()}.
   */
  public LogproducerAppender() {}

  /**
   * Sets the logback context; also starts watching its status channel for settings that logback's
   * configurator could not set on this appender, so that {@link #start()} can refuse to start with
   * them.
   *
   * @param context the logger context
   */
  @Override
  public void setContext(Context context) {
    super.setContext(context);
    if (context != null && settingErrorListener == null && !isStarted()) {
      StatusListener listener = new SettingErrorListener(settingErrors);
      settingErrorListener = listener;
      context.getStatusManager().add(listener);
    }
  }

  /**
   * The OTLP/HTTP exporter ({@code <otlp>}); leave unset for OTLP from the environment. The XML
   * creates a {@link LogbackOtlpSettings}: an invalid {@code endpoint} or header is reported by
   * {@link #start()} without its value, never quoted by logback's configurator.
   *
   * @param otlp the exporter settings
   */
  @DefaultClass(LogbackOtlpSettings.class)
  public void setOtlp(OtlpSettings otlp) {
    this.otlp = otlp;
  }

  /**
   * The GSE agent exporter ({@code <gse>}) instead of OTLP.
   *
   * @param gse the exporter settings
   */
  public void setGse(GseSettings gse) {
    this.gse = gse;
  }

  /**
   * The Apache Kafka exporter ({@code <kafka>}) instead of OTLP; needs {@code
   * io.logproducer:producer-kafka} on the class path.
   *
   * @param kafka the exporter settings
   */
  public void setKafka(KafkaSettings kafka) {
    this.kafka = kafka;
  }

  /**
   * The producer settings ({@code <producer>}).
   *
   * @param producer the settings; the appender default has {@code bufferFullPolicy=DROP}
   */
  public void setProducer(ProducerSettings producer) {
    this.producerSettings = producer;
  }

  /**
   * The producer's disk spool ({@code <spool>}); unset: none. Events not delivered within {@code
   * deliveryTimeoutMillis} or by {@link #stop()} are then SPOOLED ({@link #spooledCount()}), and
   * this appender's producer, or the next one on the same directory, delivers them.
   *
   * @param spool the spool's settings; {@code directory} is required
   */
  public void setSpool(AppenderSpoolSettings spool) {
    this.spool = spool;
  }

  /**
   * How events become records ({@code <mapping>}).
   *
   * @param mapping the mapping settings
   */
  public void setMapping(MappingSettings mapping) {
    this.mapping = mapping;
  }

  /**
   * How long {@link #stop()} lets buffered events ship before the rest fail.
   *
   * @param millis default 10000; at least 0
   */
  public void setStopTimeoutMillis(long millis) {
    this.stopTimeoutMillis = millis;
  }

  /**
   * Least time between two reports of dropped or failed events in logback's status channel.
   *
   * @param millis default 10000; at least 1
   */
  public void setReportIntervalMillis(long millis) {
    this.reportIntervalMillis = millis;
  }

  /**
   * Events waiting for the appender's own worker thread, which maps and sends them (default {@value
   * QueueBudget#DEFAULT_QUEUE_SIZE}): the logging thread only takes the MDC and queues the event,
   * as logback's {@code AsyncAppender} would (it also formats the message first unless every
   * argument is an immutable JDK value: {@code String}, a boxed primitive, {@code BigInteger},
   * {@code BigDecimal}, {@code UUID}; the worker formats those), but a full queue loses nothing:
   * the logging thread waits for room while the worker makes progress, and maps and sends the event
   * itself if the worker stalls for {@value io.logproducer.appender.HandOff#STALL_MILLIS} ms. The
   * queue is held outside {@code totalSizeInBytes} and bounded by {@link QueueBudget}: large events
   * (exceptions, long messages, large MDCs) beyond its budget are mapped on the logging thread. One
   * thread's events keep their order. 0 maps and encodes every event on the logging thread.
   *
   * @param queueSize 0, or in [1, 1048576] (rounded up to a power of two)
   */
  public void setQueueSize(int queueSize) {
    this.queueSize = queueSize;
  }

  /**
   * The encoder whose output is the body when {@code mapping.useLayout} is set (a trailing line
   * separator is removed).
   *
   * @param encoder the encoder
   */
  public void setEncoder(Encoder<ILoggingEvent> encoder) {
    this.encoder = encoder;
  }

  /**
   * The layout whose output is the body when {@code mapping.useLayout} is set (a trailing line
   * separator is removed).
   *
   * @param layout the layout
   */
  public void setLayout(Layout<ILoggingEvent> layout) {
    this.layout = layout;
  }

  /**
   * Events dropped since the last start: refused by the producer (full buffer) or unmappable.
   *
   * @return the count; 0 before start; kept after stop
   */
  public long droppedCount() {
    AppenderProducer ap = appenderProducer;
    return ap == null ? 0 : ap.droppedCount();
  }

  /**
   * Events accepted by the producer but not delivered (failed, rejected, failed at stop); SPOOLED
   * events are not failures ({@link #spooledCount()}).
   *
   * @return the count; 0 before start; kept after stop
   */
  public long failedCount() {
    AppenderProducer ap = appenderProducer;
    return ap == null ? 0 : ap.failedCount();
  }

  /**
   * Events not delivered yet but durably stored in the {@code <spool>}: the next producer on its
   * directory delivers them.
   *
   * @return the count; 0 before start; kept after stop
   */
  public long spooledCount() {
    AppenderProducer ap = appenderProducer;
    return ap == null ? 0 : ap.spooledCount();
  }

  /**
   * Makes this appender send through {@code producer}, which its owner built, flushes and closes
   * (the Spring Boot starter shares one producer between the appender and the application's {@code
   * Producer} bean). The exporter, producer and spool settings are then ignored; {@link #stop()}
   * lets the producer go without flushing or closing it, and no exit hook is registered. Not a
   * configuration property: call it before {@link #start()}, from code.
   *
   * @param producer a running producer, or null to build one from the settings (the default)
   */
  public void useProducer(Producer producer) {
    this.sharedProducer = producer;
  }

  /**
   * Reports at once, through logback's status channel, the dropped and failed events not reported
   * yet (nothing when there are none). For the owner of a producer given to {@link
   * #useProducer(Producer)}: {@link #stop()} lets that producer go without closing it, so the
   * records its owner's close fails ({@code FAILED_AT_CLOSE}) are counted by this appender after
   * its stop; the owner calls this once the producer is closed, and they are in the last report.
   * Does nothing before start. Never throws.
   */
  public void reportLosses() {
    AppenderProducer ap = appenderProducer;
    if (ap != null) {
      ap.reportNow();
    }
  }

  /**
   * The running producer (for its metrics).
   *
   * @return the producer, or null before start and after stop
   */
  public Producer getProducer() {
    AppenderProducer ap = appenderProducer;
    return ap == null ? null : ap.producer();
  }

  /**
   * Starts the producer, unless a setting is invalid: then the error, naming the setting, goes to
   * logback's status channel and the appender stays stopped. Never throws.
   */
  @Override
  public void start() {
    if (isStarted()) {
      return;
    }
    StatusListener listener = settingErrorListener;
    settingErrorListener = null;
    if (listener != null && getContext() != null) {
      getContext().getStatusManager().remove(listener);
    }
    String prefix = "logproducer appender '" + getName() + "' not started: ";
    if (!settingErrors.isEmpty()) {
      for (String error : settingErrors) {
        addError(prefix + error);
      }
      return;
    }
    if (mapping == null || producerSettings == null) {
      addError(prefix + "<mapping> and <producer> must not be empty");
      return;
    }
    if (mapping.useLayout() && encoder == null && layout == null) {
      addError(prefix + "mapping.useLayout is set but the appender has no <encoder> or <layout>");
      return;
    }
    AppenderProducer ap;
    try {
      ap =
          new AppenderProducer(
              String.valueOf(getName()), stopTimeoutMillis, reportIntervalMillis, this::addWarn);
      Producer shared = sharedProducer;
      if (shared != null) {
        exitHookWanted = false;
        ap.attach(shared);
      } else {
        producerSettings.useSpool(spool);
        takeOverShutdownHook();
        ap.start(producerSettings, otlp, gse, kafka, SCOPE_NAME, mapping.scopeFromLogger());
      }
    } catch (RuntimeException | LinkageError e) {
      addError(prefix + e.getMessage(), e);
      return;
    }
    EventMapper<ILoggingEvent> mapper =
        new EventMapper<ILoggingEvent>(
            mapping,
            new LogbackEventAdapter(this, layout, encoder),
            producerSettings.maxAttributesPerRecord());
    try {
      pipeline = new EventPipeline(ap, mapper, mapping.captureCode(), queueSize, this::addWarn);
    } catch (RuntimeException e) {
      ap.stop(0);
      addError(prefix + e.getMessage(), e);
      return;
    }
    appenderProducer = ap;
    if (exitHookWanted) {
      EventPipeline p = pipeline;
      exitHook =
          ExitHook.register(
              ap.producer().getConfig().getClientId() + "-exit-hook",
              this::frameworkStopsAtExit,
              p::isStopping,
              this::stopAtExit,
              ap.producer().getConfig().getShutdownHookTimeoutMillis());
    }
    super.start();
    try {
      HandOver predecessor = HandOver.of(getContext(), String.valueOf(getName()));
      if (predecessor != null) {
        predecessor.handTo(this); // before logback attaches this appender: the events come first
      }
    } catch (RuntimeException e) { // a context whose object map fails: nothing to take over
      addWarn("logproducer appender '" + getName() + "': no hand-over from its predecessor: " + e);
    }
  }

  /**
   * The appender, not its producer, owns the JVM exit ({@link ExitHook}): the producer's own hook
   * is turned off; {@code shutdownHookEnabled=false} in {@code <producer>} turns both off.
   */
  private void takeOverShutdownHook() {
    if (exitHookWanted == null) {
      exitHookWanted = producerSettings.toConfig(String.valueOf(getName())).isShutdownHookEnabled();
    }
    producerSettings.setShutdownHookEnabled(false);
  }

  /**
   * Whether logback stops this appender at JVM exit by itself: a {@code <shutdownHook/>} in the
   * configuration, or Spring Boot's logging system, whose shutdown handler stops the context after
   * the application's.
   */
  private boolean frameworkStopsAtExit() {
    Context c = getContext();
    return c != null
        && (c.getObject(CoreConstants.SHUTDOWN_HOOK_THREAD) != null
            || c.getObject(SPRING_BOOT_MARKER) != null);
  }

  /**
   * Ships what is buffered and closes the producer within {@code stopTimeoutMillis} (+ 1 s);
   * afterwards no producer thread runs. Called by logback when the context stops or is reset (its
   * shutdown hook included), before it detaches the appender: until the producer closes, events
   * that still arrive are shipped; after, they are handed over to the new configuration's appender
   * of the same name (a stop by {@code reset()}: {@code HandOver}, bounded by the queue's size and
   * {@code stopTimeoutMillis}) or counted as dropped. The appender reads as started until the
   * producer closed. Never throws.
   */
  @Override
  public void stop() {
    ExitHook hook = exitHook;
    exitHook = null;
    if (hook != null) {
      hook.remove();
    }
    EventPipeline p = pipeline; // the producer is kept after stop for its counts
    if (p != null && isStarted()) {
      HandOver handOver = null;
      try {
        handOver = handOverFor(p);
      } catch (RuntimeException e) { // a context whose object map or listeners fail
        addWarn("logproducer appender '" + getName() + "': no hand-over at its stop: " + e);
      }
      try {
        p.stop();
      } catch (RuntimeException e) {
        addError("logproducer appender '" + getName() + "': failed to stop the producer", e);
      } finally {
        if (handOver != null) {
          handOver.stopEnded();
        }
      }
    }
    super.stop();
  }

  /**
   * For a stop by logback's {@code reset()} (a reconfiguration, or the context's stop, which resets
   * it first): the hand-over that passes the events still reaching this appender to the appender of
   * the same name the new configuration starts ({@link HandOver}); registered before the gate
   * shuts. None for a stop by hand or at JVM exit.
   */
  private HandOver handOverFor(EventPipeline p) {
    Context c = getContext();
    AppenderProducer ap = appenderProducer;
    if (stoppingAtExit || !(c instanceof LoggerContext) || ap == null || !HandOver.inReset()) {
      return null;
    }
    HandOver h =
        new HandOver(
            String.valueOf(getName()),
            ap,
            p.budget(),
            p.handOverCapacity(),
            p.captureCode(),
            stopTimeoutMillis,
            this::addWarn,
            (LoggerContext) c);
    h.register();
    p.handOverTo(h);
    return h;
  }

  /** The exit hook's stop: nothing is handed over (no configuration follows). */
  private void stopAtExit() {
    stoppingAtExit = true;
    stop();
  }

  /**
   * Takes an event that reached the appender of the same name a reconfiguration stopped (its {@link
   * HandOver}): through this appender's filters and pipeline, as the thread {@code threadId} logged
   * it. Never throws.
   *
   * @param event the event, prepared for another thread
   * @param threadId the id of the thread that logged it, or -1 if unknown
   */
  void takeHandedOver(ILoggingEvent event, long threadId) {
    try {
      if (getFilterChainDecision(event) == FilterReply.DENY) {
        return;
      }
      EventPipeline p = pipeline;
      if (p != null) {
        p.appendHandedOver(event, threadId);
      }
    } catch (Throwable t) { // an Error included: nothing reaches the logging call
      AppenderProducer ap = appenderProducer;
      if (ap != null) {
        ap.countDropped("appending the event failed: " + t);
      }
    }
  }

  /**
   * What logback's {@code UnsynchronizedAppenderBase.doAppend} does (the per-thread re-entrancy
   * guard, the filter chain, a status message instead of an exception), except for a stopped
   * appender: an event that reaches it after {@link #stop()} closed the producer is counted as
   * dropped, not discarded uncounted. An appender that never started reports events as logback does
   * ("Attempted to append to non started appender"). Catches every {@link Throwable}: nothing
   * reaches the logging call.
   *
   * @param event the event
   */
  @Override
  public void doAppend(ILoggingEvent event) {
    boolean[] inside = appending.get();
    if (inside[0]) {
      return;
    }
    inside[0] = true;
    try {
      EventPipeline p = pipeline;
      if (p == null) {
        if (notStartedReports.getAndIncrement() < MAX_APPEND_REPORTS) {
          addWarn("Attempted to append to non started appender [" + getName() + "].");
        }
        return;
      }
      if (getFilterChainDecision(event) == FilterReply.DENY) {
        return;
      }
      append(event);
    } catch (Throwable t) { // an Error included: nothing reaches the logging call
      AppenderProducer ap = appenderProducer;
      if (ap != null) {
        ap.countDropped("appending the event failed: " + t);
      }
      if (failureReports.getAndIncrement() < MAX_APPEND_REPORTS) {
        addError("Appender [" + getName() + "] failed to append.", t);
      }
    } finally {
      inside[0] = false;
    }
  }

  @Override
  protected void append(ILoggingEvent event) {
    EventPipeline p = pipeline;
    if (p != null && event != null) {
      p.append(event);
    }
  }
}
