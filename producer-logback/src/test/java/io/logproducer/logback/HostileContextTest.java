package io.logproducer.logback;

import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import io.logproducer.testing.appender.ContextFloodContract;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.slf4j.MDC;

/**
 * {@link ContextFloodContract} through logback's MDC (issue 19: 15 s for 100,000 entries before,
 * hours for a million), the appender configured with the default maxAttributesPerRecord.
 */
class HostileContextTest extends ContextFloodContract {

  private LoggerContext ctx;
  private LogproducerAppender appender;

  @Override
  protected void startFramework(String endpoint) throws Exception {
    ctx = new LoggerContext();
    ctx.setName("hostile-context");
    LogbackTestSupport.useGlobalMdc(ctx);
    String xml =
        String.format(
            "<configuration>\n"
                + "  <appender name=\"LP\" class=\"io.logproducer.logback.LogproducerAppender\">\n"
                + "    <otlp><endpoint>%s</endpoint><serviceName>hostile</serviceName></otlp>\n"
                + "    <producer>\n"
                + "      <lingerMillis>20</lingerMillis>\n"
                + "      <jmxEnabled>false</jmxEnabled>\n"
                + "      <shutdownHookEnabled>false</shutdownHookEnabled>\n"
                + "    </producer>\n"
                + "  </appender>\n"
                + "  <root level=\"INFO\"><appender-ref ref=\"LP\"/></root>\n"
                + "</configuration>\n",
            endpoint);
    JoranConfigurator joran = new JoranConfigurator();
    joran.setContext(ctx);
    joran.doConfigure(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    appender = LogbackTestSupport.appender(ctx, "LP");
    assertTrue(appender.isStarted(), () -> LogbackTestSupport.statuses(ctx, 0).toString());
  }

  @Override
  protected void stopFramework() {
    ctx.stop();
  }

  @Override
  protected void logWithContext(Map<String, String> context, String message, Throwable thrown) {
    MDC.setContextMap(context);
    try {
      if (thrown == null) {
        ctx.getLogger("com.example.Hostile").info(message);
      } else {
        ctx.getLogger("com.example.Hostile").error(message, thrown);
      }
    } finally {
      MDC.clear();
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
