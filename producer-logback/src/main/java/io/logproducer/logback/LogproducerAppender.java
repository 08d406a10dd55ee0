package io.logproducer.logback;

import ch.qos.logback.classic.AsyncAppender;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.Context;
import ch.qos.logback.core.Layout;
import ch.qos.logback.core.UnsynchronizedAppenderBase;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusListener;
import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.Severity;
import io.logproducer.appender.AppenderProducer;
import io.logproducer.appender.ExceptionText;
import io.logproducer.appender.GseSettings;
import io.logproducer.appender.KafkaSettings;
import io.logproducer.appender.HandOff;
import io.logproducer.appender.KeyFilter;
import io.logproducer.appender.MappingSettings;
import io.logproducer.appender.OtlpSettings;
import io.logproducer.appender.ProducerSettings;
import io.logproducer.appender.SemanticAttributes;
import io.logproducer.appender.TraceContext;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.slf4j.Marker;
import org.slf4j.event.KeyValuePair;

/**
 * A logback appender that ships every event through a logproducer {@link Producer}, over OTLP/HTTP or to a BlueKing
 * GSE agent, mapped as OpenTelemetry's logback appender maps events to its log data model.
 *
 * <p>Configured from logback's XML with nested elements: {@code <otlp>} ({@link OtlpSettings}), {@code <gse>}
 * ({@link GseSettings}) or {@code <kafka>} ({@link KafkaSettings}) for the exporter (none: OTLP from the
 * {@code OTEL_EXPORTER_OTLP_*} environment variables),
 * {@code <producer>} ({@link ProducerSettings}, appender default {@code bufferFullPolicy=DROP}), {@code <mapping>}
 * ({@link MappingSettings}), {@code <stopTimeoutMillis>}, {@code <reportIntervalMillis>}, and an optional
 * {@code <encoder>} or {@code <layout>} whose output is the body when {@code mapping.useLayout} is set.
 *
 * <p>It never hurts the application: no appender-wide lock on the logging path, never blocking under {@code DROP}
 * (the default), never throwing, no recursion (events of the producer's own threads and of the
 * {@code io.logproducer} loggers, or logged while this thread is inside the appender, are ignored), drops reported
 * through logback's status channel at most once per {@code reportIntervalMillis}, and a bounded {@link #stop()}
 * after which no producer thread runs. A setting with an invalid value is reported through the status channel with
 * its name, and the appender does not start.
 */
public class LogproducerAppender extends UnsynchronizedAppenderBase<ILoggingEvent> {

  /** The {@code InstrumentationScope} name of records whose logger name is not used as scope. */
  public static final String SCOPE_NAME = "io.logproducer.logback";

  /** MDC key or key-value pair that becomes the record's event name, not an attribute (as OpenTelemetry does). */
  static final String EVENT_NAME = "otel.event.name";

  private OtlpSettings otlp;
  private GseSettings gse;
  private KafkaSettings kafka;
  private ProducerSettings producerSettings = new ProducerSettings();
  private MappingSettings mapping = new MappingSettings();
  private long stopTimeoutMillis = 10_000;
  private long reportIntervalMillis = 10_000;
  private Encoder<ILoggingEvent> encoder;
  private Layout<ILoggingEvent> layout;

  private final List<String> settingErrors = new CopyOnWriteArrayList<String>();
  private volatile StatusListener settingErrorListener;
  private volatile AppenderProducer appenderProducer;
  private int queueSize;
  private volatile HandOff<ILoggingEvent> handOff;
  private volatile String queueFullCause;
  private volatile boolean callerDataEnsured;
  private volatile boolean mdcUnavailable;

  // Read on the logging path; written once at start.
  private KeyFilter mdcFilter = KeyFilter.ALL;
  private boolean captureKeyValues;
  private boolean captureMarkers;
  private boolean captureThread;
  private boolean captureCode;
  private boolean useLayout;
  private boolean scopeFromLogger;
  private int exceptionMaxFrames;

  /** Creates an appender with the defaults; logback's configurator calls the setters, then {@link #start()}. */
  public LogproducerAppender() {
  }

