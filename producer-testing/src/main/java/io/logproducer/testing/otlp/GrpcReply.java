package io.logproducer.testing.otlp;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

/**
 * A scripted answer of {@link OtlpGrpcReceiver} to one {@code Export} call: a gRPC status (with an
 * {@code ExportLogsServiceResponse} message for OK), optionally after a delay or once a latch is
 * released, or a transport fault (GOAWAY, RST_STREAM, a dropped connection). Immutable and
 * thread-safe; the {@code with…}, {@link #afterHeaders()}, {@link #delayed} and {@link #heldBy}
 * methods return a copy.
 *
 * <p>Status codes are those of the gRPC specification ({@code grpc/doc/statuscodes.md}): 0 OK, 1
 * CANCELLED, 3 INVALID_ARGUMENT, 4 DEADLINE_EXCEEDED, 8 RESOURCE_EXHAUSTED, 10 ABORTED, 11
 * OUT_OF_RANGE, 12 UNIMPLEMENTED, 13 INTERNAL, 14 UNAVAILABLE, 15 DATA_LOSS, 16 UNAUTHENTICATED.
 *
 * <p>Examples: {@code GrpcReply.status(14, "try later").withRetryInfo(2000)}, {@code
 * GrpcReply.partialSuccess(request, 3, "bad attributes")}, {@code
 * GrpcReply.ok(request).delayed(100)}, {@code GrpcReply.goAway()}.
 */
public final class GrpcReply {

  /** Status OK. */
  public static final int OK = 0;

  /** Status CANCELLED. */
  public static final int CANCELLED = 1;

  /** Status INVALID_ARGUMENT. */
  public static final int INVALID_ARGUMENT = 3;

  /** Status DEADLINE_EXCEEDED. */
  public static final int DEADLINE_EXCEEDED = 4;

  /** Status RESOURCE_EXHAUSTED. */
  public static final int RESOURCE_EXHAUSTED = 8;

  /** Status ABORTED. */
  public static final int ABORTED = 10;

  /** Status OUT_OF_RANGE. */
  public static final int OUT_OF_RANGE = 11;

  /** Status UNIMPLEMENTED. */
  public static final int UNIMPLEMENTED = 12;

  /** Status INTERNAL. */
  public static final int INTERNAL = 13;

  /** Status UNAVAILABLE. */
  public static final int UNAVAILABLE = 14;

  /** Status DATA_LOSS. */
  public static final int DATA_LOSS = 15;

  /** Status UNAUTHENTICATED. */
  public static final int UNAUTHENTICATED = 16;

  /** The transport fault of an answer, if any. */
  enum Fault {
    NONE,
    GO_AWAY,
    RESET_STREAM,
    DROP_CONNECTION
  }

  private final int code;
  private final String message;
  private final byte[] response; // the ExportLogsServiceResponse, null without a message
  private final boolean afterHeaders;
  private final long retryDelayMillis; // -1: no RetryInfo
  private final long delayMillis;
  private final CountDownLatch hold;
  private final Fault fault;

  private GrpcReply(
      int code,
      String message,
      byte[] response,
      boolean afterHeaders,
      long retryDelayMillis,
      long delayMillis,
      CountDownLatch hold,
      Fault fault) {
    this.code = code;
    this.message = message;
    this.response = response;
    this.afterHeaders = afterHeaders;
    this.retryDelayMillis = retryDelayMillis;
    this.delayMillis = delayMillis;
    this.hold = hold;
    this.fault = fault;
  }

  /**
   * OK with an empty {@code ExportLogsServiceResponse} (a zero-length message): what the Collector
   * answers a fully accepted request.
   *
   * @param request the request answered
   * @return the answer
   */
  public static GrpcReply ok(ReceivedRequest request) {
    return new GrpcReply(OK, "", new byte[0], false, -1, 0, null, Fault.NONE);
  }

