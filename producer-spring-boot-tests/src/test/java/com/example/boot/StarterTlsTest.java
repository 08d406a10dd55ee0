package com.example.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.logproducer.Producer;
import io.logproducer.spring.boot.autoconfigure.InvalidPropertyException;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import io.logproducer.testing.tls.TestPki;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ClassUtils;

/**
 * OTLP over mutual TLS from properties only: {@code logproducer.otlp.tls.*} PEM files (every Boot
 * line) and a Spring Boot SSL bundle ({@code logproducer.otlp.ssl.bundle}, Boot 3.1+), against an
 * HTTPS receiver that requires a client certificate; and the start errors of the TLS properties.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StarterTlsTest {

  private static final int LINES = 500;
  private static final Logger LOG = LoggerFactory.getLogger(StarterTlsTest.class);

  @TempDir static Path dir;
  private static TestPki pki;
  private static TestPki.Issued server;
  private static TestPki.Issued client;

  @BeforeAll
  static void issue() {
    pki = TestPki.create(dir);
    server = pki.server();
    client = pki.client("app-boot");
  }

  @Test
  void mutualTlsFromTheTlsPropertiesDeliversEveryLineWithTheClientCertificate() throws Exception {
    try (OtlpReceiver receiver =
        OtlpReceiver.builder().tls(pki.serverContext(server), true).start()) {
      List<String> properties = Apps.baseProperties(receiver.endpoint());
      properties.add("logproducer.otlp.tls.trusted-certificates=" + pki.caFile());
      properties.add("logproducer.otlp.tls.client-key=" + client.keyFile());
      properties.add("logproducer.otlp.tls.client-certificate=" + client.certificateFile());
      assertDeliveredOverMutualTls(receiver, properties, "pem");
    }
  }

  @Test
  void mutualTlsFromASpringBootSslBundle() throws Exception {
    assumeTrue(
        ClassUtils.isPresent("org.springframework.boot.ssl.SslBundles", null),
        "SSL bundles are Spring Boot 3.1+");
    try (OtlpReceiver receiver =
        OtlpReceiver.builder().tls(pki.serverContext(server), true).start()) {
      List<String> properties = Apps.baseProperties(receiver.endpoint());
      String bundle = "spring.ssl.bundle.pem.otlp.";
      properties.add(bundle + "truststore.certificate=file:" + pki.caFile());
      properties.add(bundle + "keystore.certificate=file:" + client.certificateFile());
      properties.add(bundle + "keystore.private-key=file:" + client.keyFile());
      properties.add("logproducer.otlp.ssl.bundle=otlp");
      assertDeliveredOverMutualTls(receiver, properties, "bundle");
    }
  }

  private static void assertDeliveredOverMutualTls(
      OtlpReceiver receiver, List<String> properties, String tag) throws Exception {
    ConfigurableApplicationContext context = Apps.start(properties);
    Producer producer = context.getBean(Producer.class);
    for (int i = 0; i < LINES; i++) {
      LOG.info("tls {} line {}", tag, i);
    }
    producer.flush();
    context.close();

    Set<String> lines = new HashSet<>();
    int count = 0;
    for (ReceivedLogRecord r : receiver.deliveredRecords()) {
      if (r.bodyString().startsWith("tls " + tag + " line ")) {
        count++;
        lines.add(r.bodyString());
      }
    }
    assertEquals(LINES, count, "every line once");
    assertEquals(LINES, lines.size(), "each once");
    assertTrue(
        receiver.deliveredRecords().stream().anyMatch(r -> r.bodyString().startsWith("Starting ")),
        "Spring Boot's first line, logged before the context existed");
    assertEquals(
        0, producer.getMetrics().getRecordsFailed() + producer.getMetrics().getRecordsDropped());
    List<String> principals = receiver.clientPrincipals();
    assertTrue(!principals.isEmpty(), "requests");
    for (String p : principals) {
      assertEquals("CN=app-boot", p);
    }
  }

  @Test
  void aClientKeyWithoutItsCertificateStopsTheStart() {
    InvalidPropertyException e = startFails("logproducer.otlp.tls.client-key=" + client.keyFile());
    assertEquals("logproducer.otlp.tls.client-key", e.getProperty());
    assertTrue(e.getMessage().contains("client-certificate is not set"), e.getMessage());
  }

  @Test
  void aMissingCertificateFileStopsTheStartAndNamesTheProperty() {
    InvalidPropertyException e =
        startFails("logproducer.otlp.tls.trusted-certificates=" + dir.resolve("nowhere.pem"));
    assertEquals("logproducer.otlp.tls", e.getProperty(), e.getMessage());
    assertTrue(e.getMessage().contains("nowhere.pem"), e.getMessage());
  }

  @Test
  void anSslBundleWithTlsPropertiesStopsTheStart() {
    InvalidPropertyException e =
        startFails(
            "logproducer.otlp.ssl.bundle=otlp",
            "logproducer.otlp.tls.trusted-certificates=" + pki.caFile());
    assertEquals("logproducer.otlp.ssl.bundle", e.getProperty());
    assertTrue(e.getMessage().contains("not both"), e.getMessage());
  }

  @Test
  void anUnknownSslBundleStopsTheStart() {
    InvalidPropertyException e = startFails("logproducer.otlp.ssl.bundle=nosuchbundle");
    assertEquals("logproducer.otlp.ssl.bundle", e.getProperty(), e.getMessage());
    if (ClassUtils.isPresent("org.springframework.boot.ssl.SslBundles", null)) {
      assertTrue(e.getMessage().contains("nosuchbundle"), e.getMessage());
    } else {
      assertTrue(e.getMessage().contains("Spring Boot 3.1"), e.getMessage());
    }
  }

  private static InvalidPropertyException startFails(String... settings) {
    List<String> properties = Apps.baseProperties("https://127.0.0.1:9");
    properties.addAll(List.of(settings));
    Throwable thrown = assertThrows(Throwable.class, () -> Apps.start(properties).close());
    InvalidPropertyException cause = null;
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (t instanceof InvalidPropertyException) {
        cause = (InvalidPropertyException) t;
      }
    }
    assertTrue(cause != null, "not an InvalidPropertyException: " + thrown);
    assertEquals(Set.of(), Apps.producerThreads(), "no producer left behind");
    return cause;
  }
}
