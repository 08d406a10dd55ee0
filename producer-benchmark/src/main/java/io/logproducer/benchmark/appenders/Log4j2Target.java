package io.logproducer.benchmark.appenders;

import io.opentelemetry.instrumentation.log4j.appender.v2_17.OpenTelemetryAppender;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;

/**
 * log4j2 (log4j-api + log4j-core), configured by log4j2 itself from {@code
 * -Dlog4j2.configurationFile}. For the OTel variant it installs the SDK into OpenTelemetry's
 * appender, as that appender's documentation shows.
 */
final class Log4j2Target implements LoggingTarget {

  private final Logger logger;
  private final OpenTelemetrySdk otel;

  Log4j2Target(ChildSpec spec) {
    logger = LogManager.getLogger(Workload.LOGGER);
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    Map<String, Appender> appenders = context.getConfiguration().getAppenders();
    if (appenders.isEmpty() || !appenders.values().iterator().next().isStarted()) {
      throw new IllegalStateException(
          spec.variant().id() + ": the appender did not start (see log4j2's status output)");
    }
    if (spec.variant() == AppenderVariant.LOG4J2_OTEL) {
      otel = OtelSdk.build(spec.endpoint());
      OpenTelemetryAppender.install(otel);
    } else {
      otel = null;
    }
  }

  /**
   * {@return whether our log4j2 appender has a {@code queueSize} attribute on this class path} (the
   * hand-off; the inline variant passes {@code queueSize="0"} only then)
   */
  static boolean hasQueueSizeAttribute() {
    try {
      Class<?> appender = Class.forName("io.logproducer.log4j2.LogproducerAppender");
      for (Class<?> c : appender.getDeclaredClasses()) {
        for (java.lang.reflect.Field f : c.getDeclaredFields()) {
          if (f.getName().equals("queueSize")) {
            return true;
          }
        }
      }
      return false;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }

  @Override
  public void putContext(String key, String value) {
    ThreadContext.put(key, value);
  }

  @Override
  public void log(String id, String user) {
    logger.info(Workload.FORMAT, id, user);
  }

  @Override
  public void stop() {
    LogManager.shutdown();
    if (otel != null) {
      OtelSdk.shutdown(otel);
    }
  }
}