  /**
   * Sets the logback context; also starts watching its status channel for settings that logback's configurator
   * could not set on this appender, so that {@link #start()} can refuse to start with them.
   *
   * @param context the logger context
   */
  @Override
  public void setContext(Context context) {
    super.setContext(context);
    if (context != null && settingErrorListener == null && !isStarted()) {
      StatusListener listener = new SettingErrorListener();
      settingErrorListener = listener;
      context.getStatusManager().add(listener);
    }
  }

  /**
   * The OTLP/HTTP exporter ({@code <otlp>}); leave unset for OTLP from the environment.
   *
   * @param otlp the exporter settings
   */
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
   * The Apache Kafka exporter ({@code <kafka>}) instead of OTLP; needs {@code io.logproducer:producer-kafka} on the
   * class path.
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
   * Events waiting for the appender's own worker thread, which maps and sends them: 0 (the default) maps and encodes
   * on the logging thread; a positive size moves that work off it (about half the cost on the logging thread, see
   * docs/PERFORMANCE.md), as logback's {@code AsyncAppender} would, except that a full queue is counted and reported
   * like the appender's other drops. Events in the queue are held outside {@code totalSizeInBytes}; {@code thread.id}
   * is not captured then (logback records none).
   *
   * @param queueSize 0, or in [1, 1048576] (rounded up to a power of two)
   */
  public void setQueueSize(int queueSize) {
    this.queueSize = queueSize;
  }

  /**
   * The encoder whose output is the body when {@code mapping.useLayout} is set (a trailing line separator is
   * removed).
   *
   * @param encoder the encoder
   */
  public void setEncoder(Encoder<ILoggingEvent> encoder) {
    this.encoder = encoder;
  }

  /**
   * The layout whose output is the body when {@code mapping.useLayout} is set (a trailing line separator is removed).
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
   * Events accepted by the producer but not delivered (failed, rejected, failed at stop).
   *
   * @return the count; 0 before start; kept after stop
   */
  public long failedCount() {
    AppenderProducer ap = appenderProducer;
    return ap == null ? 0 : ap.failedCount();
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
   * Starts the producer, unless a setting is invalid: then the error, naming the setting, goes to logback's status
   * channel and the appender stays stopped. Never throws.
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
    mdcFilter = mapping.mdcFilter();
    captureKeyValues = mapping.captureKeyValues();
    captureMarkers = mapping.captureMarkers();
    captureThread = mapping.captureThread();
    captureCode = mapping.captureCode();
    useLayout = mapping.useLayout();
    scopeFromLogger = mapping.scopeFromLogger();
    exceptionMaxFrames = mapping.exceptionMaxFrames();
    AppenderProducer ap;
    try {
      ap = new AppenderProducer(String.valueOf(getName()), stopTimeoutMillis, reportIntervalMillis, this::addWarn);
      ap.start(producerSettings, otlp, gse, kafka, SCOPE_NAME, mapping.scopeFromLogger());
    } catch (RuntimeException | LinkageError e) {
      addError(prefix + e.getMessage(), e);
      return;
    }
    if (queueSize != 0) {
      try {
        handOff = new HandOff<ILoggingEvent>(ap.producer().getConfig().getClientId() + "-handoff", queueSize,
            event -> sendNow(ap, event));
        queueFullCause = "the appender's queue was full (queueSize " + handOff.capacity() + ")";
      } catch (RuntimeException e) {
        ap.stop(0);
        addError(prefix + e.getMessage(), e);
        return;
      }
    } else {
      handOff = null;
    }
    appenderProducer = ap;
    callerDataEnsured = false;
    super.start();
  }

  /**
   * Ships what is buffered and closes the producer within {@code stopTimeoutMillis} (+ 1 s); afterwards no producer
   * thread runs. Called by logback when the context stops or is reset (its shutdown hook included). Never throws.
   */
  @Override
  public void stop() {
    super.stop();
    AppenderProducer ap = appenderProducer; // kept after stop for its counts
    if (ap != null) {
      try {
        long timeout = ap.stopTimeoutMillis();
        HandOff<ILoggingEvent> h = handOff;
        if (h != null) {
          long start = System.nanoTime();
          for (long lost = h.stop(timeout); lost > 0; lost--) {
            ap.countDropped("the appender stopped before its queue drained (stopTimeoutMillis)");
          }
          timeout -= TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        }
        ap.stop(timeout);
      } catch (RuntimeException e) {
        addError("logproducer appender '" + getName() + "': failed to stop the producer", e);
      }
    }
  }

