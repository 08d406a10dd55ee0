package io.logproducer.spi;

/**
 * What an {@link Exporter} reports for one export attempt of a batch. Immutable.
 *
 * <ul>
 *   <li>{@link #success()} — accepted;</li>
 *   <li>{@link #partialSuccess(long, String)} — accepted, but the receiver rejected some records (not retried);</li>
 *   <li>{@link #retryable(String, Throwable, long)} — a transient failure (connection error, timeout, HTTP
 *       429/502/503/504): retried with backoff, honouring {@code retryAfterMillis} when the receiver gave one;</li>
 *   <li>{@link #rejected(String)} — the receiver refused the request for good (HTTP 400, 401, …);</li>
 *   <li>{@link #failed(String, Throwable)} — a final, non-retryable local failure;</li>
 *   <li>{@link #tooLarge(String)} — the receiver refused the request as too large (HTTP 413): the producer splits
 *       the batch in halves and exports each (a single record that is too large is rejected).</li>
 * </ul>
 */
public final class ExportResult {

  /** The kind of answer. */
  public enum Kind { SUCCESS, PARTIAL_SUCCESS, RETRYABLE, REJECTED, FAILED, TOO_LARGE }

  private static final ExportResult SUCCESS = new ExportResult(Kind.SUCCESS, 0, null, null, -1);

  private final Kind kind;
  private final long rejectedCount;
  private final String message;
  private final Throwable error;
  private final long retryAfterMillis;

  private ExportResult(Kind kind, long rejectedCount, String message, Throwable error, long retryAfterMillis) {
    this.kind = kind;
    this.rejectedCount = rejectedCount;
    this.message = message;
    this.error = error;
    this.retryAfterMillis = retryAfterMillis;
  }

  public static ExportResult success() {
    return SUCCESS;
  }

  /** @param rejectedCount records rejected, at least 1 */
  public static ExportResult partialSuccess(long rejectedCount, String message) {
    return new ExportResult(Kind.PARTIAL_SUCCESS, rejectedCount, message, null, -1);
  }

  /** @param retryAfterMillis the receiver's requested delay in ms, or -1 when it gave none */
  public static ExportResult retryable(String message, Throwable error, long retryAfterMillis) {
    return new ExportResult(Kind.RETRYABLE, 0, message, error, retryAfterMillis);
  }

  public static ExportResult rejected(String message) {
    return new ExportResult(Kind.REJECTED, 0, message, null, -1);
  }

  public static ExportResult failed(String message, Throwable error) {
    return new ExportResult(Kind.FAILED, 0, message, error, -1);
  }

  public static ExportResult tooLarge(String message) {
    return new ExportResult(Kind.TOO_LARGE, 0, message, null, -1);
  }

  public Kind kind() {
    return kind;
  }

  /** Records the receiver rejected, for {@link Kind#PARTIAL_SUCCESS}. */
  public long rejectedCount() {
    return rejectedCount;
  }

  /** A human-readable explanation ("HTTP 503 Service Unavailable: …"), or null. */
  public String message() {
    return message;
  }

  /** The exception behind the failure, or null. */
  public Throwable error() {
    return error;
  }

  /** Delay the receiver asked for before a retry, in ms; -1 when none was given. */
  public long retryAfterMillis() {
    return retryAfterMillis;
  }

  @Override
  public String toString() {
    return kind + (message != null ? ": " + message : "") + (error != null ? " (" + error + ")" : "");
  }
}
