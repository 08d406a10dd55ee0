package io.logproducer.log4j2;

import org.apache.logging.log4j.ThreadContext;
import org.apache.logging.log4j.core.LoggerContext;

/**
 * {@link TraceContextAbsentTest}'s child JVM, whose class path has no OpenTelemetry jar: checks
 * that the API is absent, then logs two events (one with ThreadContext trace ids) through the
 * appenders of tracectx.xml to the receiver at {@code args[0]}, and stops the context.
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
    System.setProperty("tracectx.otlp.endpoint", args[0]);
    LoggerContext ctx = Support.context("tracectx.xml");
    for (String name : TraceContextAbsentTest.SERVICES) {
      if (!Support.appender(ctx, name).isStarted()) {
        System.out.println("NOT STARTED " + name);
        System.exit(3);
      }
    }
    ThreadContext.put("trace_id", TraceContextAbsentTest.MDC_TRACE_ID);
    ThreadContext.put("span_id", TraceContextAbsentTest.MDC_SPAN_ID);
    ThreadContext.put("trace_flags", "01");
    ctx.getLogger("app.absent").info("with mdc ids");
    ThreadContext.clearAll();
    ctx.getLogger("app.absent").info("without ids");
    ctx.stop();
    System.out.println("DONE");
  }
}
