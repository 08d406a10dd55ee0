package io.logproducer.otlp.internal;

import io.logproducer.internal.json.JsonReader;
import io.logproducer.internal.proto.ProtoReader;
import io.logproducer.otlp.encoding.internal.ProtoFields;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Reads the bodies an OTLP/HTTP receiver answers with: {@code ExportLogsServiceResponse} on 200
 * (its {@code partial_success}: {@code int64 rejected_log_records = 1; string error_message = 2})
 * and {@code google.rpc.Status} on failures ({@code string message = 2}), in protobuf or in JSON
 * ({@code {"partialSuccess":{"rejectedLogRecords":"3","errorMessage":"..."}}}, the count as a
 * string or a number). Stateless, thread-safe.
 */
final class ResponseBodies {

  /** Bytes of a body quoted in a message when it holds no {@code google.rpc.Status}: {@value}. */
  static final int EXCERPT_BYTES = 512;

  private ResponseBodies() {}

  /** How a response body is encoded, from its {@code Content-Type}. */
  enum Format {
    PROTOBUF,
    JSON,
    TEXT;

    /**
     * The format a {@code Content-Type} names; without one, the request's format (receivers answer
     * in kind).
     *
     * @param requestJson whether the request was JSON
     */
    static Format of(String contentType, boolean requestJson) {
      if (contentType == null || contentType.trim().isEmpty()) {
        return requestJson ? JSON : PROTOBUF;
      }
      String ct = contentType.toLowerCase(java.util.Locale.ROOT);
      if (ct.contains("protobuf")) {
        return PROTOBUF;
      }
      return ct.contains("json") ? JSON : TEXT;
    }
  }

  /** What {@code partial_success} says; {@link #NONE} when it is absent or empty. Immutable. */
  static final class PartialSuccess {
    static final PartialSuccess NONE = new PartialSuccess(0, "");

    final long rejectedLogRecords;
    final String errorMessage;

    PartialSuccess(long rejectedLogRecords, String errorMessage) {
      this.rejectedLogRecords = rejectedLogRecords;
      this.errorMessage = errorMessage;
    }
  }

  /**
   * Parses an {@code ExportLogsServiceResponse}.
   *
   * @throws IllegalArgumentException if the body is malformed
   */
  static PartialSuccess partialSuccess(byte[] body, int length, Format format) {
    switch (format) {
      case PROTOBUF:
        return length == 0 ? PartialSuccess.NONE : partialSuccessProto(body, length);
      case JSON:
        return length == 0
            ? PartialSuccess.NONE
            : partialSuccessJson(new String(body, 0, length, StandardCharsets.UTF_8));
      default:
        return PartialSuccess.NONE; // a 200 with a text body: accepted, nothing to read
    }
  }

  private static PartialSuccess partialSuccessProto(byte[] body, int length) {
    ProtoReader response = new ProtoReader(body, 0, length);
    long rejected = 0;
    String message = "";
    while (response.hasMore()) {
      int tag = response.readTag();
      if (tag != ProtoFields.tag(1, ProtoFields.LEN)) {
        response.skip(tag);
        continue;
      }
      ProtoReader partial =
          response.readMessage(); // a repeated message field merges: last value wins per field
      while (partial.hasMore()) {
        int t = partial.readTag();
        if (t == ProtoFields.tag(1, ProtoFields.VARINT)) {
          rejected = partial.readVarint();
        } else if (t == ProtoFields.tag(2, ProtoFields.LEN)) {
          message = partial.readString();
        } else {
          partial.skip(t);
        }
      }
    }
    return rejected == 0 && message.isEmpty()
        ? PartialSuccess.NONE
        : new PartialSuccess(rejected, message);
  }

  private static PartialSuccess partialSuccessJson(String text) {
    if (text.trim().isEmpty()) {
      return PartialSuccess.NONE;
    }
    Object root = JsonReader.parse(text);
    if (!(root instanceof Map)) {
      throw new IllegalArgumentException("response is not a JSON object");
    }
    Object partial = field((Map<?, ?>) root, "partialSuccess", "partial_success");
    if (!(partial instanceof Map)) {
      return PartialSuccess.NONE;
    }
    Map<?, ?> p = (Map<?, ?>) partial;
    Long rejected = JsonReader.asLong(field(p, "rejectedLogRecords", "rejected_log_records"));
    Object message = field(p, "errorMessage", "error_message");
    long n = rejected == null ? 0 : rejected;
    String m = message instanceof String ? (String) message : "";
    return n == 0 && m.isEmpty() ? PartialSuccess.NONE : new PartialSuccess(n, m);
  }

  /**
   * The {@code google.rpc.Status} message of a failure body, or else the body's first {@value
   * #EXCERPT_BYTES} bytes as text; empty for an empty body. Never throws.
   */
  static String errorMessage(byte[] body, int length, Format format) {
    if (length == 0) {
      return "";
    }
    String message = null;
    try {
      if (format == Format.PROTOBUF) {
        message = statusMessageProto(body, length);
      } else if (format == Format.JSON) {
        message = statusMessageJson(new String(body, 0, length, StandardCharsets.UTF_8));
      }
    } catch (IllegalArgumentException notAStatus) {
      // plain text or HTML: quote it
    }
    if (message != null && !message.isEmpty()) {
      return message;
    }
    return new String(body, 0, Math.min(length, EXCERPT_BYTES), StandardCharsets.UTF_8).trim();
  }

  private static String statusMessageProto(byte[] body, int length) {
    ProtoReader status = new ProtoReader(body, 0, length);
    String message = null;
    while (status.hasMore()) {
      int tag = status.readTag();
      if (tag == ProtoFields.tag(2, ProtoFields.LEN)) {
        message = status.readString();
      } else {
        status.skip(tag);
      }
    }
    return message;
  }

  private static String statusMessageJson(String text) {
    Object root = JsonReader.parse(text);
    if (root instanceof Map) {
      Object message = ((Map<?, ?>) root).get("message");
      return message instanceof String ? (String) message : null;
    }
    return null;
  }

  private static Object field(Map<?, ?> map, String camelCase, String snakeCase) {
    Object v = map.get(camelCase);
    return v != null ? v : map.get(snakeCase);
  }
}
