package io.logproducer.spring.boot.autoconfigure;

import io.logproducer.Producer;
import io.logproducer.appender.MappingSettings;
import org.apache.commons.logging.LogFactory;

/**
 * What the starter runs for one application: the producer, and the appender installed in the
 * logging system. Created when the environment is ready (right after Spring Boot initialised the
 * logging system, before the application's first log line), registered in the application context,
 * and closed when that context is destroyed: last of all its beans, so that what the application
 * logs while it shuts down is shipped too.
 *
 * <p>Three ways it can come to be:
 *
 * <ul>
 *   <li><b>owned</b>: the starter built the producer and installed its appender;
 *   <li><b>declared</b>: the logging configuration (a user's {@code logback-spring.xml}) declares a
 *       logproducer appender already; the starter adds none, and shares that appender's producer
 *       (which the logging system owns and closes);
 *   <li>the same when a parent context's starter installed it: one producer per logging system.
 * </ul>
 *
 * <p>Thread-safe: {@link #close} may race a second close; the first wins.
 */
final class LogproducerRuntime {

  private final Producer producer;
  private final boolean owned;
  private final LoggingBackend backend; // null: not installed by this runtime
  private final String receiver;
  private final HealthProperties health;
  private final BundleSslContext bundleSslContext; // null without logproducer.otlp.ssl.bundle
  private boolean closed; // guarded by this

  private LogproducerRuntime(
      Producer producer,
      boolean owned,
      LoggingBackend backend,
      String receiver,
      HealthProperties health,
      BundleSslContext bundleSslContext) {
    this.bundleSslContext = bundleSslContext;
    this.producer = producer;
    this.owned = owned;
    this.backend = backend;
    this.receiver = receiver;
    this.health = health;
  }

  /**
   * Starts the producer and installs the appender, or shares the producer of an appender the
   * logging configuration already has.
   *
   * @param settings the {@code logproducer.*} properties (enabled)
   * @param classLoader the application's class loader
   * @return the runtime
   * @throws InvalidPropertyException if a property is invalid (the producer is not started)
   */
  static LogproducerRuntime start(StarterSettings settings, ClassLoader classLoader) {
    LogproducerProperties properties = settings.properties();
    settings.validate(); // every property, before anything starts
    LoggingBackend backend = LoggingBackends.detect(classLoader);
    if (backend != null) {
      Producer existing = backend.existingProducer();
      if (existing != null) {
        return new LogproducerRuntime(
            existing,
            false,
            null,
            "the logging configuration's appender",
            properties.getHealth(),
            null);
      }
    }
    MappingSettings mapping = settings.validatedMapping();
    Producer producer = settings.buildProducer();
    if (backend == null) {
      LogFactory.getLog(LogproducerRuntime.class)
          .warn(
              "logproducer: no appender for this application's logging system (logback needs"
                  + " io.logproducer:producer-logback, log4j2 io.logproducer:producer-log4j2);"
                  + " only the Producer bean ships records");
    }
    if (backend != null) {
      try {
        backend.install(
            producer,
            mapping,
            properties.getAppender().getQueueSize(),
            properties.getAppender().getReportInterval().toMillis());
      } catch (RuntimeException | LinkageError e) {
        producer.close(0);
        throw e;
      }
    }
    return new LogproducerRuntime(
        producer,
        true,
        backend,
        settings.describeReceiver(),
        properties.getHealth(),
        settings.bundleSslContext());
  }

  /** {@return the producer the appender and the application's {@code Producer} bean share} */
  Producer producer() {
    return producer;
  }

  /** {@return where records go, e.g. {@code otlp http://collector:4318}} */
  String receiver() {
    return receiver;
  }

  /** {@return the health rule's settings} */
  HealthProperties health() {
    return health;
  }

  /** {@return the exporter's context waiting for {@code logproducer.otlp.ssl.bundle}, or null} */
  BundleSslContext bundleSslContext() {
    return bundleSslContext;
  }

  /** {@return whether this runtime built the producer (and closes it)} */
  boolean ownsProducer() {
    return owned;
  }

  /**
   * Takes the appender out of the logging system, then ships what is buffered and closes the
   * producer, within {@code timeoutMillis} (+ 1 s), and only then has the appender report its
   * losses: the records the close failed ({@code FAILED_AT_CLOSE}) are in that last report and its
   * counts. A producer the logging configuration owns is left running. Idempotent; afterwards no
   * thread of an owned producer runs.
   *
   * @param timeoutMillis how long buffered records may ship, at least 0 (0 abandons them: they fail
   *     at close)
   */
  void close(long timeoutMillis) {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    if (bundleSslContext != null) {
      bundleSslContext.fail("the application context closed before it created the bundle");
    }
    try {
      if (backend != null) {
        backend.uninstall();
      }
    } finally {
      try {
        if (owned) {
          producer.close(Math.max(0, timeoutMillis));
        }
      } finally {
        if (backend != null) {
          backend.reportLosses();
        }
      }
    }
  }
}
