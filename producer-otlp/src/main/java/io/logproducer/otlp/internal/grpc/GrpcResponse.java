package io.logproducer.otlp.internal.grpc;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a gRPC server answered on one stream: the HTTP status, the header and trailer fields (names
 * in lower case; for a trailers-only response the trailer fields are the headers), and the first
 * {@value #MAX_BODY_BYTES} bytes of the body. Immutable once {@link GrpcResponseConsumer} hands it
 * over.
 */
final class GrpcResponse {

  /** Body bytes kept (an {@code ExportLogsServiceResponse} is a few bytes): {@value}. */
  static final int MAX_BODY_BYTES = 64 * 1024;

  final int httpStatus;
  final Map<String, String> headers;
  final Map<String, String> trailers;
  final byte[] body;
  final int length;
  final boolean truncated;

  GrpcResponse(
      int httpStatus,
      Map<String, String> headers,
      Map<String, String> trailers,
      byte[] body,
      int length,
      boolean truncated) {
    this.httpStatus = httpStatus;
    this.headers = headers;
    this.trailers = trailers;
    this.body = body;
    this.length = length;
    this.truncated = truncated;
  }

  /** {@return a trailer field, else the header field of that name (trailers-only), or null} */
  String status(String name) {
    String v = trailers.get(name);
    return v != null ? v : headers.get(name);
  }

  /** A map with case-insensitive keys kept in lower case. */
  static Map<String, String> fields() {
    return new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
  }

  static String lower(String name) {
    return name.toLowerCase(Locale.ROOT);
  }
}
