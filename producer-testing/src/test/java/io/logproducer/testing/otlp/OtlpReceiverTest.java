package io.logproducer.testing.otlp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import io.logproducer.Compression;
import io.logproducer.internal.codec.Codec;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.ArrayValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.common.v1.KeyValueList;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.resource.v1.Resource;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class OtlpReceiverTest {

  private static final String PROTOBUF = "application/x-protobuf";
  private static final String JSON = "application/json";
  private static final long TRACE_TIME = 1_700_000_000_123_456_789L;

  private final HttpClient client =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @ParameterizedTest
  @EnumSource(Compression.class)
  void strictDecodesEveryFieldOfAProtobufRequestInEachCodec(Compression compression)
      throws Exception {
    ExportLogsServiceRequest request = fullRequest();
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      HttpResponse<byte[]> response =
          post(receiver.logsUrl(), PROTOBUF, compression, request.toByteArray());
      assertEquals(200, response.statusCode());
      assertArrayEquals(
          new byte[] {0x0A, 0x00}, response.body(), "an empty partial_success, as the Collector");
      assertEquals(PROTOBUF, response.headers().firstValue("content-type").orElse(null));
      assertEquals(List.of(), receiver.invalidRequests());
      ReceivedRequest r = receiver.requests().get(0);
      assertEquals(0, r.index());
      assertEquals("POST", r.method());
      assertEquals("/v1/logs", r.path());
      assertEquals(compression.contentEncoding(), r.contentEncoding());
      assertEquals("test-agent/1", r.userAgent());
      assertArrayEquals(request.toByteArray(), r.body());
      assertEquals(request, ExportLogsServiceRequest.parseFrom(r.body()));
      assertEquals(3, r.recordCount());
      assertFullRecords(r.records());
      assertEquals(List.of("hello", "", "third"), r.bodies());
      assertEquals(1, receiver.acceptedRequests());
      assertEquals(3, receiver.acceptedRecords());
      assertEquals(request.getSerializedSize(), receiver.acceptedBodyBytes());
      assertEquals(
          compress(compression, request.toByteArray()).length, receiver.acceptedWireBytes());
    }
  }

  @ParameterizedTest
  @EnumSource(
      value = Compression.class,
      names = {"NONE", "GZIP", "ZSTD"})
  void strictDecodesTheSameRequestInOtlpJson(Compression compression) throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      HttpResponse<byte[]> response =
          post(
              receiver.logsUrl(),
              JSON + "; charset=utf-8",
              compression,
              fullRequestJson().getBytes(StandardCharsets.UTF_8));
      assertEquals(200, response.statusCode());
      assertEquals("{\"partialSuccess\":{}}", new String(response.body(), StandardCharsets.UTF_8));
      assertEquals(List.of(), receiver.invalidRequests());
      ReceivedRequest r = receiver.requests().get(0);
      assertTrue(r.isJson());
      assertFullRecords(r.records());
      assertEquals(3, receiver.acceptedRecords());
    }
  }

  private static void assertFullRecords(List<ReceivedLogRecord> records) {
    assertEquals(3, records.size());
    ReceivedLogRecord first = records.get(0);
    assertEquals(Map.of("service.name", "svc", "host.cpus", 8L), first.resourceAttributes());
    assertEquals("io.test", first.scopeName());
    assertEquals("1.2", first.scopeVersion());
    assertEquals(Map.of("scope.flag", true), first.scopeAttributes());
    assertEquals(TRACE_TIME, first.timeUnixNano());
    assertEquals(TRACE_TIME + 5, first.observedTimeUnixNano());
    assertEquals(9, first.severityNumber());
    assertEquals("INFO", first.severityText());
    assertEquals("hello", first.body());
    assertEquals(
        List.of("k", "i", "d", "b", "arr", "map", "bytes"),
        new ArrayList<>(first.attributes().keySet()));
    assertEquals("v", first.attribute("k"));
    assertEquals(-42L, first.attribute("i"));
    assertEquals(2.5, first.attribute("d"));
    assertEquals(false, first.attribute("b"));
    assertEquals(List.of("x", 1L), first.attribute("arr"));
    assertEquals(Map.of("inner", "y"), first.attribute("map"));
    assertArrayEquals(new byte[] {1, 2, (byte) 0xFF}, (byte[]) first.attribute("bytes"));
    assertEquals(3, first.droppedAttributesCount());
    assertEquals(1, first.flags());
    assertEquals("0102030405060708090a0b0c0d0e0f10", first.traceId());
    assertEquals("a1a2a3a4a5a6a7a8", first.spanId());
    assertEquals("order.paid", first.eventName());
    ReceivedLogRecord second = records.get(1);
    assertEquals(Map.of("n", 7L), second.body());
    assertEquals("", second.bodyString());
    assertEquals(0, second.severityNumber());
    assertEquals("", second.traceId());
    assertEquals(Map.of(), second.attributes());
    ReceivedLogRecord third = records.get(2);
    assertEquals("other.scope", third.scopeName());
    assertEquals(Map.of(), third.scopeAttributes());
    assertEquals(21, third.severityNumber());
    assertEquals(Map.of("service.name", "svc", "host.cpus", 8L), third.resourceAttributes());
  }

  @Test
  void refusesWhatTheCollectorRefuses() throws Exception {
    byte[] good = fullRequest().toByteArray();
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      HttpResponse<byte[]> get =
          client.send(
              HttpRequest.newBuilder(URI.create(receiver.logsUrl())).GET().build(),
              HttpResponse.BodyHandlers.ofByteArray());
      assertEquals(405, get.statusCode());
      assertEquals(
          404,
          post(receiver.endpoint() + "/v1/traces", PROTOBUF, Compression.NONE, good).statusCode());
      assertEquals(
          415, post(receiver.logsUrl(), "text/plain", Compression.NONE, good).statusCode());
      assertEquals(400, postEncoded(receiver.logsUrl(), "none", good).statusCode());
      assertEquals(400, postEncoded(receiver.logsUrl(), "br", good).statusCode());
      assertEquals(
          400, postEncoded(receiver.logsUrl(), "gzip", good).statusCode(), "not gzip data");
      assertEquals(
          400,
          post(receiver.logsUrl(), PROTOBUF, Compression.NONE, Arrays.copyOf(good, good.length - 1))
              .statusCode());
      assertEquals(
          400,
          post(receiver.logsUrl(), JSON, Compression.NONE, "{\"resourceLogs\":[".getBytes())
              .statusCode());
      List<String> invalid = receiver.invalidRequests();
      assertEquals(8, invalid.size(), invalid.toString());
      assertEquals("GET /v1/logs 405: method must be POST, was GET", invalid.get(0));
      assertEquals("POST /v1/traces 404: path must be /v1/logs, was /v1/traces", invalid.get(1));
      assertEquals(
          "POST /v1/logs 415: Content-Type must be application/x-protobuf or application/json, was "
              + "text/plain",
          invalid.get(2));
      assertEquals(
          "POST /v1/logs 400: Content-Encoding none must be omitted for an uncompressed body",
          invalid.get(3));
      assertEquals("POST /v1/logs 400: unsupported Content-Encoding br", invalid.get(4));
      assertTrue(
          invalid
              .get(5)
              .startsWith(
                  "POST /v1/logs 400: cannot decompress the gzip body of "
                      + good.length
                      + " bytes"),
          invalid.get(5));
      assertTrue(
          invalid.get(6).startsWith("POST /v1/logs 400: malformed protobuf: "), invalid.get(6));
      assertEquals(8, receiver.invalidRequestCount());
      assertEquals(invalid.get(7), receiver.lastInvalidRequest());
      assertEquals(
          "POST /v1/logs 400: malformed OTLP/JSON: unexpected end of input at offset 17",
          invalid.get(7));
      assertEquals(List.of(), receiver.exchanges());
      assertEquals(0, receiver.acceptedRequests() + receiver.rejectedRequests());
    }
  }

  @Test
  void keepsTheFirstThousandInvalidRequestsAndTheLast() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.startCounting()) {
      int n = OtlpReceiver.MAX_INVALID_KEPT + 2;
      for (int i = 0; i < n; i++) {
        byte[] bad = {0x0A, (byte) (i % 100 + 1)}; // a resource_logs longer than the body
        assertEquals(400, post(receiver.logsUrl(), PROTOBUF, Compression.NONE, bad).statusCode());
      }
      assertEquals(n, receiver.invalidRequestCount());
      List<String> invalid = receiver.invalidRequests();
      assertEquals(OtlpReceiver.MAX_INVALID_KEPT, invalid.size());
      assertEquals(
          "POST /v1/logs 400: malformed protobuf: length 1 exceeds the remaining 0 bytes at 2",
          invalid.get(0));
      assertEquals(
          "POST /v1/logs 400: malformed protobuf: length 2 exceeds the remaining 0 bytes at 2",
          receiver.lastInvalidRequest());
    }
  }

  @Test
  void answersAScriptedSequenceOfStatusesWithRetryAfter() throws Exception {
    byte[] body = fullRequest().toByteArray();
    AtomicInteger calls = new AtomicInteger();
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      receiver.respond(
          r -> {
            switch (calls.getAndIncrement()) {
              case 0:
                return Reply.rpcStatus(r, 503, "overloaded").withHeader("Retry-After", "2");
              case 1:
                return Reply.status(429).withHeader("Retry-After", "Wed, 21 Oct 2015 07:28:00 GMT");
              case 2:
                return Reply.status(413)
                    .withBody("text/plain", "too large".getBytes(StandardCharsets.UTF_8));
              default:
                return Reply.ok(r);
            }
          });
      HttpResponse<byte[]> first = post(receiver.logsUrl(), PROTOBUF, Compression.NONE, body);
      assertEquals(503, first.statusCode());
      assertEquals("2", first.headers().firstValue("retry-after").orElse(null));
      byte[] status = {0x08, 3, 0x12, 10, 'o', 'v', 'e', 'r', 'l', 'o', 'a', 'd', 'e', 'd'};
      assertArrayEquals(status, first.body(), "google.rpc.Status{code: 3, message: overloaded}");
      HttpResponse<byte[]> second = post(receiver.logsUrl(), PROTOBUF, Compression.NONE, body);
      assertEquals(429, second.statusCode());
      assertEquals(
          "Wed, 21 Oct 2015 07:28:00 GMT", second.headers().firstValue("retry-after").orElse(null));
      HttpResponse<byte[]> third = post(receiver.logsUrl(), PROTOBUF, Compression.NONE, body);
      assertEquals(413, third.statusCode());
      assertEquals("too large", new String(third.body(), StandardCharsets.UTF_8));
      assertEquals(200, post(receiver.logsUrl(), PROTOBUF, Compression.NONE, body).statusCode());
      assertEquals(
          List.of(503, 429, 413, 200),
          receiver.exchanges().stream().map(Exchange::status).collect(Collectors.toList()));
      assertEquals(
          List.of(false, false, false, true),
          receiver.exchanges().stream().map(Exchange::accepted).collect(Collectors.toList()));
      assertEquals(List.of("hello", "", "third"), receiver.deliveredBodies());
      assertEquals(3, receiver.rejectedRequests());
      assertEquals(1, receiver.acceptedRequests());
      assertEquals(3, receiver.acceptedRecords());
      receiver.respond(null);
      assertEquals(200, post(receiver.logsUrl(), PROTOBUF, Compression.NONE, body).statusCode());
    }
  }

  @Test
  void partialSuccessInTheRequestsFormat() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      receiver.respond(r -> Reply.partialSuccess(r, 3, "3 \"bad\" records"));
      HttpResponse<byte[]> proto =
          post(receiver.logsUrl(), PROTOBUF, Compression.NONE, fullRequest().toByteArray());
      assertEquals(200, proto.statusCode());
      ExportLogsServiceResponse parsed = ExportLogsServiceResponse.parseFrom(proto.body());
      assertEquals(3, parsed.getPartialSuccess().getRejectedLogRecords());
      assertEquals("3 \"bad\" records", parsed.getPartialSuccess().getErrorMessage());
      HttpResponse<byte[]> json =
          post(
              receiver.logsUrl(),
              JSON,
              Compression.NONE,
              fullRequestJson().getBytes(StandardCharsets.UTF_8));
      assertEquals(
          "{\"partialSuccess\":{\"rejectedLogRecords\":\"3\",\"errorMessage\":\"3 \\\"bad\\\" records\"}}",
          new String(json.body(), StandardCharsets.UTF_8));
      assertEquals(JSON, json.headers().firstValue("content-type").orElse(null));
      assertEquals(
          6,
          receiver.acceptedRecords(),
          "a partial success is a 200: the request counts as accepted");
    }
  }

  @Test
  void delaysHoldsAndDropsAnswers() throws Exception {
    byte[] body = fullRequest().toByteArray();
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger calls = new AtomicInteger();
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      receiver.respond(
          r -> {
            switch (calls.getAndIncrement()) {
              case 0:
                return Reply.ok(r).delayed(300);
              case 1:
                return Reply.ok(r).heldBy(release);
              case 2:
                return Reply.dropConnection();
              default:
                return Reply.ok(r);
            }
          });
      long start = System.nanoTime();
      assertEquals(200, post(receiver.logsUrl(), PROTOBUF, Compression.NONE, body).statusCode());
      assertTrue(
          System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(300),
          "answered after the delay");

      CompletableFuture<HttpResponse<byte[]>> held =
          client.sendAsync(
              request(receiver.logsUrl(), PROTOBUF, null, body),
              HttpResponse.BodyHandlers.ofByteArray());
      assertTrue(waitFor(() -> receiver.exchanges().size() == 2), "the held request arrived");
      assertFalse(held.isDone(), "held until released");
      release.countDown();
      assertEquals(200, held.get(10, TimeUnit.SECONDS).statusCode());

      assertThrows(
          IOException.class, () -> post(receiver.logsUrl(), PROTOBUF, Compression.NONE, body));
      assertEquals(0, receiver.exchanges().get(2).status());
      assertEquals(
          200,
          post(receiver.logsUrl(), PROTOBUF, Compression.NONE, body).statusCode(),
          "the next request is answered on a new connection");
      assertEquals(1, receiver.rejectedRequests());
      assertEquals(3, receiver.acceptedRequests());
    }
  }

  @Test
  void refusesConnectionsUntilResumedOnTheSamePort() throws Exception {
    byte[] body = fullRequest().toByteArray();
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      int port = receiver.port();
      assertEquals(200, post(receiver.logsUrl(), PROTOBUF, Compression.NONE, body).statusCode());
      receiver.refuse();
      receiver.refuse();
      // a new connection is refused (a pooled one of the client's was closed: that one fails with
      // an IOException of the client's choosing)
      assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", port).close());
      receiver.resume();
      assertEquals(port, receiver.port());
      assertEquals(200, post(receiver.logsUrl(), PROTOBUF, Compression.NONE, body).statusCode());
      assertEquals(2, receiver.acceptedRequests());
    }
  }

  @Test
  void keepsTheConnectionOpenAfterAnErrorStatusUntilAskedToClose() throws Exception {
    byte[] body = fullRequest().toByteArray();
    try (OtlpReceiver receiver = OtlpReceiver.start();
        Socket socket = new Socket("127.0.0.1", receiver.port())) {
      receiver.respond(r -> r.index() < 2 ? Reply.status(r.index() == 0 ? 503 : 413) : Reply.ok(r));
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      InputStream in = socket.getInputStream();
      for (int i = 0; i < 4; i++) {
        String head =
            "POST /v1/logs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                + PROTOBUF
                + "\r\nContent-Length: "
                + body.length
                + (i == 3 ? "\r\nConnection: close" : "")
                + "\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        String response = readResponse(in);
        assertTrue(
            response.startsWith(i == 0 ? "http/1.1 503" : i == 1 ? "http/1.1 413" : "http/1.1 200"),
            response);
        assertEquals(i == 3, response.contains("\nconnection: close"), response);
      }
      assertEquals(-1, in.read(), "closed after the request that asked");
      assertEquals(2, receiver.acceptedRequests());
      assertEquals(2, receiver.rejectedRequests());
    }
  }

  /** Reads one response with a Content-Length; {@return its head, lower case, and body} */
  private static String readResponse(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (head.indexOf("\r\n\r\n") < 0) {
      int c = in.read();
      if (c < 0) {
        throw new IOException("closed after " + head);
      }
      head.append((char) c);
    }
    String h = head.toString().toLowerCase(java.util.Locale.ROOT);
    int at = h.indexOf("content-length:");
    int length = Integer.parseInt(h.substring(at + 15, h.indexOf('\r', at)).trim());
    byte[] body = in.readNBytes(length);
    return h.replace("\r\n", "\n") + new String(body, StandardCharsets.UTF_8);
  }

  @Test
  void countingCountsExactlyAndKeepsNothing() throws Exception {
    List<Integer> ids = new ArrayList<>();
    try (OtlpReceiver receiver = OtlpReceiver.startCounting()) {
      assertFalse(receiver.isStrict());
      AtomicInteger calls = new AtomicInteger();
      List<Long> seenCounts = new ArrayList<>();
      receiver.respond(
          r -> {
            synchronized (seenCounts) {
              seenCounts.add(r.recordCount());
            }
            assertThrows(IllegalStateException.class, r::records);
            return calls.getAndIncrement() == 1 ? Reply.status(503) : Reply.ok(r);
          });
      long wire = 0;
      long bodyBytes = 0;
      int records = 0;
      Compression[] codecs = Compression.values();
      for (int i = 0; i < 8; i++) {
        byte[] body = requestWithIds(i * 100, 1 + i * 37, false).toByteArray();
        Compression c = codecs[i % codecs.length];
        assertEquals(i == 1 ? 503 : 200, post(receiver.logsUrl(), PROTOBUF, c, body).statusCode());
        if (i != 1) {
          wire += compress(c, body).length;
          bodyBytes += body.length;
          records += 1 + i * 37;
        }
      }
      assertEquals(
          200,
          post(
                  receiver.logsUrl(),
                  JSON,
                  Compression.GZIP,
                  fullRequestJson().getBytes(StandardCharsets.UTF_8))
              .statusCode());
      assertEquals(records + 3, receiver.acceptedRecords());
      assertEquals(8, receiver.acceptedRequests());
      assertEquals(1, receiver.rejectedRequests());
      assertEquals(
          bodyBytes + fullRequestJson().getBytes(StandardCharsets.UTF_8).length,
          receiver.acceptedBodyBytes());
      assertEquals(
          wire
              + compress(Compression.GZIP, fullRequestJson().getBytes(StandardCharsets.UTF_8))
                  .length,
          receiver.acceptedWireBytes());
      assertEquals(List.of(), receiver.exchanges());
      assertEquals(38L, seenCounts.get(1));
      assertEquals(
          400,
          post(receiver.logsUrl(), PROTOBUF, Compression.NONE, new byte[] {0x0A, 0x05, 0x12})
              .statusCode());
      assertEquals(1, receiver.invalidRequestCount());
      assertTrue(receiver.awaitAcceptedRecords(records + 3, 1_000));
      assertFalse(receiver.awaitAcceptedRecords(records + 4, 50));
    }
  }

  @Test
  void recordIdsOfAcceptedRequestsInBothModes() throws Exception {
    for (boolean strict : new boolean[] {true, false}) {
      ConcurrentLinkedQueue<Long> ids = new ConcurrentLinkedQueue<>();
      OtlpReceiver.Builder b = OtlpReceiver.builder().recordIds("seq", ids::add);
      try (OtlpReceiver receiver = (strict ? b.strict() : b.counting()).start()) {
        AtomicInteger calls = new AtomicInteger();
        receiver.respond(r -> calls.getAndIncrement() == 0 ? Reply.status(503) : Reply.ok(r));
        byte[] body = requestWithIds(1_000_000_005L, 3, true).toByteArray();
        assertEquals(503, post(receiver.logsUrl(), PROTOBUF, Compression.ZSTD, body).statusCode());
        assertEquals(List.of(), new ArrayList<>(ids), "a rejected request's ids are not reported");
        assertEquals(200, post(receiver.logsUrl(), PROTOBUF, Compression.LZ4, body).statusCode());
        assertEquals(
            List.of(1_000_000_005L, -1L, 1_000_000_007L), new ArrayList<>(ids), "strict=" + strict);
      }
    }
  }

  @Test
  void validatesItsOptions() {
    assertEquals(
        "port must be in [0, 65535], was 65536",
        assertThrows(IllegalArgumentException.class, () -> OtlpReceiver.builder().port(65536))
            .getMessage());
    assertEquals(
        "status must be in [100, 599], was 600",
        assertThrows(IllegalArgumentException.class, () -> Reply.status(600)).getMessage());
    assertEquals(
        "millis must be >= 0, was -1",
        assertThrows(IllegalArgumentException.class, () -> Reply.status(200).delayed(-1))
            .getMessage());
  }

  @Test
  void closeIsIdempotentAndResumeAfterCloseFails() throws Exception {
    OtlpReceiver receiver = OtlpReceiver.start();
    receiver.close();
    receiver.close();
    assertEquals(
        "the receiver is closed", assertThrows(IOException.class, receiver::resume).getMessage());
  }

  // ---------------------------------------------------------------------------------------------------------------

  /**
   * Records whose attribute "seq" is first, first + 1, …; with {@code gap}, the second record has
   * no seq.
   */
  private static ExportLogsServiceRequest requestWithIds(long first, int n, boolean gap) {
    ScopeLogs.Builder scope = ScopeLogs.newBuilder();
    for (int i = 0; i < n; i++) {
      LogRecord.Builder r =
          LogRecord.newBuilder()
              .setBody(AnyValue.newBuilder().setStringValue("r" + i))
              .addAttributes(kv("other", AnyValue.newBuilder().setIntValue(99).build()));
      if (!(gap && i == 1)) {
        r.addAttributes(kv("seq", AnyValue.newBuilder().setIntValue(first + i).build()));
      }
      scope.addLogRecords(r);
    }
    return ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(ResourceLogs.newBuilder().addScopeLogs(scope))
        .build();
  }

  private static ExportLogsServiceRequest fullRequest() {
    LogRecord first =
        LogRecord.newBuilder()
            .setTimeUnixNano(TRACE_TIME)
            .setObservedTimeUnixNano(TRACE_TIME + 5)
            .setSeverityNumber(SeverityNumber.SEVERITY_NUMBER_INFO)
            .setSeverityText("INFO")
            .setBody(AnyValue.newBuilder().setStringValue("hello"))
            .addAttributes(kv("k", AnyValue.newBuilder().setStringValue("v").build()))
            .addAttributes(kv("i", AnyValue.newBuilder().setIntValue(-42).build()))
            .addAttributes(kv("d", AnyValue.newBuilder().setDoubleValue(2.5).build()))
            .addAttributes(kv("b", AnyValue.newBuilder().setBoolValue(false).build()))
            .addAttributes(
                kv(
                    "arr",
                    AnyValue.newBuilder()
                        .setArrayValue(
                            ArrayValue.newBuilder()
                                .addValues(AnyValue.newBuilder().setStringValue("x"))
                                .addValues(AnyValue.newBuilder().setIntValue(1)))
                        .build()))
            .addAttributes(
                kv(
                    "map",
                    AnyValue.newBuilder()
                        .setKvlistValue(
                            KeyValueList.newBuilder()
                                .addValues(
                                    kv("inner", AnyValue.newBuilder().setStringValue("y").build())))
                        .build()))
            .addAttributes(
                kv(
                    "bytes",
                    AnyValue.newBuilder()
                        .setBytesValue(ByteString.copyFrom(new byte[] {1, 2, -1}))
                        .build()))
            .setDroppedAttributesCount(3)
            .setFlags(1)
            .setTraceId(
                ByteString.copyFrom(
                    new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}))
            .setSpanId(
                ByteString.copyFrom(
                    new byte[] {
                      (byte) 0xa1,
                      (byte) 0xa2,
                      (byte) 0xa3,
                      (byte) 0xa4,
                      (byte) 0xa5,
                      (byte) 0xa6,
                      (byte) 0xa7,
                      (byte) 0xa8
                    }))
            .setEventName("order.paid")
            .build();
    LogRecord second =
        LogRecord.newBuilder()
            .setBody(
                AnyValue.newBuilder()
                    .setKvlistValue(
                        KeyValueList.newBuilder()
                            .addValues(kv("n", AnyValue.newBuilder().setIntValue(7).build()))))
            .build();
    LogRecord third =
        LogRecord.newBuilder()
            .setSeverityNumber(SeverityNumber.SEVERITY_NUMBER_FATAL)
            .setBody(AnyValue.newBuilder().setStringValue("third"))
            .build();
    return ExportLogsServiceRequest.newBuilder()
        .addResourceLogs(
            ResourceLogs.newBuilder()
                .setResource(
                    Resource.newBuilder()
                        .addAttributes(
                            kv("service.name", AnyValue.newBuilder().setStringValue("svc").build()))
                        .addAttributes(
                            kv("host.cpus", AnyValue.newBuilder().setIntValue(8).build())))
                .addScopeLogs(
                    ScopeLogs.newBuilder()
                        .setScope(
                            InstrumentationScope.newBuilder()
                                .setName("io.test")
                                .setVersion("1.2")
                                .addAttributes(
                                    kv(
                                        "scope.flag",
                                        AnyValue.newBuilder().setBoolValue(true).build())))
                        .addLogRecords(first)
                        .addLogRecords(second))
                .addScopeLogs(
                    ScopeLogs.newBuilder()
                        .setScope(InstrumentationScope.newBuilder().setName("other.scope"))
                        .addLogRecords(third)))
        .build();
  }

  /**
   * {@link #fullRequest()} in OTLP/JSON, as an exporter writes it (int64 as strings, ids in hex).
   */
  private static String fullRequestJson() {
    return "{\"resourceLogs\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\",\"value\":{\"stringValue\":"
        + "\"svc\"}},{\"key\":\"host.cpus\",\"value\":{\"intValue\":\"8\"}}]},\"scopeLogs\":[{\"scope\":{\"name\":"
        + "\"io.test\",\"version\":\"1.2\",\"attributes\":[{\"key\":\"scope.flag\",\"value\":{\"boolValue\":true}}]},"
        + "\"logRecords\":[{\"timeUnixNano\":\""
        + TRACE_TIME
        + "\",\"observedTimeUnixNano\":\""
        + (TRACE_TIME + 5)
        + "\",\"severityNumber\":\"SEVERITY_NUMBER_INFO\",\"severityText\":\"INFO\",\"body\":{\"stringValue\":"
        + "\"hello\"},\"attributes\":[{\"key\":\"k\",\"value\":{\"stringValue\":\"v\"}},{\"key\":\"i\",\"value\":"
        + "{\"intValue\":\"-42\"}},{\"key\":\"d\",\"value\":{\"doubleValue\":2.5}},{\"key\":\"b\",\"value\":"
        + "{\"boolValue\":false}},{\"key\":\"arr\",\"value\":{\"arrayValue\":{\"values\":[{\"stringValue\":\"x\"},"
        + "{\"intValue\":1}]}}},{\"key\":\"map\",\"value\":{\"kvlistValue\":{\"values\":[{\"key\":\"inner\","
        + "\"value\":{\"stringValue\":\"y\"}}]}}},{\"key\":\"bytes\",\"value\":{\"bytesValue\":\"AQL/\"}}],"
        + "\"droppedAttributesCount\":3,\"flags\":1,\"traceId\":\"0102030405060708090A0B0C0D0E0F10\",\"spanId\":"
        + "\"a1a2a3a4a5a6a7a8\",\"eventName\":\"order.paid\"},{\"body\":{\"kvlistValue\":{\"values\":[{\"key\":"
        + "\"n\",\"value\":{\"intValue\":\"7\"}}]}}}]},{\"scope\":{\"name\":\"other.scope\"},\"logRecords\":"
        + "[{\"severityNumber\":21,\"body\":{\"stringValue\":\"third\"}}]}]}]}";
  }

  private static KeyValue kv(String key, AnyValue value) {
    return KeyValue.newBuilder().setKey(key).setValue(value).build();
  }

  private static byte[] compress(Compression c, byte[] body) throws IOException {
    if (c == Compression.NONE) {
      return body;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (OutputStream s = Codec.of(c, 0).compress(out)) {
      s.write(body);
    }
    return out.toByteArray();
  }

  private HttpResponse<byte[]> post(String url, String type, Compression c, byte[] body)
      throws Exception {
    return client.send(
        request(url, type, c.contentEncoding(), compress(c, body)),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private HttpResponse<byte[]> postEncoded(String url, String encoding, byte[] body)
      throws Exception {
    return client.send(
        request(url, PROTOBUF, encoding, body), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static HttpRequest request(String url, String type, String encoding, byte[] body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(20))
            .header("Content-Type", type)
            .header("User-Agent", "test-agent/1")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (encoding != null) {
      b.header("Content-Encoding", encoding);
    }
    return b.build();
  }

  private static boolean waitFor(java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      TimeUnit.MILLISECONDS.sleep(5); // polling a condition with a deadline
    }
    return true;
  }
}
