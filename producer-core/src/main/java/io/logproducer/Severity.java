package io.logproducer;

/**
 * OTLP severity numbers ({@code SeverityNumber} in {@code opentelemetry/proto/logs/v1/logs.proto}):
 * TRACE 1–4, DEBUG 5–8, INFO 9–12, WARN 13–16, ERROR 17–20, FATAL 21–24. {@link #UNSPECIFIED} is 0.
 * The meanings of the ranges are those of the OpenTelemetry logs data model ({@code
 * specification/logs/data-model.md}, "Field: SeverityNumber"); within a range, a larger number is
 * more severe.
 */
public enum Severity {
  /** 0: the severity is not specified; no severity text. */
  UNSPECIFIED(0, ""),
  /** 1: a fine-grained debugging event, typically disabled in default configurations. */
  TRACE(1, "TRACE"),
  /** 2: a trace event, more severe than {@link #TRACE}. */
  TRACE2(2, "TRACE2"),
  /** 3: a trace event, more severe than {@link #TRACE2}. */
  TRACE3(3, "TRACE3"),
  /** 4: the most severe trace event. */
  TRACE4(4, "TRACE4"),
  /** 5: a debugging event. */
  DEBUG(5, "DEBUG"),
  /** 6: a debugging event, more severe than {@link #DEBUG}. */
  DEBUG2(6, "DEBUG2"),
  /** 7: a debugging event, more severe than {@link #DEBUG2}. */
  DEBUG3(7, "DEBUG3"),
  /** 8: the most severe debugging event. */
  DEBUG4(8, "DEBUG4"),
  /** 9: an informational event: something happened. */
  INFO(9, "INFO"),
  /** 10: an informational event, more severe than {@link #INFO}. */
  INFO2(10, "INFO2"),
  /** 11: an informational event, more severe than {@link #INFO2}. */
  INFO3(11, "INFO3"),
  /** 12: the most severe informational event. */
  INFO4(12, "INFO4"),
  /** 13: a warning: not an error, but likely more important than an informational event. */
  WARN(13, "WARN"),
  /** 14: a warning, more severe than {@link #WARN}. */
  WARN2(14, "WARN2"),
  /** 15: a warning, more severe than {@link #WARN2}. */
  WARN3(15, "WARN3"),
  /** 16: the most severe warning. */
  WARN4(16, "WARN4"),
  /** 17: an error: something went wrong. */
  ERROR(17, "ERROR"),
  /** 18: an error, more severe than {@link #ERROR}. */
  ERROR2(18, "ERROR2"),
  /** 19: an error, more severe than {@link #ERROR2}. */
  ERROR3(19, "ERROR3"),
  /** 20: the most severe error. */
  ERROR4(20, "ERROR4"),
  /** 21: a fatal error, such as an application or system crash. */
  FATAL(21, "FATAL"),
  /** 22: a fatal error, more severe than {@link #FATAL}. */
  FATAL2(22, "FATAL2"),
  /** 23: a fatal error, more severe than {@link #FATAL2}. */
  FATAL3(23, "FATAL3"),
  /** 24: the most severe fatal error. */
  FATAL4(24, "FATAL4");

  private static final Severity[] BY_NUMBER = values();

  private final int number;
  private final String text;

  Severity(int number, String text) {
    this.number = number;
    this.text = text;
  }

  /** {@return the OTLP {@code severity_number}, 0–24} */
  public int number() {
    return number;
  }

  /**
   * {@return the conventional short name used as {@code severity_text} ("INFO", "WARN2", …; empty
   * for UNSPECIFIED)}
   */
  public String text() {
    return text;
  }

  /**
   * The constant for an OTLP severity number.
   *
   * @param number the {@code severity_number}, 0–24
   * @return the constant whose {@link #number()} is {@code number}
   * @throws IllegalArgumentException if {@code number} is outside [0, 24]
   */
  public static Severity fromNumber(int number) {
    if (number < 0 || number >= BY_NUMBER.length) {
      throw new IllegalArgumentException("severityNumber must be in [0, 24], was " + number);
    }
    return BY_NUMBER[number];
  }
}
