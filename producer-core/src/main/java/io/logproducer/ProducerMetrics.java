package io.logproducer;

/**
 * A point-in-time snapshot of a producer's counters; immutable. Counters are cumulative since the
 * producer was created. "Bytes" are encoded record bytes (before compression) unless named "wire".
 *
 * <p>Every accepted record ends in exactly one of {@code recordsSent}, {@code recordsRejected},
 * {@code recordsFailed}; so {@code recordsAccepted - recordsSent - recordsRejected - recordsFailed}
 * is the number still in the producer. {@code recordsDropped} counts records that were never
 * accepted.
 */
public final class ProducerMetrics {
  private final long recordsAccepted;
  private final long recordsSent;
  private final long bytesSent;
  private final long wireBytesSent;
  private final long recordsRejected;
  private final long recordsFailed;
  private final long recordsDropped;
  private final long batchesSent;
  private final long batchesFailed;
  private final long retries;
  private final long bufferedBytes;
  private final long peakBufferedBytes;
  private final long totalSizeInBytes;
  private final int waitingThreads;
  private final long sendBlockedNanos;
  private final long requests;
  private final long requestLatencyNanosTotal;
  private final long requestLatencyNanosMax;
  private final String lastError;

  /**
   * Creates a snapshot; used by the producer ({@link Producer#getMetrics()}). Each argument is the
   * value of the getter of the same name.
   *
   * @param recordsAccepted records accepted by {@code send}
   * @param recordsSent records delivered
   * @param bytesSent encoded bytes of delivered batches
   * @param wireBytesSent request body bytes (after compression) of delivered batches
   * @param recordsRejected records the receiver rejected
   * @param recordsFailed records that failed
   * @param recordsDropped records dropped under {@link BufferFullPolicy#DROP}
   * @param batchesSent batches delivered
   * @param batchesFailed batches rejected or failed
   * @param retries export attempts that were retries
   * @param bufferedBytes bytes of the budget the batches hold now
   * @param peakBufferedBytes highest use of the budget seen, bytes
   * @param totalSizeInBytes the configured budget, bytes
   * @param waitingThreads threads blocked in {@code send} now
   * @param sendBlockedNanos total time {@code send} callers spent blocked, nanoseconds
   * @param requests export requests made
   * @param requestLatencyNanosTotal sum of export request latencies, nanoseconds
   * @param requestLatencyNanosMax longest export request latency, nanoseconds
   * @param lastError the most recent export failure as text (see {@link #getLastError()}), or null
   */
  public ProducerMetrics(
      long recordsAccepted,
      long recordsSent,
      long bytesSent,
      long wireBytesSent,
      long recordsRejected,
      long recordsFailed,
      long recordsDropped,
      long batchesSent,
      long batchesFailed,
      long retries,
      long bufferedBytes,
      long peakBufferedBytes,
      long totalSizeInBytes,
      int waitingThreads,
      long sendBlockedNanos,
      long requests,
      long requestLatencyNanosTotal,
      long requestLatencyNanosMax,
      String lastError) {
    this.recordsAccepted = recordsAccepted;
    this.recordsSent = recordsSent;
    this.bytesSent = bytesSent;
    this.wireBytesSent = wireBytesSent;
    this.recordsRejected = recordsRejected;
    this.recordsFailed = recordsFailed;
    this.recordsDropped = recordsDropped;
    this.batchesSent = batchesSent;
    this.batchesFailed = batchesFailed;
    this.retries = retries;
    this.bufferedBytes = bufferedBytes;
    this.peakBufferedBytes = peakBufferedBytes;
    this.totalSizeInBytes = totalSizeInBytes;
    this.waitingThreads = waitingThreads;
    this.sendBlockedNanos = sendBlockedNanos;
    this.requests = requests;
    this.requestLatencyNanosTotal = requestLatencyNanosTotal;
    this.requestLatencyNanosMax = requestLatencyNanosMax;
    this.lastError = lastError;
  }

  /** {@return records accepted by {@code send}} */
  public long getRecordsAccepted() {
    return recordsAccepted;
  }

  /**
   * {@return records delivered (for a partial success: the batch's records minus the rejected
   * ones)}
   */
  public long getRecordsSent() {
    return recordsSent;
  }

  /** {@return encoded bytes of delivered batches} */
  public long getBytesSent() {
    return bytesSent;
  }

