package io.logproducer.otlp.internal.grpc;

/**
 * gRPC status codes ({@code grpc/grpc}, {@code doc/statuscodes.md}), which of them OTLP retries
 * ({@code opentelemetry-proto}, {@code docs/specification.md}, "OTLP/gRPC Throttling" and
 * "Failures"), and the status an HTTP status other than 200 stands for ({@code grpc/grpc}, {@code
 * doc/http-grpc-status-mapping.md}). Stateless, thread-safe.
 */
final class GrpcStatus {

  static final int OK = 0;
  static final int CANCELLED = 1;
  static final int UNKNOWN = 2;
  static final int DEADLINE_EXCEEDED = 4;
  static final int RESOURCE_EXHAUSTED = 8;
  static final int ABORTED = 10;
  static final int OUT_OF_RANGE = 11;
  static final int UNIMPLEMENTED = 12;
  static final int INTERNAL = 13;
  static final int UNAVAILABLE = 14;
  static final int DATA_LOSS = 15;
  static final int UNAUTHENTICATED = 16;
  static final int PERMISSION_DENIED = 7;

  private static final String[] NAMES = {
    "OK",
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED"
  };

  private GrpcStatus() {}

  /** {@return the code's name, e.g. "UNAVAILABLE", or "CODE_n" for an unknown code} */
  static String name(int code) {
    return code >= 0 && code < NAMES.length ? NAMES[code] : "CODE_" + code;
  }

  /**
   * Whether OTLP retries the code: CANCELLED, DEADLINE_EXCEEDED, ABORTED, OUT_OF_RANGE,
   * UNAVAILABLE, DATA_LOSS always; RESOURCE_EXHAUSTED only when the server sent a RetryInfo (it
   * means the server can recover).
   */
  static boolean retryable(int code, boolean hasRetryInfo) {
    switch (code) {
      case CANCELLED:
      case DEADLINE_EXCEEDED:
      case ABORTED:
      case OUT_OF_RANGE:
      case UNAVAILABLE:
      case DATA_LOSS:
        return true;
      case RESOURCE_EXHAUSTED:
        return hasRetryInfo;
      default:
        return false;
    }
  }

  /** The status an HTTP status other than 200 means, per the gRPC HTTP-to-status table. */
  static int fromHttpStatus(int httpStatus) {
    switch (httpStatus) {
      case 400:
        return INTERNAL;
      case 401:
        return UNAUTHENTICATED;
      case 403:
        return PERMISSION_DENIED;
      case 404:
        return UNIMPLEMENTED;
      case 429:
      case 502:
      case 503:
      case 504:
        return UNAVAILABLE;
      default:
        return UNKNOWN;
    }
  }
}
