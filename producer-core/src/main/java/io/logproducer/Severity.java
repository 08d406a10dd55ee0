package io.logproducer;

/**
 * OTLP severity numbers ({@code SeverityNumber} in {@code opentelemetry/proto/logs/v1/logs.proto}): TRACE 1–4,
 * DEBUG 5–8, INFO 9–12, WARN 13–16, ERROR 17–20, FATAL 21–24. {@link #UNSPECIFIED} is 0.
 */
public enum Severity {
  UNSPECIFIED(0, ""),
  TRACE(1, "TRACE"), TRACE2(2, "TRACE2"), TRACE3(3, "TRACE3"), TRACE4(4, "TRACE4"),
  DEBUG(5, "DEBUG"), DEBUG2(6, "DEBUG2"), DEBUG3(7, "DEBUG3"), DEBUG4(8, "DEBUG4"),
  INFO(9, "INFO"), INFO2(10, "INFO2"), INFO3(11, "INFO3"), INFO4(12, "INFO4"),
  WARN(13, "WARN"), WARN2(14, "WARN2"), WARN3(15, "WARN3"), WARN4(16, "WARN4"),
  ERROR(17, "ERROR"), ERROR2(18, "ERROR2"), ERROR3(19, "ERROR3"), ERROR4(20, "ERROR4"),
  FATAL(21, "FATAL"), FATAL2(22, "FATAL2"), FATAL3(23, "FATAL3"), FATAL4(24, "FATAL4");

  private static final Severity[] BY_NUMBER = values();

  private final int number;
  private final String text;

  Severity(int number, String text) {
    this.number = number;
    this.text = text;
  }

  /** The OTLP {@code severity_number}, 0–24. */
  public int number() {
    return number;
  }

  /** The conventional short name used as {@code severity_text} ("INFO", "WARN2", …; empty for UNSPECIFIED). */
  public String text() {
    return text;
  }

  /** @throws IllegalArgumentException if {@code number} is outside [0, 24] */
  public static Severity fromNumber(int number) {
    if (number < 0 || number >= BY_NUMBER.length) {
      throw new IllegalArgumentException("severityNumber must be in [0, 24], was " + number);
    }
    return BY_NUMBER[number];
  }
}
