package io.logproducer.otlp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.logproducer.spi.ExportResult;
import io.logproducer.spi.ExportResult.Kind;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsPartialSuccess;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The status and body handling of OTLP/HTTP answers, with bodies as the Collector writes them. */
class ExportResponsesTest {

  private static final String PROTO = "application/x-protobuf";
  private static final String JSON = "application/json";
  private static final long NOW = 1_704_067_200_000L; // 2024-01-01T00:00:00Z

  private static ExportResult answer(int status, String contentType, byte[] body) {
    return ExportResponses.toResult(status, null, null, contentType, body, body.length, false, NOW);
  }

  private static ExportResult answer(int status, String contentType, String body) {
    return answer(status, contentType, body.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] partial(long rejected, String message) {
    return ExportLogsServiceResponse.newBuilder()
        .setPartialSuccess(
            ExportLogsPartialSuccess.newBuilder()
                .setRejectedLogRecords(rejected)
                .setErrorMessage(message))
        .build()
        .toByteArray();
  }

  /** google.rpc.Status{code=3, message=m}, as the Collector answers a bad protobuf request. */
  private static byte[] rpcStatus(String message) {
    byte[] m = message.getBytes(StandardCharsets.UTF_8);
    byte[] out = new byte[4 + m.length];
    out[0] = 0x08;
    out[1] = 3;
    out[2] = 0x12;
    out[3] = (byte) m.length;
    System.arraycopy(m, 0, out, 4, m.length);
    return out;
  }

  @Test
  void emptyPartialSuccessIsSuccess() {
    assertEquals(Kind.SUCCESS, answer(200, PROTO, new byte[] {0x0A, 0x00}).kind());
    assertEquals(Kind.SUCCESS, answer(200, PROTO, new byte[0]).kind());
    assertEquals(Kind.SUCCESS, answer(200, JSON, "{\"partialSuccess\":{}}").kind());
    assertEquals(Kind.SUCCESS, answer(200, JSON, "").kind());
    assertEquals(Kind.SUCCESS, answer(200, "text/plain", "OK").kind());
    assertEquals(Kind.SUCCESS, answer(202, PROTO, new byte[0]).kind());
  }

  @Test
  void protobufPartialSuccess() {
    ExportResult r = answer(200, PROTO, partial(3, "3 records had bad attributes"));
    assertEquals(Kind.PARTIAL_SUCCESS, r.kind());
    assertEquals(3, r.rejectedCount());
    assertEquals("3 records had bad attributes", r.message());

    ExportResult noMessage = answer(200, PROTO, partial(5, ""));
    assertEquals(5, noMessage.rejectedCount());
    assertEquals("the receiver rejected 5 log records", noMessage.message());

    assertEquals(Kind.SUCCESS, answer(200, PROTO, partial(0, "just a warning")).kind());
    ExportResult big = answer(200, PROTO, partial(1L << 40, "many"));
    assertEquals(1L << 40, big.rejectedCount());
  }

  @Test
  void protobufResponseWithUnknownFieldsIsRead() {
    byte[] known = partial(2, "x");
    byte[] withUnknown = new byte[known.length + 11];
    // field 7 varint, field 9 fixed64 before the known field
    withUnknown[0] = 0x38;
    withUnknown[1] = 1;
    withUnknown[2] = 0x49;
    System.arraycopy(known, 0, withUnknown, 11, known.length);
    ExportResult r = answer(200, PROTO, withUnknown);
    assertEquals(Kind.PARTIAL_SUCCESS, r.kind());
    assertEquals(2, r.rejectedCount());
  }

  @Test
  void jsonPartialSuccessWithStringOrNumberCount() {
    ExportResult s =
        answer(
            200,
            JSON,
            "{\"partialSuccess\":{\"rejectedLogRecords\":\"3\",\"errorMessage\":\"bad \\\"ones\\\" \\u00e9\"}}");
    assertEquals(Kind.PARTIAL_SUCCESS, s.kind());
    assertEquals(3, s.rejectedCount());
    assertEquals("bad \"ones\" é", s.message());
    ExportResult n =
        answer(
            200,
            "application/json; charset=utf-8",
            " { \"partialSuccess\" : { \"rejectedLogRecords\" : 7 , \"errorMessage\" : \"n\" } , \"x\":[1,{}] } ");
    assertEquals(7, n.rejectedCount());
    assertEquals("n", n.message());
    ExportResult snake = answer(200, JSON, "{\"partial_success\":{\"rejected_log_records\":4}}");
    assertEquals(4, snake.rejectedCount());
  }

  @Test
  void bodyFormatFollowsTheRequestWithoutContentType() {
    byte[] json =
        "{\"partialSuccess\":{\"rejectedLogRecords\":\"2\"}}".getBytes(StandardCharsets.UTF_8);
    ExportResult r = ExportResponses.toResult(200, "OK", null, null, json, json.length, true, NOW);
    assertEquals(2, r.rejectedCount());
    byte[] proto = partial(6, "p");
    ExportResult p =
        ExportResponses.toResult(200, "OK", null, null, proto, proto.length, false, NOW);
    assertEquals(6, p.rejectedCount());
  }

  @Test
  void malformedSuccessBodyIsStillSuccess() {
    assertEquals(Kind.SUCCESS, answer(200, PROTO, new byte[] {0x0A, 0x7F, 1}).kind());
    assertEquals(Kind.SUCCESS, answer(200, JSON, "{\"partialSuccess\":").kind());
  }

  @Test
  void badRequestCarriesTheStatusMessage() {
    ExportResult r = answer(400, PROTO, rpcStatus("proto: illegal wireType 7"));
    assertEquals(Kind.REJECTED, r.kind());
    assertEquals("HTTP 400 Bad Request: proto: illegal wireType 7", r.message());
    ExportResult j =
        answer(400, JSON, "{\"code\":3,\"message\":\"ID.UnmarshalJSONIter: length mismatch\"}");
    assertEquals("HTTP 400 Bad Request: ID.UnmarshalJSONIter: length mismatch", j.message());
  }

  @Test
  void otherBodiesAreQuotedUpTo512Bytes() {
    ExportResult r = answer(404, "text/plain; charset=utf-8", "404 page not found\n");
    assertEquals(Kind.REJECTED, r.kind());
    assertEquals("HTTP 404 Not Found: 404 page not found", r.message());
    String html = "<html>" + "x".repeat(2000) + "</html>";
    ExportResult h = answer(500, "text/html", html);
    assertEquals("HTTP 500 Internal Server Error: " + html.substring(0, 512), h.message());
    ExportResult garbage = answer(400, PROTO, "not a status");
    assertEquals("HTTP 400 Bad Request: not a status", garbage.message());
    ExportResult empty = answer(403, PROTO, new byte[0]);
    assertEquals("HTTP 403 Forbidden", empty.message());
  }

  @ParameterizedTest
  @ValueSource(ints = {301, 400, 401, 403, 404, 405, 409, 415, 422, 500, 501, 505})
  void finalStatusesAreRejected(int status) {
    ExportResult r = answer(status, PROTO, rpcStatus("no"));
    assertEquals(Kind.REJECTED, r.kind());
    assertEquals(-1, r.retryAfterMillis());
  }

  @ParameterizedTest
  @ValueSource(ints = {429, 502, 503, 504})
  void retryableStatuses(int status) {
    ExportResult none = answer(status, PROTO, rpcStatus("busy"));
    assertEquals(Kind.RETRYABLE, none.kind());
    assertEquals(-1, none.retryAfterMillis());
    assertEquals(ExportResponses.statusLine(status, null) + ": busy", none.message());
    ExportResult seconds =
        ExportResponses.toResult(status, "Slow Down", "2", PROTO, new byte[0], 0, false, NOW);
    assertEquals(2000, seconds.retryAfterMillis());
    assertEquals("HTTP " + status + " Slow Down", seconds.message());
    ExportResult date =
        ExportResponses.toResult(
            status, null, "Mon, 01 Jan 2024 00:00:07 GMT", PROTO, new byte[0], 0, false, NOW);
    assertEquals(7000, date.retryAfterMillis());
  }

  @Test
  void tooLarge() {
    ExportResult r = answer(413, "text/plain", "request body too large");
    assertEquals(Kind.TOO_LARGE, r.kind());
    assertEquals("HTTP 413 Content Too Large: request body too large", r.message());
    assertNull(r.error());
  }

  @Test
  void statusLines() {
    assertEquals("HTTP 503 Service Unavailable", ExportResponses.statusLine(503, null));
    assertEquals("HTTP 503 Service Unavailable", ExportResponses.statusLine(503, " "));
    assertEquals("HTTP 503 Busy", ExportResponses.statusLine(503, "Busy"));
    assertEquals("HTTP 599", ExportResponses.statusLine(599, null));
    assertEquals("HTTP 999", ExportResponses.statusLine(999, ""));
    assertEquals("HTTP 429 Too Many Requests", ExportResponses.statusLine(429, null));
  }
}
