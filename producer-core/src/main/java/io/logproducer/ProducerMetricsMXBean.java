package io.logproducer;

/**
 * The JMX view of {@link ProducerMetrics}, registered as {@code io.logproducer:type=Producer,clientId=<clientId>}
 * unless {@code jmxEnabled} is false. Attributes read live values.
 */
public interface ProducerMetricsMXBean {
  long getRecordsAccepted();

  long getRecordsSent();

  long getBytesSent();

  long getWireBytesSent();

  long getRecordsRejected();

  long getRecordsFailed();

  long getRecordsDropped();

  long getBatchesSent();

  long getBatchesFailed();

  long getRetries();

  long getBufferedBytes();

  long getPeakBufferedBytes();

  long getTotalSizeInBytes();

  int getWaitingThreads();

  long getSendBlockedNanos();

  long getRequests();

  double getRequestLatencyAvgMillis();

  long getRequestLatencyNanosMax();

  /**
   * The most recent export failure as text, or null; see {@link ProducerMetrics#getLastError()}.
   *
   * @return the last failure's text, or null
   */
  String getLastError();
}
