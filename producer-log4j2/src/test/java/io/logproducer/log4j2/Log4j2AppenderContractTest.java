package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.appender.SemanticAttributes;
import io.logproducer.testing.appender.AppenderContract;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.Marker;
import org.apache.logging.log4j.MarkerManager;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.message.MapMessage;

/**
 * {@link AppenderContract} on log4j2, configured from contract.xml; key-value pairs as a {@link
 * MapMessage}.
 */
class Log4j2AppenderContractTest extends AppenderContract {

  private LoggerContext ctx;

  @Override
  protected void startFramework(String endpoint) {
    System.setProperty("contract.otlp.endpoint", endpoint);
    ctx = Support.context("contract.xml");
    for (String name : new String[] {"MAIN", "CODE", "LAYOUT"}) {
      assertTrue(Support.appender(ctx, name).isStarted(), name + " started");
    }
  }

  @Override
  protected void stopFramework() {
    ThreadContext.clearAll();
    if (ctx != null) {
      ctx.stop();
      ctx = null;
    }
    System.clearProperty("contract.otlp.endpoint");
  }

  @Override
  @SuppressWarnings({"rawtypes", "unchecked"})
  protected void log(Call call) {
    call.mdc().forEach(ThreadContext::put);
    try {
      Logger logger = ctx.getLogger(call.logger());
      Level level = Level.valueOf(call.level());
      Marker marker =
          call.markers().isEmpty() ? null : MarkerManager.getMarker(call.markers().get(0));
      if (call.keyValues().isEmpty()) {
        logger.log(level, marker, call.message(), call.thrown());
        return;
      }
      MapMessage m = new MapMessage().with("message", call.message());
      for (Map.Entry<String, Object> e : call.keyValues().entrySet()) {
        m = m.with(e.getKey(), e.getValue());
      }
      logger.log(level, marker, m, call.thrown());
    } finally {
      call.mdc().keySet().forEach(ThreadContext::remove);
    }
  }

  @Override
  protected String markerKey() {
    return SemanticAttributes.LOG4J_MARKER;
  }

  @Override
  protected boolean markersAsArray() {
    return false;
  }
}
