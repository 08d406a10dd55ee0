package io.logproducer.otlp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.otlp.encoding.testing.ExpectedProto;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.otlp.testing.ProtoRequests;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.Reply;
import io.logproducer.testsupport.SchedulerLag;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The HTTP transport alone: body slices, timeouts, connection failures, close during a request. */
class HttpTransportTest {

  private static HttpTransport transport(String url, long timeoutMillis) {
    return new HttpTransport(
        URI.create(url),
        Map.of("X-Test", "1"),
        timeoutMillis,
        "application/x-protobuf",
        false,
        "test-agent",
        null);
  }

  @Test
  void sendsTheGivenSliceOfTheArray() throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      HttpTransport t = transport(server.endpoint() + "/v1/logs", 5_000);
      t.start(1);
      ExportLogsServiceRequest request =
          ExpectedProto.request(
              Map.of("service.name", AnyValue.of("s")),
              "sc",
              null,
              List.of(TestRecords.full("sliced")));
      byte[] bytes = request.toByteArray();
      byte[] padded = Arrays.copyOf(bytes, bytes.length + 100);
      Arrays.fill(
          padded,
          bytes.length,
          padded.length,
          (byte) 0xFF); // garbage after the body: must not be sent
      ExportResult r = t.send(padded, bytes.length, Compression.NONE);
      assertEquals(ExportResult.Kind.SUCCESS, r.kind(), r.toString());
      assertEquals(List.of(), server.invalidRequests());
      assertEquals(request, ProtoRequests.parse(server.requests().get(0)));
      assertEquals(bytes.length, server.requests().get(0).body().length);
      assertEquals("1", server.requests().get(0).header("x-test"));
      assertEquals("test-agent", server.requests().get(0).userAgent());
      t.close();
      t.close();
      assertEquals(
          ExportResult.Kind.FAILED, t.send(padded, 0, Compression.NONE).kind(), "after close");
    }
  }

  @Test
  void notStartedFailsWithoutThrowing() {
    HttpTransport t = transport("http://127.0.0.1:1/v1/logs", 1_000);
    ExportResult r = t.send(new byte[0], 0, Compression.NONE);
    assertEquals(ExportResult.Kind.FAILED, r.kind());
    assertEquals("exporter to http://127.0.0.1:1/v1/logs was not started", r.message());
  }

  @Test
  void connectionRefusedIsRetryable() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    HttpTransport t = transport("http://127.0.0.1:" + port + "/v1/logs", 2_000);
    t.start(1);
    try {
      ExportResult r = t.send(new byte[0], 0, Compression.NONE);
      assertEquals(ExportResult.Kind.RETRYABLE, r.kind());
      assertEquals(-1, r.retryAfterMillis());
      assertTrue(r.error() instanceof java.io.IOException, String.valueOf(r.error()));
    } finally {
      t.close();
    }
  }

  @Test
  void responseTimeoutIsRetryable() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (OtlpReceiver server = OtlpReceiver.start()) {
      server.respond(r -> Reply.ok(r).heldBy(release));
      HttpTransport t = transport(server.endpoint() + "/v1/logs", 300);
      t.start(1);
      long tookMillis;
      ExportResult r;
      try (SchedulerLag lag = SchedulerLag.start()) {
        long start = System.nanoTime();
        r = t.send(new byte[0], 0, Compression.NONE);
        tookMillis = lag.assertWithin(start, 300, "a request held past its 300 ms timeout");
      }
      assertEquals(ExportResult.Kind.RETRYABLE, r.kind(), r.toString());
      // The request deadline fires first (it starts before the socket read timeout, with the same
      // value).
      assertTrue(
          r.message().endsWith("timed out after 300 ms (request deadline)")
              || r.error() instanceof java.net.SocketTimeoutException,
          r.toString());
      assertTrue(tookMillis >= 250, "took " + tookMillis + " ms");
      t.close();
    } finally {
      release.countDown();
    }
  }

  @Test
  void closeFailsARequestInFlightPromptly() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    try (OtlpReceiver server = OtlpReceiver.start()) {
      server.respond(r -> Reply.ok(r).heldBy(release));
      HttpTransport t = transport(server.endpoint() + "/v1/logs", 60_000);
      t.start(2);
      CompletableFuture<ExportResult> inFlight =
          CompletableFuture.supplyAsync(() -> t.send(new byte[0], 0, Compression.NONE));
      assertTrue(
          Outcomes.until(() -> server.requests().size() == 1, 30_000),
          "request reached the server");
      ExportResult r;
      try (SchedulerLag lag = SchedulerLag.start()) {
        long start = System.nanoTime();
        t.close();
        r = inFlight.get(30, TimeUnit.SECONDS); // a hang bound; the time is asserted below
        // promptly: close waits on no timer (the request's is 60 s), only for the aborted
        // request to come back: 500 ms for that hand-off plus how late this machine wakes threads
        lag.assertWithin(start, 500, "close with a request in flight");
      }
      assertEquals(ExportResult.Kind.FAILED, r.kind(), r.toString());
      assertTrue(r.message().contains("closed"), r.message());
    } finally {
      release.countDown();
    }
  }
}
