package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.tls.TestPki;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.status.StatusData;
import org.apache.logging.log4j.status.StatusListener;
import org.apache.logging.log4j.status.StatusLogger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code <Otlp>} over TLS from log4j2's XML against a real HTTPS receiver on 127.0.0.1 that
 * requires a client certificate ({@link TestPki}), and the secrets of the settings (a header value,
 * an endpoint's password) in nothing log4j2 prints: its status messages down to TRACE (the plugin
 * builder's attribute dump included), their exceptions, and System.out/err.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsTest {

  private static final String MARKER = "S3cr3t-MARKER-appender";
  private static final int N = 40;
  private static final String[] PROPERTIES = {
    "tls.endpoint", "tls.headers", "tls.ca", "tls.key", "tls.cert"
  };

  @TempDir static Path dir;
  private static TestPki pki;
  private static TestPki.Issued server;
  private static TestPki.Issued client;

  @BeforeAll
  static void issue() {
    pki = TestPki.create(dir);
    server = pki.server();
    client = pki.client("log4j2-app");
  }

  @AfterEach
  void clearProperties() {
    for (String p : PROPERTIES) {
      System.clearProperty(p);
    }
  }

  private static OtlpReceiver mutualTlsReceiver() throws IOException {
    return OtlpReceiver.builder().tls(pki.serverContext(server), true).start();
  }

  private static void tls(String endpoint, String headers, Path key, Path cert) {
    System.setProperty("tls.endpoint", endpoint);
    System.setProperty("tls.headers", headers);
    System.setProperty("tls.ca", pki.caFile().toString());
    System.setProperty("tls.key", key.toString());
    System.setProperty("tls.cert", cert.toString());
  }

  /** Logs {@code N} events and waits until the receiver has them all. */
  private static List<String> logAndAwait(LoggerContext ctx, OtlpReceiver r, String prefix) {
    Logger log = ctx.getLogger("test.tls");
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      log.info("{} {}", prefix, i);
      expected.add(prefix + " " + i);
    }
    Support.await(
        N + " events delivered",
        () -> Support.delivered(r).size() >= N,
        30_000,
        () -> Support.delivered(r).size() + " delivered, exchanges " + r.exchanges().size());
    return expected;
  }

  @Test
  void mutualTlsFromTheXmlDeliversEveryEvent() throws Exception {
    try (OtlpReceiver r = mutualTlsReceiver()) {
      tls(r.endpoint(), "", client.keyFile(), client.certificateFile());
      LoggerContext ctx = Support.context("tls.xml");
      LogproducerAppender lp = Support.appender(ctx, "tls");
      List<String> expected;
      try {
        assertTrue(lp.isStarted());
        expected = logAndAwait(ctx, r, "over mutual TLS");
      } finally {
        ctx.stop();
      }
      assertEquals(N, Support.delivered(r).size());
      expected.sort(null);
      assertEquals(
          expected,
          Support.delivered(r).stream()
              .map(Support.Received::body)
              .sorted()
              .collect(Collectors.toList()));
      assertEquals(List.of("CN=log4j2-app"), distinct(r.clientPrincipals()));
      assertEquals(0, lp.failedCount() + lp.droppedCount());
    }
  }

  @Test
  void theDocumentedMutualTlsConfigurationDelivers() throws Exception {
    Path tlsDir = Files.createDirectories(dir.resolve("doc-tls"));
    Files.copy(pki.caFile(), tlsDir.resolve("ca.pem"));
    Files.copy(client.keyFile(), tlsDir.resolve("client-key.pem"));
    Files.copy(client.certificateFile(), tlsDir.resolve("client.pem"));
    try (OtlpReceiver r = mutualTlsReceiver()) {
      Path xml = dir.resolve("log4j2-readme-tls.xml");
      Files.write(
          xml,
          ReadmeConfigTest.readmeLog4j2Xml("clientKey=")
              .replace("${sys:otlp.endpoint:-https://collector.example.com:4318}", r.endpoint())
              .replace("${sys:tls.dir:-/etc/otel/tls}", tlsDir.toString())
              .getBytes(StandardCharsets.UTF_8));
      LoggerContext ctx = new LoggerContext("readme-tls", null, xml.toUri());
      ctx.start();
      try {
        assertTrue(Support.appender(ctx, "LOGPRODUCER").isStarted());
        ctx.getLogger("com.example.Checkout").info("order {} paid", 42);
      } finally {
        ctx.stop();
      }
      assertEquals(List.of("order 42 paid"), r.deliveredBodies());
      assertEquals(List.of("CN=log4j2-app"), distinct(r.clientPrincipals()));
    }
  }

  @Test
  void aClientKeyWithoutItsCertificateIsRefusedNamingTheAppender() throws Exception {
    tls("https://127.0.0.1:" + Support.closedPort(), "", client.keyFile(), client.keyFile());
    LoggerContext ctx;
    List<String> errors;
    try (Support.Status status = Support.Status.register()) {
      ctx = Support.context("tls-half.xml");
      errors = status.messages(Level.ERROR);
    }
    try {
      assertNull(ctx.getConfiguration().getAppender("half"));
      assertTrue(
          errors.contains(
              "Logproducer appender 'half': invalid <Otlp>: clientKey is set without"
                  + " clientCertificate: mutual TLS needs both, the client's private key and its"
                  + " certificate chain (PEM files)"),
          errors::toString);
    } finally {
      ctx.stop();
    }
  }

  @Test
  void noSecretIsEverPrinted() throws Exception {
    String printed;
    List<String> errors = new ArrayList<>();
    try (OtlpReceiver r = mutualTlsReceiver();
        Printed console = Printed.capture();
        AllStatus status = AllStatus.register()) {
      String withPassword = "https://u:" + MARKER + "@127.0.0.1:" + r.port();
      // 1. The user-info becomes Basic auth, a header carries a token: both delivered.
      tls(withPassword, "X-Api-Key=" + MARKER, client.keyFile(), client.certificateFile());
      LoggerContext ok = Support.context("tls-secrets.xml");
      try {
        assertTrue(Support.appender(ok, "secrets").isStarted(), status::text);
        logAndAwait(ok, r, "with secrets");
      } finally {
        ok.stop();
      }
      assertEquals(N, Support.delivered(r).size());
      String basic =
          "Basic "
              + Base64.getEncoder()
                  .encodeToString(("u:" + MARKER).getBytes(StandardCharsets.UTF_8));
      r.requests()
          .forEach(
              q -> {
                assertEquals(basic, q.header("Authorization"));
                assertEquals(MARKER, q.header("X-Api-Key"));
              });
      // 2. A client key file that does not exist (the appender is created, its start fails);
      // 3. a malformed headers item and 4. an endpoint with a fragment (not created).
      Path missing = dir.resolve("missing-client-key.pem");
      String[][] bad = {
        {withPassword, "Authorization=Bearer " + MARKER, missing.toString()},
        {withPassword, "Authorization=Bearer " + MARKER + ",Bearer " + MARKER, null},
        {withPassword + "/#frag", "Authorization=Bearer " + MARKER, null}
      };
      for (String[] b : bad) {
        tls(b[0], b[1], b[2] != null ? Path.of(b[2]) : client.keyFile(), client.certificateFile());
        int before = status.errors().size();
        LoggerContext ctx = Support.context("tls-secrets.xml");
        try {
          LogproducerAppender a = ctx.getConfiguration().getAppender("secrets");
          assertFalse(a != null && a.isStarted());
        } finally {
          ctx.stop();
        }
        errors.add(String.join("\n", status.errors().subList(before, status.errors().size())));
      }
      printed = status.text() + console.text();
    }
    assertTrue(
        errors
            .get(0)
            .contains(
                "Logproducer appender 'secrets' not started: clientKey (file "
                    + dir.resolve("missing-client-key.pem")
                    + ") does not exist"),
        errors.get(0));
    assertTrue(
        errors
            .get(1)
            .contains(
                "Logproducer appender: invalid <Otlp headers> (value not shown): headers must be"
                    + " name=value items separated by commas; item 2 of 2 has no '=' (not shown:"
                    + " it may hold a secret)"),
        errors.get(1));
    assertTrue(errors.get(1).contains("Logproducer appender 'secrets' not created"), errors.get(1));
    assertTrue(
        errors
            .get(2)
            .contains(
                "invalid <Otlp endpoint> (value not shown): endpoint must not have a fragment, was"
                    + " 'https://u:****@127.0.0.1:"),
        errors.get(2));
    assertTrue(printed.contains("missing-client-key.pem"), printed);
    // the plugin builder's attribute dump (DEBUG) was captured, with the sensitive ones masked
    assertTrue(printed.contains("clientCertificate=\""), printed);
    assertEquals(0, occurrences(printed, MARKER), printed);
  }

  private static int occurrences(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }

  private static List<String> distinct(List<String> in) {
    return new ArrayList<>(new LinkedHashSet<>(in));
  }

  /** Every status message down to TRACE, with its exception's stack trace. */
  static final class AllStatus implements StatusListener {
    private final List<StatusData> data = new CopyOnWriteArrayList<>();

    static AllStatus register() {
      AllStatus s = new AllStatus();
      StatusLogger.getLogger().registerListener(s);
      return s;
    }

    @Override
    public void log(StatusData d) {
      data.add(d);
    }

    @Override
    public Level getStatusLevel() {
      return Level.TRACE;
    }

    private final java.util.concurrent.atomic.AtomicBoolean closed =
        new java.util.concurrent.atomic.AtomicBoolean();

    @Override
    public void close() {
      if (closed.compareAndSet(false, true)) {
        StatusLogger.getLogger().removeListener(this);
      }
    }

    List<String> errors() {
      return data.stream()
          .filter(d -> d.getLevel() == Level.ERROR)
          .map(d -> d.getMessage().getFormattedMessage())
          .collect(Collectors.toList());
    }

    String text() {
      StringBuilder out = new StringBuilder();
      for (StatusData d : data) {
        out.append(d.getLevel()).append(' ').append(d.getMessage().getFormattedMessage());
        out.append('\n');
        if (d.getThrowable() != null) {
          StringWriter w = new StringWriter();
          d.getThrowable().printStackTrace(new PrintWriter(w));
          out.append(w).append('\n');
        }
      }
      return out.toString();
    }
  }

  /** System.out and System.err, captured (and still shown) until closed. */
  static final class Printed implements AutoCloseable {
    private final PrintStream out = System.out;
    private final PrintStream err = System.err;
    private final ByteArrayOutputStream buf = new ByteArrayOutputStream();

    static Printed capture() {
      Printed p = new Printed();
      System.setOut(new PrintStream(p.tee(p.out), true));
      System.setErr(new PrintStream(p.tee(p.err), true));
      return p;
    }

    private OutputStream tee(PrintStream original) {
      return new OutputStream() {
        @Override
        public void write(int b) {
          synchronized (buf) {
            buf.write(b);
          }
          original.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          synchronized (buf) {
            buf.write(b, off, len);
          }
          original.write(b, off, len);
        }
      };
    }

    String text() {
      System.out.flush();
      System.err.flush();
      synchronized (buf) {
        return new String(buf.toByteArray(), StandardCharsets.UTF_8);
      }
    }

    @Override
    public void close() {
      System.setOut(out);
      System.setErr(err);
    }
  }
}
