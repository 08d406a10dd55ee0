package io.logproducer.otlp.internal;

import io.logproducer.internal.InternalLogger;
import io.logproducer.spi.ExportResult;
import java.util.Locale;
import org.apache.hc.core5.http.impl.EnglishReasonPhraseCatalog;

/**
 * Turns an OTLP/HTTP answer into an {@link ExportResult}, as the OTLP specification ({@code
 * opentelemetry-proto/docs/specification.md}, "OTLP/HTTP Response") and the OpenTelemetry
 * Collector's receiver behave:
 *
 * <ul>
 *   <li>2xx: success; an {@code ExportLogsServiceResponse} whose {@code partial_success} rejects
 *       records is a partial success (not retried). The Collector always sends an empty {@code
 *       partial_success}: success.
 *   <li>429, 502, 503, 504: retryable, with the {@code Retry-After} delay when given.
 *   <li>413: too large (the producer splits the batch).
 *   <li>anything else (400, 401, 403, 404, 405, 415, 500, …): rejected for good.
 * </ul>
 *
 * Failure messages read "HTTP 400 Bad Request: " followed by the {@code google.rpc.Status} message
 * or the first {@value ResponseBodies#EXCERPT_BYTES} bytes of the body. Stateless, thread-safe;
 * never throws.
 */
public final class ExportResponses {

  private static final InternalLogger log = InternalLogger.get(ExportResponses.class);

  private ExportResponses() {}

  /**
   * @param status the HTTP status code
   * @param reasonPhrase the status line's reason phrase, or null/empty to use the standard one
   * @param retryAfter the {@code Retry-After} header, or null
   * @param contentType the response {@code Content-Type}, or null
   * @param body the response body, {@code [0, length)}
   * @param requestJson whether the request was JSON (the body's format when the receiver does not
   *     say)
   * @param nowMillis the current time in ms since the epoch, for an HTTP-date {@code Retry-After}
   */
  public static ExportResult toResult(
      int status,
      String reasonPhrase,
      String retryAfter,
      String contentType,
      byte[] body,
      int length,
      boolean requestJson,
      long nowMillis) {
    ResponseBodies.Format format = ResponseBodies.Format.of(contentType, requestJson);
    if (status >= 200 && status < 300) {
      return success(body, length, format);
    }
    String message = statusLine(status, reasonPhrase);
    String detail = ResponseBodies.errorMessage(body, length, format);
    if (!detail.isEmpty()) {
      message = message + ": " + detail;
    }
    switch (status) {
      case 429:
      case 502:
      case 503:
      case 504:
        return ExportResult.retryable(message, null, RetryAfter.parseMillis(retryAfter, nowMillis));
      case 413:
        return ExportResult.tooLarge(message);
      default:
        return ExportResult.rejected(message);
    }
  }

  /**
   * Classifies an accepted protobuf {@code ExportLogsServiceResponse} (OTLP/gRPC's OK answer) as
   * the HTTP exporter does a 2xx: rejected records make a partial success; a malformed body is a
   * success (the request was accepted).
   *
   * @param body the message, {@code [0, length)}
   * @param length its length in bytes
   * @return success or partial success; never throws
   */
  public static ExportResult accepted(byte[] body, int length) {
    return success(body, length, ResponseBodies.Format.PROTOBUF);
  }

  private static ExportResult success(byte[] body, int length, ResponseBodies.Format format) {
    ResponseBodies.PartialSuccess partial;
    try {
      partial = ResponseBodies.partialSuccess(body, length, format);
    } catch (IllegalArgumentException e) {
      log.debug(
          "could not read the export response ({} bytes); the request was accepted: {}",
          length,
          e.getMessage());
      return ExportResult.success();
    }
    if (partial.rejectedLogRecords > 0) {
      String message =
          partial.errorMessage.isEmpty()
              ? "the receiver rejected " + partial.rejectedLogRecords + " log records"
              : partial.errorMessage;
      return ExportResult.partialSuccess(partial.rejectedLogRecords, message);
    }
    if (!partial.errorMessage.isEmpty()) {
      log.debug("the receiver accepted all records with a warning: {}", partial.errorMessage);
    }
    return ExportResult.success();
  }

  /** RFC 9110 reason phrases for when the status line has none (HTTP/2, terse servers). */
  private static String standardReason(int status) {
    switch (status) {
      case 413:
        return "Content Too Large"; // RFC 9110; httpcore's catalog still has the RFC 2616 name
      case 429:
        return "Too Many Requests";
      default:
        return status >= 100 && status < 600
            ? EnglishReasonPhraseCatalog.INSTANCE.getReason(status, Locale.ENGLISH)
            : null;
    }
  }

  /** "HTTP 503 Service Unavailable". */
  static String statusLine(int status, String reasonPhrase) {
    String reason = reasonPhrase;
    if (reason == null || reason.trim().isEmpty()) {
      reason = standardReason(status);
    }
    return reason == null ? "HTTP " + status : "HTTP " + status + " " + reason.trim();
  }
}
