package io.logproducer.spring.boot.autoconfigure;

import io.logproducer.appender.QueueBudget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How log events become records ({@code logproducer.appender.*}), for the logback and the log4j2
 * appender alike. The defaults are OpenTelemetry's appenders' mapping, with the trace context read
 * from Micrometer Tracing's MDC keys.
 *
 * <p>Not thread-safe: bound once, at start-up, before any use.
 */
public class AppenderProperties {

  /** MDC keys copied as attributes; * (the default) for all. */
  private List<String> mdcInclude = new ArrayList<>(java.util.Collections.singletonList("*"));

  /** MDC keys never copied. */
  private List<String> mdcExclude = new ArrayList<>();

  /** Whether key-value pairs (logback 1.3+, log4j2 MapMessage) become attributes. */
  private boolean captureKeyValues = true;

  /** Whether markers become the logback.marker / log4j.marker attribute. */
  private boolean captureMarkers = true;

  /** Whether thread.name and thread.id are attributes. */
  private boolean captureThread = true;

  /** Whether code.* attributes (class, method, line) are captured; costly. */
  private boolean captureCode = false;

  /** Whether the logger name is the record's InstrumentationScope. */
  private boolean scopeFromLogger = true;

  /** Most stack frames in exception.stacktrace; 0 none, negative no limit. */
  private int exceptionMaxFrames = 200;

  /**
   * Where the trace context comes from: otel-then-mdc (the OpenTelemetry API's current span when
   * present, else the MDC keys), mdc-then-otel, otel, mdc or none.
   */
  private String traceContext = "otel-then-mdc";

  /** The MDC key of the trace id (Micrometer Tracing's traceId; trace_id for OpenTelemetry's). */
  private String traceIdKey = "traceId";

  /** The MDC key of the span id. */
  private String spanIdKey = "spanId";

  /** The MDC key of the trace flags. */
  private String traceFlagsKey = "trace_flags";

  /**
   * Capacity of the appender's own hand-off queue; 0 (the default) maps and sends on the logging
   * thread.
   */
  private int queueSize = QueueBudget.DEFAULT_QUEUE_SIZE;

  /**
   * Least time between two reports of dropped or failed events (through the logging system's status
   * channel).
   */
  private Duration reportInterval = Duration.ofSeconds(10);

  /** Creates the defaults. */
  public AppenderProperties() {}

  /** {@return {@code logproducer.appender.mdc-include}} */
  public List<String> getMdcInclude() {
    return mdcInclude;
  }

  /**
   * Sets {@code logproducer.appender.mdc-include}.
   *
   * @param mdcInclude mDC keys copied as attributes; * (the default) for all.
   */
  public void setMdcInclude(List<String> mdcInclude) {
    this.mdcInclude = mdcInclude;
  }

  /** {@return {@code logproducer.appender.mdc-exclude}} */
  public List<String> getMdcExclude() {
    return mdcExclude;
  }

  /**
   * Sets {@code logproducer.appender.mdc-exclude}.
   *
   * @param mdcExclude mDC keys never copied.
   */
  public void setMdcExclude(List<String> mdcExclude) {
    this.mdcExclude = mdcExclude;
  }

  /** {@return {@code logproducer.appender.capture-key-values}} */
  public boolean isCaptureKeyValues() {
    return captureKeyValues;
  }

  /**
   * Sets {@code logproducer.appender.capture-key-values}.
   *
   * @param captureKeyValues whether key-value pairs (logback 1.3+, log4j2 MapMessage) become
   *     attributes.
   */
  public void setCaptureKeyValues(boolean captureKeyValues) {
    this.captureKeyValues = captureKeyValues;
  }

  /** {@return {@code logproducer.appender.capture-markers}} */
  public boolean isCaptureMarkers() {
    return captureMarkers;
  }

  /**
   * Sets {@code logproducer.appender.capture-markers}.
   *
   * @param captureMarkers whether markers become the logback.marker / log4j.marker attribute.
   */
  public void setCaptureMarkers(boolean captureMarkers) {
    this.captureMarkers = captureMarkers;
  }

  /** {@return {@code logproducer.appender.capture-thread}} */
  public boolean isCaptureThread() {
    return captureThread;
  }

