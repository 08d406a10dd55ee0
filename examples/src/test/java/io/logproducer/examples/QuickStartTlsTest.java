package io.logproducer.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.tls.TestPki;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quick start against a receiver that requires mutual TLS: {@code --ca}, {@code --client-key}
 * and {@code --client-cert} deliver every record; without the client certificate every record fails
 * with a message that says one is required; a secret header is never echoed.
 */
@Timeout(120)
class QuickStartTlsTest {

  @TempDir Path dir;

  private static String[] run(String... args) throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code;
    try {
      PrintStream both = new PrintStream(bytes, true, StandardCharsets.UTF_8);
      System.setOut(both);
      System.setErr(both);
      code = Main.run(args);
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return new String[] {Integer.toString(code), bytes.toString(StandardCharsets.UTF_8)};
  }

  @Test
  void mutualTlsDeliversEveryRecordAndItsAbsenceIsExplained() throws Exception {
    TestPki pki = TestPki.create(dir);
    TestPki.Issued client = pki.client("quickstart");
    try (OtlpReceiver receiver =
        OtlpReceiver.builder().counting().tls(pki.serverContext(pki.server()), true).start()) {
      String[] ok =
          run(
              "otlp",
              "--endpoint",
              receiver.endpoint(),
              "--ca",
              pki.caFile().toString(),
              "--client-key",
              client.keyFile().toString(),
              "--client-cert",
              client.certificateFile().toString(),
              "--header",
              "Authorization=Bearer S3cr3t-MARKER-qs",
              "--records",
              "2000",
              "--quiet");
      assertEquals("0", ok[0], ok[1]);
      assertTrue(ok[1].contains("delivered=2000 failed=0"), ok[1]);
      assertEquals(2000, receiver.acceptedRecords());
      assertEquals(
          List.of("CN=quickstart"), receiver.clientPrincipals().stream().distinct().toList());

      String[] noCert =
          run(
              "otlp",
              "--endpoint",
              receiver.endpoint(),
              "--ca",
              pki.caFile().toString(),
              "--records",
              "100",
              "--delivery-timeout-ms",
              "3000",
              "--request-timeout-ms",
              "1000",
              "--linger-ms",
              "100",
              "--quiet");
      assertEquals("1", noCert[0], noCert[1]);
      assertTrue(noCert[1].contains("delivered=0 failed=100"), noCert[1]);
      assertTrue(
          noCert[1].contains(
              "it requires a client certificate (mutual TLS) and none is configured"),
          noCert[1]);
      assertEquals(2000, receiver.acceptedRecords());

      String[] badHeader =
          run("otlp", "--endpoint", receiver.endpoint(), "--header", "S3cr3t-MARKER-qs");
      assertFalse(badHeader[1].contains("S3cr3t-MARKER-qs"), badHeader[1]);
      assertTrue(badHeader[1].contains("--header must be NAME=VALUE"), badHeader[1]);
    }
  }
}
