package io.logproducer.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult.Status;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.otlp.OtlpGrpcReceiver;
import io.logproducer.testing.tls.TestPki;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * OTLP/gRPC over TLS (ALPN h2) against {@link OtlpGrpcReceiver} with a {@link TestPki} CA: mutual
 * TLS from files over one connection and one handshake, the environment's TLS variables, and a
 * refused client without a certificate explained as in HTTP ({@code ClientTls.explain}).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class OtlpGrpcTlsTest {

  private static final long WAIT_MILLIS = 60_000;

  @TempDir static Path dir;
  private static TestPki pki;
  private static TestPki.Issued server;
  private static TestPki.Issued client;

  @BeforeAll
  static void issue() {
    pki = TestPki.create(dir);
    server = pki.server();
    client = pki.client("app-grpc");
  }

  private static ProducerConfig config(int retries) {
    return ProducerConfig.builder()
        .setClientId("otlp-grpc-tls")
        .setJmxEnabled(false)
        .setSendThreads(2)
        .setBatchCountThreshold(100)
        .setLingerMillis(20)
        .setInitialRetryBackoffMillis(20)
        .setMaxRetryBackoffMillis(100)
        .setRetries(retries)
        .build();
  }

  private static Outcomes send(OtlpGrpcExporter exporter, int n, int retries) {
    Outcomes outcomes = new Outcomes();
    try (Producer p = new Producer(config(retries), exporter)) {
      for (int i = 0; i < n; i++) {
        p.send(TestRecords.simple("r-" + i), outcomes.callback(i));
      }
      p.flush();
      assertTrue(outcomes.await(n, WAIT_MILLIS), "outcomes: " + outcomes.total());
    }
    return outcomes;
  }

  @Test
  void mutualTlsFromFilesDeliversEveryRecordOverOneHandshake() throws Exception {
    try (OtlpGrpcReceiver r =
        OtlpGrpcReceiver.builder().tls(pki.serverContext(server), true).start()) {
      OtlpGrpcExporter e =
          OtlpGrpcExporter.builder(Map.of())
              .setEndpoint(r.endpoint())
              .setTrustedCertificatesPath(pki.caFile())
              .setClientTlsPaths(client.keyFile(), client.certificateFile())
              .build();
      assertTrue(r.endpoint().startsWith("https://"), r.endpoint());
      Outcomes outcomes = send(e, 1_000, 0);
      assertEquals(Map.of(Status.DELIVERED, 1_000), outcomes.statusCounts());
      assertEquals(1_000, r.deliveredRecords().size());
      assertEquals(0, outcomes.duplicates());
      assertTrue(r.requests().size() >= 10, "1,000 records in batches of 100");
      for (String p : r.clientPrincipals()) {
        assertEquals("CN=app-grpc", p);
      }
      assertEquals(r.requests().size(), r.clientPrincipals().size());
      assertEquals(1, e.getTlsHandshakes(), "one multiplexed connection, one handshake");
      assertEquals(1, r.connectionsAccepted());
      assertTrue(e.toString().contains("tls=TLS 1.2+ (trusted trustedCertificates (file "));
    }
  }

  @Test
  void theEnvironmentsTlsVariablesApply() throws Exception {
    try (OtlpGrpcReceiver r =
        OtlpGrpcReceiver.builder().tls(pki.serverContext(server), true).start()) {
      OtlpGrpcExporter e =
          OtlpGrpcExporter.builder(
                  Map.of(
                      "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc",
                      "OTEL_EXPORTER_OTLP_ENDPOINT", r.endpoint(),
                      "OTEL_EXPORTER_OTLP_CERTIFICATE", pki.caFile().toString(),
                      "OTEL_EXPORTER_OTLP_LOGS_CLIENT_KEY", client.keyFile().toString(),
                      "OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE", client.certificateFile().toString()))
              .build();
      assertEquals(Map.of(Status.DELIVERED, 20), send(e, 20, 0).statusCounts());
      assertEquals(List.of("CN=app-grpc"), r.clientPrincipals().subList(0, 1));
    }
  }

  @Test
  void aClientWithoutACertificateIsRefusedAndTheMessageSaysWhatToSet() throws Exception {
    try (OtlpGrpcReceiver r =
        OtlpGrpcReceiver.builder().tls(pki.serverContext(server), true).start()) {
      OtlpGrpcExporter e =
          OtlpGrpcExporter.builder(Map.of())
              .setEndpoint(r.endpoint())
              .setTrustedCertificates(pki.caPem())
              .setTimeoutMillis(10_000)
              .build();
      Outcomes outcomes = send(e, 3, 0);
      assertEquals(Map.of(Status.FAILED, 3), outcomes.statusCounts());
      String m = outcomes.get(0).getMessage();
      assertTrue(m.contains("TLS"), m);
      assertTrue(m.contains("OTEL_EXPORTER_OTLP_CLIENT_KEY"), m);
      assertEquals(0, r.deliveredRecords().size());
    }
  }
}