  @Override
  protected void append(ILoggingEvent event) {
    AppenderProducer ap = appenderProducer;
    if (ap == null || event == null) {
      return;
    }
    HandOff<ILoggingEvent> h = handOff;
    if (h != null) {
      // Only a hand-off here: nothing below can log back into the producer on this thread (the nesting guard is
      // for the synchronous path, which maps and sends; logback's own guard stops a nested append anyway).
      if (!ap.admits(event.getLoggerName())) {
        return;
      }
      if (h.looksFull()) { // dropped anyway: spend no more of the logging thread on it (no formatting, no MDC copy)
        ap.countDropped(queueFullCause);
        return;
      }
      if (captureCode) {
        event.getCallerData(); // computed here, on the logging thread: the worker's stack is not the caller's
      }
      event.prepareForDeferredProcessing(); // formats the message, copies the MDC: readable on the worker
      if (!h.offer(event)) {
        ap.countDropped(queueFullCause);
      }
      return;
    }
    if (!ap.enter(event.getLoggerName())) {
      return;
    }
    try {
      sendNow(ap, event);
    } finally {
      ap.exit();
    }
  }

  private void sendNow(AppenderProducer ap, ILoggingEvent event) {
    LogRecord record;
    try {
      record = toRecord(event);
    } catch (RuntimeException e) {
      ap.countDropped("mapping the event failed: " + e);
      return;
    }
    ap.send(record);
  }

  private LogRecord toRecord(ILoggingEvent event) {
    LogRecord.Builder b = LogRecord.builder();
    Instant instant = event.getInstant();
    if (instant != null) {
      b.setTimestamp(instant);
    } else {
      b.setTimestamp(event.getTimeStamp(), TimeUnit.MILLISECONDS);
    }
    Level level = event.getLevel();
    if (level != null) {
      b.setSeverityNumber(severity(level).number());
      b.setSeverityText(level.levelStr);
    }
    String body = useLayout ? layoutBody(event) : event.getFormattedMessage();
    if (body != null) {
      b.setBody(body);
    }
    if (scopeFromLogger) {
      b.setInstrumentationScopeName(event.getLoggerName());
    }
    String threadName = event.getThreadName();
    if (captureThread && threadName != null) {
      b.setAttribute(SemanticAttributes.THREAD_NAME, threadName);
      Thread current = Thread.currentThread();
      // logback records no thread id: the current thread's is right only when appending on the logging thread.
      if (threadName.equals(current.getName())) {
        b.setAttribute(SemanticAttributes.THREAD_ID, current.getId());
      }
    }
    if (!mdcUnavailable) {
      Map<String, String> mdc;
      try {
        mdc = event.getMDCPropertyMap();
      } catch (RuntimeException e) {
        // A LoggerContext made by hand without an MDC adapter: the event without its MDC, not no event (once).
        mdcUnavailable = true;
        addWarn("logproducer appender '" + getName() + "': the logger context gives no MDC (" + e
            + "); events are sent without MDC attributes");
        mdc = null;
      }
      addMdc(b, mdc);
    }
    if (captureMarkers) {
      addMarkers(b, event.getMarkerList());
    }
    if (captureKeyValues) {
      addKeyValues(b, event.getKeyValuePairs());
    }
    addThrowable(b, event.getThrowableProxy());
    if (captureCode) {
      addCode(b, event, threadName != null && threadName.equals(Thread.currentThread().getName()));
    }
    return b.build();
  }