  /**
   * Sets {@code logproducer.appender.capture-thread}.
   *
   * @param captureThread whether thread.name and thread.id are attributes.
   */
  public void setCaptureThread(boolean captureThread) {
    this.captureThread = captureThread;
  }

  /** {@return {@code logproducer.appender.capture-code}} */
  public boolean isCaptureCode() {
    return captureCode;
  }

  /**
   * Sets {@code logproducer.appender.capture-code}.
   *
   * @param captureCode whether code.* attributes (class, method, line) are captured; costly.
   */
  public void setCaptureCode(boolean captureCode) {
    this.captureCode = captureCode;
  }

  /** {@return {@code logproducer.appender.scope-from-logger}} */
  public boolean isScopeFromLogger() {
    return scopeFromLogger;
  }

  /**
   * Sets {@code logproducer.appender.scope-from-logger}.
   *
   * @param scopeFromLogger whether the logger name is the record's InstrumentationScope.
   */
  public void setScopeFromLogger(boolean scopeFromLogger) {
    this.scopeFromLogger = scopeFromLogger;
  }

  /** {@return {@code logproducer.appender.exception-max-frames}} */
  public int getExceptionMaxFrames() {
    return exceptionMaxFrames;
  }

  /**
   * Sets {@code logproducer.appender.exception-max-frames}.
   *
   * @param exceptionMaxFrames most stack frames in exception.stacktrace; 0 none, negative no limit.
   */
  public void setExceptionMaxFrames(int exceptionMaxFrames) {
    this.exceptionMaxFrames = exceptionMaxFrames;
  }

  /** {@return {@code logproducer.appender.trace-context}} */
  public String getTraceContext() {
    return traceContext;
  }

  /**
   * Sets {@code logproducer.appender.trace-context}.
   *
   * @param traceContext where the trace context comes from: otel-then-mdc (the OpenTelemetry API's
   *     current span when present, else the MDC keys), mdc-then-otel, otel, mdc or none.
   */
  public void setTraceContext(String traceContext) {
    this.traceContext = traceContext;
  }

  /** {@return {@code logproducer.appender.trace-id-key}} */
  public String getTraceIdKey() {
    return traceIdKey;
  }

  /**
   * Sets {@code logproducer.appender.trace-id-key}.
   *
   * @param traceIdKey the MDC key of the trace id (Micrometer Tracing's traceId; trace_id for
   *     OpenTelemetry's).
   */
  public void setTraceIdKey(String traceIdKey) {
    this.traceIdKey = traceIdKey;
  }

  /** {@return {@code logproducer.appender.span-id-key}} */
  public String getSpanIdKey() {
    return spanIdKey;
  }

  /**
   * Sets {@code logproducer.appender.span-id-key}.
   *
   * @param spanIdKey the MDC key of the span id.
   */
  public void setSpanIdKey(String spanIdKey) {
    this.spanIdKey = spanIdKey;
  }

  /** {@return {@code logproducer.appender.trace-flags-key}} */
  public String getTraceFlagsKey() {
    return traceFlagsKey;
  }

  /**
   * Sets {@code logproducer.appender.trace-flags-key}.
   *
   * @param traceFlagsKey the MDC key of the trace flags.
   */
  public void setTraceFlagsKey(String traceFlagsKey) {
    this.traceFlagsKey = traceFlagsKey;
  }

  /** {@return {@code logproducer.appender.queue-size}} */
  public int getQueueSize() {
    return queueSize;
  }

  /**
   * Sets {@code logproducer.appender.queue-size}.
   *
   * @param queueSize capacity of the appender's own hand-off queue (default 2048: the logging
   *     thread only queues the event, the appender's worker maps and sends it; a full queue waits,
   *     never drops); 0 maps and sends on the logging thread.
   */
  public void setQueueSize(int queueSize) {
    this.queueSize = queueSize;
  }

  /** {@return {@code logproducer.appender.report-interval}} */
  public Duration getReportInterval() {
    return reportInterval;
  }

  /**
   * Sets {@code logproducer.appender.report-interval}.
   *
   * @param reportInterval least time between two reports of dropped or failed events (through the
   *     logging system's status channel).
   */
  public void setReportInterval(Duration reportInterval) {
    this.reportInterval = reportInterval;
  }
}
