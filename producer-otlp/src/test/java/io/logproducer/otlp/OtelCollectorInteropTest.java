package io.logproducer.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.SendResult.Status;
import io.logproducer.otlp.testing.Outcomes;
import io.logproducer.otlp.testing.TestRecords;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Interoperability with a real OpenTelemetry Collector (v0.162.0, OTLP receiver + debug exporter) on 127.0.0.1:
 * every compression × encoding is accepted and the Collector counts exactly the records sent.
 *
 * <p>The binary comes from {@code -Dotelcol.bin}, else {@code $OTELCOL_BIN}, else the cache of the project's
 * {@code tools/otelcol/build.sh} ({@code ~/.cache/otelcol-logs-0.162.0/otelcol-logs}), else that script is
 * run when Go is installed (about 2 minutes the first time, from the Go module proxy). Without one, the tests are
 * skipped and one line on the build's console says why and how to run them. The Collector's configuration is
 * {@code tools/otelcol/config.yaml} (the same file {@code tools/otelcol/run.sh} uses), moved to a free port.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OtelCollectorInteropTest {

  private static final Pattern LOG_RECORDS = Pattern.compile("\"log records\": (\\d+)");
  private static final long WAIT_MILLIS = 30_000;

  private Process collector;
  private Path log;
  private int port;
  /** Records the Collector has been sent and accepted so far, across tests. */
  private long expectedRecords;

  /** Why the tests are skipped (no binary, and why), or null when the Collector runs. */
  private String skipReason;

  /**
   * The binary from {@code -Dotelcol.bin} / {@code OTELCOL_BIN}, the build cache, or a build by
   * {@code tools/otelcol/build.sh}; null (with {@link #skipReason} set) when there is none.
   */
  private Path collectorBinary() throws IOException, InterruptedException {
    String configured = System.getProperty("otelcol.bin");
    if (configured == null || configured.isEmpty()) {
      configured = System.getenv("OTELCOL_BIN");
    }
    if (configured != null && !configured.isEmpty()) {
      Path p = Paths.get(configured);
      assertTrue(Files.isExecutable(p), "otelcol.bin / OTELCOL_BIN is set but not executable: " + p);
      return p;
    }
    String home = System.getenv("HOME") != null ? System.getenv("HOME") : System.getProperty("user.home");
    Path cached = Paths.get(home, ".cache", "otelcol-logs-0.162.0", "otelcol-logs");
    if (Files.isExecutable(cached)) {
      return cached;
    }
    Path script = toolsDir().resolve("build.sh");
    if (!goInstalled()) {
      skipReason = "Go is not installed (no 'go' on the PATH), so the Collector cannot be built";
      return null;
    }
    Path buildLog = Files.createTempFile("otelcol-build-", ".log");
    Process build = new ProcessBuilder("bash", script.toString()).redirectErrorStream(true)
        .redirectOutput(buildLog.toFile()).start();
    if (!build.waitFor(10, TimeUnit.MINUTES)) {
      build.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      skipReason = "building the Collector took over 10 minutes (log: " + buildLog + ")";
      return null;
    }
    if (build.exitValue() != 0 || !Files.isExecutable(cached)) {
      skipReason = "building the Collector failed (exit " + build.exitValue() + "; log: " + buildLog + "; last line: "
          + lastLine(buildLog) + ")";
      return null;
    }
    return cached;
  }

  /** The project's tools/otelcol directory, found upwards from the working directory. */
  static Path toolsDir() {
    for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("tools/otelcol");
      if (Files.isRegularFile(candidate.resolve("build.sh"))) {
        return candidate;
      }
    }
    throw new AssertionError("tools/otelcol/build.sh not found above " + Paths.get("").toAbsolutePath());
  }

  private static String lastLine(Path file) {
    try {
      java.util.List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      return lines.isEmpty() ? "(empty)" : lines.get(lines.size() - 1);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  private static boolean goInstalled() {
    try {
      Process p = new ProcessBuilder("go", "version").redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (Exception e) {
      return false;
    }
  }

  private static final String HOW_TO_BUILD = "install Go 1.24+ (the Collector is built from the Go module proxy by "
      + "tools/otelcol/build.sh, about 2 minutes once, cached in ~/.cache/otelcol-logs-0.162.0), or point "
      + "-Dotelcol.bin / OTELCOL_BIN at an otelcol with the otlp receiver and the debug exporter";

  /**
   * Prints one line to the build's console (the process's real stderr: surefire sends System.err to a file) and
   * skips the calling test when there is no collector.
   */
  private void requireCollector() {
    if (collector == null) {
      Assumptions.abort("Collector interop skipped: " + skipReason + "; " + HOW_TO_BUILD);
    }
  }

  private static void printToConsole(String line) {
    @SuppressWarnings("resource") // the process's stderr stays open
    java.io.PrintStream console = new java.io.PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.err),
        true);
    console.println(line);
  }

  @BeforeAll
  void startCollector() throws Exception {
    Path bin = collectorBinary();
    if (bin == null) {
      printToConsole("[WARNING] SKIPPED OtelCollectorInteropTest (the real OpenTelemetry Collector): " + skipReason
          + ". To run it: " + HOW_TO_BUILD + ".");
      return; // each test aborts with the reason
    }
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Path dir = Files.createTempDirectory("otelcol-interop");
    Path config = dir.resolve("config.yaml");
    log = dir.resolve("collector.log");
    // the configuration users run by hand too (tools/otelcol/run.sh), on a free port
    Files.writeString(config, Files.readString(toolsDir().resolve("config.yaml"), StandardCharsets.UTF_8)
        .replace("127.0.0.1:4318", "127.0.0.1:" + port));
    collector = new ProcessBuilder(bin.toString(), "--config", config.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean ready = Outcomes.until(() -> !collector.isAlive() || logText().contains("Everything is ready"),
        WAIT_MILLIS);
    if (!ready || !collector.isAlive()) {
      fail("collector did not start (alive=" + collector.isAlive() + "):\n" + logText());
    }
  }

  @AfterAll
  void stopCollector() throws Exception {
    if (collector != null) {
      collector.destroy();
      if (!collector.waitFor(10, TimeUnit.SECONDS)) {
        collector.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  private String logText() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }

  /** The sum of the debug exporter's per-batch {@code "log records": N}. */
  private long loggedRecords() {
    Matcher m = LOG_RECORDS.matcher(logText());
    long sum = 0;
    while (m.find()) {
      sum += Long.parseLong(m.group(1));
    }
    return sum;
  }

  private Producer producer(String clientId, OtlpHttpExporterBuilder exporter) {
    return new Producer(ProducerConfig.builder().setClientId(clientId).setJmxEnabled(false).setLingerMillis(20)
        .setBatchCountThreshold(128).setDeliveryTimeoutMillis(30_000).build(), exporter.build());
  }

  @Test
  void everyCompressionAndEncodingIsAcceptedAndCountedExactly() {
    requireCollector();
    int perCombination = 500;
    for (Compression compression : Compression.values()) {
      for (OtlpEncoding encoding : OtlpEncoding.values()) {
        Outcomes outcomes = new Outcomes();
        OtlpHttpExporterBuilder exporter = OtlpHttpExporter.builder(Map.of())
            .setEndpoint("http://127.0.0.1:" + port).setCompression(compression).setEncoding(encoding)
            .setServiceName("interop-" + compression + "-" + encoding);
        try (Producer producer = producer("interop-" + compression + "-" + encoding, exporter)) {
          for (int i = 0; i < perCombination; i++) {
            LogRecord r = i % 10 == 0 ? TestRecords.full("interop " + i) : TestRecords.simple("interop " + i);
            producer.send(r, outcomes.callback(i));
          }
          producer.flush();
          assertEquals(Map.of(Status.DELIVERED, perCombination), outcomes.statusCounts(),
              compression + " x " + encoding + ": " + outcomes.get(0) + "\n" + logText());
          assertEquals(perCombination, producer.getMetrics().getRecordsSent());
          assertEquals(0, producer.getMetrics().getRetries());
        }
        expectedRecords += perCombination;
      }
    }
    long expected = expectedRecords;
    Outcomes.until(() -> loggedRecords() >= expected, WAIT_MILLIS);
    assertEquals(expected, loggedRecords(), "log records counted by the collector's debug exporter");
  }

  @Test
  void aWrongPathIsRejectedWithTheCollectorsMessage() {
    requireCollector();
    Outcomes outcomes = new Outcomes();
    OtlpHttpExporterBuilder exporter = OtlpHttpExporter.builder(Map.of())
        .setEndpoint("http://127.0.0.1:" + port + "/v1/traces");
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