  /**
   * OK with an {@code ExportLogsServiceResponse} whose {@code partial_success} rejects {@code
   * rejected} records with {@code message}.
   *
   * @param request the request answered
   * @param rejected the number of records rejected, at least 0
   * @param message why, "" for no message
   * @return the answer
   * @throws IllegalArgumentException if {@code rejected} is negative
   */
  public static GrpcReply partialSuccess(ReceivedRequest request, long rejected, String message) {
    if (rejected < 0) {
      throw new IllegalArgumentException("rejected must be >= 0, was " + rejected);
    }
    // ExportLogsServiceResponse { ExportLogsPartialSuccess partial_success = 1 {
    //   int64 rejected_log_records = 1; string error_message = 2; } }
    ByteArrayOutputStream partial = new ByteArrayOutputStream();
    if (rejected != 0) {
      partial.write(1 << 3);
      GrpcWire.writeVarint(partial, rejected);
    }
    byte[] m = message.getBytes(StandardCharsets.UTF_8);
    if (m.length > 0) {
      GrpcWire.writeField(partial, 2, m);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    GrpcWire.writeField(out, 1, partial.toByteArray());
    return new GrpcReply(OK, "", out.toByteArray(), false, -1, 0, null, Fault.NONE);
  }

  /**
   * A trailers-only answer with status {@code code} and {@code message}: one HEADERS frame with
   * END_STREAM carrying {@code :status 200}, {@code content-type: application/grpc}, {@code
   * grpc-status} and {@code grpc-message} (percent-encoded, omitted when empty).
   *
   * @param code the gRPC status code, in [1, 16]
   * @param message the status message, "" for none
   * @return the answer
   * @throws IllegalArgumentException if {@code code} is outside [1, 16]
   */
  public static GrpcReply status(int code, String message) {
    if (code < 1 || code > 16) {
      throw new IllegalArgumentException("code must be in [1, 16], was " + code);
    }
    return new GrpcReply(code, message, null, false, -1, 0, null, Fault.NONE);
  }

  /**
   * No answer: a GOAWAY frame (error code NO_ERROR, debug data "Graceful shutdown") whose
   * last-stream-id is below this stream's id (this stream id − 2, at least 0), so the call was not
   * processed and may be retried, then, about 100 ms after the GOAWAY was written, the TCP
   * connection is closed. See {@link OtlpGrpcReceiver} for the exact wire.
   *
   * @return the non-answer
   */
  public static GrpcReply goAway() {
    return new GrpcReply(UNAVAILABLE, "", null, false, -1, 0, null, Fault.GO_AWAY);
  }

  /**
   * A response cut short: response headers ({@code :status 200}, {@code content-type:
   * application/grpc}), then RST_STREAM with error code CANCEL (8) on the stream; no message, no
   * trailers. The connection stays open.
   *
   * @return the answer
   */
  public static GrpcReply resetStream() {
    return new GrpcReply(CANCELLED, "", null, true, -1, 0, null, Fault.RESET_STREAM);
  }

  /**
   * No answer: the receiver closes the TCP connection (abortively) once the request was read, with
   * every stream on it.
   *
   * @return the non-answer
   */
  public static GrpcReply dropConnection() {
    return new GrpcReply(UNAVAILABLE, "", null, false, -1, 0, null, Fault.DROP_CONNECTION);
  }

  /**
   * This answer with a {@code grpc-status-details-bin} trailer: a base64 (unpadded) {@code
   * google.rpc.Status{code, message, details: [Any{type_url:
   * "type.googleapis.com/google.rpc.RetryInfo", value: RetryInfo{retry_delay: Duration}}]}}, as a
   * Collector sends with RESOURCE_EXHAUSTED or UNAVAILABLE when it wants a client to back off.
   *
   * @param millis the retry delay, in milliseconds, at least 0
   * @return a copy of this answer with the details
   * @throws IllegalArgumentException if {@code millis} is negative
   * @throws IllegalStateException if this answer is OK or a transport fault
   */
  public GrpcReply withRetryInfo(long millis) {
    if (millis < 0) {
      throw new IllegalArgumentException("millis must be >= 0, was " + millis);
    }
    if (code == OK || fault != Fault.NONE) {
      throw new IllegalStateException("RetryInfo goes with an error status only");
    }
    return new GrpcReply(code, message, response, afterHeaders, millis, delayMillis, hold, fault);
  }

  /**
   * This answer as status-after-headers: response headers ({@code :status 200}, {@code
   * content-type: application/grpc}) in one HEADERS frame, then (after the message, for OK) the
   * status in a trailers HEADERS frame with END_STREAM, instead of trailers-only.
   *
   * @return a copy of this answer sent so
   * @throws IllegalStateException if this answer is a transport fault
   */
  public GrpcReply afterHeaders() {
    if (fault != Fault.NONE) {
      throw new IllegalStateException("a transport fault has no trailers");
    }
    return new GrpcReply(code, message, response, true, retryDelayMillis, delayMillis, hold, fault);
  }

  /**
   * This answer, sent only {@code millis} after the request was read (a slow receiver).
   *
   * @param millis the delay, in milliseconds, at least 0
   * @return a copy of this answer with the delay
   * @throws IllegalArgumentException if {@code millis} is negative
   */
  public GrpcReply delayed(long millis) {
    if (millis < 0) {
      throw new IllegalArgumentException("millis must be >= 0, was " + millis);
    }
    return new GrpcReply(
        code, message, response, afterHeaders, retryDelayMillis, millis, hold, fault);
  }

  /**
   * This answer, sent only once {@code latch} is released, or after 60 s at most (a stalled
   * receiver). Other streams on the connection go on meanwhile.
   *
   * @param latch the latch to wait for
   * @return a copy of this answer that waits
   */
  public GrpcReply heldBy(CountDownLatch latch) {
    return new GrpcReply(
        code, message, response, afterHeaders, retryDelayMillis, delayMillis, latch, fault);
  }

  /** {@return the gRPC status code; for a transport fault, the code a gRPC client would report} */
  public int code() {
    return code;
  }

  /** {@return the status message, "" for none} */
  public String message() {
    return message;
  }

  /**
   * {@return whether this answer accepts the request (OK with a message, no fault): its records
   * count as delivered}
   */
  public boolean accepted() {
    return code == OK && fault == Fault.NONE;
  }

  /** {@return the RetryInfo delay in milliseconds, or -1 without one} */
  public long retryDelayMillis() {
    return retryDelayMillis;
  }

  /** {@return whether the status follows response headers (not trailers-only)} */
  public boolean isAfterHeaders() {
    return afterHeaders;
  }

  /** {@return the delay before answering, in milliseconds} */
  public long delayMillis() {
    return delayMillis;
  }

  /** {@return the latch the answer waits for, or null} */
  public CountDownLatch hold() {
    return hold;
  }

  Fault fault() {
    return fault;
  }

  /** {@return the serialized ExportLogsServiceResponse, null for none; not a copy} */
  byte[] response() {
    return response;
  }

  @Override
  public String toString() {
    return "GrpcReply{"
        + (fault != Fault.NONE
            ? fault + ""
            : "status " + code + (message.isEmpty() ? "" : " " + message))
        + (afterHeaders ? ", after headers" : "")
        + (retryDelayMillis >= 0 ? ", retry " + retryDelayMillis + " ms" : "")
        + (delayMillis > 0 ? ", delayed " + delayMillis + " ms" : "")
        + (hold != null ? ", held" : "")
        + "}";
  }
}
