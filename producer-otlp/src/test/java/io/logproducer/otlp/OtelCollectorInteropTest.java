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
import io.logproducer.testing.Outcomes;
import io.logproducer.otlp.encoding.testing.TestRecords;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
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
 * Interoperability with a real OpenTelemetry Collector (v0.162.0, OTLP receiver + debug exporter) on 127.0.0.1:
 * every compression × encoding is accepted and the Collector counts exactly the records sent, also with each
 * record in a {@code ScopeLogs} of its own, whose scopes a second Collector (debug exporter, detailed verbosity)
 * prints as sent.
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
  /** Logger names records are scoped by in the scope tests, by sequence number modulo their count; null: none. */
  private static final String[] LOGGERS =
      {"com.example.checkout.OrderService", null, "日志.记录器 😀", "io.netty.Channel"};

  /** The binary, or null when there is none (see {@link #skipReason}). */
  private Path bin;
  /** The Collector every test sends to (the project's configuration: debug exporter, basic verbosity). */
  private RunningCollector collector;
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

  /** A Collector process on a free port of 127.0.0.1, its output in a file. */
  private static final class RunningCollector {

    private final Process process;
    private final Path log;
    private final int port;

    /**
     * Starts {@code bin} with the project's configuration (the one users run by hand too, tools/otelcol/run.sh),
     * moved to a free port and then changed by {@code edit}, and waits until it is ready.
     */
    static RunningCollector start(Path bin, UnaryOperator<String> edit) throws IOException {
      int port;
      try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        port = s.getLocalPort();
      }
      Path dir = Files.createTempDirectory("otelcol-interop");
      Path config = dir.resolve("config.yaml");
      Files.writeString(config, edit.apply(Files.readString(toolsDir().resolve("config.yaml"),
          StandardCharsets.UTF_8).replace("127.0.0.1:4318", "127.0.0.1:" + port)));
      Path log = dir.resolve("collector.log");
      Process process = new ProcessBuilder(bin.toString(), "--config", config.toString())
          .redirectErrorStream(true).redirectOutput(log.toFile()).start();
      RunningCollector c = new RunningCollector(process, log, port);
      boolean ready = Outcomes.until(() -> !process.isAlive() || c.logText().contains("Everything is ready"),
          WAIT_MILLIS);
      if (!ready || !process.isAlive()) {
        c.stop();
        fail("collector did not start (alive=" + process.isAlive() + "):\n" + c.logText());
      }
      return c;
    }

    private RunningCollector(Process process, Path log, int port) {
      this.process = process;
      this.log = log;
      this.port = port;
    }

    String endpoint() {
      return "http://127.0.0.1:" + port;
    }

    String logText() {
      try {
        return Files.readString(log, StandardCharsets.UTF_8);
      } catch (IOException e) {
        return "";
      }
    }

    /** The sum of the debug exporter's per-batch {@code "log records": N}. */
    long loggedRecords() {
      Matcher m = LOG_RECORDS.matcher(logText());
      long sum = 0;
      while (m.find()) {
        sum += Long.parseLong(m.group(1));
      }
      return sum;
    }

    void stop() {
      process.destroy();
      try {
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @BeforeAll
  void startCollector() throws Exception {
    bin = collectorBinary();
    if (bin == null) {
      printToConsole("[WARNING] SKIPPED OtelCollectorInteropTest (the real OpenTelemetry Collector): " + skipReason
          + ". To run it: " + HOW_TO_BUILD + ".");
      return; // each test aborts with the reason
    }
    collector = RunningCollector.start(bin, UnaryOperator.identity());
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

  private long loggedRecords() {
    return collector.loggedRecords();
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
            .setEndpoint(collector.endpoint()).setCompression(compression).setEncoding(encoding)
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

  /** Sends {@code n} records named by {@link #LOGGERS} with the scope taken from the records, all delivered. */
  private void sendScoped(String endpoint, OtlpEncoding encoding, Compression compression, int n) {
    Outcomes outcomes = new Outcomes();
    OtlpHttpExporterBuilder exporter = OtlpHttpExporter.builder(Map.of()).setEndpoint(endpoint)
        .setCompression(compression).setEncoding(encoding).setScope("io.logproducer.interop", "3.1")
        .setInstrumentationScopeFromRecords(true).setServiceName("interop-scoped-" + encoding);
    try (Producer producer = producer("interop-scoped-" + encoding, exporter)) {
      for (int i = 0; i < n; i++) {
        String logger = LOGGERS[i % LOGGERS.length];
        LogRecord r = i % 10 == 0 ? TestRecords.full("scoped " + i, logger)
            : TestRecords.simple("scoped " + i, logger);
        producer.send(r, outcomes.callback(i));
      }
      producer.flush();
      assertEquals(Map.of(Status.DELIVERED, n), outcomes.statusCounts(),
          "scoped " + encoding + ": " + outcomes.get(0) + "\n" + logText());
      assertEquals(0, producer.getMetrics().getRetries());
    }
  }

  @Test
  void recordsInScopeLogsOfTheirOwnAreAcceptedAndCountedExactly() {
    requireCollector();
    int perEncoding = 500;
    for (OtlpEncoding encoding : OtlpEncoding.values()) {
      sendScoped(collector.endpoint(), encoding, encoding == OtlpEncoding.JSON ? Compression.GZIP : Compression.ZSTD,
          perEncoding);
      expectedRecords += perEncoding;
    }
    long expected = expectedRecords;
    Outcomes.until(() -> loggedRecords() >= expected, WAIT_MILLIS);
    assertEquals(expected, loggedRecords(), "log records counted by the collector's debug exporter");
  }

  @Test
  void theCollectorReadsEachRecordsScope() throws Exception {
    requireCollector();
    // a second Collector whose debug exporter prints every record with its "InstrumentationScope <name> <version>"
    RunningCollector detailed = RunningCollector.start(bin, config -> {
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
      Outcomes.until(() -> detailed.loggedRecords() >= expected.size(), WAIT_MILLIS);
      assertEquals(expected.size(), detailed.loggedRecords());
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
    OtlpHttpExporterBuilder exporter = OtlpHttpExporter.builder(Map.of())
        .setEndpoint(collector.endpoint() + "/v1/traces");
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
