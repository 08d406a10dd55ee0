package io.logproducer.appender;

import io.logproducer.LogRecord;

/**
 * The OpenTelemetry API's current span, when the API is on the appender's class path: read on the
 * logging thread ({@link #capture}) and applied to a record on any thread later ({@link #apply}).
 * Whether the API is there is decided once, with {@code Class.forName(
 * "io.opentelemetry.api.trace.Span", false, loader)} (the appender's own class loader, the one that
 * would resolve the references); only then is {@link OtelSpans}, the one class that names {@code
 * io.opentelemetry} types, touched. Without the API no OpenTelemetry class is loaded and both
 * methods do nothing; a {@link LinkageError} from an API that does not match turns the span off for
 * good. Thread-safe.
 */
final class CurrentSpan {

  private static final boolean API_PRESENT = apiPresent(CurrentSpan.class.getClassLoader());

  private static volatile boolean broken;

  private CurrentSpan() {}

  /**
   * Whether {@code io.opentelemetry.api.trace.Span} is visible to {@code loader}, without
   * initializing it.
   */
  static boolean apiPresent(ClassLoader loader) {
    try {
      Class.forName("io.opentelemetry.api.trace.Span", false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** {@return whether the span is read: the API is present and has not failed} */
  static boolean available() {
    return API_PRESENT && !broken;
  }

  /**
   * The current span's context on this thread, if valid: an immutable {@code SpanContext}, carried
   * as it is (no copy, no hex string).
   *
   * @return the context, or null when there is no valid span or no API
   */
  static Object capture() {
    if (!API_PRESENT || broken) {
      return null;
    }
    try {
      return OtelSpans.current();
    } catch (LinkageError e) {
      broken = true;
      return null;
    }
  }

  /**
   * Sets the record's trace id, span id and flags from a context {@link #capture} returned.
   *
   * @param builder the record being built
   * @param captured what {@link #capture} returned, or null
   * @return true if the ids were set
   */
  static boolean apply(LogRecord.Builder builder, Object captured) {
    if (captured == null || !API_PRESENT) {
      return false;
    }
    try {
      return OtelSpans.apply(builder, captured);
    } catch (LinkageError e) {
      broken = true;
      return false;
    }
  }
}
