package io.logproducer.log4j2;

import io.logproducer.testing.appender.ContextFloodContract;
import java.util.Map;
import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;

/**
 * {@link ContextFloodContract} through log4j2's ThreadContext (issue 19: 31 s for 100,000 entries
 * before), configured from hostile-context.xml (the default maxAttributesPerRecord).
 */
class HostileContextTest extends ContextFloodContract {

  private LoggerContext ctx;
  private LogproducerAppender appender;

  @Override
  protected void startFramework(String endpoint) throws Exception {
    System.setProperty("hostile.otlp.endpoint", endpoint);
    ctx = Support.context("hostile-context.xml");
    appender = Support.appender(ctx, "hostile");
  }

  @Override
  protected void stopFramework() {
    ctx.stop();
  }

  @Override
  protected void logWithContext(Map<String, String> context, String message, Throwable thrown) {
    ThreadContext.putAll(context);
    try {
      if (thrown == null) {
        ctx.getLogger("com.example.Hostile").info(message);
      } else {
        ctx.getLogger("com.example.Hostile").error(message, thrown);
      }
    } finally {
      ThreadContext.clearMap();
    }
  }

  @Override
  protected long droppedCount() {
    return appender.droppedCount();
  }

  @Override
  protected long failedCount() {
    return appender.failedCount();
  }
}