  /** Level to severity as OpenTelemetry's logback appender maps it. */
  static Severity severity(Level level) {
    switch (level.levelInt) {
      case Level.ALL_INT:
      case Level.TRACE_INT:
        return Severity.TRACE;
      case Level.DEBUG_INT:
        return Severity.DEBUG;
      case Level.INFO_INT:
        return Severity.INFO;
      case Level.WARN_INT:
        return Severity.WARN;
      case Level.ERROR_INT:
        return Severity.ERROR;
      default:
        return Severity.UNSPECIFIED;
    }
  }

  private String layoutBody(ILoggingEvent event) {
    String text;
    if (layout != null) {
      text = layout.doLayout(event);
    } else if (encoder instanceof LayoutWrappingEncoder
        && ((LayoutWrappingEncoder<ILoggingEvent>) encoder).getLayout() != null) {
      text = ((LayoutWrappingEncoder<ILoggingEvent>) encoder).getLayout().doLayout(event);
    } else {
      byte[] bytes = encoder.encode(event);
      Charset charset = encoder instanceof LayoutWrappingEncoder
          && ((LayoutWrappingEncoder<ILoggingEvent>) encoder).getCharset() != null
          ? ((LayoutWrappingEncoder<ILoggingEvent>) encoder).getCharset() : StandardCharsets.UTF_8;
      text = bytes == null ? null : new String(bytes, charset);
    }
    if (text == null) {
      return null;
    }
    int end = text.length();
    while (end > 0 && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
      end--;
    }
    return end == text.length() ? text : text.substring(0, end);
  }

  private void addMdc(LogRecord.Builder b, Map<String, String> mdc) {
    if (mdc == null || mdc.isEmpty()) {
      return;
    }
    boolean traced = TraceContext.apply(b, mdc.get(SemanticAttributes.MDC_TRACE_ID),
        mdc.get(SemanticAttributes.MDC_SPAN_ID), mdc.get(SemanticAttributes.MDC_TRACE_FLAGS));
    String eventName = mdc.get(EVENT_NAME);
    if (eventName != null) {
      b.setEventName(eventName);
    }
    if (mdcFilter.acceptsNone()) {
      return;
    }
    for (Map.Entry<String, String> e : mdc.entrySet()) {
      String key = e.getKey();
      if (key == null || e.getValue() == null || key.equals(EVENT_NAME) || !mdcFilter.accepts(key)) {
        continue;
      }
      if (traced && (key.equals(SemanticAttributes.MDC_TRACE_ID) || key.equals(SemanticAttributes.MDC_SPAN_ID)
          || key.equals(SemanticAttributes.MDC_TRACE_FLAGS))) {
        continue;
      }
      b.setAttribute(key, e.getValue());
    }
  }

  private static void addMarkers(LogRecord.Builder b, List<Marker> markers) {
    if (markers == null || markers.isEmpty()) {
      return;
    }
    List<AnyValue> names = new ArrayList<AnyValue>(markers.size());
    for (Marker m : markers) {
      if (m != null) {
        names.add(AnyValue.of(m.getName()));
      }
    }
    if (!names.isEmpty()) {
      b.setAttribute(SemanticAttributes.LOGBACK_MARKER, AnyValue.ofArray(names));
    }
  }

