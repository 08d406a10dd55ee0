package io.logproducer.benchmark.appenders;

import java.util.List;

/**
 * What a child measured, printed as one line {@code result name=value …} ({@link RecordWords}) and
 * parsed back by the suite.
 *
 * @param events events logged in the measured phase
 * @param loggingNanos wall time from the start of the measured phase until every logging thread
 *     finished
 * @param windowNanos wall time from the start of the measured phase until the framework stopped
 * @param loggingCpuNanos the logging threads' CPU ({@code ThreadMXBean}) in the measured phase,
 *     pacing included
 * @param pacingNanos the pacing's estimated share of {@code loggingCpuNanos} (0 when saturated)
 * @param allocatedBytes the logging threads' allocation in the measured phase
 * @param processCpuNanos the whole process's CPU over the window (stop included)
 * @param stopCpuNanos the part of it spent stopping the framework
 * @param groups CPU ns by thread group while logging, in {@code AppenderSuiteResults.GROUPS} order
 *     ({@code other} includes threads that exited)
 * @param fileLines file variants: lines in the file after the stop (warm-up included), else -1
 * @param queueSizeAttribute log4j2: whether our appender had a {@code queueSize} attribute
 */
record ChildResult(
    long events,
    long loggingNanos,
    long windowNanos,
    long loggingCpuNanos,
    long pacingNanos,
    long allocatedBytes,
    long processCpuNanos,
    long stopCpuNanos,
    long[] groups,
    long fileLines,
    boolean queueSizeAttribute) {

  static final String PREFIX = "result ";

  /** {@return the line the child prints} */
  String format() {
    return PREFIX + String.join(" ", RecordWords.of(this));
  }

  /**
   * Parses {@link #format()}'s line.
   *
   * @throws IllegalArgumentException if {@code line} is not a result line
   */
  static ChildResult parse(String line) {
    if (line == null || !line.startsWith(PREFIX)) {
      throw new IllegalArgumentException("not a child result: " + line);
    }
    return RecordWords.parse(
        ChildResult.class, List.of(line.substring(PREFIX.length()).split(" ")));
  }
}
