package io.logproducer.otlp.internal.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Duration;
import io.logproducer.spi.ExportResult;
import io.logproducer.spi.ExportResult.Kind;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsPartialSuccess;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Base64;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The classification of gRPC answers, with {@code google.rpc.Status} details and responses built by
 * protobuf-java (an independent encoder).
 */
class GrpcResponsesTest {

  private static GrpcResponse trailersOnly(int httpStatus, String... kv) {
    Map<String, String> headers = GrpcResponse.fields();
    for (int i = 0; i < kv.length; i += 2) {
      headers.put(kv[i], kv[i + 1]);
    }
    return new GrpcResponse(httpStatus, headers, Map.of(), new byte[0], 0, false);
  }

  private static GrpcResponse withBody(byte[] message, boolean gzip, String... trailers)
      throws IOException {
    byte[] m = message;
    if (gzip) {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      try (GZIPOutputStream z = new GZIPOutputStream(b)) {
        z.write(message);
      }
      m = b.toByteArray();
    }
    byte[] body = new byte[5 + m.length];
    body[0] = (byte) (gzip ? 1 : 0);
    body[3] = (byte) (m.length >>> 8);
    body[4] = (byte) m.length;
    System.arraycopy(m, 0, body, 5, m.length);
    Map<String, String> headers = GrpcResponse.fields();
    headers.put("content-type", "application/grpc");
    if (gzip) {
      headers.put("grpc-encoding", "gzip");
    }
    Map<String, String> t = GrpcResponse.fields();
    for (int i = 0; i < trailers.length; i += 2) {
      t.put(trailers[i], trailers[i + 1]);
    }
    return new GrpcResponse(200, headers, t, body, body.length, false);
  }

  /** A google.rpc.Status with a RetryInfo of {@code seconds} s + {@code nanos} ns, base64. */
  static String retryInfo(int code, long seconds, int nanos, boolean padded) throws IOException {
    Duration d = Duration.newBuilder().setSeconds(seconds).setNanos(nanos).build();
    ByteArrayOutputStream info = new ByteArrayOutputStream();
    CodedOutputStream o = CodedOutputStream.newInstance(info);
    o.writeMessage(1, d);
    o.flush();
    Any any =
        Any.newBuilder()
            .setTypeUrl("type.googleapis.com/google.rpc.RetryInfo")
            .setValue(ByteString.copyFrom(info.toByteArray()))
            .build();
    Any other =
        Any.newBuilder()
            .setTypeUrl("type.googleapis.com/google.rpc.DebugInfo")
            .setValue(ByteString.copyFromUtf8("x"))
            .build();
    ByteArrayOutputStream status = new ByteArrayOutputStream();
    CodedOutputStream s = CodedOutputStream.newInstance(status);
    s.writeInt32(1, code);
    s.writeString(2, "slow down");
    s.writeMessage(3, other);
    s.writeMessage(3, any);
    s.flush();
    Base64.Encoder e = padded ? Base64.getEncoder() : Base64.getEncoder().withoutPadding();
    return e.encodeToString(status.toByteArray());
  }

  @Test
  void retryableCodesAreRetriedAndOthersRejectedWithNameAndDecodedMessage() {
    int[] retryable = {1, 4, 10, 11, 14, 15};
    for (int code : retryable) {
      ExportResult r =
          GrpcResponses.toResult(
              trailersOnly(200, "grpc-status", "" + code, "grpc-message", "why%20not%3F"));
      assertEquals(Kind.RETRYABLE, r.kind(), "code " + code);
      assertEquals(
          "gRPC " + GrpcStatus.name(code) + " (" + code + "): why not?",
          r.message(),
          "code " + code);
      assertEquals(-1, r.retryAfterMillis());
    }
    for (int code : new int[] {2, 3, 5, 6, 7, 9, 12, 13, 16, 17}) {
      ExportResult r = GrpcResponses.toResult(trailersOnly(200, "grpc-status", "" + code));
      assertEquals(Kind.REJECTED, r.kind(), "code " + code);
    }
    assertEquals(
        "gRPC INVALID_ARGUMENT (3): bad",
        GrpcResponses.toResult(trailersOnly(200, "grpc-status", "3", "grpc-message", "bad"))
            .message());
    assertEquals(
        "gRPC UNKNOWN (2): the response has no valid grpc-status (none; content-type null)",
        GrpcResponses.toResult(trailersOnly(200)).message());
  }

