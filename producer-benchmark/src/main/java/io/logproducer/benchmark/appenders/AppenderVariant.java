package io.logproducer.benchmark.appenders;

import java.util.Arrays;
import java.util.List;

/**
 * One appender measured by {@link AppenderSuite}: a logging framework, an appender configured as
 * its users configure it, and where its events end up (the suite's OTLP sink, its SLS sink, or a
 * file on local disk). Each runs in a child JVM of its own ({@link AppenderChild}) with the class
 * path {@link AppenderClasspath} gives it.
 */
public enum AppenderVariant {
  /** Our logback appender, configured exactly as docs/appenders.md shows: its defaults. */
  LOGBACK_LOGPRODUCER("logback/logproducer", Framework.LOGBACK, Sink.OTLP),
  /** The same with {@code <queueSize>0</queueSize>}: mapping and encoding on the logging thread. */
  LOGBACK_INLINE("logback/logproducer-inline", Framework.LOGBACK, Sink.OTLP),
  /** logback's {@code FileAppender}, PatternLayout, {@code immediateFlush=false}. */
  LOGBACK_FILE("logback/file", Framework.LOGBACK, Sink.FILE),
  /** OpenTelemetry's logback appender on the OpenTelemetry SDK ({@link OtelSdk}). */
  LOGBACK_OTEL("logback/otel", Framework.LOGBACK, Sink.OTLP),
  /** The Aliyun Log logback appender ({@code LoghubAppender}) to the SLS sink. */
  LOGBACK_ALIYUN("logback/aliyun", Framework.LOGBACK, Sink.SLS),
  /** Our log4j2 appender, configured exactly as docs/appenders.md shows. */
  LOG4J2_LOGPRODUCER("log4j2/logproducer", Framework.LOG4J2, Sink.OTLP),
  /** The same with {@code queueSize="0"} when the appender has that attribute (else as is). */
  LOG4J2_INLINE("log4j2/logproducer-inline", Framework.LOG4J2, Sink.OTLP),
  /** log4j2's {@code RandomAccessFileAppender}, PatternLayout, {@code immediateFlush=false}. */
  LOG4J2_RAF("log4j2/raf", Framework.LOG4J2, Sink.FILE),
  /** OpenTelemetry's log4j2 appender on the OpenTelemetry SDK ({@link OtelSdk}). */
  LOG4J2_OTEL("log4j2/otel", Framework.LOG4J2, Sink.OTLP);

  /** The logging framework of a variant. */
  public enum Framework {
    LOGBACK,
    LOG4J2
  }

  /** Where a variant's events go, and so how the suite counts them. */
  public enum Sink {
    /** The suite's OTLP/HTTP sink (a JVM of its own that counts records). */
    OTLP,
    /** The suite's SLS PutLogs sink (a JVM of its own that counts logs). */
    SLS,
    /** A file on local disk: delivered = its lines after the framework stopped. */
    FILE
  }

  private final String id;
  private final Framework framework;
  private final Sink sink;

  AppenderVariant(String id, Framework framework, Sink sink) {
    this.id = id;
    this.framework = framework;
    this.sink = sink;
  }

  /** {@return the variant's name, e.g. {@code logback/otel}} */
  public String id() {
    return id;
  }

  public Framework framework() {
    return framework;
  }

  public Sink sink() {
    return sink;
  }

  /** {@return whether this is one of ours (logproducer's appenders)} */
  public boolean ours() {
    return id.contains("/logproducer");
  }

  /**
   * {@return the variant named {@code id}}
   *
   * @throws IllegalArgumentException for an unknown id, listing the known ones
   */
  public static AppenderVariant byId(String id) {
    for (AppenderVariant v : values()) {
      if (v.id.equals(id)) {
        return v;
      }
    }
    List<String> known = Arrays.stream(values()).map(AppenderVariant::id).toList();
    throw new IllegalArgumentException("unknown variant '" + id + "'; known: " + known);
  }
}
