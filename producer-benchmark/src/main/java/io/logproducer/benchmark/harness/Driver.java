package io.logproducer.benchmark.harness;

import io.logproducer.LogRecord;

/**
 * A client under test as the harness drives it: application threads call {@link #send}, the harness
 * then calls {@link #flush} and reads the {@link Counters}. One instance per phase (warm-up,
 * measured).
 */
interface Driver extends AutoCloseable {

  /**
   * Hands one record to the client; may block (logproducer: buffer full; tuned OTel: queue full).
   */
  void send(LogRecord record);

  /** Waits until everything sent so far has an outcome. */
  void flush();

  /** The client's counters so far. */
  Counters counters();

  /**
   * The thread group a thread of this client belongs to ({@code sender}, {@code http}…), or null if
   * not ours.
   */
  String threadGroup(String threadName);

  @Override
  void close();

  /**
   * A client's counters. {@code peakBufferedBytes}, {@code totalSizeInBytes} are -1 when the client
   * has no byte bound (OTel).
   */
  record Counters(
      long accepted,
      long delivered,
      long failed,
      long dropped,
      long encodedBytes,
      long wireBytes,
      long peakBufferedBytes,
      long totalSizeInBytes,
      long sendBlockedNanos,
      long requests,
      double requestLatencyAvgMillis,
      long bufferedBytes) {}
}
