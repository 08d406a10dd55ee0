package io.logproducer.appender;

import io.logproducer.LogRecord;

/**
 * Trace context from the MDC / ThreadContext entries OpenTelemetry's MDC instrumentations write
 * ({@value SemanticAttributes#MDC_TRACE_ID}, {@value SemanticAttributes#MDC_SPAN_ID}, {@value
 * SemanticAttributes#MDC_TRACE_FLAGS}). Stateless; thread-safe.
 */
public final class TraceContext {

  private TraceContext() {}

  /**
   * Sets trace id, span id and flags on {@code builder} when {@code traceId} and {@code spanId} are
   * valid hex ids of 32 and 16 digits (and not all zero).
   *
   * @param builder the record being built
   * @param traceId the MDC's trace id, or null
   * @param spanId the MDC's span id, or null
   * @param flags the MDC's trace flags (hex), or null
   * @return true if the ids were set (the caller then leaves those MDC keys out of the attributes)
   */
  public static boolean apply(
      LogRecord.Builder builder, String traceId, String spanId, String flags) {
    if (!isHex(traceId, 32) || !isHex(spanId, 16)) {
      return false;
    }
    builder.setTraceId(traceId).setSpanId(spanId);
    if (isHex(flags, 2)) {
      builder.setFlags(Integer.parseInt(flags, 16));
    }
    return true;
  }

  private static boolean isHex(String s, int length) {
    if (s == null || s.length() != length) {
      return false;
    }
    boolean nonZero = false;
    for (int i = 0; i < length; i++) {
      char c = s.charAt(i);
      boolean digit = c >= '0' && c <= '9';
      if (!digit && !(c >= 'a' && c <= 'f') && !(c >= 'A' && c <= 'F')) {
        return false;
      }
      nonZero |= c != '0';
    }
    return nonZero || length == 2;
  }
}
