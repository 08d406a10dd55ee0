package io.logproducer.spring.boot.autoconfigure;

import io.logproducer.Producer;
import io.logproducer.appender.MappingSettings;
import io.logproducer.log4j2.LogproducerAppender;
import java.beans.PropertyChangeEvent;
import java.beans.PropertyChangeListener;
import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;

/**
 * Log4j2: the starter's {@link LogproducerAppender} on the root logger of the current
 * configuration. A reconfiguration replaces the configuration (and stops its appenders); a listener
 * on the context's {@code config} property adds a fresh appender, on the same producer, to the new
 * one.
 */
final class Log4j2Backend implements LoggingBackend {

  private final LoggerContext context;
  private Producer producer;
  private MappingSettings mapping;
  private long reportIntervalMillis;
  private int queueSize;
  private volatile LogproducerAppender installed;
  private Configuration attachedTo; // guarded by this
  private PropertyChangeListener listener;
  // Every appender installed on the producer (reconfigurations replace them): their counts get
  // the outcomes of the records they sent, the failures of the producer's close included.
  private final List<LogproducerAppender> attached = new ArrayList<>(); // guarded by this

  private Log4j2Backend(LoggerContext context) {
    this.context = context;
  }

  /**
   * {@return the backend if log4j2's API is bound to log4j-core, else null}; call only with
   * log4j-core and producer-log4j2 on the class path ({@link LoggingBackends})
   */
  static Log4j2Backend detect() {
    Object ctx = LogManager.getContext(false);
    return ctx instanceof LoggerContext ? new Log4j2Backend((LoggerContext) ctx) : null;
  }

  @Override
  public Producer existingProducer() {
    for (Appender a : context.getConfiguration().getAppenders().values()) {
      if (a instanceof LogproducerAppender && a.isStarted()) {
        Producer p = ((LogproducerAppender) a).getProducer();
        if (p != null && !p.isClosed()) {
          return p;
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
    this.reportIntervalMillis = reportIntervalMillis;
    this.queueSize = queueSize;
    attach(context.getConfiguration());
    listener = this::onChange;
    context.addPropertyChangeListener(listener);
  }

  private void onChange(PropertyChangeEvent event) {
    if (!LoggerContext.PROPERTY_CONFIG.equals(event.getPropertyName())
        || !(event.getNewValue() instanceof Configuration)) {
      return;
    }
    synchronized (this) {
      // updateLoggers() fires this event too, for the same configuration: only a new one counts.
      if (installed != null && !producer.isClosed() && event.getNewValue() != attachedTo) {
        attach((Configuration) event.getNewValue());
      }
    }
  }

  private synchronized void attach(Configuration config) {
    LogproducerAppender appender =
        LogproducerAppender.create(
            StarterSettings.APPENDER_NAME,
            mapping,
            producer,
            queueSize,
            reportIntervalMillis,
            config);
    appender.start();
    if (!appender.isStarted()) {
      throw new IllegalStateException(
          "the logproducer log4j2 appender did not start; see log4j2's status messages");
    }
    config.addAppender(appender);
    config.getRootLogger().addAppender(appender, null, null);
    attachedTo = config;
    installed = appender;
    attached.add(appender);
    context.updateLoggers();
  }

  @Override
  public synchronized void uninstall() {
    if (listener != null) {
      context.removePropertyChangeListener(listener);
      listener = null;
    }
    LogproducerAppender appender = installed;
    Configuration config = attachedTo;
    installed = null;
    attachedTo = null;
    if (appender != null && config != null) {
      config.getRootLogger().removeAppender(StarterSettings.APPENDER_NAME);
      // Out of the configuration's own map too: it would keep the appender (and its producer).
      config.getAppenders().remove(StarterSettings.APPENDER_NAME, appender);
      context.updateLoggers();
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
}
