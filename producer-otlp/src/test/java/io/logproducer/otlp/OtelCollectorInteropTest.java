package io.logproducer.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.SendResult.Status;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.collector.CollectorBinary;
import io.logproducer.testing.collector.OtelCollector;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Interoperability with a real OpenTelemetry Collector (v0.162.0, OTLP receiver + debug exporter)
 * on 127.0.0.1: every compression × encoding is accepted and the Collector counts exactly the
 * records sent, also with each record in a {@code ScopeLogs} of its own, whose scopes a second
 * Collector (debug exporter, detailed verbosity) prints as sent.
 *
 * <p>The process is the test kit's {@link OtelCollector}; the binary (the kit's {@link
 * CollectorBinary}) comes from {@code -Dotelcol.bin}, else {@code $OTELCOL_BIN}, else the cache of
 * the project's {@code tools/otelcol/build.sh} ({@code
 * ~/.cache/otelcol-logs-0.162.0/otelcol-logs}), else that script is run when Go is installed (about
 * 2 minutes the first time, from the Go module proxy). Without one, the tests are skipped and one
 * line on the build's console says why and how to run them. The Collector's configuration is {@code
 * tools/otelcol/config.yaml} (the same file {@code tools/otelcol/run.sh} uses), moved to a free
 * port.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OtelCollectorInteropTest {

  private static final long WAIT_MILLIS = 30_000;

  /**
   * Logger names records are scoped by in the scope tests, by sequence number modulo their count;
   * null: none.
   */
  private static final String[] LOGGERS = {
    "com.example.checkout.OrderService", null, "日志.记录器 😀", "io.netty.Channel"
  };

  /**
   * The binary: {@code -Dotelcol.bin} / {@code OTELCOL_BIN}, the build cache, or a build (at most
   * 10 minutes).
   */
  private static final CollectorBinary BINARY =
      new CollectorBinary(
          "otelcol",
          "otelcol-logs",
          "otelcol-logs-0.162.0",
          "otelcol.bin",
          "OTELCOL_BIN",
          "OTELCOL_CACHE",
          TimeUnit.MINUTES.toMillis(10));

  private static final String HOW_TO_BUILD =
      "install Go 1.24+ (the Collector is built from the Go module proxy by "
          + "tools/otelcol/build.sh, about 2 minutes once, cached in ~/.cache/otelcol-logs-0.162.0), or point "
          + "-Dotelcol.bin / OTELCOL_BIN at an otelcol with the otlp receiver and the debug exporter";

  /**
   * The Collector every test sends to (the project's configuration: debug exporter, basic
   * verbosity).
   */
  private RunningCollector collector;

  /** Records the Collector has been sent and accepted so far, across tests. */
  private long expectedRecords;

  /** Why the tests are skipped (no binary, and why), or null when the Collector runs. */
  private String skipReason;

  /**
   * Skips the calling test when there is no collector (the console line was printed once, by the
   * class).
   */
  private void requireCollector() {
    if (collector == null) {
      Assumptions.abort("Collector interop skipped: " + skipReason + "; " + HOW_TO_BUILD);
    }
  }

  /** A Collector process (the test kit's) listening on {@code port} of 127.0.0.1. */
  private static final class RunningCollector {
    private final OtelCollector process;
    private final int port;

    RunningCollector(OtelCollector process, int port) {
      this.process = process;
      this.port = port;
    }

    OtelCollector process() {
      return process;
    }

    int port() {
      return port;
    }

    /**
     * Starts the Collector with the project's configuration (the one users run by hand too,
     * tools/otelcol/run.sh), moved to a free port and then changed by {@code edit}, and waits until
     * it is ready.
     */
    static RunningCollector start(UnaryOperator<String> edit) throws IOException {
      int port;
      try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        port = s.getLocalPort();
      }
      String config =
          edit.apply(
              Files.readString(BINARY.toolsDir().resolve("config.yaml"), StandardCharsets.UTF_8)
                  .replace("127.0.0.1:4318", "127.0.0.1:" + port));
      OtelCollector process = OtelCollector.launch(BINARY.binary(), config);
      if (!process.awaitReady(WAIT_MILLIS)) {
        boolean alive = process.isAlive();
        process.close();
        fail("collector did not start (alive=" + alive + "):\n" + process.logText());
      }
      return new RunningCollector(process, port);
    }

    String endpoint() {
      return "http://127.0.0.1:" + port;
    }

    String logText() {
      return process.logText();
    }

    /**
     * The sum of the debug exporter's per-batch {@code "log records": N}, once it reaches {@code n}
     * or in 30 s.
     */
    long awaitLoggedRecords(long n) {
      return process.awaitRecordCount(n, WAIT_MILLIS);
    }

    void stop() {
      process.close();
    }
  }

  @BeforeAll
  void startCollector() throws Exception {
    skipReason = BINARY.skipReason();
    if (skipReason != null) {
      CollectorBinary.printToConsole(
          "[WARNING] SKIPPED OtelCollectorInteropTest (the real OpenTelemetry Collector): "
              + skipReason
              + ". To run it: "
              + HOW_TO_BUILD
              + ".");
      return; // each test aborts with the reason
    }
    collector = RunningCollector.start(UnaryOperator.identity());
  }

  @AfterAll
  void stopCollector() {
    if (collector != null) {
      collector.stop();
    }
  }

  private String logText() {
    return collector.logText();
  }

  private Producer producer(String clientId, OtlpHttpExporterBuilder exporter) {
    return new Producer(
        ProducerConfig.builder()
            .setClientId(clientId)
            .setJmxEnabled(false)
            .setLingerMillis(20)
            .setBatchCountThreshold(128)
            .setDeliveryTimeoutMillis(30_000)
            .build(),
        exporter.build());
  }

  @Test
  void everyCompressionAndEncodingIsAcceptedAndCountedExactly() {
    requireCollector();
    int perCombination = 500;
    for (Compression compression : Compression.values()) {
      for (OtlpEncoding encoding : OtlpEncoding.values()) {
        Outcomes outcomes = new Outcomes();
        OtlpHttpExporterBuilder exporter =
            OtlpHttpExporter.builder(Map.of())
                .setEndpoint(collector.endpoint())
                .setCompression(compression)
                .setEncoding(encoding)
                .setServiceName("interop-" + compression + "-" + encoding);
        try (Producer producer = producer("interop-" + compression + "-" + encoding, exporter)) {
          for (int i = 0; i < perCombination; i++) {
            LogRecord r =
                i % 10 == 0 ? TestRecords.full("interop " + i) : TestRecords.simple("interop " + i);
            producer.send(r, outcomes.callback(i));
          }
          producer.flush();
          assertEquals(
              Map.of(Status.DELIVERED, perCombination),
              outcomes.statusCounts(),
              compression + " x " + encoding + ": " + outcomes.get(0) + "\n" + logText());
          assertEquals(perCombination, producer.getMetrics().getRecordsSent());
          assertEquals(0, producer.getMetrics().getRetries());
        }
        expectedRecords += perCombination;
      }
    }
    assertEquals(
        expectedRecords,
        collector.awaitLoggedRecords(expectedRecords),
        "log records counted by the collector's debug exporter");
  }

  /**
   * Sends {@code n} records named by {@link #LOGGERS} with the scope taken from the records, all
   * delivered.
   */
  private void sendScoped(String endpoint, OtlpEncoding encoding, Compression compression, int n) {
    Outcomes outcomes = new Outcomes();
    OtlpHttpExporterBuilder exporter =
        OtlpHttpExporter.builder(Map.of())
            .setEndpoint(endpoint)
            .setCompression(compression)
            .setEncoding(encoding)
            .setScope("io.logproducer.interop", "3.1")
            .setInstrumentationScopeFromRecords(true)
            .setServiceName("interop-scoped-" + encoding);
    try (Producer producer = producer("interop-scoped-" + encoding, exporter)) {
      for (int i = 0; i < n; i++) {
        String logger = LOGGERS[i % LOGGERS.length];
        LogRecord r =
            i % 10 == 0
                ? TestRecords.full("scoped " + i, logger)
                : TestRecords.simple("scoped " + i, logger);
        producer.send(r, outcomes.callback(i));
      }
      producer.flush();
      assertEquals(
          Map.of(Status.DELIVERED, n),
          outcomes.statusCounts(),
          "scoped " + encoding + ": " + outcomes.get(0) + "\n" + logText());
      assertEquals(0, producer.getMetrics().getRetries());
    }
  }

  @Test
  void recordsInScopeLogsOfTheirOwnAreAcceptedAndCountedExactly() {
    requireCollector();
    int perEncoding = 500;
    for (OtlpEncoding encoding : OtlpEncoding.values()) {
      sendScoped(
          collector.endpoint(),
          encoding,
          encoding == OtlpEncoding.JSON ? Compression.GZIP : Compression.ZSTD,
          perEncoding);
      expectedRecords += perEncoding;
    }
    assertEquals(
        expectedRecords,
        collector.awaitLoggedRecords(expectedRecords),
        "log records counted by the collector's debug exporter");
  }

  @Test
  void theCollectorReadsEachRecordsScope() throws Exception {
    requireCollector();
    // a second Collector whose debug exporter prints every record with its "InstrumentationScope
    // <name> <version>"
    RunningCollector detailed =
        RunningCollector.start(
            config -> {
              assertTrue(config.contains("verbosity: basic"), config);
              return config.replace("verbosity: basic", "verbosity: detailed");
            });
    try {
      int perEncoding = 2 * LOGGERS.length;
      List<String> expected = new ArrayList<>();
      for (OtlpEncoding encoding : OtlpEncoding.values()) {
        sendScoped(detailed.endpoint(), encoding, Compression.NONE, perEncoding);
        for (int i = 0; i < perEncoding; i++) {
          String logger = LOGGERS[i % LOGGERS.length];
          expected.add(logger != null ? logger + " " : "io.logproducer.interop 3.1");
        }
      }
      assertEquals(expected.size(), detailed.awaitLoggedRecords(expected.size()));
      List<String> scopes = new ArrayList<>();
      Matcher m = Pattern.compile("(?m)^InstrumentationScope (.*)$").matcher(detailed.logText());
      while (m.find()) {
        scopes.add(m.group(1));
      }
      assertEquals(expected, scopes, detailed.logText());
      assertFalse(detailed.logText().contains("LogRecord #1"), "one record per ScopeLogs");
    } finally {
      detailed.stop();
    }
  }

  @Test
  void aWrongPathIsRejectedWithTheCollectorsMessage() {
    requireCollector();
    Outcomes outcomes = new Outcomes();
    OtlpHttpExporterBuilder exporter =
        OtlpHttpExporter.builder(Map.of()).setEndpoint(collector.endpoint() + "/v1/traces");
    try (Producer producer = producer("interop-wrong-path", exporter)) {
      for (int i = 0; i < 3; i++) {
        producer.send(TestRecords.simple("wrong " + i), outcomes.callback(i));
      }
      producer.flush();
    }
    assertEquals(Map.of(Status.REJECTED, 3), outcomes.statusCounts());
    SendResult r = outcomes.get(0);
    assertEquals(1, r.getAttempts());
    assertEquals("HTTP 404 Not Found: 404 page not found", r.getMessage());
  }
}
