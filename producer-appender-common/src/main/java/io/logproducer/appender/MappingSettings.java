package io.logproducer.appender;

/**
 * How a logging event becomes a {@code LogRecord}, as the XML sets it. The defaults follow
 * OpenTelemetry's logback and log4j appenders: the formatted message as body, the logger name as
 * {@code InstrumentationScope}, thread name and id, every MDC / ThreadContext entry, key-value
 * pairs and markers as attributes, exceptions as {@code exception.*}, trace context from the
 * OpenTelemetry API's current span (when the API is on the class path), else from the MDC keys
 * {@code trace_id} / {@code span_id} / {@code trace_flags}; caller data ({@code code.*}) off
 * because it is costly. Not thread-safe: filled once, before the appender starts; read-only
 * afterwards.
 */
public final class MappingSettings {

  private String mdcInclude = "*";
  private String mdcExclude;
  private KeyFilter mdcFilter = KeyFilter.ALL;
  private boolean captureKeyValues = true;
  private boolean captureMarkers = true;
  private boolean captureThread = true;
  private boolean captureCode;
  private boolean useLayout;
  private boolean scopeFromLogger = true;
  private int exceptionMaxFrames = 200;
  private String traceIdKey = SemanticAttributes.MDC_TRACE_ID;
  private String spanIdKey = SemanticAttributes.MDC_SPAN_ID;
  private String traceFlagsKey = SemanticAttributes.MDC_TRACE_FLAGS;
  private TraceContextOrder traceContext = TraceContextOrder.OTEL_THEN_MDC;

  /** Creates the default mapping. */
  public MappingSettings() {}

  /**
   * MDC / ThreadContext keys to copy as attributes.
   *
   * @param keys comma-separated keys; {@code *} (the default) for all, empty for none
   */
  public void setMdcInclude(String keys) {
    this.mdcInclude = keys;
    this.mdcFilter = KeyFilter.of(mdcInclude, mdcExclude);
  }

  /**
   * MDC / ThreadContext keys never copied.
   *
   * @param keys comma-separated keys
   */
  public void setMdcExclude(String keys) {
    this.mdcExclude = keys;
    this.mdcFilter = KeyFilter.of(mdcInclude, mdcExclude);
  }

  /** {@return the MDC / ThreadContext key filter} */
  public KeyFilter mdcFilter() {
    return mdcFilter;
  }

  /**
   * Whether key-value pairs (logback 1.3+ {@code addKeyValue}, log4j2 {@code MapMessage}) become
   * attributes.
   *
   * @param capture default true
   */
  public void setCaptureKeyValues(boolean capture) {
    this.captureKeyValues = capture;
  }

  /** {@return whether key-value pairs become attributes} */
  public boolean captureKeyValues() {
    return captureKeyValues;
  }

  /**
   * Whether markers become an attribute ({@code logback.marker}, {@code log4j.marker}).
   *
   * @param capture default true
   */
  public void setCaptureMarkers(boolean capture) {
    this.captureMarkers = capture;
  }

  /** {@return whether markers become an attribute} */
  public boolean captureMarkers() {
    return captureMarkers;
  }

  /**
   * Whether {@code thread.name} and {@code thread.id} are set.
   *
   * @param capture default true
   */
  public void setCaptureThread(boolean capture) {
    this.captureThread = capture;
  }

  /** {@return whether thread name and id are set} */
  public boolean captureThread() {
    return captureThread;
  }

  /**
   * Whether caller data becomes {@code code.function.name}, {@code code.file.path}, {@code
   * code.line.number}. Costly: the framework walks the stack for every event.
   *
   * @param capture default false
   */
  public void setCaptureCode(boolean capture) {
    this.captureCode = capture;
  }

  /** {@return whether caller data is captured} */
  public boolean captureCode() {
    return captureCode;
  }

  /**
   * Whether the body is the framework's layout / encoder output instead of the formatted message.
   *
   * @param use default false
   */
  public void setUseLayout(boolean use) {
    this.useLayout = use;
  }

  /** {@return whether the body is the layout's output} */
  public boolean useLayout() {
    return useLayout;
  }

  /**
   * Whether the logger name becomes the record's {@code InstrumentationScope} name (OTLP writes
   * each record in a {@code ScopeLogs} of its own then); when false, the appender's scope is used
   * for all.
   *
   * @param scopeFromLogger default true
   */
  public void setScopeFromLogger(boolean scopeFromLogger) {
    this.scopeFromLogger = scopeFromLogger;
  }

  /** {@return whether the logger name becomes the scope name} */
  public boolean scopeFromLogger() {
    return scopeFromLogger;
  }

  /**
   * Most stack frames in {@code exception.stacktrace}, causes included.
   *
   * @param frames default 200; 0 for no stack trace, negative for no limit
   */
  public void setExceptionMaxFrames(int frames) {
    this.exceptionMaxFrames = frames;
  }

  /** {@return the most stack frames in {@code exception.stacktrace}; 0 none, negative no limit} */
  public int exceptionMaxFrames() {
    return exceptionMaxFrames;
  }

  /**
   * The MDC / ThreadContext key that holds the trace id (32 hex digits), read into the record's
   * trace context and not copied as an attribute. {@code trace_id} (OpenTelemetry's) by default;
   * Micrometer Tracing and Spring Cloud Sleuth write {@code traceId}.
   *
   * @param key a non-empty key
   * @throws IllegalArgumentException if {@code key} is null or empty
   */
  public void setTraceIdKey(String key) {
    this.traceIdKey = requireKey("traceIdKey", key);
  }

  /**
   * The MDC / ThreadContext key that holds the span id (16 hex digits): {@code span_id} by default,
   * {@code spanId} for Micrometer Tracing.
   *
   * @param key a non-empty key
   * @throws IllegalArgumentException if {@code key} is null or empty
   */
  public void setSpanIdKey(String key) {
    this.spanIdKey = requireKey("spanIdKey", key);
  }

  /**
   * The MDC / ThreadContext key that holds the trace flags (2 hex digits): {@code trace_flags} by
   * default.
   *
   * @param key a non-empty key
   * @throws IllegalArgumentException if {@code key} is null or empty
   */
  public void setTraceFlagsKey(String key) {
    this.traceFlagsKey = requireKey("traceFlagsKey", key);
  }

  /** {@return the MDC key of the trace id} */
  public String traceIdKey() {
    return traceIdKey;
  }

  /** {@return the MDC key of the span id} */
  public String spanIdKey() {
    return spanIdKey;
  }

  /** {@return the MDC key of the trace flags} */
  public String traceFlagsKey() {
    return traceFlagsKey;
  }

  /**
   * Where the records' trace context comes from, in which order ({@link TraceContextOrder}): {@code
   * otel-then-mdc} (the default: the OpenTelemetry API's {@code Span.current()} at the logging
   * call, when the API is on the class path and the span is valid, else the MDC keys), {@code
   * mdc-then-otel}, {@code otel}, {@code mdc} or {@code none}.
   *
   * @param order the order's name (case and surrounding spaces ignored)
   * @throws IllegalArgumentException if {@code order} is none of those; the message names {@code
   *     traceContext} and the allowed values
   */
  public void setTraceContext(String order) {
    this.traceContext = TraceContextOrder.parse(order);
  }

  /** {@return where the trace context comes from, in which order} */
  public TraceContextOrder traceContext() {
    return traceContext;
  }

  private static String requireKey(String name, String key) {
    if (key == null || key.trim().isEmpty()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
    return key.trim();
  }
}
