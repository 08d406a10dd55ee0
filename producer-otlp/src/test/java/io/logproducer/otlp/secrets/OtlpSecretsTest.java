package io.logproducer.otlp.secrets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.ChildJvm;
import org.junit.jupiter.api.Test;

/**
 * Every secret-bearing OTLP setting, over OTLP/HTTP and OTLP/gRPC (header values, the password of
 * an endpoint's user-info, the client's private key) holds a marker; everything the exporter and
 * the producer print or expose — logs at DEBUG, toString, describe, outcome messages, JMX
 * attributes, exceptions of failed builds with their causes — is scanned for it: zero occurrences.
 */
class OtlpSecretsTest {

  @Test
  void noSecretIsEverPrinted() throws Exception {
    ChildJvm.Result r =
        ChildJvm.builder(SecretsMain.class)
            .jvmOptions(
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=debug",
                "-Dorg.slf4j.simpleLogger.log.org.apache.hc=info")
            .run(120);
    String out = r.output();
    assertEquals(0, r.exitCode(), out);
    assertTrue(out.contains("DONE"), out);
    assertTrue(out.contains("delivered 20"), out);
    assertTrue(out.contains("headers=[Authorization, X-BK-TOKEN]"), out);
    assertTrue(out.contains("describe https://127.0.0.1:"), out);
    assertTrue(out.contains("TLS handshake #1 with 127.0.0.1:"), "logs at DEBUG: " + out);
    assertTrue(out.contains("bob:****@ho st"), out);
    assertTrue(out.contains("does not match the client certificate"), out);
    assertTrue(
        out.contains("clientCertificate (PEM bytes) holds a private key, not a certificate"), out);
    assertTrue(out.contains("jmx io.logproducer:"), out);
    assertTrue(out.contains("grpc delivered 20"), out);
    assertTrue(out.contains("grpc toString OtlpGrpcExporter{endpoint=https://127.0.0.1:"), out);
    assertTrue(out.contains("headers=[Authorization, X-BK-TOKEN], tls=TLS 1.2+"), out);
    assertTrue(out.contains("grpc describe https://127.0.0.1:"), out);
    assertTrue(out.contains("grpc outcomes {DELIVERED=20}"), out);
    assertTrue(out.matches("(?s).*grpc metadata \\[[^\\]]*x-bk-token.*"), out);
    assertFalse(out.contains("build did not fail"), out);
    assertFalse(out.contains(SecretsMain.MARKER), out);
    String keyLine = null;
    for (String line : out.split("\n")) {
      if (line.startsWith("KEY-LINE ")) {
        keyLine = line.substring("KEY-LINE ".length()).trim();
      }
    }
    assertTrue(keyLine != null && keyLine.length() > 20, out);
    assertEquals(1, out.split(java.util.regex.Pattern.quote(keyLine), -1).length - 1, out);
  }
}
