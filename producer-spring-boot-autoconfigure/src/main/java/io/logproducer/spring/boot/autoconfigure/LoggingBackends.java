package io.logproducer.spring.boot.autoconfigure;

import org.springframework.util.ClassUtils;

/**
 * Finds the logging system the application runs on. The backends' classes refer to logback's or
 * log4j2's types, so each is touched only once its logging system and logproducer appender are
 * known to be on the class path (the JVM would fail to load the class otherwise).
 */
final class LoggingBackends {

  private LoggingBackends() {}

  /**
   * {@return logback's backend, else log4j2's, else null (neither runs with its logproducer
   * appender on the class path: the producer still serves the {@code Producer} bean)}
   *
   * @param classLoader the application's class loader
   */
  static LoggingBackend detect(ClassLoader classLoader) {
    if (present(classLoader, "ch.qos.logback.classic.LoggerContext", "org.slf4j.LoggerFactory")
        && present(classLoader, "io.logproducer.logback.LogproducerAppender")) {
      LoggingBackend logback = LogbackBackend.detect();
      if (logback != null) {
        return logback;
      }
    }
    if (present(classLoader, "org.apache.logging.log4j.core.LoggerContext")
        && present(classLoader, "io.logproducer.log4j2.LogproducerAppender")) {
      return Log4j2Backend.detect();
    }
    return null;
  }

  private static boolean present(ClassLoader classLoader, String... classNames) {
    for (String name : classNames) {
      if (!ClassUtils.isPresent(name, classLoader)) {
        return false;
      }
    }
    return true;
  }
}
