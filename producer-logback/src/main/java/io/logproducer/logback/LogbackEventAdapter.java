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
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import io.logproducer.LogRecord;
import io.logproducer.Severity;
import io.logproducer.appender.EventAdapter;
import io.logproducer.appender.SemanticAttributes;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Reads a logback {@link ILoggingEvent} for the shared {@link io.logproducer.appender.EventMapper}.
 * logback records no thread id: the current thread's is given when the event is appended on the
 * thread that logged it. With {@code captureCode}, an {@link AsyncAppender} wrapping the appender
 * is made to compute caller data on the logging thread. Thread-safe.
 *
 * <p>Runs on logback 1.2 (with slf4j 1.7) as on 1.3 and later, with what 1.2 events have: time in
 * milliseconds ({@code getTimeStamp()}), no key-value pairs, one marker and its references ({@link
 * Logback12Markers}). Which line it runs on is decided once, at class initialization ({@link
 * #LOGBACK_13_EVENTS}); every call to an API 1.2 lacks is in {@link Logback13Events}, loaded only
 * on 1.3+.
 */
final class LogbackEventAdapter implements EventAdapter<ILoggingEvent> {

  /**
   * Whether logback's events have the 1.3+ fields ({@code getInstant()}, {@code getKeyValuePairs()}
   * with slf4j 2's {@code KeyValuePair}, {@code getMarkerList()}): false on logback 1.2.
   */
  static final boolean LOGBACK_13_EVENTS = hasLogback13Events(ILoggingEvent.class);

  private final LogproducerAppender appender;
  private final Layout<ILoggingEvent> layout;
  private final Encoder<ILoggingEvent> encoder;
  private volatile boolean mdcUnavailable;
  private volatile boolean callerDataEnsured;

  LogbackEventAdapter(
      LogproducerAppender appender, Layout<ILoggingEvent> layout, Encoder<ILoggingEvent> encoder) {
    this.appender = appender;
    this.layout = layout;
    this.encoder = encoder;
  }

  @Override
  public long timeUnixNano(ILoggingEvent event) {
    if (LOGBACK_13_EVENTS) {
      return Logback13Events.timeUnixNano(event);
    }
    return TimeUnit.MILLISECONDS.toNanos(event.getTimeStamp());
  }

  /**
   * Whether {@code eventType} (logback's {@code ILoggingEvent}) declares the 1.3+ methods, and
   * slf4j 2's {@code org.slf4j.event.KeyValuePair} is visible to its class loader.
   *
   * @param eventType the event interface as loaded
   * @return false on logback 1.2 (or when it cannot be told: the 1.2 path works on every line)
   */
  static boolean hasLogback13Events(Class<?> eventType) {
    try {
      eventType.getMethod("getInstant");
      eventType.getMethod("getKeyValuePairs");
      eventType.getMethod("getMarkerList");
      ClassLoader loader = eventType.getClassLoader();
      Class.forName(
          "org.slf4j.event.KeyValuePair",
          false,
          loader != null ? loader : LogbackEventAdapter.class.getClassLoader());
      return true;
    } catch (ReflectiveOperationException | LinkageError | SecurityException e) {
      return false;
    }
  }

  @Override
  public Severity severity(ILoggingEvent event) {
    Level level = event.getLevel();
    return level == null ? null : severity(level);
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

  @Override
  public String severityText(ILoggingEvent event) {
    Level level = event.getLevel();
    return level == null ? null : level.levelStr;
  }

  @Override
  public String loggerName(ILoggingEvent event) {
    return event.getLoggerName();
  }

  @Override
  public String message(ILoggingEvent event) {
    return event.getFormattedMessage();
  }

  @Override
  public String layout(ILoggingEvent event) {
    if (layout != null) {
      return layout.doLayout(event);
    }
    if (encoder == null) {
      throw new IllegalStateException(
          "mapping.useLayout is set but the appender has no <encoder> or <layout>");
    }
    if (encoder instanceof LayoutWrappingEncoder
        && ((LayoutWrappingEncoder<ILoggingEvent>) encoder).getLayout() != null) {
      return ((LayoutWrappingEncoder<ILoggingEvent>) encoder).getLayout().doLayout(event);
    }
    byte[] bytes = encoder.encode(event);
    Charset charset =
        encoder instanceof LayoutWrappingEncoder
                && ((LayoutWrappingEncoder<ILoggingEvent>) encoder).getCharset() != null
            ? ((LayoutWrappingEncoder<ILoggingEvent>) encoder).getCharset()
            : StandardCharsets.UTF_8;
    return bytes == null ? null : new String(bytes, charset);
  }

  @Override
  public String threadName(ILoggingEvent event) {
    return event.getThreadName();
  }

  @Override
  public long threadId(ILoggingEvent event) {
    return onLoggingThread(event) ? Thread.currentThread().getId() : -1;
  }

  private static boolean onLoggingThread(ILoggingEvent event) {
    String name = event.getThreadName();
    return name != null && name.equals(Thread.currentThread().getName());
  }

  private Map<String, String> mdc(ILoggingEvent event) {
    if (mdcUnavailable) {
      return null;
    }
    try {
      return event.getMDCPropertyMap();
    } catch (RuntimeException e) {
      // A LoggerContext made by hand without an MDC adapter: the event without its MDC, not no
      // event (once).
      mdcUnavailable = true;
      appender.addWarn(
          "logproducer appender '"
              + appender.getName()
              + "': the logger context gives no MDC ("
              + e
              + "); events are sent without MDC attributes");
      return null;
    }
  }

  @Override
  public String contextValue(ILoggingEvent event, String key) {
    Map<String, String> mdc = mdc(event);
    return mdc == null ? null : mdc.get(key);
  }

  @Override
  public void forEachContext(ILoggingEvent event, EntryVisitor visitor, LogRecord.Builder builder) {
    Map<String, String> mdc = mdc(event);
    if (mdc == null) {
      return;
    }
    for (Map.Entry<String, String> e : mdc.entrySet()) {
      if (e.getKey() != null && e.getValue() != null) {
        visitor.visit(e.getKey(), e.getValue(), builder);
      }
    }
  }

  @Override
  public Object keyValue(ILoggingEvent event, String key) {
    return LOGBACK_13_EVENTS ? Logback13Events.keyValue(event, key) : null; // 1.2: no pairs
  }

  @Override
  public void forEachKeyValue(
      ILoggingEvent event,
      boolean bodyFromLayout,
      EntryVisitor visitor,
      LogRecord.Builder builder) {
    if (LOGBACK_13_EVENTS) { // 1.2: no pairs
      Logback13Events.forEachKeyValue(event, visitor, builder);
    }
  }

  @Override
  public String markerKey() {
    return SemanticAttributes.LOGBACK_MARKER;
  }

  @Override
  public boolean markersAsArray() {
    return true;
  }

  @Override
  public List<String> markerNames(ILoggingEvent event) {
    return LOGBACK_13_EVENTS
        ? Logback13Events.markerNames(event)
        : Logback12Markers.markerNames(event);
  }

  @Override
  public Throwable thrown(ILoggingEvent event) {
    IThrowableProxy proxy = event.getThrowableProxy();
    return proxy instanceof ThrowableProxy ? ((ThrowableProxy) proxy).getThrowable() : null;
  }

  @Override
  public String[] thrownText(ILoggingEvent event) {
    IThrowableProxy proxy = event.getThrowableProxy();
    if (proxy == null) {
      return null;
    }
    // A proxy without its Throwable (an event deserialized from elsewhere): what the proxy kept.
    return new String[] {
      proxy.getClassName(), proxy.getMessage(), ThrowableProxyUtil.asString(proxy)
    };
  }

  @Override
  public StackTraceElement caller(ILoggingEvent event) {
    if (!onLoggingThread(event) && !event.hasCallerData()) {
      // Deferred (AsyncAppender without includeCallerData): the stack here is not the caller's.
      ensureCallerDataOnLoggingThread();
      return null;
    }
    StackTraceElement[] callerData =
        event.getCallerData(); // computed here, on the logging thread, when not yet
    return callerData == null || callerData.length == 0 ? null : callerData[0];
  }

  /**
   * With {@code captureCode}, an {@code AsyncAppender} that wraps the appender must compute caller
   * data on the logging thread: turns its {@code includeCallerData} on (once; events already queued
   * go without {@code code.*}).
   */
  private void ensureCallerDataOnLoggingThread() {
    if (callerDataEnsured) {
      return;
    }
    callerDataEnsured = true;
    Context ctx = appender.getContext();
    if (!(ctx instanceof LoggerContext)) {
      return;
    }
    for (ch.qos.logback.classic.Logger logger : ((LoggerContext) ctx).getLoggerList()) {
      for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext(); ) {
        Appender<ILoggingEvent> a = it.next();
        if (a instanceof AsyncAppender && ((AsyncAppender) a).isAttached(appender)) {
          AsyncAppender async = (AsyncAppender) a;
          if (!async.isIncludeCallerData()) {
            async.setIncludeCallerData(true);
            appender.addInfo(
                "mapping.captureCode is set: turned on includeCallerData of AsyncAppender '"
                    + async.getName()
                    + "', which wraps logproducer appender '"
                    + appender.getName()
                    + "'");
          }
        }
      }
    }
  }
}
