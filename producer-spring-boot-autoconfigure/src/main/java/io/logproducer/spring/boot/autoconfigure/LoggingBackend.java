package io.logproducer.spring.boot.autoconfigure;

import io.logproducer.Producer;
import io.logproducer.appender.MappingSettings;

/**
 * The logging system the application runs on (logback or log4j2), as the starter needs it: find an
 * appender the configuration already declares, install the starter's own, take it out again.
 * Implementations are used by one thread at a time (start-up, then the context's close), except for
 * the reconfiguration callbacks, which they synchronize themselves.
 */
interface LoggingBackend {

  /**
   * {@return the producer of a running logproducer appender that the logging configuration itself
   * declares (a user's {@code logback-spring.xml} / {@code log4j2-spring.xml}), or of the one a
   * parent context's starter installed; null if there is none}
   */
  Producer existingProducer();

  /**
   * Installs the starter's appender on the root logger, sending through {@code producer}, and keeps
   * it installed across reconfigurations of the logging system until {@link #uninstall()}.
   *
   * @param producer the running producer the appender shares
   * @param mapping how events become records
   * @param queueSize the appender's hand-off queue, 0 for none
   * @param reportIntervalMillis least time between two reports of dropped events
   * @throws IllegalStateException if the appender does not start
   */
  void install(
      Producer producer, MappingSettings mapping, int queueSize, long reportIntervalMillis);

  /**
   * Takes the appender off and stops it (the producer is left to its owner). Idempotent. The
   * records still buffered in the producer keep counting for the appender: call {@link
   * #reportLosses()} once the producer is closed.
   */
  void uninstall();

  /**
   * After {@link #uninstall()} and the producer's close: reports, through the logging system's
   * status channel, the dropped and failed events of every appender this backend installed (the one
   * a reconfiguration replaced included) that were not reported yet, the records the producer's
   * close failed among them. Then forgets those appenders.
   */
  void reportLosses();
}
