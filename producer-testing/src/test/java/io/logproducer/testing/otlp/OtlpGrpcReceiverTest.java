package io.logproducer.testing.otlp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import com.google.protobuf.Duration;
import com.google.protobuf.UnknownFieldSet;
import io.logproducer.Compression;
import io.logproducer.internal.codec.Codec;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link OtlpGrpcReceiver} seen by a real HTTP/2 client ({@link GrpcTestClient}): every answer on
 * the wire exactly, the checks, compression and the size limit.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OtlpGrpcReceiverTest {

  static final String EMPTY_RESPONSE_FRAME = "[0, 0, 0, 0, 0]";

  @Test
  void okAnswersHeadersThenTheResponseMessageThenTrailersAndKeepsTheCall() throws Exception {
    ExportLogsServiceRequest request = request(3, "hello");
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.start();
        GrpcTestClient client = new GrpcTestClient(null)) {
      assertTrue(receiver.endpoint().matches("http://127\\.0\\.0\\.1:\\d+"), receiver.endpoint());
      GrpcTestClient.Call call =
          get(
              client.export(
                  receiver.endpoint(),
                  request.toByteArray(),
                  "user-agent",
                  "OTel-OTLP-Exporter-Java/1.0",
                  "authorization",
                  "Bearer xyz",
                  "grpc-timeout",
                  "10000m"));
      assertEquals(200, call.httpStatus);
      assertEquals(false, call.trailersOnly);
      assertEquals("application/grpc", call.headers.get("content-type"));
      assertNull(call.headers.get("grpc-status"), "the status goes in the trailers");
      assertEquals(EMPTY_RESPONSE_FRAME, java.util.Arrays.toString(call.data.toByteArray()));
      assertEquals("0", call.trailers.get("grpc-status"));
      assertEquals(1, call.trailers.size(), call.trailers.toString());

      assertEquals(List.of(), receiver.invalidRequests());
      ReceivedRequest r = receiver.requests().get(0);
      assertEquals("POST", r.method());
      assertEquals(OtlpGrpcReceiver.EXPORT_PATH, r.path());
      assertEquals("Bearer xyz", r.header("authorization"));
      assertEquals("OTel-OTLP-Exporter-Java/1.0", r.userAgent());
      assertEquals("10000m", r.header("grpc-timeout"));
      assertEquals("trailers", r.header("te"));
      assertEquals(10_000_000_000L, OtlpGrpcReceiver.grpcTimeoutNanos(r.header("grpc-timeout")));
      assertArrayEquals(request.toByteArray(), r.body());
      assertEquals(request.toByteArray().length, r.wireLength());
      assertEquals(List.of("hello-0", "hello-1", "hello-2"), receiver.deliveredBodies());
      assertEquals(3, receiver.acceptedRecords());
      assertEquals(1, receiver.acceptedRequests());
      assertEquals(0, receiver.rejectedRequests());
      assertEquals(1, receiver.connectionsAccepted());
      assertEquals("Bearer xyz", receiver.requestHeaders().get(0).get("authorization").get(0));
      assertTrue(receiver.awaitAcceptedRecords(3, 1000));
    }
  }

  @Test
  void anErrorStatusIsTrailersOnlyWithAPercentEncodedMessage() throws Exception {
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.start();
        GrpcTestClient client = new GrpcTestClient(null)) {
      receiver.respond(r -> GrpcReply.status(GrpcReply.UNAVAILABLE, "down: 100% ü\n"));
      GrpcTestClient.Call call =
          get(client.export(receiver.endpoint(), request(2, "x").toByteArray()));
      assertEquals(200, call.httpStatus);
      assertTrue(call.trailersOnly, "one HEADERS frame with END_STREAM");
      assertEquals("application/grpc", call.headers.get("content-type"));
      assertEquals("14", call.headers.get("grpc-status"));
      assertEquals("down: 100%25 %C3%BC%0A", call.headers.get("grpc-message"));
      assertNull(call.headers.get("grpc-status-details-bin"));
      assertEquals(0, call.data.size());
      assertEquals(0, receiver.acceptedRecords());
      assertEquals(1, receiver.rejectedRequests());
      assertEquals(List.of(), receiver.deliveredRecords());
      assertEquals(1, receiver.requests().size());
      assertEquals(14, receiver.replies().get(0).code());
    }
  }

  @Test
  void retryInfoIsAGoogleRpcStatusInGrpcStatusDetailsBin() throws Exception {
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.start();
        GrpcTestClient client = new GrpcTestClient(null)) {
      receiver.respond(
          r -> GrpcReply.status(GrpcReply.RESOURCE_EXHAUSTED, "slow down").withRetryInfo(2_500));
      GrpcTestClient.Call call =
          get(client.export(receiver.endpoint(), request(1, "x").toByteArray()));
      assertTrue(call.trailersOnly);
      assertEquals("8", call.headers.get("grpc-status"));
      assertEquals("slow down", call.headers.get("grpc-message"));
      String bin = call.headers.get("grpc-status-details-bin");
      assertTrue(!bin.endsWith("="), "unpadded base64: " + bin);
      // google.rpc.Status {int32 code = 1; string message = 2; repeated google.protobuf.Any details
      // = 3}, read with protobuf-java's generic parser
      UnknownFieldSet status = UnknownFieldSet.parseFrom(Base64.getDecoder().decode(bin));
      assertEquals(List.of(8L), status.getField(1).getVarintList());
      assertEquals("slow down", status.getField(2).getLengthDelimitedList().get(0).toStringUtf8());
      assertEquals(1, status.getField(3).getLengthDelimitedList().size());
      Any any = Any.parseFrom(status.getField(3).getLengthDelimitedList().get(0));
      assertEquals("type.googleapis.com/google.rpc.RetryInfo", any.getTypeUrl());
      UnknownFieldSet retryInfo = UnknownFieldSet.parseFrom(any.getValue());
      Duration delay = Duration.parseFrom(retryInfo.getField(1).getLengthDelimitedList().get(0));
      assertEquals(2, delay.getSeconds());
      assertEquals(500_000_000, delay.getNanos());
      assertEquals(3, status.asMap().size());
    }
  }

  @Test
  void partialSuccessIsAnOkResponseMessage() throws Exception {
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.start();
        GrpcTestClient client = new GrpcTestClient(null)) {
      receiver.respond(r -> GrpcReply.partialSuccess(r, 2, "bad attributes"));
      GrpcTestClient.Call call =
          get(client.export(receiver.endpoint(), request(5, "x").toByteArray()));
      assertEquals(false, call.trailersOnly);
      assertEquals("0", call.trailers.get("grpc-status"));
      byte[] data = call.data.toByteArray();
      assertEquals(0, data[0], "not compressed");
      assertEquals(data.length - 5, GrpcWire.declaredLength(data, 0));
      ExportLogsServiceResponse response =
          ExportLogsServiceResponse.parseFrom(java.util.Arrays.copyOfRange(data, 5, data.length));
      assertEquals(2, response.getPartialSuccess().getRejectedLogRecords());
      assertEquals("bad attributes", response.getPartialSuccess().getErrorMessage());
      assertEquals(5, receiver.acceptedRecords(), "a partial success is an accepted call");
    }
  }

  @Test
  void afterHeadersSendsResponseHeadersThenTheStatusInTrailers() throws Exception {
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.start();
        GrpcTestClient client = new GrpcTestClient(null)) {
      receiver.respond(
          r -> GrpcReply.status(GrpcReply.UNAVAILABLE, "later").withRetryInfo(1000).afterHeaders());
      GrpcTestClient.Call call =
          get(client.export(receiver.endpoint(), request(1, "x").toByteArray()));
      assertEquals(false, call.trailersOnly);
      assertEquals(200, call.httpStatus);
      assertEquals("application/grpc", call.headers.get("content-type"));
      assertNull(call.headers.get("grpc-status"));
      assertEquals(0, call.data.size(), "no message");
      assertEquals("14", call.trailers.get("grpc-status"));
      assertEquals("later", call.trailers.get("grpc-message"));
      assertTrue(call.trailers.containsKey("grpc-status-details-bin"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"gzip", "zstd"})
  void compressedMessagesAreDecompressed(String encoding) throws Exception {
    ExportLogsServiceRequest request = request(50, "compressible body ");
    byte[] compressed = compress(Compression.fromName(encoding), request.toByteArray());
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.start();
        GrpcTestClient client = new GrpcTestClient(null)) {
      GrpcTestClient.Call call =
          get(
              client.call(
                  receiver.endpoint(),
                  OtlpGrpcReceiver.EXPORT_PATH,
                  "POST",
                  "application/grpc",
                  compressedFrame(compressed),
                  "te",
                  "trailers",
                  "grpc-encoding",
                  encoding));
      assertEquals("0", call.trailers.get("grpc-status"), call.headers.toString());
      ReceivedRequest r = receiver.requests().get(0);
      assertEquals(encoding, r.header("grpc-encoding"));
      assertEquals(compressed.length, r.wireLength());
      assertArrayEquals(request.toByteArray(), r.body());
      assertEquals(50, receiver.acceptedRecords());
      assertEquals(compressed.length, receiver.acceptedWireBytes());
      assertEquals(request.toByteArray().length, receiver.acceptedBodyBytes());
    }
  }

  @Test
  void lz4IsNotAGrpcEncoding() throws Exception {
    byte[] compressed = compress(Compression.LZ4, request(1, "x").toByteArray());
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.start();
        GrpcTestClient client = new GrpcTestClient(null)) {
      GrpcTestClient.Call call =
          get(
              client.call(
                  receiver.endpoint(),
                  OtlpGrpcReceiver.EXPORT_PATH,
                  "POST",
                  "application/grpc",
                  compressedFrame(compressed),
                  "te",
                  "trailers",
                  "grpc-encoding",
                  "lz4"));
      assertInvalid(call, 200, 12, "grpc: Decompressor is not installed for grpc-encoding \"lz4\"");
      assertEquals(1, receiver.invalidRequestCount());
      assertEquals(
          "POST "
              + OtlpGrpcReceiver.EXPORT_PATH
              + " HTTP 200 grpc-status 12: grpc: Decompressor is not installed for grpc-encoding"
              + " \"lz4\"",
          receiver.invalidRequests().get(0));
      assertEquals(List.of(), receiver.requests());
    }
  }

  @Test
  void theSizeLimitAppliesToTheMessageAsSentAndDecompressed() throws Exception {
    byte[] exactly = requestOfSize(1000).toByteArray();
    byte[] over = requestOfSize(1001).toByteArray();
    assertEquals(1000, exactly.length);
    assertEquals(1001, over.length);
    try (OtlpGrpcReceiver receiver =
            OtlpGrpcReceiver.builder().maxReceiveMessageSizeInBytes(1000).start();
        GrpcTestClient client = new GrpcTestClient(null)) {
      GrpcTestClient.Call ok = get(client.export(receiver.endpoint(), exactly));
      assertEquals("0", ok.trailers.get("grpc-status"));
      GrpcTestClient.Call call = get(client.export(receiver.endpoint(), over));
      assertInvalid(call, 200, 8, "grpc: received message larger than max (1001 vs. 1000)");
      byte[] gzip = compress(Compression.GZIP, over);
      assertTrue(gzip.length < 1000);
      GrpcTestClient.Call unzipped =
          get(
              client.call(
                  receiver.endpoint(),
                  OtlpGrpcReceiver.EXPORT_PATH,
                  "POST",
                  "application/grpc",
                  compressedFrame(gzip),
                  "te",
                  "trailers",
                  "grpc-encoding",
                  "gzip"));
      assertInvalid(
          unzipped,
          200,
          8,
          "grpc: received message after decompression larger than max (1001 vs. 1000)");
      assertEquals(1, receiver.acceptedRequests());
      assertEquals(2, receiver.invalidRequestCount());
    }
  }

  @Test
  void theDefaultLimitIsFourMebibytes() throws Exception {
    byte[] over = requestOfSize(4 * 1024 * 1024 + 1).toByteArray();
    assertEquals(4_194_305, over.length);
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.startCounting();
        GrpcTestClient client = new GrpcTestClient(null)) {
      GrpcTestClient.Call call = get(client.export(receiver.endpoint(), over));
      assertInvalid(call, 200, 8, "grpc: received message larger than max (4194305 vs. 4194304)");
      byte[] exactly = requestOfSize(4 * 1024 * 1024).toByteArray();
      GrpcTestClient.Call ok = get(client.export(receiver.endpoint(), exactly));
      assertEquals("0", ok.trailers.get("grpc-status"));
      assertEquals(1, receiver.acceptedRecords());
    }
  }

  @Test
  void malformedCallsAreRefusedAsGrpcGoRefusesThem() throws Exception {
    byte[] message = request(1, "x").toByteArray();
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.start();
        GrpcTestClient client = new GrpcTestClient(null)) {
      String e = receiver.endpoint();
      String path = OtlpGrpcReceiver.EXPORT_PATH;
      byte[] framed = GrpcWire.frame(message);
      assertInvalid(
          get(client.call(e, path, "POST", "application/json", framed, "te", "trailers")),
          415,
          3,
          "invalid gRPC request content-type \"application/json\"");
      assertInvalid(
          get(client.call(e, path, "PUT", "application/grpc", framed, "te", "trailers")),
          405,
          13,
          "http2Server.operateHeaders parsed a :method field: PUT which should be POST");
      assertInvalid(
          get(client.call(e, path, "POST", "application/grpc", framed)),
          400,
          13,
          "Expected header TE: trailers, but null is received");
      assertInvalid(
          get(client.call(e, "/foo.Bar/Baz", "POST", "application/grpc", framed, "te", "trailers")),
          200,
          12,
          "unknown service foo.Bar");
      assertInvalid(
          get(
              client.call(
                  e,
                  "/opentelemetry.proto.collector.logs.v1.LogsService/Push",
                  "POST",
                  "application/grpc+proto",
                  framed,
                  "te",
                  "trailers")),
          200,
          12,
          "unknown method Push for service opentelemetry.proto.collector.logs.v1.LogsService");
      byte[] garbage = GrpcWire.frame(new byte[] {0x0A, 0x05, 0x01});
      GrpcTestClient.Call bad =
          get(client.call(e, path, "POST", "application/grpc", garbage, "te", "trailers"));
      assertEquals("13", bad.headers.get("grpc-status"));
      assertTrue(
          bad.headers.get("grpc-message").startsWith("grpc: error unmarshalling request: "),
          bad.headers.toString());
      byte[] truncated = java.util.Arrays.copyOf(framed, framed.length - 1);
      assertInvalid(
          get(client.call(e, path, "POST", "application/grpc", truncated, "te", "trailers")),
          200,
          13,
          "grpc: truncated message: "
              + (message.length - 1)
              + " of "
              + message.length
              + " bytes received");
      byte[] flagged = framed.clone();
      flagged[0] = 1;
      assertInvalid(
          get(client.call(e, path, "POST", "application/grpc", flagged, "te", "trailers")),
          200,
          13,
          "grpc: compressed flag set with identity or empty encoding");
      assertInvalid(
          get(
              client.call(
                  e,
                  path,
                  "POST",
                  "application/grpc",
                  framed,
                  "te",
                  "trailers",
                  "grpc-timeout",
                  "1x")),
          400,
          13,
          "malformed grpc-timeout: \"1x\"");
      assertEquals(9, receiver.invalidRequestCount());
      assertEquals(List.of(), receiver.requests());
      assertEquals(9, receiver.requestHeaders().size());
    }
  }

  @Test
  void countingModeCountsWithoutKeeping() throws Exception {
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.startCounting();
        GrpcTestClient client = new GrpcTestClient(null)) {
      List<CompletableFuture<GrpcTestClient.Call>> calls = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        calls.add(client.export(receiver.endpoint(), request(100, "r").toByteArray()));
      }
      for (CompletableFuture<GrpcTestClient.Call> c : calls) {
        assertEquals("0", get(c).trailers.get("grpc-status"));
      }
      assertEquals(1000, receiver.acceptedRecords());
      assertEquals(10, receiver.acceptedRequests());
      assertEquals(List.of(), receiver.requests());
      assertEquals(List.of(), receiver.requestHeaders());
      assertEquals(false, receiver.isStrict());
    }
  }

  @Test
  void builderBoundsAreChecked() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> OtlpGrpcReceiver.builder().maxReceiveMessageSizeInBytes(0));
    assertEquals("maxReceiveMessageSizeInBytes must be in [1, 1073741824], was 0", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> OtlpGrpcReceiver.builder().port(65536));
    assertThrows(IllegalArgumentException.class, () -> GrpcReply.status(0, "ok?"));
    assertThrows(IllegalArgumentException.class, () -> GrpcReply.status(17, "?"));
    assertThrows(IllegalStateException.class, () -> GrpcReply.goAway().withRetryInfo(1));
    assertThrows(
        IllegalArgumentException.class, () -> OtlpGrpcReceiver.grpcTimeoutNanos("123456789S"));
    assertEquals(2 * 3_600_000_000_000L, OtlpGrpcReceiver.grpcTimeoutNanos("2H"));
    assertEquals(7, OtlpGrpcReceiver.grpcTimeoutNanos("7n"));
  }

  // ---- helpers shared with OtlpGrpcReceiverFaultTest

  static void assertInvalid(GrpcTestClient.Call call, int http, int code, String message) {
    assertEquals(http, call.httpStatus, call.headers.toString());
    assertTrue(call.trailersOnly, "trailers-only: " + call.headers);
    assertEquals("application/grpc", call.headers.get("content-type"));
    assertEquals(Integer.toString(code), call.headers.get("grpc-status"), call.headers.toString());
    assertEquals(GrpcWire.percentEncode(message), call.headers.get("grpc-message"));
  }

  static GrpcTestClient.Call get(CompletableFuture<GrpcTestClient.Call> call) throws Exception {
    return call.get(30, TimeUnit.SECONDS);
  }

  static ExportLogsServiceRequest request(int records, String body) {
    ScopeLogs.Builder scope = ScopeLogs.newBuilder();
    for (int i = 0; i < records; i++) {
      scope.addLogRecords(
          LogRecord.newBuilder()
              .setTimeUnixNano(1_700_000_000_000_000_000L + i)
              .setBody(AnyValue.newBuilder().setStringValue(body + "-" + i)));
    }
    return ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(scope))
        .build();
  }

  /** {@return a request of one record whose serialized size is exactly {@code size} bytes} */
  static ExportLogsServiceRequest requestOfSize(int size) {
    int pad = Math.max(0, size - 20);
    for (int i = 0; i < 100; i++) {
      ExportLogsServiceRequest r = oneRecord(pad);
      int missing = size - r.getSerializedSize();
      if (missing == 0) {
        return r;
      }
      pad += missing > 0 ? Math.max(1, missing / 2) : Math.min(-1, missing / 2);
    }
    throw new IllegalStateException("cannot make a request of " + size + " bytes");
  }

  private static ExportLogsServiceRequest oneRecord(int bodyLength) {
    StringBuilder b = new StringBuilder(bodyLength);
    for (int i = 0; i < bodyLength; i++) {
      b.append('a');
    }
    return ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(
            ResourceLogs.newBuilder()
                .addScopeLogs(
                    ScopeLogs.newBuilder()
                        .addLogRecords(
                            LogRecord.newBuilder()
                                .setBody(AnyValue.newBuilder().setStringValue(b.toString())))))
        .build();
  }

  static byte[] compressedFrame(byte[] compressed) {
    byte[] framed = GrpcWire.frame(compressed);
    framed[0] = 1;
    return framed;
  }

  static byte[] compress(Compression c, byte[] body) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (OutputStream s = Codec.of(c, 0).compress(out)) {
      s.write(body);
    }
    return out.toByteArray();
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
