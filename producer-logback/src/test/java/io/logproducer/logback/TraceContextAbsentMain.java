package io.logproducer.logback;

import ch.qos.logback.classic.LoggerContext;
import java.util.Map;
import org.slf4j.MDC;

/**
 * {@link TraceContextAbsentTest}'s child JVM, whose class path has no OpenTelemetry jar: checks
 * that the API is absent, then logs two events (one with MDC trace ids) through the appender
 * (default order {@code otel-then-mdc}) to the receiver at {@code args[0]}, and stops the context.
 */
public final class TraceContextAbsentMain {

  private TraceContextAbsentMain() {}

  /**
   * Runs the child.
   *
   * @param args the receiver's endpoint
   * @throws Exception on failure (exit code 1)
   */
  public static void main(String[] args) throws Exception {
    try {
      Class.forName(
          "io.opentelemetry.api.trace.Span", false, TraceContextAbsentMain.class.getClassLoader());
      System.out.println("API PRESENT");
      System.exit(2);
    } catch (ClassNotFoundException expected) {
      System.out.println("API ABSENT");
    }
    LoggerContext ctx =
        LogbackTestSupport.configure(
            "tracectx.xml",
            Map.of("otlp.endpoint", args[0], "trace.context", "otel-then-mdc", "queue.size", "64"));
    if (!LogbackTestSupport.appender(ctx, "LP").isStarted()) {
      System.out.println("NOT STARTED");
      System.exit(3);
    }
    MDC.put("trace_id", TraceContextAbsentTest.MDC_TRACE_ID);
    MDC.put("span_id", TraceContextAbsentTest.MDC_SPAN_ID);
    MDC.put("trace_flags", "01");
    ctx.getLogger("app.absent").info("with mdc ids");
    MDC.clear();
    ctx.getLogger("app.absent").info("without ids");
    ctx.stop();
    System.out.println("DONE");
  }
}
