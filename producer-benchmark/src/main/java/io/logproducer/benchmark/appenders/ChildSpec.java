package io.logproducer.benchmark.appenders;

import java.util.List;

/**
 * What one child JVM runs ({@link AppenderChild}), passed on its command line as {@link
 * RecordWords}.
 *
 * @param variant the appender
 * @param threads logging threads, >= 1
 * @param regime saturated or paced
 * @param eventsPerThread saturated: events each thread logs in the measured phase
 * @param ratePerThread paced: events per second of each thread
 * @param durationMillis paced: how long the measured phase lasts
 * @param warmupEventsPerThread events each thread logs before the measured phase (not counted)
 * @param endpoint the sink's base URL ({@code http://127.0.0.1:port}); unused for file variants
 * @param workDir where the child writes its framework configuration and, for file variants, the log
 *     file
 * @param jfrFile where to dump a JFR recording of the measured phase, or "" for none
 */
record ChildSpec(
    AppenderVariant variant,
    int threads,
    Regime regime,
    long eventsPerThread,
    double ratePerThread,
    long durationMillis,
    long warmupEventsPerThread,
    String endpoint,
    String workDir,
    String jfrFile) {

  /** {@return events each thread logs in the measured phase} */
  long eventsEach() {
    return regime == Regime.PACED
        ? (long) (ratePerThread * durationMillis / 1000.0)
        : eventsPerThread;
  }

  /** {@return the child's command-line arguments} */
  List<String> toArgs() {
    return RecordWords.of(this);
  }

  /**
   * {@return the spec {@link #toArgs()} wrote}
   *
   * @throws IllegalArgumentException naming the argument that is missing or malformed
   */
  static ChildSpec parse(String[] args) {
    return RecordWords.parse(ChildSpec.class, List.of(args));
  }
}
