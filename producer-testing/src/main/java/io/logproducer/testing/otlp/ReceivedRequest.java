package io.logproducer.testing.otlp;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One well-formed request {@link OtlpReceiver} or {@link OtlpGrpcReceiver} received: its method,
 * path, headers, decompressed body (for gRPC, the one message without its 5-byte prefix) and, in
 * strict mode, its decoded log records. Immutable, thread-safe.
 */
public final class ReceivedRequest {

  private final int index;
  private final long receivedNanos;
  private final String method;
  private final String path;
  private final Map<String, List<String>> headers;
  private final int wireLength;
  private final byte[] body;
  private final long recordCount;
  private final List<ReceivedLogRecord> records;

  ReceivedRequest(
      int index,
      long receivedNanos,
      String method,
      String path,
      Map<String, List<String>> headers,
      int wireLength,
      byte[] body,
      long recordCount,
      List<ReceivedLogRecord> records) {
    this.index = index;
    this.receivedNanos = receivedNanos;
    this.method = method;
    this.path = path;
    this.headers = headers;
    this.wireLength = wireLength;
    this.body = body;
    this.recordCount = recordCount;
    this.records = records;
  }

  /** {@return 0 for the receiver's first well-formed request, then 1, 2, …, in arrival order} */
  public int index() {
    return index;
  }

  /**
   * {@return {@link System#nanoTime()} when the request arrived (for intervals between requests)}
   */
  public long receivedNanos() {
    return receivedNanos;
  }

  /** {@return the HTTP method (always POST: the receiver refuses others)} */
  public String method() {
    return method;
  }

  /**
   * {@return the request path (always {@code /v1/logs}, or {@link OtlpGrpcReceiver#EXPORT_PATH} for
   * gRPC: the receivers refuse others)}
   */
  public String path() {
    return path;
  }

  /** {@return the request's headers, names in lower case; unmodifiable} */
  public Map<String, List<String>> headers() {
    return headers;
  }

  /**
   * {@return the first value of header {@code name}, or null}
   *
   * @param name the header's name, in any case
   */
  public String header(String name) {
    List<String> values = headers.get(name.toLowerCase(java.util.Locale.ROOT));
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  /** {@return the Content-Type header} */
  public String contentType() {
    return header("content-type");
  }

  /**
   * {@return the Content-Encoding header, null if absent (no compression); for gRPC see {@code
   * header("grpc-encoding")}}
   */
  public String contentEncoding() {
    return header("content-encoding");
  }

  /** {@return the User-Agent header, or null} */
  public String userAgent() {
    return header("user-agent");
  }

  /** {@return whether the body is OTLP/JSON (else protobuf)} */
  public boolean isJson() {
    String type = contentType();
    return type != null && type.contains("json");
  }

  /**
   * {@return the body's length as received (compressed), in bytes; for gRPC the message's, without
   * its 5-byte prefix}
   */
  public int wireLength() {
    return wireLength;
  }

  /**
   * A copy of the decompressed body: a serialized {@code ExportLogsServiceRequest} (protobuf) or
   * its OTLP/JSON form, for tests that parse it with protobuf-java.
   *
   * @return a copy of the bytes
   */
  public byte[] body() {
    return body.clone();
  }

  /** {@return the decompressed body's length, in bytes} */
  public int bodyLength() {
    return body.length;
  }

  /** {@return the number of log records in the request (both modes)} */
  public long recordCount() {
    return recordCount;
  }

  /**
   * The request's log records, in order; unmodifiable.
   *
   * @return the records
   * @throws IllegalStateException in counting mode, which does not decode records
   */
  public List<ReceivedLogRecord> records() {
    if (records == null) {
      throw new IllegalStateException(
          "a counting OtlpReceiver keeps no records; start it in strict mode");
    }
    return records;
  }

  /**
   * {@return the string bodies of {@link #records()}, "" for a record whose body is not a string}
   */
  public List<String> bodies() {
    List<String> out = new ArrayList<>();
    for (ReceivedLogRecord r : records()) {
      out.add(r.bodyString());
    }
    return Collections.unmodifiableList(out);
  }

  @Override
  public String toString() {
    return "ReceivedRequest{#"
        + index
        + " "
        + method
        + " "
        + path
        + " "
        + contentType()
        + " "
        + (contentEncoding() == null ? "" : contentEncoding() + " ")
        + wireLength
        + " bytes, "
        + recordCount
        + " records}";
  }
}
