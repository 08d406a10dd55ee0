package io.logproducer.logback;

import static io.logproducer.logback.LogbackTestSupport.appender;
import static io.logproducer.logback.LogbackTestSupport.configure;
import static io.logproducer.logback.LogbackTestSupport.delivered;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.core.status.Status;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.tls.TestPki;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code <otlp>} over TLS from logback's XML against a real HTTPS receiver on 127.0.0.1 that
 * requires a client certificate ({@link TestPki}), and the secrets of the settings (a header value,
 * an endpoint's password) in nothing logback prints: its status messages, their exceptions, and
 * System.out/err with {@code debug="true"}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsTest {

  private static final String MARKER = "S3cr3t-MARKER-appender";
  private static final int N = 40;

  @TempDir static Path dir;
  private static TestPki pki;
  private static TestPki.Issued server;
  private static TestPki.Issued client;

  @BeforeAll
  static void issue() {
    pki = TestPki.create(dir);
    server = pki.server();
    client = pki.client("logback-app");
  }

  private static OtlpReceiver mutualTlsReceiver() throws IOException {
    return OtlpReceiver.builder().tls(pki.serverContext(server), true).start();
  }

  private static Map<String, String> tls(String endpoint, String headers, Path key, Path cert) {
    return Map.of(
        "tls.endpoint", endpoint,
        "tls.headers", headers,
        "tls.ca", pki.caFile().toString(),
        "tls.key", key.toString(),
        "tls.cert", cert.toString());
  }

  /**
   * A context configured from {@code resource} with {@code values} written into the XML text: the
   * secrets are literal there, as logback 1.5 itself reports each {@code ${…}} substitution with
   * its value (an INFO status; see docs/appenders.md).
   */
  private static LoggerContext configureLiteral(String resource, Map<String, String> values)
      throws Exception {
    String xml;
    try (InputStream in = TlsTest.class.getClassLoader().getResourceAsStream(resource)) {
      xml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    for (Map.Entry<String, String> v : values.entrySet()) {
      xml =
          xml.replace(
              "${" + v.getKey() + "}",
              v.getValue().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"));
    }
    Path file = Files.createTempFile(dir, "logback-", ".xml");
    Files.write(file, xml.getBytes(StandardCharsets.UTF_8));
    LoggerContext ctx = new LoggerContext();
    ctx.setName(resource);
    LogbackTestSupport.useGlobalMdc(ctx);
    JoranConfigurator jc = new JoranConfigurator();
    jc.setContext(ctx);
    jc.doConfigure(file.toFile());
    ctx.start();
    return ctx;
  }

  /** Logs {@code N} events and waits until the receiver has them all. */
  private static List<String> logAndAwait(LoggerContext ctx, OtlpReceiver r, String prefix) {
    Logger log = ctx.getLogger("test.tls");
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      log.info("{} {}", prefix, i);
      expected.add(prefix + " " + i);
    }
    LogbackTestSupport.await(
        N + " events delivered",
        () -> delivered(r).size() >= N,
        30_000,
        () ->
            delivered(r).size()
                + " delivered, exchanges "
                + r.exchanges().size()
                + "; "
                + LogbackTestSupport.statuses(ctx, Status.WARN));
    return expected;
  }

  private static List<String> bodies(OtlpReceiver r) {
    return delivered(r).stream()
        .map(LogbackTestSupport.Decoded::body)
        .sorted()
        .collect(Collectors.toList());
  }

  @Test
  void mutualTlsFromTheXmlDeliversEveryEvent() throws Exception {
    try (OtlpReceiver r = mutualTlsReceiver()) {
      LoggerContext ctx =
          configure(
              "tls.xml",
              Map.of(
                  "tls.endpoint", r.endpoint(),
                  "tls.ca", pki.caFile().toString(),
                  "tls.key", client.keyFile().toString(),
                  "tls.cert", client.certificateFile().toString()));
      LogproducerAppender lp = appender(ctx, "LP");
      List<String> expected;
      try {
        assertTrue(lp.isStarted(), () -> LogbackTestSupport.statuses(ctx, Status.WARN).toString());
        expected = logAndAwait(ctx, r, "over mutual TLS");
      } finally {
        ctx.stop();
      }
      assertEquals(N, delivered(r).size());
      expected.sort(null);
      assertEquals(expected, bodies(r));
      assertEquals(List.of("CN=logback-app"), distinct(r.clientPrincipals()));
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
      LoggerContext ctx = new LoggerContext();
      LogbackTestSupport.useGlobalMdc(ctx);
      ctx.putProperty("otlp.endpoint", r.endpoint());
      ctx.putProperty("tls.dir", tlsDir.toString());
      JoranConfigurator jc = new JoranConfigurator();
      jc.setContext(ctx);
      jc.doConfigure(
          new ByteArrayInputStream(
              ReadmeConfigTest.readmeLogbackXml("<clientKey>").getBytes(StandardCharsets.UTF_8)));
      ctx.start();
      try {
        assertEquals(List.of(), LogbackTestSupport.statuses(ctx, Status.ERROR));
        assertTrue(appender(ctx, "LOGPRODUCER").isStarted());
        ctx.getLogger("com.example.Checkout").info("order {} paid", 42);
      } finally {
        ctx.stop();
      }
      assertEquals(List.of("order 42 paid"), r.deliveredBodies());
      assertEquals(List.of("CN=logback-app"), distinct(r.clientPrincipals()));
    }
  }

  @Test
  void aClientKeyWithoutItsCertificateIsRefusedNamingTheAppender() throws Exception {
    LoggerContext ctx =
        configure(
            "tls-half.xml",
            Map.of(
                "tls.endpoint",
                "https://127.0.0.1:" + LogbackTestSupport.closedPort(),
                "tls.key",
                client.keyFile().toString()));
    try {
      assertFalse(appender(ctx, "LP").isStarted());
      assertEquals(
          List.of(
              "logproducer appender 'LP' not started: clientKey is set without"
                  + " clientCertificate: mutual TLS needs both, the client's private key and its"
                  + " certificate chain (PEM files)"),
          LogbackTestSupport.statuses(ctx, Status.ERROR));
    } finally {
      ctx.stop();
    }
  }

  @Test
  void noSecretIsEverPrinted() throws Exception {
    StringBuilder printed = new StringBuilder();
    List<String> errors = new ArrayList<>();
    try (OtlpReceiver r = mutualTlsReceiver();
        Printed console = Printed.capture()) {
      String withPassword = "https://u:" + MARKER + "@127.0.0.1:" + r.port();
      // 1. The user-info becomes Basic auth, a header carries a token: both delivered.
      LoggerContext ok =
          configureLiteral(
              "tls-secrets.xml",
              tls(withPassword, "X-Api-Key=" + MARKER, client.keyFile(), client.certificateFile()));
      try {
        assertTrue(appender(ok, "LP").isStarted(), () -> statusText(ok));
        logAndAwait(ok, r, "with secrets");
      } finally {
        ok.stop();
        printed.append(statusText(ok));
      }
      assertEquals(N, delivered(r).size());
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
      // 2. A client key file that does not exist; 3. a malformed headers item; 4. an endpoint
      // with a fragment: each keeps the appender from starting, with its reason.
      Path missing = dir.resolve("missing-client-key.pem");
      String[][] bad = {
        {withPassword, "Authorization=Bearer " + MARKER, missing.toString()},
        {withPassword, "Authorization=Bearer " + MARKER + ",Bearer " + MARKER, null},
        {withPassword + "/#frag", "Authorization=Bearer " + MARKER, null}
      };
      for (String[] b : bad) {
        LoggerContext ctx =
            configureLiteral(
                "tls-secrets.xml",
                tls(
                    b[0],
                    b[1],
                    b[2] != null ? Path.of(b[2]) : client.keyFile(),
                    client.certificateFile()));
        try {
          assertFalse(appender(ctx, "LP").isStarted());
          errors.addAll(LogbackTestSupport.statuses(ctx, Status.ERROR));
        } finally {
          ctx.stop();
          printed.append(statusText(ctx));
        }
      }
      printed.append(console.text());
    }
    assertEquals(3, errors.size(), errors::toString);
    assertTrue(
        errors
            .get(0)
            .startsWith(
                "logproducer appender 'LP' not started: clientKey (file "
                    + dir.resolve("missing-client-key.pem")
                    + ") does not exist"),
        errors.get(0));
    assertEquals(
        "logproducer appender 'LP' not started: headers must be name=value items separated by"
            + " commas; item 2 of 2 has no '=' (not shown: it may hold a secret)",
        errors.get(1));
    assertTrue(errors.get(2).contains("must not have a fragment"), errors.get(2));
    assertTrue(errors.get(2).contains("u:****@127.0.0.1"), errors.get(2));
    String all = printed.toString();
    assertTrue(all.contains("missing-client-key.pem"), all); // what was captured is not empty
    assertTrue(all.contains("item 2 of 2 has no '='"), all);
    assertEquals(0, occurrences(all, MARKER), all);
  }

  /** Every status of the context as logback's StatusPrinter shows it: message and stack traces. */
  private static String statusText(LoggerContext ctx) {
    StringBuilder out = new StringBuilder();
    for (Status s : ctx.getStatusManager().getCopyOfStatusList()) {
      append(out, s);
    }
    return out.toString();
  }

  private static void append(StringBuilder out, Status s) {
    out.append(s).append('\n');
    if (s.getThrowable() != null) {
      StringWriter w = new StringWriter();
      s.getThrowable().printStackTrace(new PrintWriter(w));
      out.append(w).append('\n');
    }
    for (Iterator<Status> it = s.iterator(); it != null && it.hasNext(); ) {
      append(out, it.next());
    }
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
