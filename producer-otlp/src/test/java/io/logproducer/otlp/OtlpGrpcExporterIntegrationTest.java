package io.logproducer.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.SendResult.Status;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.otlp.GrpcReply;
import io.logproducer.testing.otlp.OtlpGrpcReceiver;
import io.logproducer.testing.otlp.ReceivedRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * OTLP/gRPC against the test kit's {@link OtlpGrpcReceiver} (a real HTTP/2 server on 127.0.0.1) and
 * its fault scripts: statuses retried and delivered exactly once, or rejected once; RetryInfo;
 * partial success; trailers-only and after-headers statuses; the deadline; GOAWAY, RST_STREAM and
 * dropped connections; the size limit; gzip and zstd; the wire headers; multiplexing.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OtlpGrpcExporterIntegrationTest {

  private static final long WAIT_MILLIS = 60_000; // only ends a hang

  private OtlpGrpcReceiver server;

  @BeforeEach
  void startServer() throws Exception {
    server = OtlpGrpcReceiver.start();
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  private static ProducerConfig.Builder config() {
    return ProducerConfig.builder()
        .setClientId("grpc-it")
        .setJmxEnabled(false)
        .setLingerMillis(60_000)
        .setInitialRetryBackoffMillis(20)
        .setMaxRetryBackoffMillis(200)
        .setDeliveryTimeoutMillis(180_000);
  }

  private OtlpGrpcExporterBuilder exporter() {
    return OtlpGrpcExporter.builder(Map.of())
        .setEndpoint(server.endpoint())
        .setTimeoutMillis(5_000);
  }

  /** Sends "r-0".."r-(n-1)" from the calling thread and flushes (one batch for small n). */
  private static Outcomes sendAll(Producer producer, int n) {
    Outcomes outcomes = new Outcomes();
    for (int i = 0; i < n; i++) {
      producer.send(TestRecords.simple("r-" + i), outcomes.callback(i));
    }
    producer.flush();
    return outcomes;
  }

  private static List<String> bodies(int n) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add("r-" + i);
    }
    return out;
  }

  /** The first call answered by {@code first}, the others OK. */
  private void firstThenOk(Function<ReceivedRequest, GrpcReply> first) {
    AtomicInteger calls = new AtomicInteger();
    server.respond(r -> calls.getAndIncrement() == 0 ? first.apply(r) : GrpcReply.ok(r));
  }

  /** Sends 5 records in one batch; asserts 2 attempts, all delivered, received exactly once. */
  private void assertRetriedThenDeliveredOnce(String what) {
    try (Producer producer = new Producer(config().build(), exporter().build())) {
      Outcomes outcomes = sendAll(producer, 5);
      assertEquals(Map.of(Status.DELIVERED, 5), outcomes.statusCounts(), what + outcomes.all());
      assertEquals(2, outcomes.get(0).getAttempts(), what);
    }
    assertEquals(bodies(5), server.deliveredBodies(), what + ": delivered exactly once");
  }

  @Test
  void eachRetryableStatusIsRetriedThenDeliveredExactlyOnce() {
    int[] codes = {
      GrpcReply.CANCELLED,
      GrpcReply.DEADLINE_EXCEEDED,
      GrpcReply.ABORTED,
      GrpcReply.OUT_OF_RANGE,
      GrpcReply.UNAVAILABLE,
      GrpcReply.DATA_LOSS
    };
    for (int code : codes) {
      for (boolean afterHeaders : new boolean[] {false, true}) {
        server.close();
        try {
          server = OtlpGrpcReceiver.start();
        } catch (java.io.IOException e) {
          throw new AssertionError(e);
        }
        firstThenOk(
            r -> {
              GrpcReply s = GrpcReply.status(code, "try later");
              return afterHeaders ? s.afterHeaders() : s;
            });
        assertRetriedThenDeliveredOnce("code " + code + " afterHeaders " + afterHeaders + ": ");
        assertEquals(2, server.requests().size());
      }
    }
  }

  @Test
  void eachOtherStatusIsRejectedOnceWithItsNameAndMessage() throws Exception {
    String[] names = {
      null,
      null,
      "UNKNOWN",
      "INVALID_ARGUMENT",
      null,
      "NOT_FOUND",
      "ALREADY_EXISTS",
      "PERMISSION_DENIED",
      "RESOURCE_EXHAUSTED",
      "FAILED_PRECONDITION",
      null,
      null,
      "UNIMPLEMENTED",
      "INTERNAL",
      null,
      null,
      "UNAUTHENTICATED"
    };
    for (int code = 2; code <= 16; code++) {
      if (names[code] == null) {
        continue;
      }
      server.close();
      server = OtlpGrpcReceiver.start();
      final int c = code;
      server.respond(r -> GrpcReply.status(c, "no: 100% sure"));
      try (Producer producer = new Producer(config().build(), exporter().build())) {
        Outcomes outcomes = sendAll(producer, 3);
        assertEquals(Map.of(Status.REJECTED, 3), outcomes.statusCounts(), "code " + code);
        SendResult r = outcomes.get(0);
        assertEquals(1, r.getAttempts(), "code " + code);
        String expected = "gRPC " + names[code] + " (" + code + "): no: 100% sure";
        if (code == GrpcReply.RESOURCE_EXHAUSTED) {
          expected += " (not retried: no RetryInfo, the server cannot recover)";
        }
        assertEquals(expected, r.getMessage());
      }
      assertEquals(1, server.requests().size(), "code " + code);
    }
  }

  @Test
  void resourceExhaustedWithRetryInfoIsRetriedAfterItsDelay() {
    long delay = 1_500;
    firstThenOk(r -> GrpcReply.status(GrpcReply.RESOURCE_EXHAUSTED, "busy").withRetryInfo(delay));
    assertRetriedThenDeliveredOnce("RESOURCE_EXHAUSTED with RetryInfo: ");
    List<ReceivedRequest> requests = server.requests();
    assertEquals(2, requests.size());
    long waitedMillis =
        TimeUnit.NANOSECONDS.toMillis(
            requests.get(1).receivedNanos() - requests.get(0).receivedNanos());
    assertTrue(
        waitedMillis >= delay,
        "the retry waited the RetryInfo delay (backoff 20 ms): " + waitedMillis);
  }

  @Test
  void partialSuccessIsReportedAndNotRetried() {
    server.respond(r -> GrpcReply.partialSuccess(r, 2, "2 log records were too old"));
    try (Producer producer = new Producer(config().build(), exporter().build())) {
      Outcomes outcomes = sendAll(producer, 4);
      assertEquals(Map.of(Status.PARTIALLY_REJECTED, 4), outcomes.statusCounts());
      assertEquals(2, outcomes.get(0).getRejectedCount());
      assertEquals("2 log records were too old", outcomes.get(0).getMessage());
      assertEquals(1, outcomes.get(0).getAttempts());
    }
    assertEquals(1, server.requests().size());
  }

  @Test
  void aStalledCallEndsAtTheDeadlineAndIsRetried() {
    CountDownLatch never = new CountDownLatch(1);
    try {
      firstThenOk(r -> GrpcReply.ok(r).heldBy(never));
      try (Producer producer =
          new Producer(config().build(), exporter().setTimeoutMillis(500).build())) {
        Outcomes outcomes = sendAll(producer, 5);
        assertEquals(Map.of(Status.DELIVERED, 5), outcomes.statusCounts(), "" + outcomes.all());
        assertEquals(2, outcomes.get(0).getAttempts());
      }
      assertEquals(2, server.requests().size());
    } finally {
      never.countDown();
    }
  }

  @Test
  void theDeadlineIsAnsweredRetryableByExport() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    server.respond(r -> GrpcReply.ok(r).heldBy(never));
    try (OtlpGrpcExporter e = exporter().setTimeoutMillis(300).build()) {
      e.start(ProducerConfig.defaults());
      byte[] body = {0x0a, 0x00};
      ExportResult r = e.export(null, body, body.length, Compression.NONE);
      assertEquals(ExportResult.Kind.RETRYABLE, r.kind());
      assertTrue(r.message().endsWith("timed out after 300 ms (request deadline)"), r.message());
      assertEquals("300m", server.requestHeaders().get(0).get("grpc-timeout").get(0));
    } finally {
      never.countDown();
    }
  }

  @Test
  void goAwayResetStreamAndDroppedConnectionsAreRetriedAndDeliveredExactlyOnce() throws Exception {
    List<Function<ReceivedRequest, GrpcReply>> faults = new ArrayList<>();
    faults.add(r -> GrpcReply.goAway());
    faults.add(r -> GrpcReply.resetStream());
    faults.add(r -> GrpcReply.dropConnection());
    String[] names = {"GOAWAY", "RST_STREAM", "dropped connection"};
    for (int i = 0; i < faults.size(); i++) {
      server.close();
      server = OtlpGrpcReceiver.start();
      firstThenOk(faults.get(i));
      assertRetriedThenDeliveredOnce(names[i] + ": ");
    }
  }

  @Test
  void batchesAreSealedBelowTheMessageSizeLimit() throws Exception {
    server.close();
    server = OtlpGrpcReceiver.builder().maxReceiveMessageSizeInBytes(64 * 1024).start();
    int n = 400;
    char[] text = new char[1000];
    java.util.Arrays.fill(text, 'x');
    try (Producer producer =
        new Producer(
            config().setLingerMillis(20).build(),
            exporter().setMaxRequestSizeInBytes(64 * 1024).build())) {
      Outcomes outcomes = new Outcomes();
      for (int i = 0; i < n; i++) {
        producer.send(TestRecords.simple(i + new String(text)), outcomes.callback(i));
      }
      producer.flush();
      assertEquals(Map.of(Status.DELIVERED, n), outcomes.statusCounts());
    }
    assertEquals(n, server.acceptedRecords());
    assertEquals(0, server.rejectedRequests());
    assertTrue(server.requests().size() >= 7, "400 KB in several messages under 64 KiB");
    for (ReceivedRequest r : server.requests()) {
      assertTrue(r.bodyLength() <= 64 * 1024 - 5, "message " + r.bodyLength());
    }
  }

  @Test
  void gzipAndZstdMessagesArriveExact() {
    for (Compression c : new Compression[] {Compression.GZIP, Compression.ZSTD}) {
      server.close();
      try {
        server = OtlpGrpcReceiver.start();
      } catch (java.io.IOException e) {
        throw new AssertionError(e);
      }
      try (Producer producer =
          new Producer(config().build(), exporter().setCompression(c).build())) {
        Outcomes outcomes = sendAll(producer, 50);
        assertEquals(Map.of(Status.DELIVERED, 50), outcomes.statusCounts());
      }
      assertEquals(bodies(50), server.deliveredBodies(), c.toString());
      Map<String, List<String>> h = server.requestHeaders().get(0);
      assertEquals(List.of(c.contentEncoding()), h.get("grpc-encoding"));
      assertTrue(server.requests().get(0).wireLength() < server.requests().get(0).bodyLength());
    }
  }

  @Test
  void theCallCarriesTheGrpcHeadersAndMetadata() {
    try (Producer producer =
        new Producer(
            config().build(),
            exporter()
                .setEndpoint("http://u:p@127.0.0.1:" + server.port())
                .addHeader("X-Tenant", "t1")
                .setResourceAttribute("host.name", "h1")
                .build())) {
      assertEquals(Map.of(Status.DELIVERED, 1), sendAll(producer, 1).statusCounts());
    }
    ReceivedRequest r = server.requests().get(0);
    assertEquals(OtlpGrpcReceiver.EXPORT_PATH, r.path());
    Map<String, List<String>> h = r.headers();
    assertEquals(List.of("application/grpc"), h.get("content-type"));
    assertEquals(List.of("trailers"), h.get("te"));
    assertEquals(List.of("5000m"), h.get("grpc-timeout"));
    assertEquals(List.of("gzip,zstd"), h.get("grpc-accept-encoding"));
    assertEquals(List.of("t1"), h.get("x-tenant"));
    assertEquals(List.of("Basic dTpw"), h.get("authorization"));
    assertTrue(r.userAgent().startsWith("logproducer-otlp-java"), r.userAgent());
    assertEquals(null, h.get("grpc-encoding"));
    assertEquals("h1", server.deliveredRecords().get(0).resourceAttributes().get("host.name"));
  }

  @Test
  void allSendThreadsShareOneMultiplexedConnection() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    server.respond(r -> GrpcReply.ok(r).heldBy(release));
    int threads = 4;
    OtlpGrpcExporter exporter = exporter().setTimeoutMillis(60_000).setStripes(threads).build();
    Outcomes outcomes = new Outcomes();
    int n = 400;
    try (Producer producer =
        new Producer(
            config().setSendThreads(threads).setBatchCountThreshold(10).build(), exporter)) {
      for (int i = 0; i < n; i++) {
        producer.send(TestRecords.simple("m-" + i), outcomes.callback(i));
      }
      long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
      while (server.peakConcurrentStreams() < threads && System.nanoTime() - until < 0) {
        Thread.sleep(5);
      }
      assertEquals(threads, server.peakConcurrentStreams(), "one stream per send thread at once");
      release.countDown();
      producer.flush();
      assertEquals(Map.of(Status.DELIVERED, n), outcomes.statusCounts());
      assertEquals(1, server.connectionsAccepted(), "all streams on one connection");
      assertEquals(1, exporter.getConnectionsOpened());
    } finally {
      release.countDown();
    }
    List<String> got = new ArrayList<>(server.deliveredBodies());
    Collections.sort(got);
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      expected.add("m-" + i);
    }
    Collections.sort(expected);
    assertEquals(expected, got);
  }
}
