package io.logproducer.logback;

import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.logproducer.appender.SemanticAttributes;
import io.logproducer.testing.appender.AppenderContract;
import java.util.Map;
import org.slf4j.MDC;
import org.slf4j.MarkerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/** {@link AppenderContract} on logback, configured from contract.xml. */
class LogbackAppenderContractTest extends AppenderContract {

  private LoggerContext ctx;

  @Override
  protected void startFramework(String endpoint) throws Exception {
    ctx = LogbackTestSupport.configure("contract.xml", Map.of("otlp.endpoint", endpoint));
    for (String name : new String[] {"MAIN", "CODE", "LAYOUT"}) {
      LogproducerAppender a =
          (LogproducerAppender)
              (name.equals("MAIN")
                      ? ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
                      : ctx.getLogger("contract." + name.toLowerCase()))
                  .getAppender(name);
      assertTrue(
          a != null && a.isStarted(),
          () -> name + " not started: " + LogbackTestSupport.statuses(ctx, Status.WARN));
    }
  }

  @Override
  protected void stopFramework() {
    MDC.clear();
    if (ctx != null) {
      ctx.stop();
      ctx = null;
    }
  }

  @Override
  protected void log(Call call) {
    call.mdc().forEach(MDC::put);
    try {
      org.slf4j.Logger logger = ctx.getLogger(call.logger());
      if (call.markers().isEmpty() && call.keyValues().isEmpty()) {
        if (call.thrown() != null) {
          logger.error(call.message(), call.thrown());
        } else {
          logger.atLevel(Level.valueOf(call.level())).log(call.message());
        }
        return;
      }
      LoggingEventBuilder b =
          logger
              .atLevel(Level.valueOf(call.level()))
              .setMessage(call.message())
              .setCause(call.thrown());
      for (String m : call.markers()) {
        b = b.addMarker(MarkerFactory.getMarker(m));
      }
      for (Map.Entry<String, Object> e : call.keyValues().entrySet()) {
        b = b.addKeyValue(e.getKey(), e.getValue());
      }
      b.log();
    } finally {
      call.mdc().keySet().forEach(MDC::remove);
    }
  }

  @Override
  protected String markerKey() {
    return SemanticAttributes.LOGBACK_MARKER;
  }

  @Override
  protected boolean markersAsArray() {
    return true;
  }
}
