package io.logproducer.benchmark.appenders;

import ch.qos.logback.classic.LoggerContext;
import io.opentelemetry.instrumentation.logback.appender.v1_0.OpenTelemetryAppender;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * logback through SLF4J, configured by logback itself from {@code -Dlogback.configurationFile} (the
 * child's class path has logback-classic as the only SLF4J provider). For the OTel variant it
 * installs the SDK into OpenTelemetry's appender, as that appender's documentation shows.
 */
final class LogbackTarget implements LoggingTarget {

  private final Logger logger;
  private final OpenTelemetrySdk otel;

  LogbackTarget(ChildSpec spec) {
    logger = LoggerFactory.getLogger(Workload.LOGGER);
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      throw new IllegalStateException(
          "SLF4J is not bound to logback but to " + LoggerFactory.getILoggerFactory());
    }
    ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    if (!root.iteratorForAppenders().hasNext() || !root.iteratorForAppenders().next().isStarted()) {
      throw new IllegalStateException(
          spec.variant().id()
              + ": the appender did not start; logback status: "
              + context.getStatusManager().getCopyOfStatusList());
    }
    if (spec.variant() == AppenderVariant.LOGBACK_OTEL) {
      otel = OtelSdk.build(spec.endpoint());
      OpenTelemetryAppender.install(otel);
    } else {
      otel = null;
    }
  }

  @Override
  public void putContext(String key, String value) {
    MDC.put(key, value);
  }

  @Override
  public void log(String id, String user) {
    logger.info(Workload.FORMAT, id, user);
  }

  @Override
  public void stop() {
    ((LoggerContext) LoggerFactory.getILoggerFactory()).stop();
    if (otel != null) {
      OtelSdk.shutdown(otel);
    }
  }
}
