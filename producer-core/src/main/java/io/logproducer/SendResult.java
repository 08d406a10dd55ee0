package io.logproducer;

/**
 * The outcome of a record: one instance describes a whole batch and is shared by all its records'
 * callbacks. Immutable and thread-safe.
 */
public final class SendResult {

  /** What became of the record. */
  public enum Status {
    /** The receiver accepted the batch holding the record. */
    DELIVERED,
    /**
     * The receiver accepted the batch but rejected {@link #getRejectedCount()} of its records (OTLP
     * {@code partial_success}) without saying which; not retried.
     */
    PARTIALLY_REJECTED,
    /** The receiver refused the batch with a final answer (e.g. HTTP 400); not retried. */
    REJECTED,
    /**
     * Retries were exhausted, {@code deliveryTimeoutMillis} passed, or a non-retryable error
     * occurred.
     */
    FAILED,
    /**
     * The producer was closed (or its close timeout ran out) before the record could be delivered.
     */
    FAILED_AT_CLOSE,
    /** Not accepted: the buffer was full and {@link BufferFullPolicy#DROP} was chosen. */
    DROPPED,
    /**
     * Durably stored per the durability policy ({@link SpoolDurability}) in the producer's spool
     * ({@link ProducerConfig#getSpool()}); this producer, or the next one on the same directory,
     * will deliver it; later fates are counted in the metrics and reported to the SpoolListener.
     * Given instead of {@link #FAILED} or {@link #FAILED_AT_CLOSE} to a batch that reached its
     * {@code deliveryTimeoutMillis}, ran out of retries or was undelivered at {@code close()}.
     *
     * <p>At least once: a spooled batch whose export was still in flight when it got this outcome
     * is not replayed while that export lasts; its late answer, if a delivery, removes it from the
     * spool, and only another answer leaves it to replay, so within one process it reaches the
     * receiver once. A batch can be delivered twice only when the process dies (e.g. {@code kill
     * -9}) after the receiver took the request but before the producer removed the batch from the
     * spool: every removal is journaled the moment the answer is taken, so the next producer
     * replays at most the batches in flight at the kill ({@code sendThreads} live exports plus
     * {@link SpoolConfig#getReplayExports(int)} replay exports), each once more; after a power
     * loss, also those removed within the last {@code groupCommitMillis}. Each batch's sequence
     * ({@link SpoolListener}) is the key a receiver can drop such a duplicate by.
     */
    SPOOLED
  }

  private final Status status;
  private final int attempts;
  private final int batchRecordCount;
  private final long rejectedCount;
  private final String message;
  private final Throwable error;

  /**
   * @param status outcome
   * @param attempts number of export attempts made for the batch (0 when never sent)
   * @param batchRecordCount records in the batch this outcome describes
   * @param rejectedCount records the receiver rejected (the batch size for REJECTED, 0 when
   *     delivered)
   * @param message the receiver's or the producer's explanation, or null
   * @param error the cause of a failure, or null
   */
  public SendResult(
      Status status,
      int attempts,
      int batchRecordCount,
      long rejectedCount,
      String message,
      Throwable error) {
    if (status == null) {
      throw new IllegalArgumentException("status must not be null");
    }
    this.status = status;
    this.attempts = attempts;
    this.batchRecordCount = batchRecordCount;
    this.rejectedCount = rejectedCount;
    this.message = message;
    this.error = error;
  }

  /** {@return what became of the record, never null} */
  public Status getStatus() {
    return status;
  }

  /**
   * Whether the record is known to be delivered: true only for {@link Status#DELIVERED}. False for
   * {@link Status#PARTIALLY_REJECTED} too (the receiver refused some records of the batch without
   * saying which). The future of {@link Producer#sendAsync(LogRecord)} completes normally exactly
   * when this is true.
   *
   * @return {@code getStatus() == DELIVERED}
   */
  public boolean isSuccess() {
    return status == Status.DELIVERED;
  }

  /**
   * {@return the export attempts made for the record's batch (1 = delivered first time; 0 = never
   * sent)}
   */
  public int getAttempts() {
    return attempts;
  }

  /** {@return the number of records in the batch this outcome describes (1 for DROPPED)} */
  public int getBatchRecordCount() {
    return batchRecordCount;
  }

  /** {@return the number of records of the batch that the receiver rejected} */
  public long getRejectedCount() {
    return rejectedCount;
  }

  /**
   * {@return the receiver's message (e.g. OTLP {@code error_message}, an HTTP status line) or the
   * producer's; may be null}
   */
  public String getMessage() {
    return message;
  }

  /** {@return the failure's cause, or null} */
  public Throwable getError() {
    return error;
  }

  @Override
  public String toString() {
    StringBuilder sb =
        new StringBuilder("SendResult{")
            .append(status)
            .append(", attempts=")
            .append(attempts)
            .append(", batchRecords=")
            .append(batchRecordCount);
    if (rejectedCount > 0) {
      sb.append(", rejected=").append(rejectedCount);
    }
    if (message != null) {
      sb.append(", message=").append(message);
    }
    if (error != null) {
      sb.append(", error=").append(error);
    }
    return sb.append('}').toString();
  }
}
