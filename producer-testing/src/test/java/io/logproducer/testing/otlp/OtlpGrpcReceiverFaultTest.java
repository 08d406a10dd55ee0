package io.logproducer.testing.otlp;

import static io.logproducer.testing.otlp.OtlpGrpcReceiverTest.get;
import static io.logproducer.testing.otlp.OtlpGrpcReceiverTest.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.tls.TestPki;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLContext;
import org.apache.hc.core5.http.RequestNotExecutedException;
import org.apache.hc.core5.http2.frame.FrameType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OtlpGrpcReceiver}'s transport behaviour seen by a real HTTP/2 client: multiplexing, TLS
 * with a client certificate, refuse and resume, and the faults (GOAWAY, RST_STREAM, a dropped
 * connection, held and delayed answers), frame by frame.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OtlpGrpcReceiverFaultTest {

  private static final int RST_STREAM_CANCEL = 8;

  /**
   * One call of {@code body} after the receiver ended the client's connection: it goes on a new
   * connection. The client may still hand the ending one out, for a moment (until its I/O thread
   * has seen the close, later on a busy machine), to an attempt that then fails unsent ({@link
   * RequestNotExecutedException}): that attempt is tried again, up to 20 times 50 ms apart.
   */
  private static GrpcTestClient.Call exportAfterTheConnectionEnded(
      GrpcTestClient client, OtlpGrpcReceiver receiver, String body) throws Exception {
    for (int attempt = 0; ; attempt++) {
      try {
        return get(client.export(receiver.endpoint(), request(1, body).toByteArray()));
      } catch (ExecutionException e) {
        if (attempt >= 20 || !(e.getCause() instanceof RequestNotExecutedException)) {
          throw e;
        }
        Thread.sleep(50);
      }
    }
  }

  @Test
  void concurrentCallsAreMultiplexedOnOneConnection() throws Exception {
    int n = 20;
    CountDownLatch release = new CountDownLatch(1);
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.start();
        GrpcTestClient client = new GrpcTestClient(null)) {
      receiver.respond(r -> GrpcReply.ok(r).heldBy(release));
      List<CompletableFuture<GrpcTestClient.Call>> calls = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        calls.add(client.export(receiver.endpoint(), request(1, "m" + i).toByteArray()));
      }
      assertTrue(
          waitFor(() -> receiver.peakConcurrentStreams() == n),
          "peak " + receiver.peakConcurrentStreams() + " of " + n);
      assertTrue(waitFor(() -> receiver.acceptedRequests() == n), "every call read while held");
      assertTrue(calls.stream().noneMatch(CompletableFuture::isDone), "held");
      release.countDown();
      for (CompletableFuture<GrpcTestClient.Call> c : calls) {
        assertEquals("0", get(c).trailers.get("grpc-status"));
      }
      assertEquals(1, receiver.connectionsAccepted());
      assertEquals(n, receiver.peakConcurrentStreams());
      assertEquals(n, receiver.deliveredRecords().size());
    }
  }

  @Test
  void tlsWithAClientCertificate(@TempDir Path dir) throws Exception {
    TestPki pki = TestPki.create(dir);
    SSLContext clientContext = pki.serverContext(pki.client("exporter")); // key + trusted CA
    try (OtlpGrpcReceiver receiver =
            OtlpGrpcReceiver.builder().tls(pki.serverContext(pki.server()), true).start();
        GrpcTestClient client = new GrpcTestClient(clientContext)) {
      assertTrue(receiver.endpoint().startsWith("https://127.0.0.1:"), receiver.endpoint());
      GrpcTestClient.Call call =
          get(client.export(receiver.endpoint(), request(2, "secret").toByteArray()));
      assertEquals("0", call.trailers.get("grpc-status"));
      assertEquals(List.of("secret-0", "secret-1"), receiver.deliveredBodies());
      assertEquals(List.of("CN=exporter"), receiver.clientPrincipals());
    }
  }

  @Test
  void tlsWithoutTheNeededClientCertificateFailsTheHandshake(@TempDir Path dir) throws Exception {
    TestPki pki = TestPki.create(dir);
    SSLContext trustOnly = SSLContext.getInstance("TLS");
    trustOnly.init(null, trustManagers(pki), new java.security.SecureRandom());
    try (OtlpGrpcReceiver receiver =
            OtlpGrpcReceiver.builder().tls(pki.serverContext(pki.server()), true).start();
        GrpcTestClient client = new GrpcTestClient(trustOnly)) {
      assertThrows(
          ExecutionException.class,
          () -> get(client.export(receiver.endpoint(), request(1, "x").toByteArray())));
      assertEquals(0, receiver.acceptedRequests());
    }
  }

  @Test
  void refuseClosesThePortAndResumeListensAgainOnIt() throws Exception {
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.start()) {
      int port = receiver.port();
      try (GrpcTestClient client = new GrpcTestClient(null)) {
        assertEquals(
            "0",
            get(client.export(receiver.endpoint(), request(1, "a").toByteArray()))
                .trailers
                .get("grpc-status"));
      }
      receiver.refuse();
      assertThrows(
          ConnectException.class, () -> new Socket(InetAddress.getLoopbackAddress(), port).close());
      try (GrpcTestClient client = new GrpcTestClient(null)) {
        assertThrows(
            ExecutionException.class,
            () -> get(client.export(receiver.endpoint(), request(1, "b").toByteArray())));
      }
      receiver.resume();
      assertEquals(port, receiver.port());
      try (GrpcTestClient client = new GrpcTestClient(null)) {
        assertEquals(
            "0",
            get(client.export(receiver.endpoint(), request(1, "c").toByteArray()))
                .trailers
                .get("grpc-status"));
      }
      assertEquals(List.of("a-0", "c-0"), receiver.deliveredBodies());
    }
  }

  @Test
  void goAwayNamesTheStreamBeforeThisOneAndClosesTheConnection() throws Exception {
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.start();
        GrpcTestClient client = new GrpcTestClient(null)) {
      receiver.respond(
          r -> r.bodies().get(0).equals("away-0") ? GrpcReply.goAway() : GrpcReply.ok(r));
      assertEquals(
          "0",
          get(client.export(receiver.endpoint(), request(1, "first").toByteArray()))
              .trailers
              .get("grpc-status"));
      CompletableFuture<GrpcTestClient.Call> away =
          client.export(receiver.endpoint(), request(1, "away").toByteArray());
      assertThrows(ExecutionException.class, () -> get(away));
      assertEquals(List.of(1, 3), client.streamsOut, "the first call was stream 1, this one 3");
      List<GrpcTestClient.Frame> goAways = client.frames(FrameType.GOAWAY);
      assertEquals(1, goAways.size());
      GrpcTestClient.Frame g = goAways.get(0);
      assertEquals(0, g.streamId);
      assertEquals(1, g.int32(0), "last-stream-id: stream 3 was not processed");
      assertEquals(0, g.int32(4), "NO_ERROR");
      assertTrue(client.frames(FrameType.RST_STREAM).isEmpty());
      GrpcTestClient.Call retried = exportAfterTheConnectionEnded(client, receiver, "retry");
      assertEquals("0", retried.trailers.get("grpc-status"));
      assertEquals(2, receiver.connectionsAccepted());
      assertEquals(List.of("first-0", "retry-0"), receiver.deliveredBodies());
      assertEquals(1, receiver.rejectedRequests());
    }
  }

  @Test
  void resetStreamSendsHeadersThenRstStreamCancel() throws Exception {
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.start();
        GrpcTestClient client = new GrpcTestClient(null)) {
      receiver.respond(
          r -> r.bodies().get(0).equals("reset-0") ? GrpcReply.resetStream() : GrpcReply.ok(r));
      CompletableFuture<GrpcTestClient.Call> reset =
          client.export(receiver.endpoint(), request(1, "reset").toByteArray());
      assertThrows(ExecutionException.class, () -> get(reset));
      List<GrpcTestClient.Frame> frames = new ArrayList<>();
      for (GrpcTestClient.Frame f : client.framesIn) {
        if (f.streamId == 1 && f.type != FrameType.WINDOW_UPDATE.getValue()) {
          frames.add(f);
        }
      }
      assertEquals(2, frames.size(), "HEADERS then RST_STREAM: " + client.framesIn);
      assertEquals(FrameType.HEADERS.getValue(), frames.get(0).type, client.framesIn.toString());
      assertTrue(frames.get(0).payload.length > 0, "response headers");
      assertEquals(FrameType.RST_STREAM.getValue(), frames.get(1).type, client.framesIn.toString());
      assertEquals(RST_STREAM_CANCEL, frames.get(1).int32(0));
      // the connection stays open: the next call goes on it
      assertEquals(
          "0",
          get(client.export(receiver.endpoint(), request(1, "next").toByteArray()))
              .trailers
              .get("grpc-status"));
      assertEquals(1, receiver.connectionsAccepted());
      assertEquals(List.of("next-0"), receiver.deliveredBodies());
    }
  }

  @Test
  void dropConnectionClosesItWithoutAnAnswer() throws Exception {
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.start();
        GrpcTestClient client = new GrpcTestClient(null)) {
      receiver.respond(
          r -> r.bodies().get(0).equals("drop-0") ? GrpcReply.dropConnection() : GrpcReply.ok(r));
      CompletableFuture<GrpcTestClient.Call> dropped =
          client.export(receiver.endpoint(), request(1, "drop").toByteArray());
      assertThrows(ExecutionException.class, () -> get(dropped));
      assertTrue(client.frames(FrameType.GOAWAY).isEmpty(), "closed, not shut down");
      assertEquals(
          0,
          client.framesIn.stream()
              .filter(f -> f.streamId == 1 && f.type != FrameType.WINDOW_UPDATE.getValue())
              .count(),
          "no frame answered the call: " + client.framesIn);
      assertEquals(
          "0",
          exportAfterTheConnectionEnded(client, receiver, "again").trailers.get("grpc-status"));
      assertEquals(2, receiver.connectionsAccepted());
      assertEquals(1, receiver.rejectedRequests());
    }
  }

  @Test
  void aDelayedErrorStillReachesTheClientWhileOtherStreamsGoOn() throws Exception {
    CountDownLatch hold = new CountDownLatch(1);
    try (OtlpGrpcReceiver receiver = OtlpGrpcReceiver.start();
        GrpcTestClient client = new GrpcTestClient(null)) {
      receiver.respond(
          r ->
              r.bodies().get(0).equals("held-0")
                  ? GrpcReply.status(GrpcReply.UNAVAILABLE, "busy").heldBy(hold).delayed(10)
                  : GrpcReply.ok(r));
      CompletableFuture<GrpcTestClient.Call> held =
          client.export(receiver.endpoint(), request(1, "held").toByteArray());
      assertTrue(waitFor(() -> receiver.rejectedRequests() == 1));
      assertEquals(
          "0",
          get(client.export(receiver.endpoint(), request(1, "free").toByteArray()))
              .trailers
              .get("grpc-status"),
          "another stream is answered while one is held");
      assertTrue(!held.isDone());
      hold.countDown();
      GrpcTestClient.Call call = get(held);
      assertTrue(call.trailersOnly);
      assertEquals("14", call.headers.get("grpc-status"));
      assertEquals("busy", call.headers.get("grpc-message"));
    }
  }

  private static javax.net.ssl.TrustManager[] trustManagers(TestPki pki) throws Exception {
    java.security.KeyStore trust = java.security.KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", pki.caCertificate());
    javax.net.ssl.TrustManagerFactory tmf =
        javax.net.ssl.TrustManagerFactory.getInstance(
            javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    return tmf.getTrustManagers();
  }

  private static boolean waitFor(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        return false;
      }
      Thread.sleep(5);
    }
    return true;
  }
}
