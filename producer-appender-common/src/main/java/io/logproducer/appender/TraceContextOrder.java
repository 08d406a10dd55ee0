package io.logproducer.appender;

/**
 * Where a record's trace context (trace id, span id, trace flags) comes from, and in which order
 * the sources are tried: the OpenTelemetry API's current span ({@code Span.current()}, read on the
 * logging thread when the API is on the class path) and the MDC / ThreadContext keys ({@link
 * MappingSettings#setTraceIdKey} and the others). The first source that gives a valid context wins;
 * the other is not read. Immutable; thread-safe.
 */
public enum TraceContextOrder {
  /** The current span if it is valid, else the MDC keys (the default). */
  OTEL_THEN_MDC("otel-then-mdc", true, true),
  /** The MDC keys if they hold valid ids, else the current span. */
  MDC_THEN_OTEL("mdc-then-otel", true, true),
  /** The current span only. */
  OTEL("otel", true, false),
  /** The MDC keys only (the appenders before the span was read). */
  MDC("mdc", false, true),
  /** Neither: records carry no trace context; the MDC trace keys are ordinary attributes. */
  NONE("none", false, false);

  private final String configName;
  private final boolean readsSpan;
  private final boolean readsMdc;

  TraceContextOrder(String configName, boolean readsSpan, boolean readsMdc) {
    this.configName = configName;
    this.readsSpan = readsSpan;
    this.readsMdc = readsMdc;
  }

  /** {@return the name in the XML: {@code otel-then-mdc}, {@code mdc-then-otel}, ...} */
  public String configName() {
    return configName;
  }

  /** {@return whether the current span is read} */
  public boolean readsSpan() {
    return readsSpan;
  }

  /** {@return whether the MDC / ThreadContext trace keys are read} */
  public boolean readsMdc() {
    return readsMdc;
  }

  /**
   * The order named {@code value} in the XML (case and surrounding spaces ignored).
   *
   * @param value one of {@code otel-then-mdc}, {@code mdc-then-otel}, {@code otel}, {@code mdc},
   *     {@code none}
   * @return the order
   * @throws IllegalArgumentException if {@code value} is null or none of those; the message names
   *     the setting ({@code traceContext}) and the allowed values
   */
  public static TraceContextOrder parse(String value) {
    if (value != null) {
      String v = value.trim();
      for (TraceContextOrder o : values()) {
        if (o.configName.equalsIgnoreCase(v)) {
          return o;
        }
      }
    }
    throw new IllegalArgumentException(
        "traceContext must be one of otel-then-mdc, mdc-then-otel, otel, mdc, none; was "
            + (value == null ? "null" : "'" + value + "'"));
  }
}
