package io.logproducer.testing.otlp;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A scripted answer of {@link OtlpReceiver}: a status, headers and a body, optionally after a delay
 * or once a latch is released, or no answer at all (the connection is dropped). Immutable and
 * thread-safe; the {@code with…} methods return a copy.
 *
 * <p>Examples: {@code Reply.status(503).withHeader("Retry-After", "2")}, {@code
 * Reply.partialSuccess(request, 3, "bad attributes")}, {@code Reply.ok(request).delayed(100)},
 * {@code Reply.dropConnection()}.
 */
public final class Reply {

  private static final String PROTOBUF = "application/x-protobuf";
  private static final String JSON = "application/json";

  private final int status;
  private final Map<String, String> headers;
  private final String contentType;
  private final byte[] body;
  private final long delayMillis;
  private final CountDownLatch hold;
  private final boolean drop;

  private Reply(
      int status,
      Map<String, String> headers,
      String contentType,
      byte[] body,
      long delayMillis,
      CountDownLatch hold,
      boolean drop) {
    this.status = status;
    this.headers = headers;
    this.contentType = contentType;
    this.body = body;
    this.delayMillis = delayMillis;
    this.hold = hold;
    this.drop = drop;
  }

  /**
   * An answer with {@code status} and no body.
   *
   * @param status an HTTP status in [100, 599]
   * @return the answer
   * @throws IllegalArgumentException if the status is outside [100, 599]
   */
  public static Reply status(int status) {
    if (status < 100 || status > 599) {
      throw new IllegalArgumentException("status must be in [100, 599], was " + status);
    }
    return new Reply(
        status, Collections.<String, String>emptyMap(), null, new byte[0], 0, null, false);
  }

  /**
   * No answer: the receiver closes the connection after reading the request (the client sees it
   * reset).
   *
   * @return the non-answer
   */
  public static Reply dropConnection() {
    return new Reply(0, Collections.<String, String>emptyMap(), null, new byte[0], 0, null, true);
  }

  /**
   * 200 with an empty {@code partial_success}, in the request's format: what the Collector answers.
   *
   * @param request the request answered
   * @return the answer
   */
  public static Reply ok(ReceivedRequest request) {
    return partialSuccess(request, 0, "");
  }

  /**
   * 200 with a {@code partial_success} rejecting {@code rejected} records with {@code message},
   * protobuf or JSON like the request.
   *
   * @param request the request answered
   * @param rejected the number of records rejected
   * @param message why, "" for no message
   * @return the answer
   */
  public static Reply partialSuccess(ReceivedRequest request, long rejected, String message) {
    if (request.isJson()) {
      String json =
          rejected == 0 && message.isEmpty()
              ? "{\"partialSuccess\":{}}"
              : "{\"partialSuccess\":{\"rejectedLogRecords\":\""
                  + rejected
                  + "\",\"errorMessage\":\""
                  + jsonEscape(message)
                  + "\"}}";
      return status(200).withBody(JSON, json.getBytes(StandardCharsets.UTF_8));
    }
    // ExportLogsServiceResponse { ExportLogsPartialSuccess partial_success = 1 { int64
    // rejected_log_records = 1;
    // string error_message = 2; } }
    ByteArrayOutputStream partial = new ByteArrayOutputStream();
    if (rejected != 0) {
      partial.write(1 << 3);
      writeVarint(partial, rejected);
    }
    byte[] m = message.getBytes(StandardCharsets.UTF_8);
    if (m.length > 0) {
      writeField(partial, 2, m);
    }
    ByteArrayOutputStream response = new ByteArrayOutputStream();
    writeField(response, 1, partial.toByteArray());
    return status(200).withBody(PROTOBUF, response.toByteArray());
  }

  /**
   * A failure {@code status} with a {@code google.rpc.Status} body {@code {code: 3, message}},
   * protobuf or JSON like the request (what the Collector sends with a 4xx or 5xx).
   *
   * @param request the request answered
   * @param status the HTTP status, in [100, 599]
   * @param message the status message
   * @return the answer
   */
  public static Reply rpcStatus(ReceivedRequest request, int status, String message) {
    if (request.isJson()) {
      return status(status)
          .withBody(
              JSON,
              ("{\"code\":3,\"message\":\"" + jsonEscape(message) + "\"}")
                  .getBytes(StandardCharsets.UTF_8));
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.write(1 << 3); // int32 code = 1
    body.write(3);
    writeField(body, 2, message.getBytes(StandardCharsets.UTF_8)); // string message = 2
    return status(status).withBody(PROTOBUF, body.toByteArray());
  }

  /**
   * This answer with one more header (e.g. {@code Retry-After}).
   *
   * @param name the header's name
   * @param value its value
   * @return a copy of this answer with the header
   */
  public Reply withHeader(String name, String value) {
    Map<String, String> h = new LinkedHashMap<>(headers);
    h.put(name, value);
    return new Reply(
        status, Collections.unmodifiableMap(h), contentType, body, delayMillis, hold, drop);
  }

  /**
   * This answer with a body.
   *
   * @param contentType the body's Content-Type
   * @param body the body, copied
   * @return a copy of this answer with the body
   */
  public Reply withBody(String contentType, byte[] body) {
    return new Reply(status, headers, contentType, body.clone(), delayMillis, hold, drop);
  }

  /**
   * This answer, sent only {@code millis} after the request was read (a slow receiver).
   *
   * @param millis the delay, in milliseconds, at least 0
   * @return a copy of this answer with the delay
   * @throws IllegalArgumentException if {@code millis} is negative
   */
  public Reply delayed(long millis) {
    if (millis < 0) {
      throw new IllegalArgumentException("millis must be >= 0, was " + millis);
    }
    return new Reply(status, headers, contentType, body, millis, hold, drop);
  }

  /**
   * This answer, sent only once {@code latch} is released, or after 60 s at most (a hung receiver).
   *
   * @param latch the latch to wait for
   * @return a copy of this answer that waits
   */
  public Reply heldBy(CountDownLatch latch) {
    return new Reply(status, headers, contentType, body, delayMillis, latch, drop);
  }

  /** {@return the HTTP status; 0 for {@link #dropConnection()}} */
  public int status() {
    return status;
  }

  /** {@return whether the status is 2xx} */
  public boolean accepted() {
    return status >= 200 && status < 300;
  }

  /** {@return whether the connection is dropped instead of answered} */
  public boolean dropsConnection() {
    return drop;
  }

  /** {@return the extra headers, in order; unmodifiable} */
  public Map<String, String> headers() {
    return headers;
  }

  /** {@return the body's Content-Type, null without a body} */
  public String contentType() {
    return contentType;
  }

  /** {@return a copy of the body; empty for none} */
  public byte[] body() {
    return body.clone();
  }

  byte[] bodyUnsafe() {
    return body;
  }

  /** {@return the delay before answering, in milliseconds} */
  public long delayMillis() {
    return delayMillis;
  }

  /** {@return the latch the answer waits for, or null} */
  public CountDownLatch hold() {
    return hold;
  }

  private static void writeField(ByteArrayOutputStream out, int number, byte[] value) {
    out.write(number << 3 | 2);
    writeVarint(out, value.length);
    out.write(value, 0, value.length);
  }

  private static void writeVarint(ByteArrayOutputStream out, long value) {
    long v = value;
    while ((v & ~0x7FL) != 0) {
      out.write((int) (v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.write((int) v);
  }

  private static String jsonEscape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }
}
