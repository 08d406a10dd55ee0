package io.logproducer.appender;

import io.logproducer.LogRecord;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;

/**
 * The only class that names OpenTelemetry API types; loaded only through {@link CurrentSpan} once
 * it has found the API on the class path. Its signatures use {@code Object}, so that verifying a
 * caller never loads an API class. Stateless; thread-safe.
 */
final class OtelSpans {

  private OtelSpans() {}

  /**
   * {@code Span.current().getSpanContext()} if valid ({@code isValid()}: non-zero 32 and 16 hex
   * digit ids), else null; allocates nothing.
   */
  static Object current() {
    SpanContext context = Span.current().getSpanContext();
    return context.isValid() ? context : null;
  }

  /** Sets trace id, span id (the context's lowercase hex) and trace flags (one byte). */
  static boolean apply(LogRecord.Builder builder, Object captured) {
    if (!(captured instanceof SpanContext)) {
      return false;
    }
    SpanContext context = (SpanContext) captured;
    builder
        .setTraceId(context.getTraceId())
        .setSpanId(context.getSpanId())
        .setFlags(context.getTraceFlags().asByte() & 0xff);
    return true;
  }
}