  /** {@return request body bytes (after compression) of delivered batches} */
  public long getWireBytesSent() {
    return wireBytesSent;
  }

  /** {@return records the receiver rejected (final HTTP errors, partial success)} */
  public long getRecordsRejected() {
    return recordsRejected;
  }

  /**
   * {@return records that failed after retries, by delivery timeout, by a non-retryable error, or
   * at close}
   */
  public long getRecordsFailed() {
    return recordsFailed;
  }

  /**
   * {@return records not accepted because the buffer was full under {@link BufferFullPolicy#DROP}}
   */
  public long getRecordsDropped() {
    return recordsDropped;
  }

  /** {@return batches delivered (including partial successes)} */
  public long getBatchesSent() {
    return batchesSent;
  }

  /** {@return batches rejected or failed} */
  public long getBatchesFailed() {
    return batchesFailed;
  }

  /** {@return export attempts that were retries} */
  public long getRetries() {
    return retries;
  }

  /**
   * {@return bytes of the budget the batches hold now (open, sealed, in flight, retrying)} That is
   * their records' chunks, charged whole, and bookkeeping; 0 when nothing is buffered. Chunks
   * pooled for reuse are not counted here.
   */
  public long getBufferedBytes() {
    return bufferedBytes;
  }

  /**
   * {@return the highest use of the budget seen, in bytes, pooled chunks included} At most {@link
   * #getTotalSizeInBytes()} (a batch split on a send thread may pass it briefly by the size of its
   * halves' bookkeeping).
   */
  public long getPeakBufferedBytes() {
    return peakBufferedBytes;
  }

  /** {@return the configured budget ({@code totalSizeInBytes}), bytes} */
  public long getTotalSizeInBytes() {
    return totalSizeInBytes;
  }

  /** {@return threads blocked in {@code send} waiting for buffer space now} */
  public int getWaitingThreads() {
    return waitingThreads;
  }

  /**
   * {@return the total time {@code send} callers spent blocked waiting for buffer space,
   * nanoseconds}
   */
  public long getSendBlockedNanos() {
    return sendBlockedNanos;
  }

  /** {@return export requests made (attempts, including retries)} */
  public long getRequests() {
    return requests;
  }

  /** {@return the sum of export request latencies (compression excluded), nanoseconds} */
  public long getRequestLatencyNanosTotal() {
    return requestLatencyNanosTotal;
  }

  /** {@return the longest export request latency, nanoseconds} */
  public long getRequestLatencyNanosMax() {
    return requestLatencyNanosMax;
  }

  /** {@return the mean export request latency in milliseconds, 0 when no request was made} */
  public double getRequestLatencyAvgMillis() {
    return requests == 0 ? 0 : requestLatencyNanosTotal / 1e6 / requests;
  }

  /**
   * The most recent export failure — a retried attempt, a rejection, a partial rejection or a
   * failure — as {@code "<ISO-8601 time> <exporter>: <message>"} (e.g. {@code
   * "2026-11-22T19:40:01.123Z OTLP/HTTP http://127.0.0.1:4318/v1/logs: Connection refused, retry 3
   * in 400 ms"}), or null if every attempt so far succeeded. Visible without any logging set up,
   * here and over JMX ({@code LastError}).
   *
   * @return the last failure's text, or null
   */
  public String getLastError() {
    return lastError;
  }

  @Override
  public String toString() {
    return "ProducerMetrics{accepted="
        + recordsAccepted
        + ", sent="
        + recordsSent
        + ", rejected="
        + recordsRejected
        + ", failed="
        + recordsFailed
        + ", dropped="
        + recordsDropped
        + ", bytesSent="
        + bytesSent
        + ", wireBytesSent="
        + wireBytesSent
        + ", batchesSent="
        + batchesSent
        + ", batchesFailed="
        + batchesFailed
        + ", retries="
        + retries
        + ", bufferedBytes="
        + bufferedBytes
        + ", peakBufferedBytes="
        + peakBufferedBytes
        + ", waitingThreads="
        + waitingThreads
        + ", sendBlockedMs="
        + sendBlockedNanos / 1_000_000
        + ", requests="
        + requests
        + ", requestLatencyAvgMs="
        + String.format(java.util.Locale.ROOT, "%.2f", getRequestLatencyAvgMillis())
        + (lastError == null ? "" : ", lastError=" + lastError)
        + "}";
  }
}
