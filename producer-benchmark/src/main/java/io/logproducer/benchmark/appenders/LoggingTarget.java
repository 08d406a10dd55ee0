package io.logproducer.benchmark.appenders;

/**
 * A configured logging framework as {@link AppenderChild} drives it. Implementations are loaded by
 * name ({@link #load}) so that a child JVM only loads the classes of its own framework (its class
 * path has no other). Thread-safety: {@link #putContext} and {@link #log} from any logging thread;
 * {@link #stop} once, after the logging threads finished.
 */
interface LoggingTarget {

  /** Puts an MDC / ThreadContext entry on the calling thread. */
  void putContext(String key, String value);

  /** {@code logger.info(Workload.FORMAT, id, user)}. */
  void log(String id, String user);

  /**
   * Stops the framework the way an application's shutdown does (which makes its appenders flush or
   * ship what they buffered) and, for OpenTelemetry, shuts the SDK down (its processor exports what
   * it queued).
   *
   * @throws Exception when the framework cannot stop within its bound
   */
  void stop() throws Exception;

  /**
   * {@return the target of {@code spec}'s framework, configured from the configuration file the
   * framework finds through its system property}
   *
   * @throws Exception when the framework or the variant's appender did not start
   */
  static LoggingTarget load(ChildSpec spec) throws Exception {
    String cls =
        spec.variant().framework() == AppenderVariant.Framework.LOGBACK
            ? "io.logproducer.benchmark.appenders.LogbackTarget"
            : "io.logproducer.benchmark.appenders.Log4j2Target";
    return (LoggingTarget)
        Class.forName(cls).getDeclaredConstructor(ChildSpec.class).newInstance(spec);
  }
}
