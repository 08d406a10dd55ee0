package io.logproducer.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.SendResult.Status;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.collector.CollectorBinary;
import io.logproducer.testing.collector.OtelCollector;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * OTLP/gRPC against a real OpenTelemetry Collector (v0.162.0, OTLP receiver with its gRPC protocol
 * added by {@link OtelCollector#withGrpc}, debug exporter) on 127.0.0.1: none, gzip and zstd are
 * accepted and counted exactly, over one multiplexed HTTP/2 connection per exporter; lz4 is no gRPC
 * encoding there (UNIMPLEMENTED), and the builder refuses it; a wrong service path is rejected
 * once. The binary is found as in {@link OtelCollectorInteropTest} (skipped without one).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OtelCollectorGrpcInteropTest {

  private static final long WAIT_MILLIS = 30_000;

  private static final CollectorBinary BINARY =
      new CollectorBinary(
          "otelcol",
          "otelcol-logs",
          "otelcol-logs-0.162.0",
          "otelcol.bin",
          "OTELCOL_BIN",
          "OTELCOL_CACHE",
          TimeUnit.MINUTES.toMillis(10));

  private OtelCollector collector;
  private int grpcPort;
  private long expectedRecords;
  private String skipReason;

  @BeforeAll
  void startCollector() throws Exception {
    skipReason = BINARY.skipReason();
    if (skipReason != null) {
      CollectorBinary.printToConsole(
          "[WARNING] SKIPPED OtelCollectorGrpcInteropTest (the real OpenTelemetry Collector): "
              + skipReason
              + ". To run it: set OTELCOL_BIN or run tools/otelcol/build.sh.");
      return;
    }
    int httpPort = freePort();
    grpcPort = freePort();
    String config =
        OtelCollector.withGrpc(
            Files.readString(BINARY.toolsDir().resolve("config.yaml"), StandardCharsets.UTF_8)
                .replace("127.0.0.1:4318", "127.0.0.1:" + httpPort),
            grpcPort);
    collector = OtelCollector.launch(BINARY.binary(), config);
    if (!collector.awaitReady(WAIT_MILLIS)) {
      boolean alive = collector.isAlive();
      collector.close();
      fail("collector did not start (alive=" + alive + "):\n" + collector.logText());
    }
  }

  @AfterAll
  void stopCollector() {
    if (collector != null) {
      collector.close();
    }
  }

  private void requireCollector() {
    if (collector == null) {
      Assumptions.abort("Collector gRPC interop skipped: " + skipReason);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private String endpoint() {
    return "http://127.0.0.1:" + grpcPort;
  }

  private static ProducerConfig config(String clientId) {
    return ProducerConfig.builder()
        .setClientId(clientId)
        .setJmxEnabled(false)
        .setLingerMillis(20)
        .setBatchCountThreshold(64)
        .setSendThreads(4)
        .setDeliveryTimeoutMillis(60_000)
        .build();
  }

  @Test
  void noneGzipAndZstdAreAcceptedAndCountedExactlyOverOneConnection() {
    requireCollector();
    int perCompression = 1000;
    for (Compression compression :
        new Compression[] {Compression.NONE, Compression.GZIP, Compression.ZSTD}) {
      Outcomes outcomes = new Outcomes();
      OtlpGrpcExporter exporter =
          OtlpGrpcExporter.builder(Map.of())
              .setEndpoint(endpoint())
              .setCompression(compression)
              .setServiceName("grpc-interop-" + compression)
              .build();
      try (Producer producer = new Producer(config("grpc-" + compression), exporter)) {
        for (int i = 0; i < perCompression; i++) {
          LogRecord r =
              i % 10 == 0 ? TestRecords.full("grpc " + i) : TestRecords.simple("grpc " + i);
          producer.send(r, outcomes.callback(i));
        }
        producer.flush();
        assertEquals(
            Map.of(Status.DELIVERED, perCompression),
            outcomes.statusCounts(),
            compression + ": " + outcomes.get(0) + "\n" + collector.logTail());
        assertEquals(perCompression, producer.getMetrics().getRecordsSent());
        assertEquals(0, producer.getMetrics().getRetries());
        assertEquals(1, exporter.getConnectionsOpened(), "one multiplexed connection");
      }
      expectedRecords += perCompression;
    }
    assertEquals(
        expectedRecords,
        collector.awaitRecordCount(expectedRecords, WAIT_MILLIS),
        "log records counted by the collector's debug exporter");
  }

  @Test
  void lz4IsNoGrpcEncodingOfTheCollectorAndTheBuilderRefusesIt() throws IOException {
    requireCollector();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> OtlpGrpcExporter.builder(Map.of()).setCompression(Compression.LZ4));
    assertTrue(e.getMessage().contains("UNIMPLEMENTED"), e.getMessage());
    // What the Collector does with an lz4 message (sent by hand, past the producer's check):
    ByteArrayOutputStream lz4 = new ByteArrayOutputStream();
    try (LZ4FrameOutputStream out = new LZ4FrameOutputStream(lz4)) {
      out.write(new byte[0]); // an empty ExportLogsServiceRequest
    }
    OtlpGrpcExporter exporter = OtlpGrpcExporter.builder(Map.of()).setEndpoint(endpoint()).build();
    try {
      exporter.start(config("grpc-lz4"));
      byte[] body = lz4.toByteArray();
      ExportResult r = exporter.export(null, body, body.length, Compression.LZ4);
      assertEquals(ExportResult.Kind.REJECTED, r.kind(), r.toString());
      assertTrue(r.message().startsWith("gRPC UNIMPLEMENTED (12): "), r.message());
      assertTrue(r.message().contains("lz4"), r.message());
    } finally {
      exporter.close();
    }
  }

  @Test
  void aWrongServicePathIsRejectedOnceWithTheCollectorsMessage() {
    requireCollector();
    Outcomes outcomes = new Outcomes();
    OtlpGrpcExporter exporter =
        OtlpGrpcExporter.builder(Map.of()).setEndpoint(endpoint() + "/prefix").build();
    try (Producer producer = new Producer(config("grpc-wrong-path"), exporter)) {
      for (int i = 0; i < 3; i++) {
        producer.send(TestRecords.simple("wrong " + i), outcomes.callback(i));
      }
      producer.flush();
    }
    assertEquals(Map.of(Status.REJECTED, 3), outcomes.statusCounts());
    SendResult r = outcomes.get(0);
    assertEquals(1, r.getAttempts());
    assertTrue(r.getMessage().startsWith("gRPC UNIMPLEMENTED (12): "), r.getMessage());
  }

  @Test
  void theCollectorReceivesTheDetectedResource() throws Exception {
    requireCollector();
    int port = freePort();
    String config =
        OtelCollector.withGrpc(
                Files.readString(BINARY.toolsDir().resolve("config.yaml"), StandardCharsets.UTF_8)
                    .replace("127.0.0.1:4318", "127.0.0.1:" + freePort()),
                port)
            .replace("verbosity: basic", "verbosity: detailed");
    try (OtelCollector detailed = OtelCollector.launch(BINARY.binary(), config)) {
      assertTrue(detailed.awaitReady(WAIT_MILLIS), detailed.logTail());
      OtlpGrpcExporter exporter =
          OtlpGrpcExporter.builder(Map.of())
              .setEndpoint("http://127.0.0.1:" + port)
              .setServiceName("grpc-resource")
              .build();
      try (Producer producer = new Producer(config("grpc-resource"), exporter)) {
        producer.send(TestRecords.simple("resource"));
        producer.flush();
        assertEquals(1, producer.getMetrics().getRecordsSent());
      }
      assertEquals(1, detailed.awaitRecordCount(1, WAIT_MILLIS), detailed.logTail());
      String log = detailed.logText();
      Map<String, io.logproducer.AnyValue> detected =
          io.logproducer.otlp.encoding.internal.resource.ResourceDetector.detect();
      // The debug exporter prints each resource attribute as "-> key: Str(value)" / "Int(value)".
      assertTrue(log.contains("-> service.name: Str(grpc-resource)"), log);
      assertTrue(log.contains("-> process.pid: Int(" + ProcessHandle.current().pid() + ")"), log);
      assertTrue(
          log.contains("-> host.name: Str(" + detected.get("host.name").asString() + ")"), log);
      assertTrue(
          log.contains(
              "-> service.instance.id: Str("
                  + detected.get("service.instance.id").asString()
                  + ")"),
          log);
      assertTrue(log.contains("-> telemetry.sdk.name: Str(logproducer)"), log);
    }
  }
}
