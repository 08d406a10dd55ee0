package io.logproducer.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.SendResult.Status;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.tls.TestPki;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OTLP over TLS against a real HTTPS receiver on 127.0.0.1 ({@link OtlpReceiver} with a {@link
 * TestPki} CA): mutual TLS delivery, the PEM forms, the environment variables, certificate
 * rotation, and the failures a user meets — each with exact counts and the words of its message.
 */
class OtlpTlsTest {

  private static final AtomicInteger IDS = new AtomicInteger();
  private static final long WAIT_MILLIS = 60_000;

  @TempDir static Path dir;
  private static TestPki pki;
  private static TestPki.Issued server;
  private static TestPki.Issued client;

  private final List<AutoCloseable> toClose = new ArrayList<>();

  @BeforeAll
  static void issue() {
    pki = TestPki.create(dir);
    server = pki.server();
    client = pki.client("app-1");
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : toClose) {
      c.close();
    }
  }

  private OtlpReceiver receiver(boolean mutual) throws Exception {
    OtlpReceiver r = OtlpReceiver.builder().tls(pki.serverContext(server), mutual).start();
    toClose.add(r);
    return r;
  }

  private static ProducerConfig config() {
    return ProducerConfig.builder()
        .setClientId("otlp-tls-" + IDS.incrementAndGet())
        .setJmxEnabled(false)
        .setSendThreads(2)
        .setBatchCountThreshold(100)
        .setLingerMillis(20)
        .setInitialRetryBackoffMillis(20)
        .setMaxRetryBackoffMillis(100)
        .setRetries(1)
        .build();
  }

  private static OtlpHttpExporterBuilder exporter(OtlpReceiver r) {
    return OtlpHttpExporter.builder(Map.of()).setEndpoint(r.endpoint()).setTimeoutMillis(20_000);
  }

  /** Sends {@code n} records, flushes and waits for every outcome. */
  private static Outcomes send(OtlpHttpExporter exporter, int n) {
    Outcomes outcomes = new Outcomes();
    try (Producer p = new Producer(config(), exporter)) {
      for (int i = 0; i < n; i++) {
        p.send(TestRecords.simple("r-" + i), outcomes.callback(i));
      }
      p.flush();
      assertTrue(outcomes.await(n, WAIT_MILLIS), "outcomes: " + outcomes.total());
    }
    return outcomes;
  }

  private static String onlyMessage(Outcomes outcomes) {
    List<String> messages = new ArrayList<>();
    for (SendResult r : outcomes.all()) {
      if (!messages.contains(r.getMessage())) {
        messages.add(r.getMessage());
      }
    }
    assertEquals(1, messages.size(), "messages: " + messages);
    return messages.get(0);
  }

  @Test
  void mutualTlsFromFilesDeliversEveryRecordOverFewHandshakes() throws Exception {
    OtlpReceiver r = receiver(true);
    OtlpHttpExporter e =
        exporter(r)
            .setTrustedCertificatesPath(pki.caFile())
            .setClientTlsPaths(client.keyFile(), client.certificateFile())
            .build();
    Outcomes outcomes = send(e, 1_000);
    assertEquals(Map.of(Status.DELIVERED, 1_000), outcomes.statusCounts());
    assertEquals(1_000, r.deliveredRecords().size());
    assertEquals(0, outcomes.duplicates());
    List<String> principals = r.clientPrincipals();
    assertEquals(r.requests().size(), principals.size());
    for (String p : principals) {
      assertEquals("CN=app-1", p);
    }
    assertTrue(
        e.getTlsHandshakes() >= 1 && e.getTlsHandshakes() <= 2,
        "connections are reused: one handshake per send thread at most, was "
            + e.getTlsHandshakes()
            + " for "
            + principals.size()
            + " requests");
    assertTrue(e.toString().contains("tls=TLS 1.2+ (trusted trustedCertificates (file "));
  }

  @Test
  void pemBytesRsaAndLegacyKeyFormatsWork() throws Exception {
    OtlpReceiver r = receiver(true);
    TestPki.Issued rsa = pki.issue("app-rsa", TestPki.KeyType.RSA, false, new String[0], 0, 0);
    TestPki.Issued ec = pki.issue("app-ec", TestPki.KeyType.EC, false, new String[0], 0, 0);
    byte[] bundle =
        (new String(pki.caPem(), StandardCharsets.US_ASCII)
                + "some text between blocks\n"
                + TestPki.pem(server.certificate()))
            .getBytes(StandardCharsets.US_ASCII);
    for (byte[][] pair :
        new byte[][][] {
          {rsa.keyPem(), rsa.certificatePem()},
          {traditional(rsa), rsa.certificatePem()}, // PKCS#1 "RSA PRIVATE KEY"
          {traditional(ec), ec.certificatePem()} // SEC1 "EC PRIVATE KEY" with its curve
        }) {
      OtlpHttpExporter e =
          exporter(r).setTrustedCertificates(bundle).setClientTls(pair[0], pair[1]).build();
      assertEquals(Map.of(Status.DELIVERED, 10), send(e, 10).statusCounts());
    }
    assertTrue(new String(traditional(rsa), StandardCharsets.US_ASCII).contains("RSA PRIVATE KEY"));
    assertTrue(new String(traditional(ec), StandardCharsets.US_ASCII).contains("EC PRIVATE KEY"));
    assertEquals(30, r.deliveredRecords().size());
    assertEquals(List.of("CN=app-rsa", "CN=app-ec"), distinct(r.clientPrincipals()));
  }

  private static List<String> distinct(List<String> in) {
    List<String> out = new ArrayList<>();
    for (String s : in) {
      if (out.isEmpty() || !out.get(out.size() - 1).equals(s)) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * The key in OpenSSL's traditional form (PKCS#1 for RSA, SEC1 for EC), as BouncyCastle writes it.
   */
  private static byte[] traditional(TestPki.Issued issued) throws Exception {
    if (issued.privateKey().getAlgorithm().equals("EC")) {
      PrivateKeyInfo info = PrivateKeyInfo.getInstance(issued.privateKey().getEncoded());
      ECPrivateKey inner = ECPrivateKey.getInstance(info.parsePrivateKey());
      ECPrivateKey withCurve =
          new ECPrivateKey(
              256,
              inner.getKey(),
              inner.getPublicKey(),
              info.getPrivateKeyAlgorithm().getParameters());
      return ("-----BEGIN EC PRIVATE KEY-----\n"
              + java.util.Base64.getMimeEncoder().encodeToString(withCurve.getEncoded())
              + "\n-----END EC PRIVATE KEY-----\n")
          .getBytes(StandardCharsets.US_ASCII);
    }
    StringWriter w = new StringWriter();
    try (JcaPEMWriter pem = new JcaPEMWriter(w)) {
      pem.writeObject(issued.privateKey());
    }
    return w.toString().getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void environmentVariablesConfigureMutualTlsAndLogsVariantsWin() throws Exception {
    OtlpReceiver r = receiver(true);
    Map<String, String> env = new HashMap<>();
    env.put("OTEL_EXPORTER_OTLP_ENDPOINT", r.endpoint());
    env.put("OTEL_EXPORTER_OTLP_CERTIFICATE", dir.resolve("missing-ca.pem").toString());
    env.put("OTEL_EXPORTER_OTLP_LOGS_CERTIFICATE", pki.caFile().toString());
    env.put("OTEL_EXPORTER_OTLP_CLIENT_KEY", client.keyFile().toString());
    env.put("OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE", client.certificateFile().toString());
    OtlpHttpExporter e = OtlpHttpExporter.builder(env).build();
    assertEquals(Map.of(Status.DELIVERED, 20), send(e, 20).statusCounts());
    assertEquals(20, r.deliveredRecords().size());
    assertEquals("CN=app-1", r.clientPrincipals().get(0));

    env.remove("OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE");
    IllegalArgumentException half =
        assertThrows(IllegalArgumentException.class, () -> OtlpHttpExporter.builder(env).build());
    assertTrue(
        half.getMessage().contains("a client key (OTEL_EXPORTER_OTLP_CLIENT_KEY (file ")
            && half.getMessage().contains("is set without its certificate"),
        half.getMessage());

    env.remove("OTEL_EXPORTER_OTLP_LOGS_CERTIFICATE");
    env.remove("OTEL_EXPORTER_OTLP_CLIENT_KEY");
    IllegalArgumentException missing =
        assertThrows(IllegalArgumentException.class, () -> OtlpHttpExporter.builder(env).build());
    assertEquals(
        "OTEL_EXPORTER_OTLP_CERTIFICATE (file "
            + dir.resolve("missing-ca.pem")
            + ") does not exist: give the path of an existing PEM file",
        missing.getMessage());
  }

  @Test
  void aSetterWinsOverTheEnvironmentAndSslContextReplacesIt() throws Exception {
    OtlpReceiver r = receiver(false);
    Map<String, String> env =
        Map.of("OTEL_EXPORTER_OTLP_CERTIFICATE", dir.resolve("missing-ca.pem").toString());
    OtlpHttpExporter fromSetter =
        OtlpHttpExporter.builder(env)
            .setEndpoint(r.endpoint())
            .setTrustedCertificates(pki.caPem())
            .build();
    assertEquals(Map.of(Status.DELIVERED, 5), send(fromSetter, 5).statusCounts());

    OtlpHttpExporter fromContext =
        OtlpHttpExporter.builder(env)
            .setEndpoint(r.endpoint())
            .setSslContext(clientContext())
            .build();
    assertEquals(Map.of(Status.DELIVERED, 5), send(fromContext, 5).statusCounts());
    assertEquals(10, r.deliveredRecords().size());

    IllegalArgumentException both =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                OtlpHttpExporter.builder(Map.of())
                    .setEndpoint(r.endpoint())
                    .setTrustedCertificates(pki.caPem())
                    .setSslContext(clientContext())
                    .build());
    assertTrue(both.getMessage().startsWith("set either sslContext or trustedCertificates"));
  }

  /** An application's own context: a keystore with the client certificate, a trust store. */
  private static SSLContext clientContext() throws Exception {
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry(
        "c",
        client.privateKey(),
        "pw".toCharArray(),
        new Certificate[] {client.certificate(), pki.caCertificate()});
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, "pw".toCharArray());
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("ca", pki.caCertificate());
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    return ctx;
  }

  @Test
  void aServerCertificateFromAnotherCaFailsEveryRecordNamingTheCause() throws Exception {
    OtlpReceiver r = receiver(false);
    TestPki other = TestPki.create(Files.createDirectories(dir.resolve("other")), "other CA");
    Outcomes outcomes = send(exporter(r).setTrustedCertificates(other.caPem()).build(), 20);
    assertEquals(Map.of(Status.FAILED, 20), outcomes.statusCounts());
    assertEquals(2, outcomes.get(0).getAttempts(), "retried as an outage: retries=1");
    String m = onlyMessage(outcomes);
    assertTrue(
        m.contains(
                "TLS: the server's certificate (CN=server, issued by CN=logproducer test CA, valid until ")
            && m.contains(
                ") is not trusted by the CA certificates of trustedCertificates (PEM bytes)"),
        m);
    assertEquals(0, r.deliveredRecords().size());
  }

  @Test
  void aServerThatRequiresAClientCertificateRefusesOneWithoutItAndSaysSo() throws Exception {
    OtlpReceiver r = receiver(true);
    Outcomes outcomes = send(exporter(r).setTrustedCertificates(pki.caPem()).build(), 20);
    assertEquals(Map.of(Status.FAILED, 20), outcomes.statusCounts());
    String m = onlyMessage(outcomes);
    assertTrue(
        m.contains("it requires a client certificate (mutual TLS) and none is configured"), m);
    assertEquals(0, r.deliveredRecords().size());
  }

  @Test
  void aClientCertificateFromAnotherCaIsRefusedNamingIt() throws Exception {
    OtlpReceiver r = receiver(true);
    TestPki other = TestPki.create(Files.createDirectories(dir.resolve("other2")), "rogue CA");
    TestPki.Issued rogue = other.client("rogue-app");
    Outcomes outcomes =
        send(
            exporter(r)
                .setTrustedCertificates(pki.caPem())
                .setClientTls(rogue.keyPem(), rogue.certificatePem())
                .build(),
            10);
    assertEquals(Map.of(Status.FAILED, 10), outcomes.statusCounts());
    String m = onlyMessage(outcomes);
    assertTrue(
        m.contains(
            "TLS: the server refused our client certificate (CN=rogue-app, issued by CN=rogue CA"),
        m);
  }

  @Test
  void aCertificateForAnotherHostNameIsRefused() throws Exception {
    TestPki.Issued elsewhere =
        pki.issue("elsewhere", TestPki.KeyType.EC, true, new String[] {"collector.example"}, 0, 0);
    OtlpReceiver r = OtlpReceiver.builder().tls(pki.serverContext(elsewhere), false).start();
    toClose.add(r);
    Outcomes outcomes = send(exporter(r).setTrustedCertificates(pki.caPem()).build(), 10);
    assertEquals(Map.of(Status.FAILED, 10), outcomes.statusCounts());
    String m = onlyMessage(outcomes);
    assertTrue(
        m.contains(
            "TLS: the server's certificate is not for this host name (hostname verification)"),
        m);
  }

  @Test
  void badFilesFailTheBuildWithTheFileAndWhatToDo() throws Exception {
    OtlpReceiver r = receiver(true);
    TestPki.Issued other = pki.client("app-2");
    // a certificate file that holds a key
    IllegalArgumentException keyAsCert =
        assertThrows(
            IllegalArgumentException.class,
            () -> exporter(r).setTrustedCertificatesPath(client.keyFile()).build());
    assertEquals(
        "trustedCertificates (file "
            + client.keyFile()
            + ") holds a private key, not a certificate: give the PEM file of the certificate(s)",
        keyAsCert.getMessage());
    // not PEM at all
    Path garbage = Files.write(dir.resolve("garbage.pem"), new byte[] {0x30, 0x03, 1, 2, 3});
    IllegalArgumentException notPem =
        assertThrows(
            IllegalArgumentException.class,
            () -> exporter(r).setTrustedCertificatesPath(garbage).build());
    assertTrue(notPem.getMessage().endsWith("(it looks like binary DER; convert it to PEM)"));
    // a key that is not the certificate's
    IllegalArgumentException mismatch =
        assertThrows(
            IllegalArgumentException.class,
            () -> exporter(r).setClientTlsPaths(other.keyFile(), client.certificateFile()).build());
    assertTrue(
        mismatch
            .getMessage()
            .startsWith(
                "the private key clientKey (file "
                    + other.keyFile()
                    + ") does not match the client certificate clientCertificate (file "
                    + client.certificateFile()
                    + ") (CN=app-1"),
        mismatch.getMessage());
    // an encrypted key
    byte[] encrypted =
        "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIBvTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQI\n-----END ENCRYPTED PRIVATE KEY-----\n"
            .getBytes(StandardCharsets.US_ASCII);
    IllegalArgumentException enc =
        assertThrows(
            IllegalArgumentException.class,
            () -> exporter(r).setClientTls(encrypted, client.certificatePem()));
    assertTrue(enc.getMessage().startsWith("clientKey (PEM bytes) holds an encrypted private key"));
    // no message quotes key material
    String keyBody = new String(client.keyPem(), StandardCharsets.US_ASCII).split("\n")[1];
    for (IllegalArgumentException e : List.of(keyAsCert, notPem, mismatch, enc)) {
      assertFalse(e.toString().contains(keyBody.substring(0, 20)));
    }
  }

  @Test
  void anExpiredClientCertificateIsAWarningAtBuildNamingItsExpiry() throws Exception {
    long day = 86_400_000L;
    TestPki.Issued expired =
        pki.issue(
            "app-expired",
            TestPki.KeyType.EC,
            false,
            new String[0],
            System.currentTimeMillis() - 3 * day,
            System.currentTimeMillis() - day);
    OtlpReceiver r = receiver(true);
    String err =
        stderrOf(
            () ->
                exporter(r)
                    .setTrustedCertificates(pki.caPem())
                    .setClientTlsPaths(expired.keyFile(), expired.certificateFile())
                    .build());
    assertTrue(
        err.contains("WARN")
            && err.contains(
                "the client certificate CN=app-expired in clientCertificate (file "
                    + expired.certificateFile()
                    + ") EXPIRED on "),
        err);
  }

  private static String stderrOf(Runnable r) {
    PrintStream old = System.err;
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buf, true));
    try {
      r.run();
    } finally {
      System.setErr(old);
    }
    return buf.toString();
  }

  @Test
  void rotatedClientCertificateFilesAreUsedForNewConnections() throws Exception {
    OtlpReceiver r = receiver(true);
    Path key = dir.resolve("rotating-key.pem");
    Path cert = dir.resolve("rotating.pem");
    Files.write(key, client.keyPem());
    Files.write(cert, client.certificatePem());
    OtlpHttpExporter e =
        exporter(r).setTrustedCertificatesPath(pki.caFile()).setClientTlsPaths(key, cert).build();
    Outcomes outcomes = new Outcomes();
    try (Producer p = new Producer(config(), e)) {
      p.send(TestRecords.simple("before"), outcomes.callback(0));
      p.flush();
      TestPki.Issued next = pki.client("app-rotated");
      Files.write(key, next.keyPem());
      Files.write(cert, next.certificatePem());
      Files.setLastModifiedTime(
          cert, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5_000));
      Thread.sleep(1_100); // the files are looked at once a second at most
      r.refuse(); // closes every connection: the next request needs a new handshake
      r.resume();
      p.send(TestRecords.simple("after"), outcomes.callback(1));
      p.flush();
      assertTrue(outcomes.await(2, WAIT_MILLIS));
    }
    assertEquals(Map.of(Status.DELIVERED, 2), outcomes.statusCounts());
    assertEquals(List.of("CN=app-1", "CN=app-rotated"), distinct(r.clientPrincipals()));
    assertEquals(1, e.getTlsReloads());
  }

  @Test
  void userInfoBecomesBasicAuthAndNoSecretIsPrinted() throws Exception {
    OtlpReceiver r = receiver(false);
    String url = "https://alice:S3cr3t-MARKER@127.0.0.1:" + r.port();
    OtlpHttpExporter e =
        exporter(r)
            .setEndpoint(url)
            .addHeader("X-BK-TOKEN", "tok-S3cr3t-MARKER")
            .setTrustedCertificates(pki.caPem())
            .build();
    assertEquals(Map.of(Status.DELIVERED, 3), send(e, 3).statusCounts());
    assertEquals(
        "Basic "
            + java.util.Base64.getEncoder()
                .encodeToString("alice:S3cr3t-MARKER".getBytes(StandardCharsets.UTF_8)),
        r.requests().get(0).header("Authorization"));
    assertEquals("https://127.0.0.1:" + r.port() + "/v1/logs", e.describe());
    assertFalse(e.toString().contains("MARKER"), e.toString());
    IllegalArgumentException bad =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                OtlpHttpExporter.builder(Map.of()).setEndpoint("https://bob:S3cr3t-MARKER@ho st/"));
    assertFalse(bad.toString().contains("MARKER"), bad.toString());
    assertTrue(bad.getMessage().contains("bob:****@"), bad.getMessage());
    IllegalArgumentException badEnv =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                OtlpHttpExporter.builder(
                    Map.of("OTEL_EXPORTER_OTLP_HEADERS", "Authorization:Bearer S3cr3t-MARKER")));
    assertFalse(badEnv.toString().contains("MARKER"), badEnv.toString());
  }
}
