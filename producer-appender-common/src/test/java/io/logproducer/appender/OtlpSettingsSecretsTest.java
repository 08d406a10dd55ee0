package io.logproducer.appender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OtlpSettings}: no header value or endpoint password in any message, the deferred errors of
 * {@code OtlpSettings(true)}, and the TLS settings' checks.
 */
class OtlpSettingsSecretsTest {

  private static final String MARKER = "S3cr3t-MARKER-common";

  /** The exception's text as a framework prints it: every message of the chain, stack included. */
  private static String printed(Throwable t) {
    StringWriter w = new StringWriter();
    t.printStackTrace(new PrintWriter(w));
    return w.toString();
  }

  private static IllegalArgumentException refused(Executable e) {
    IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, e);
    assertFalse(printed(ex).contains("MARKER"), printed(ex));
    return ex;
  }

  @Test
  void malformedHeaderItemIsNamedByPositionNeverQuoted() {
    OtlpSettings s = new OtlpSettings();
    assertEquals(
        "headers must be name=value items separated by commas; item 2 of 3 has no '=' (not"
            + " shown: it may hold a secret)",
        refused(() -> s.setHeaders("X-A=1,Bearer " + MARKER + ",X-B=2")).getMessage());
    assertEquals(
        "header must be name=value items separated by commas; item 1 of 1 has an empty name (not"
            + " shown: it may hold a secret)",
        refused(() -> s.addHeader("=" + MARKER)).getMessage());
    assertTrue(
        refused(() -> s.setHeaders("Authorization: Basic " + MARKER + "="))
            .getMessage()
            .startsWith("headers: a header name is not an HTTP token"));
    assertEquals(
        "headers: header Host is set by the exporter and cannot be added",
        refused(() -> s.setHeaders("Host=" + MARKER)).getMessage());
  }

  @Test
  void endpointPasswordIsNotShown() {
    IllegalArgumentException e =
        refused(() -> new OtlpSettings().setEndpoint("https://u:" + MARKER + "@127.0.0.1:1/#x"));
    assertTrue(e.getMessage().contains("u:****@127.0.0.1"), e.getMessage());
  }

  @Test
  void deferredSettingsThrowAtCheckAndBuildNotAtTheSetter() {
    OtlpSettings s = new OtlpSettings(true);
    s.setEndpoint("https://u:" + MARKER + "@127.0.0.1:1/");
    s.setHeaders("Authorization=Bearer " + MARKER + ",oops " + MARKER);
    s.addHeader("X-Second-Error " + MARKER); // the first error is the one reported
    String expected =
        "headers must be name=value items separated by commas; item 2 of 2 has no '=' (not"
            + " shown: it may hold a secret)";
    assertEquals(expected, refused(s::check).getMessage());
    assertEquals(expected, refused(() -> s.build("scope", false)).getMessage());
  }

  @Test
  void clientKeyAndCertificateGoTogether() {
    OtlpSettings key = new OtlpSettings();
    key.setClientKey("/etc/otel/client-key.pem");
    assertEquals(
        "clientKey is set without clientCertificate: mutual TLS needs both, the client's private"
            + " key and its certificate chain (PEM files)",
        refused(key::check).getMessage());
    OtlpSettings cert = new OtlpSettings();
    cert.setClientCertificate("/etc/otel/client.pem");
    assertTrue(
        refused(() -> cert.build("scope", false))
            .getMessage()
            .startsWith("clientCertificate is set without clientKey"));
    assertEquals(
        "trustedCertificates must be the path of a PEM file, was empty",
        refused(() -> new OtlpSettings().setTrustedCertificates(" ")).getMessage());
  }

  @Test
  void missingFileFailsTheBuildNamingTheSettingAndTheFile(@TempDir Path dir) {
    OtlpSettings s = new OtlpSettings();
    s.setEndpoint("https://u:" + MARKER + "@127.0.0.1:1/");
    s.setHeaders("Authorization=Bearer " + MARKER);
    s.setTrustedCertificates(dir.resolve("missing-ca.pem").toString());
    String m = refused(() -> s.build("scope", false)).getMessage();
    assertTrue(m.contains("trustedCertificates") && m.contains("missing-ca.pem"), m);
  }
}
