package io.logproducer.appender;

/**
 * Attribute keys the appenders write, from the OpenTelemetry semantic conventions (general
 * attributes, exceptions, code, threads; stable names as of semantic conventions 1.33) and from
 * OpenTelemetry's logback and log4j appenders (markers, MDC trace keys).
 */
public final class SemanticAttributes {

  /** {@code exception.type}: the exception's fully qualified class name. */
  public static final String EXCEPTION_TYPE = "exception.type";

  /** {@code exception.message}. */
  public static final String EXCEPTION_MESSAGE = "exception.message";

  /**
   * {@code exception.stacktrace}: as {@link Throwable#printStackTrace()} prints it, causes
   * included.
   */
  public static final String EXCEPTION_STACKTRACE = "exception.stacktrace";

  /** {@code thread.name}. */
  public static final String THREAD_NAME = "thread.name";

  /** {@code thread.id}. */
  public static final String THREAD_ID = "thread.id";

  /** {@code code.function.name}: the fully qualified method, {@code com.example.Class.method}. */
  public static final String CODE_FUNCTION_NAME = "code.function.name";

  /** {@code code.file.path}: the source file as the class file names it (no directory). */
  public static final String CODE_FILE_PATH = "code.file.path";

  /** {@code code.line.number}. */
  public static final String CODE_LINE_NUMBER = "code.line.number";

  /**
   * Markers of a logback event (OpenTelemetry's logback appender: {@code logback.marker}), a string
   * array.
   */
  public static final String LOGBACK_MARKER = "logback.marker";

  /** Marker of a log4j2 event (OpenTelemetry's log4j appender: {@code log4j.marker}). */
  public static final String LOG4J_MARKER = "log4j.marker";

  /**
   * MDC / ThreadContext key of the trace id, as OpenTelemetry's MDC instrumentations write it (32
   * hex digits).
   */
  public static final String MDC_TRACE_ID = "trace_id";

  /** MDC / ThreadContext key of the span id (16 hex digits). */
  public static final String MDC_SPAN_ID = "span_id";

  /** MDC / ThreadContext key of the trace flags (2 hex digits, e.g. {@code 01}). */
  public static final String MDC_TRACE_FLAGS = "trace_flags";

  private SemanticAttributes() {}
}
