package io.logproducer.spi;

/**
 * What an {@link Exporter} reports for one export attempt of a batch. Immutable.
 *
 * <ul>
 *   <li>{@link #success()} — accepted;
 *   <li>{@link #partialSuccess(long, String)} — accepted, but the receiver rejected some records
 *       (not retried);
 *   <li>{@link #retryable(String, Throwable, long)} — a transient failure (connection error,
 *       timeout, HTTP 429/502/503/504): retried with backoff, honouring {@code retryAfterMillis}
 *       when the receiver gave one;
 *   <li>{@link #rejected(String)} — the receiver refused the request for good (HTTP 400, 401, …);
 *   <li>{@link #failed(String, Throwable)} — a final, non-retryable local failure;
 *   <li>{@link #tooLarge(String)} — the receiver refused the request as too large (HTTP 413): the
 *       producer splits the batch in halves and exports each (a single record that is too large is
 *       rejected).
 * </ul>
 */
public final class ExportResult {

  /** The kind of answer. */
  public enum Kind {
    /** Accepted: the batch's records are {@link io.logproducer.SendResult.Status#DELIVERED}. */
    SUCCESS,
    /**
     * Accepted with {@link #rejectedCount()} records rejected: the batch's records are {@link
     * io.logproducer.SendResult.Status#PARTIALLY_REJECTED}; not retried.
     */
    PARTIAL_SUCCESS,
    /**
     * A transient failure: the batch is retried with backoff within {@code retries} and the
     * delivery timeout.
     */
    RETRYABLE,
    /**
     * Refused for good by the receiver: the batch's records are {@link
     * io.logproducer.SendResult.Status#REJECTED}.
     */
    REJECTED,
    /**
     * A final local failure: the batch's records are {@link
     * io.logproducer.SendResult.Status#FAILED}.
     */
    FAILED,
    /**
     * Refused as too large: a batch of more than one record is split in halves, each exported anew;
     * a single record is {@link io.logproducer.SendResult.Status#REJECTED}.
     */
    TOO_LARGE
  }

  private static final ExportResult SUCCESS = new ExportResult(Kind.SUCCESS, 0, null, null, -1);

  private final Kind kind;
  private final long rejectedCount;
  private final String message;
  private final Throwable error;
  private final long retryAfterMillis;

  private ExportResult(
      Kind kind, long rejectedCount, String message, Throwable error, long retryAfterMillis) {
    this.kind = kind;
    this.rejectedCount = rejectedCount;
    this.message = message;
    this.error = error;
    this.retryAfterMillis = retryAfterMillis;
  }

  /** {@return the answer for an accepted batch (a shared instance)} */
  public static ExportResult success() {
    return SUCCESS;
  }

  /**
   * The answer for a batch accepted with some records rejected (OTLP {@code partial_success} with
   * {@code rejected_log_records} above 0).
   *
   * @param rejectedCount records rejected, at least 1
   * @param message the receiver's explanation (OTLP {@code error_message}), or null
   * @return a {@link Kind#PARTIAL_SUCCESS} answer
   */
  public static ExportResult partialSuccess(long rejectedCount, String message) {
    return new ExportResult(Kind.PARTIAL_SUCCESS, rejectedCount, message, null, -1);
  }

  /**
   * The answer for a transient failure, which the producer retries.
   *
   * @param message what happened, e.g. "HTTP 503 Service Unavailable"
   * @param error the exception behind it, or null
   * @param retryAfterMillis the receiver's requested delay in ms (e.g. from {@code Retry-After}),
   *     or -1 when it gave none
   * @return a {@link Kind#RETRYABLE} answer
   */
  public static ExportResult retryable(String message, Throwable error, long retryAfterMillis) {
    return new ExportResult(Kind.RETRYABLE, 0, message, error, retryAfterMillis);
  }

  /**
   * The answer for a request the receiver refused for good (e.g. HTTP 400, 401, 403).
   *
   * @param message the receiver's explanation, e.g. the status line and body
   * @return a {@link Kind#REJECTED} answer
   */
  public static ExportResult rejected(String message) {
    return new ExportResult(Kind.REJECTED, 0, message, null, -1);
  }

  /**
   * The answer for a final, non-retryable local failure.
   *
   * @param message what happened
   * @param error the exception behind it, or null
   * @return a {@link Kind#FAILED} answer
   */
  public static ExportResult failed(String message, Throwable error) {
    return new ExportResult(Kind.FAILED, 0, message, error, -1);
  }

  /**
   * The answer for a request refused as too large (e.g. HTTP 413), which makes the producer split
   * the batch.
   *
   * @param message the receiver's explanation
   * @return a {@link Kind#TOO_LARGE} answer
   */
  public static ExportResult tooLarge(String message) {
    return new ExportResult(Kind.TOO_LARGE, 0, message, null, -1);
  }

  /** {@return the kind of answer, never null} */
  public Kind kind() {
    return kind;
  }

  /**
   * {@return the number of records the receiver rejected, for {@link Kind#PARTIAL_SUCCESS}; else 0}
   */
  public long rejectedCount() {
    return rejectedCount;
  }

  /** {@return a human-readable explanation ("HTTP 503 Service Unavailable: …"), or null} */
  public String message() {
    return message;
  }

  /** {@return the exception behind the failure, or null} */
  public Throwable error() {
    return error;
  }

  /** {@return the delay the receiver asked for before a retry, in ms; -1 when none was given} */
  public long retryAfterMillis() {
    return retryAfterMillis;
  }

  @Override
  public String toString() {
    return kind
        + (message != null ? ": " + message : "")
        + (error != null ? " (" + error + ")" : "");
  }
}