  @Test
  void resourceExhaustedIsRetriedOnlyWithRetryInfoAndItsDelayIsHonoured() throws IOException {
    ExportResult without =
        GrpcResponses.toResult(trailersOnly(200, "grpc-status", "8", "grpc-message", "full"));
    assertEquals(Kind.REJECTED, without.kind());
    assertEquals(
        "gRPC RESOURCE_EXHAUSTED (8): full (not retried: no RetryInfo, the server cannot"
            + " recover)",
        without.message());
    for (boolean padded : new boolean[] {true, false}) {
      ExportResult with =
          GrpcResponses.toResult(
              trailersOnly(
                  200,
                  "grpc-status",
                  "8",
                  "grpc-status-details-bin",
                  retryInfo(8, 2, 500_000_000, padded)));
      assertEquals(Kind.RETRYABLE, with.kind());
      assertEquals(2500, with.retryAfterMillis());
    }
    ExportResult unavailable =
        GrpcResponses.toResult(
            trailersOnly(
                200, "grpc-status", "14", "grpc-status-details-bin", retryInfo(14, 0, 0, true)));
    assertEquals(0, unavailable.retryAfterMillis());
    assertEquals(
        -2, RetryInfos.retryDelayMillis("not base64 !!"), "malformed details: no RetryInfo");
  }

  @Test
  void httpStatusesMapToGrpcStatuses() {
    for (int http : new int[] {429, 502, 503, 504}) {
      ExportResult r = GrpcResponses.toResult(trailersOnly(http));
      assertEquals(Kind.RETRYABLE, r.kind());
      assertEquals("HTTP " + http + " from a gRPC endpoint, gRPC UNAVAILABLE (14)", r.message());
    }
    assertEquals(
        "HTTP 404 from a gRPC endpoint, gRPC UNIMPLEMENTED (12)",
        GrpcResponses.toResult(trailersOnly(404)).message());
    assertEquals(Kind.REJECTED, GrpcResponses.toResult(trailersOnly(401)).kind());
    assertEquals(Kind.REJECTED, GrpcResponses.toResult(trailersOnly(400)).kind());
    assertEquals(Kind.REJECTED, GrpcResponses.toResult(trailersOnly(500)).kind());
  }

  @Test
  void okWithPartialSuccessIsReportedLikeHttp() throws IOException {
    byte[] partial =
        ExportLogsServiceResponse.newBuilder()
            .setPartialSuccess(
                ExportLogsPartialSuccess.newBuilder()
                    .setRejectedLogRecords(3)
                    .setErrorMessage("3 too old"))
            .build()
            .toByteArray();
    for (boolean gzip : new boolean[] {false, true}) {
      ExportResult r = GrpcResponses.toResult(withBody(partial, gzip, "grpc-status", "0"));
      assertEquals(Kind.PARTIAL_SUCCESS, r.kind(), "gzip " + gzip);
      assertEquals(3, r.rejectedCount());
      assertEquals("3 too old", r.message());
    }
    byte[] empty = ExportLogsServiceResponse.getDefaultInstance().toByteArray();
    assertEquals(
        Kind.SUCCESS, GrpcResponses.toResult(withBody(empty, false, "grpc-status", "0")).kind());
    assertEquals(
        Kind.SUCCESS, GrpcResponses.toResult(trailersOnly(200, "grpc-status", "0")).kind());
  }
}