  private static void addKeyValues(LogRecord.Builder b, List<KeyValuePair> pairs) {
    if (pairs == null) {
      return;
    }
    for (KeyValuePair kv : pairs) {
      if (kv == null || kv.key == null || kv.value == null) {
        continue;
      }
      Object v = kv.value;
      if (kv.key.equals(EVENT_NAME)) {
        b.setEventName(String.valueOf(v)); // after the MDC's: a key-value pair wins, as in OpenTelemetry's appender
        continue;
      }
      if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
        b.setAttribute(kv.key, ((Number) v).longValue());
      } else if (v instanceof Double || v instanceof Float) {
        b.setAttribute(kv.key, ((Number) v).doubleValue());
      } else if (v instanceof Boolean) {
        b.setAttribute(kv.key, ((Boolean) v).booleanValue());
      } else if (v instanceof byte[]) {
        b.setAttribute(kv.key, (byte[]) v);
      } else {
        b.setAttribute(kv.key, String.valueOf(v));
      }
    }
  }

  private void addThrowable(LogRecord.Builder b, IThrowableProxy proxy) {
    if (proxy == null) {
      return;
    }
    if (proxy instanceof ThrowableProxy && ((ThrowableProxy) proxy).getThrowable() != null) {
      ExceptionText.addTo(b, ((ThrowableProxy) proxy).getThrowable(), exceptionMaxFrames);
      return;
    }
    // A proxy without its Throwable (an event deserialized from elsewhere): what the proxy kept.
    if (proxy.getClassName() != null) {
      b.setAttribute(SemanticAttributes.EXCEPTION_TYPE, proxy.getClassName());
    }
    if (proxy.getMessage() != null) {
      b.setAttribute(SemanticAttributes.EXCEPTION_MESSAGE, proxy.getMessage());
    }
    if (exceptionMaxFrames != 0) {
      b.setAttribute(SemanticAttributes.EXCEPTION_STACKTRACE, ThrowableProxyUtil.asString(proxy));
    }
  }

  private void addCode(LogRecord.Builder b, ILoggingEvent event, boolean onLoggingThread) {
    StackTraceElement[] callerData;
    if (onLoggingThread || event.hasCallerData()) {
      callerData = event.getCallerData(); // computed here, on the logging thread, when not yet
    } else {
      // Deferred (AsyncAppender without includeCallerData): the stack here is not the caller's.
      ensureCallerDataOnLoggingThread();
      return;
    }
    if (callerData == null || callerData.length == 0 || callerData[0] == null) {
      return;
    }
    StackTraceElement caller = callerData[0];
    b.setAttribute(SemanticAttributes.CODE_FUNCTION_NAME, caller.getClassName() + "." + caller.getMethodName());
    if (caller.getFileName() != null) {
      b.setAttribute(SemanticAttributes.CODE_FILE_PATH, caller.getFileName());
    }
    if (caller.getLineNumber() > 0) {
      b.setAttribute(SemanticAttributes.CODE_LINE_NUMBER, (long) caller.getLineNumber());
    }
  }

  /**
   * With {@code captureCode}, an {@code AsyncAppender} that wraps this appender must compute caller data on the
   * logging thread: turns its {@code includeCallerData} on (once; events already queued go without {@code code.*}).
   */
  private void ensureCallerDataOnLoggingThread() {
    if (callerDataEnsured) {
      return;
    }
    callerDataEnsured = true;
    Context ctx = getContext();
    if (!(ctx instanceof LoggerContext)) {
      return;
    }
    for (ch.qos.logback.classic.Logger logger : ((LoggerContext) ctx).getLoggerList()) {
      for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext(); ) {
        Appender<ILoggingEvent> a = it.next();
        if (a instanceof AsyncAppender && ((AsyncAppender) a).isAttached(this)) {
          AsyncAppender async = (AsyncAppender) a;
          if (!async.isIncludeCallerData()) {
            async.setIncludeCallerData(true);
            addInfo("mapping.captureCode is set: turned on includeCallerData of AsyncAppender '" + async.getName()
                + "', which wraps logproducer appender '" + getName() + "'");
          }
        }
      }
    }
  }

  /** Collects the configurator's failures to set a property of this appender or of its nested settings. */
  private final class SettingErrorListener implements StatusListener {
    @Override
    public void addStatusEvent(Status status) {
      if (status == null || status.getLevel() < Status.WARN || status.getMessage() == null) {
        return;
      }
      String m = status.getMessage();
      // Values that could not be set, and names of ours that do not exist (logback only warns: a misspelled
      // <endpoint> would silently send elsewhere).
      if (m.startsWith("Failed to set property") || m.startsWith("No setter for property")
          || m.startsWith("Could not find an appropriate class for property")
          || (m.startsWith("Ignoring unknown property") && m.contains(" in [io.logproducer."))) {
        Throwable root = status.getThrowable();
        String cause = null;
        while (root != null) {
          if (root.getMessage() != null && !(root instanceof java.lang.reflect.InvocationTargetException)) {
            cause = root.getMessage();
          }
          root = root.getCause();
        }
        settingErrors.add(m.trim() + (cause != null ? " " + cause : ""));
      }
    }
  }

}
