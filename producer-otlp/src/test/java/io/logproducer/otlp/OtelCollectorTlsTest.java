package io.logproducer.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.SendResult.Status;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.collector.CollectorBinary;
import io.logproducer.testing.collector.OtelCollector;
import io.logproducer.testing.tls.TestPki;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * OTLP over TLS against the real OpenTelemetry Collector (v0.162.0, Go's TLS stack) on 127.0.0.1:
 * its OTLP/HTTP receiver serves HTTPS (TLS 1.2+) and requires a client certificate ({@code
 * client_ca_file}, written by {@link OtelCollector#withHttpTls}), with certificates of a {@link
 * TestPki} CA made at run time. Mutual TLS delivers every record exactly once (counted and read
 * back by the Collector's debug exporter, detailed verbosity); a server certificate from another
 * CA, no client certificate and a server certificate for another host name fail every record with
 * the product's message naming the cause. The exception chain of each failure is printed to the
 * test's standard output.
 *
 * <p>The binary is found, and the tests skipped without one, as in {@link
 * OtelCollectorInteropTest}: {@code -Dotelcol.bin}, else {@code $OTELCOL_BIN} (set by {@code
 * .ci/run}), else the cache of {@code tools/otelcol/build.sh}, else a build when Go is installed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class OtelCollectorTlsTest {

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

  private static final String HOW_TO_BUILD =
      "install Go 1.24+ (the Collector is built from the Go module proxy by "
          + "tools/otelcol/build.sh, about 2 minutes once, cached in ~/.cache/otelcol-logs-0.162.0), or point "
          + "-Dotelcol.bin / OTELCOL_BIN at an otelcol with the otlp receiver and the debug exporter";

  private static final Pattern BODY = Pattern.compile("(?m)^Body: Str\\((.*)\\)$");

  /** The PEM files; the {@link BeforeAll} method's temporary directory. */
  private Path dir;

  private TestPki pki;
  private TestPki.Issued client;

  /** Mutual TLS with the server certificate for localhost and 127.0.0.1; detailed verbosity. */
  private OtelCollector collector;

  private int port;

  /** Mutual TLS with a server certificate for {@code collector.example} only. */
  private OtelCollector elsewhere;

  private int elsewherePort;

  private String skipReason;

  @BeforeAll
  void startCollectors(@TempDir Path tempDir) throws Exception {
    dir = tempDir;
    skipReason = BINARY.skipReason();
    if (skipReason != null) {
      CollectorBinary.printToConsole(
          "[WARNING] SKIPPED OtelCollectorTlsTest (the real OpenTelemetry Collector over TLS): "
              + skipReason
              + ". To run it: "
              + HOW_TO_BUILD
              + ".");
      return; // each test aborts with the reason
    }
    pki = TestPki.create(dir);
    client = pki.client("app-1");
    port = freePort();
    collector = start(pki.server(), port);
    TestPki.Issued wrongName =
        pki.issue("elsewhere", TestPki.KeyType.EC, true, new String[] {"collector.example"}, 0, 0);
    elsewherePort = freePort();
    elsewhere = start(wrongName, elsewherePort);
  }

  @AfterAll
  void stopCollectors() {
    for (OtelCollector c : new OtelCollector[] {collector, elsewhere}) {
      if (c != null) {
        c.close();
      }
    }
  }

  private void requireCollector() {
    if (collector == null) {
      Assumptions.abort("Collector TLS interop skipped: " + skipReason + "; " + HOW_TO_BUILD);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /**
   * The project's configuration (tools/otelcol/config.yaml) on {@code port}, detailed verbosity,
   * HTTPS with {@code server}'s certificate, client certificates of the test CA required.
   */
  private OtelCollector start(TestPki.Issued server, int port) throws IOException {
    String config =
        Files.readString(BINARY.toolsDir().resolve("config.yaml"), StandardCharsets.UTF_8)
            .replace("127.0.0.1:4318", "127.0.0.1:" + port);
    assertTrue(config.contains("verbosity: basic"), config);
    config =
        OtelCollector.withHttpTls(
            config.replace("verbosity: basic", "verbosity: detailed"),
            server.certificateFile(),
            server.keyFile(),
            pki.caFile());
    OtelCollector process = OtelCollector.launch(BINARY.binary(), config);
    if (!process.awaitReady(WAIT_MILLIS)) {
      boolean alive = process.isAlive();
      process.close();
      fail("collector did not start (alive=" + alive + "):\n" + process.logText() + "\n" + config);
    }
    return process;
  }

  private static ProducerConfig config(String clientId) {
    return ProducerConfig.builder()
        .setClientId(clientId)
        .setJmxEnabled(false)
        .setSendThreads(2)
        .setBatchCountThreshold(100)
        .setLingerMillis(20)
        .setInitialRetryBackoffMillis(20)
        .setMaxRetryBackoffMillis(100)
        .setRetries(1)
        .setDeliveryTimeoutMillis(30_000)
        .build();
  }

  private static OtlpHttpExporterBuilder exporter(int port) {
    return OtlpHttpExporter.builder(Map.of())
        .setEndpoint("https://127.0.0.1:" + port)
        .setTimeoutMillis(10_000)
        .setServiceName("collector-tls");
  }

  /** Sends {@code n} records with bodies {@code <prefix> <i>}, flushes, waits for every outcome. */
  private static Outcomes send(String clientId, OtlpHttpExporter exporter, String prefix, int n) {
    Outcomes outcomes = new Outcomes();
    try (Producer p = new Producer(config(clientId), exporter)) {
      for (int i = 0; i < n; i++) {
        p.send(TestRecords.simple(prefix + " " + i), outcomes.callback(i));
      }
      p.flush();
      assertTrue(outcomes.await(n, WAIT_MILLIS), "outcomes: " + outcomes.total());
    }
    return outcomes;
  }

  /**
   * The distinct messages of the outcomes (more than one when batches met different refusals, e.g.
   * Go's TLS 1.3 {@code certificate_required} alert on one connection and a broken pipe on
   * another), after printing them, the exception chain of the first outcome and the Collector's
   * error lines since {@code errorsBefore} (its side of the handshakes).
   */
  private static List<String> messages(
      String label, Outcomes outcomes, OtelCollector server, int errorsBefore) {
    List<String> messages = new ArrayList<>();
    for (SendResult r : outcomes.all()) {
      if (!messages.contains(r.getMessage())) {
        messages.add(r.getMessage());
      }
    }
    List<String> errors = server.errors();
    String serverSide =
        errors.size() > errorsBefore ? errors.get(errorsBefore).replaceAll("\t\\{.*$", "") : "";
    System.out.println(
        "[OtelCollectorTlsTest] "
            + label
            + "\n  message: "
            + messages
            + "\n  chain: "
            + chain(outcomes.get(0).getError())
            + "\n  collector ("
            + (errors.size() - errorsBefore)
            + " error lines), first: "
            + serverSide);
    assertFalse(messages.isEmpty());
    return messages;
  }

  /** {@code Class: message <- Class: message ...}, outermost first. */
  private static String chain(Throwable e) {
    StringBuilder s = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      s.append(s.length() == 0 ? "" : " <- ").append(t);
    }
    return s.length() == 0 ? "(no exception)" : s.toString();
  }

  /** The bodies the Collector's debug exporter printed so far, sorted. */
  private static List<String> bodies(OtelCollector c) {
    List<String> out = new ArrayList<>();
    Matcher m = BODY.matcher(c.logText());
    while (m.find()) {
      out.add(m.group(1));
    }
    Collections.sort(out);
    return out;
  }

  /** First: its Collector has logged no handshake errors of the failure tests yet. */
  @Test
  @Order(1)
  void mutualTlsDeliversEveryRecordExactlyOnce() {
    requireCollector();
    int n = 1_000;
    long before = collector.recordCount();
    int errorsBefore = collector.errors().size();
    OtlpHttpExporter e =
        exporter(port)
            .setTrustedCertificatesPath(pki.caFile())
            .setClientTlsPaths(client.keyFile(), client.certificateFile())
            .build();
    Outcomes outcomes = send("collector-mtls", e, "mtls", n);
    assertEquals(
        Map.of(Status.DELIVERED, n),
        outcomes.statusCounts(),
        outcomes.get(0) + "\n" + collector.logTail());
    assertEquals(0, outcomes.duplicates());
    assertEquals(
        before + n,
        collector.awaitRecordCount(before + n, WAIT_MILLIS),
        "log records counted by the collector's debug exporter\n" + collector.logTail());
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      expected.add("mtls " + i);
    }
    Collections.sort(expected);
    List<String> received = new ArrayList<>(bodies(collector));
    received.removeIf(b -> !b.startsWith("mtls "));
    assertEquals(expected, received, "bodies printed by the collector (detailed verbosity)");
    assertTrue(
        e.getTlsHandshakes() >= 1 && e.getTlsHandshakes() <= 2,
        "connections are reused: one handshake per send thread at most, was "
            + e.getTlsHandshakes());
    List<String> errors = collector.errors();
    assertEquals(
        List.of(), errors.subList(errorsBefore, errors.size()), "the collector's error lines");
  }

  @Test
  void aServerCertificateFromAnotherCaFailsEveryRecord() {
    requireCollector();
    int n = 20;
    long before = collector.recordCount();
    int errorsBefore = collector.errors().size();
    TestPki other = TestPki.create(dir, "other CA");
    OtlpHttpExporter e =
        exporter(port)
            .setTrustedCertificates(other.caPem())
            .setClientTlsPaths(client.keyFile(), client.certificateFile())
            .build();
    Outcomes outcomes = send("collector-other-ca", e, "other-ca", n);
    assertEquals(Map.of(Status.FAILED, n), outcomes.statusCounts());
    assertEquals(2, outcomes.get(0).getAttempts(), "retried as an outage: retries=1");
    for (String m :
        messages("(b) server certificate from another CA", outcomes, collector, errorsBefore)) {
      assertTrue(
          m.contains(
                  "TLS: the server's certificate (CN=server, issued by CN=logproducer test CA, valid until ")
              && m.contains(
                  ") is not trusted by the CA certificates of trustedCertificates (PEM bytes)"),
          m);
    }
    assertEquals(before, collector.recordCount(), collector.logTail());
  }

  @Test
  void noClientCertificateFailsEveryRecordSayingOneIsRequired() {
    requireCollector();
    int n = 20;
    long before = collector.recordCount();
    int errorsBefore = collector.errors().size();
    OtlpHttpExporter e = exporter(port).setTrustedCertificates(pki.caPem()).build();
    Outcomes outcomes = send("collector-no-client-cert", e, "no-client-cert", n);
    assertEquals(Map.of(Status.FAILED, n), outcomes.statusCounts());
    assertEquals(2, outcomes.get(0).getAttempts(), "retried as an outage: retries=1");
    for (String m : messages("(c) no client certificate", outcomes, collector, errorsBefore)) {
      assertTrue(
          m.contains("it requires a client certificate (mutual TLS) and none is configured"), m);
    }
    assertEquals(before, collector.recordCount(), collector.logTail());
  }

  @Test
  void aServerCertificateForAnotherHostNameIsRefused() {
    requireCollector();
    int n = 10;
    int errorsBefore = elsewhere.errors().size();
    OtlpHttpExporter e =
        exporter(elsewherePort)
            .setTrustedCertificates(pki.caPem())
            .setClientTlsPaths(client.keyFile(), client.certificateFile())
            .build();
    Outcomes outcomes = send("collector-host-name", e, "host-name", n);
    assertEquals(Map.of(Status.FAILED, n), outcomes.statusCounts());
    assertEquals(2, outcomes.get(0).getAttempts(), "retried as an outage: retries=1");
    for (String m :
        messages(
            "(d) server certificate for collector.example only",
            outcomes,
            elsewhere,
            errorsBefore)) {
      assertTrue(
          m.contains(
              "TLS: the server's certificate is not for this host name (hostname verification)"),
          m);
    }
    assertEquals(0, elsewhere.recordCount(), elsewhere.logTail());
  }
}
