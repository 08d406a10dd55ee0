package io.logproducer.spring.boot.autoconfigure;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggerContextListener;
import ch.qos.logback.core.Appender;
import io.logproducer.Producer;
import io.logproducer.appender.MappingSettings;
import io.logproducer.logback.LogproducerAppender;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * Logback: the starter's {@link LogproducerAppender} on the root logger. A reset of the logger
 * context (logback's {@code scan} reconfiguration, a JMX reload) detaches and stops every appender;
 * a reset-resistant {@link LoggerContextListener} attaches a fresh one right after, on the same
 * producer, so the reconfigured context keeps shipping.
 */
final class LogbackBackend implements LoggingBackend {

  private final LoggerContext context;
  private Producer producer;
  private MappingSettings mapping;
  private int queueSize;
  private long reportIntervalMillis;
  private volatile LogproducerAppender installed; // guarded by this for writes
  private ResetListener listener;
  // Every appender installed on the producer (reconfigurations replace them): their counts get
  // the outcomes of the records they sent, the failures of the producer's close included.
  private final List<LogproducerAppender> attached = new ArrayList<>(); // guarded by this

  private LogbackBackend(LoggerContext context) {
    this.context = context;
  }

  /**
   * {@return the backend if slf4j is bound to logback, else null}; call only with logback and
   * producer-logback on the class path ({@link LoggingBackends})
   */
  static LogbackBackend detect() {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    return factory instanceof LoggerContext ? new LogbackBackend((LoggerContext) factory) : null;
  }

  @Override
  public Producer existingProducer() {
    for (Logger logger : context.getLoggerList()) {
      for (Iterator<Appender<ILoggingEvent>> it = logger.iteratorForAppenders(); it.hasNext(); ) {
        Appender<ILoggingEvent> a = it.next();
        if (a instanceof LogproducerAppender && a.isStarted()) {
          Producer p = ((LogproducerAppender) a).getProducer();
          if (p != null && !p.isClosed()) {
            return p;
          }
        }
      }
    }
    return null;
  }

  @Override
  public synchronized void install(
      Producer producer, MappingSettings mapping, int queueSize, long reportIntervalMillis) {
    this.producer = producer;
    this.mapping = mapping;
    this.queueSize = queueSize;
    this.reportIntervalMillis = reportIntervalMillis;
    attach();
    listener = new ResetListener();
    context.addListener(listener);
  }

  private synchronized void attach() {
    LogproducerAppender appender = new LogproducerAppender();
    appender.setContext(context);
    appender.setName(StarterSettings.APPENDER_NAME);
    appender.setMapping(mapping);
    appender.setQueueSize(queueSize);
    appender.setReportIntervalMillis(reportIntervalMillis);
    appender.useProducer(producer);
    appender.start();
    if (!appender.isStarted()) {
      throw new IllegalStateException(
          "the logproducer logback appender did not start; see logback's status messages");
    }
    context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
    installed = appender;
    attached.add(appender);
  }

  @Override
  public synchronized void uninstall() {
    if (listener != null) {
      context.removeListener(listener);
      listener = null;
    }
    LogproducerAppender appender = installed;
    installed = null;
    if (appender != null) {
      context.getLogger(Logger.ROOT_LOGGER_NAME).detachAppender(appender);
      appender.stop();
    }
  }

  @Override
  public synchronized void reportLosses() {
    for (LogproducerAppender appender : attached) {
      appender.reportLosses();
    }
    attached.clear();
  }

  /** Re-attaches the appender after a reset, while installed. */
  private final class ResetListener implements LoggerContextListener {

    @Override
    public boolean isResetResistant() {
      return true;
    }

    @Override
    public void onStart(LoggerContext ctx) {}

    @Override
    public void onReset(LoggerContext ctx) {
      synchronized (LogbackBackend.this) {
        if (installed != null && !producer.isClosed()) {
          attach();
        }
      }
    }

    @Override
    public void onStop(LoggerContext ctx) {}

    @Override
    public void onLevelChange(Logger logger, Level level) {}
  }
}
