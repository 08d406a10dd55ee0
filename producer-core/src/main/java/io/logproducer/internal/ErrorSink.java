package io.logproducer.internal;

/**
 * Where a part of the producer that does not hold its {@link Metrics} notes a problem for the
 * metrics' last error ({@code ProducerMetrics.getLastError()}): the delivery deadline, replay, the
 * spool writer and the spool's metrics. Implementations are thread-safe.
 */
@FunctionalInterface
interface ErrorSink {
  /**
   * Notes a problem.
   *
   * @param source what it concerns: the exporter's description
   * @param message what went wrong
   */
  void noteError(String source, String message);
}
