package com.example.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Producer;
import io.logproducer.spring.boot.autoconfigure.InvalidPropertyException;
import io.logproducer.spring.boot.autoconfigure.LogproducerFailureAnalyzer;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * No secret of the starter's properties is shown: not by the actuator's {@code health}, {@code
 * configprops} and {@code env} (with {@code show-values=always}: the starter's SanitizingFunction
 * is what masks), not in anything the application logs with {@code io.logproducer} at DEBUG, not in
 * a start error. The secrets: an OTLP header, the endpoint's user-info, a Kafka SASL property.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StarterSecretsTest {

  private static final String MARKER = "S3cr3t-MARKER-boot";

  @Test
  void theActuatorAndTheLogsNeverShowASecret() throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream out = System.out;
    PrintStream err = System.err;
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      String endpoint = receiver.endpoint().replace("://", "://user:" + MARKER + "@");
      List<String> properties = Apps.baseProperties(endpoint);
      properties.add("management.endpoints.web.exposure.include=health,configprops,env");
      properties.add("management.endpoint.configprops.show-values=always");
      properties.add("management.endpoint.env.show-values=always");
      properties.add("logging.level.io.logproducer=DEBUG");
      properties.add("logproducer.otlp.headers.Authorization=Bearer " + MARKER);
      properties.add(
          "logproducer.kafka.properties.sasl.jaas.config="
              + "org.apache.kafka.common.security.plain.PlainLoginModule required"
              + " username=\"app\" password=\""
              + MARKER
              + "\";");
      properties.add("logproducer.kafka.properties.security.protocol=SASL_SSL");
      System.setOut(new PrintStream(new Tee(out, captured), true));
      System.setErr(new PrintStream(new Tee(err, captured), true));
      String health;
      String configprops;
      String env;
      try {
        ConfigurableApplicationContext context = Apps.start(properties);
        int port = Apps.port(context);
        for (int i = 0; i < 20; i++) {
          LoggerFactory.getLogger(StarterSecretsTest.class).info("secrets test line {}", i);
        }
        context.getBean(Producer.class).flush();
        health = Apps.get(port, "/actuator/health")[1];
        configprops = Apps.get(port, "/actuator/configprops")[1];
        env = Apps.get(port, "/actuator/env")[1];
        context.close();
      } finally {
        System.setOut(out);
        System.setErr(err);
      }
      String logged = new String(captured.toByteArray(), StandardCharsets.UTF_8);

      assertEquals(0, count(health, MARKER), health);
      assertTrue(health.contains("\"receiver\":\"otlp http://user:******@127.0.0.1:"), health);
      for (String body : List.of(configprops, env)) {
        assertEquals(0, count(body, MARKER), body);
        assertTrue(body.contains("Authorization"), body);
        assertTrue(body.contains("sasl.jaas.config"), body);
        assertTrue(body.contains("user:******@127.0.0.1"), body);
        assertTrue(body.contains("******"), body);
        // show-values=always: what is not secret is shown; the function masked the rest.
        assertTrue(body.contains("SASL_SSL"), body);
      }
      assertTrue(logged.contains("secrets test line 19"), "the capture works");
      assertTrue(
          // Spring Boot's log4j2 pattern abbreviates the logger (i.l.i.ProducerEngine).
          logged.lines().anyMatch(l -> l.contains("DEBUG") && l.contains("ProducerEngine")),
          "io.logproducer logged at DEBUG");
      assertEquals(0, count(logged, MARKER), logged);
      assertTrue(
          receiver.deliveredBodies().contains("secrets test line 19"),
          "delivered with the header and the user-info's Basic auth");
    }
  }

  @Test
  void startErrorsNeverShowASecret() {
    // A header the exporter refuses, an endpoint that is not http(s), a Kafka property that is not
    // accepted: each error names the property, without the secret.
    assertNoSecret(
        "logproducer.otlp.headers.Host=" + MARKER, "logproducer.otlp.headers.Host", List.of());
    assertNoSecret(
        "logproducer.otlp.endpoint=ftp://user:" + MARKER + "@127.0.0.1:9",
        "logproducer.otlp.endpoint",
        List.of());
    assertNoSecret(
        "logproducer.otlp.endpoint=http://user:" + MARKER + "@127.0.0.1:9#frag",
        "logproducer.otlp.endpoint",
        List.of());
  }

  private static void assertNoSecret(String setting, String property, List<String> more) {
    List<String> properties = Apps.baseProperties("http://127.0.0.1:9");
    properties.add(setting);
    properties.addAll(more);
    Throwable thrown = assertThrows(Throwable.class, () -> Apps.start(properties).close());
    InvalidPropertyException cause = null;
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (t instanceof InvalidPropertyException) {
        cause = (InvalidPropertyException) t;
      }
    }
    assertTrue(cause != null, "not an InvalidPropertyException: " + thrown);
    assertEquals(property, cause.getProperty(), cause.getMessage());
    StringWriter trace = new StringWriter();
    thrown.printStackTrace(new PrintWriter(trace));
    FailureAnalysis analysis = new LogproducerFailureAnalyzer().analyze(thrown);
    String all =
        trace
            + "\n"
            + analysis.getDescription()
            + "\n"
            + analysis.getAction()
            + "\n"
            + cause.getValue();
    assertEquals(0, count(all, MARKER), all);
  }

  private static int count(String text, String word) {
    int n = 0;
    for (int i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
      n++;
    }
    return n;
  }

  /** Writes to the original stream and to the capture. */
  private static final class Tee extends OutputStream {
    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public synchronized void write(int c) throws java.io.IOException {
      a.write(c);
      b.write(c);
    }

    @Override
    public synchronized void write(byte[] buf, int off, int len) throws java.io.IOException {
      a.write(buf, off, len);
      b.write(buf, off, len);
    }

    @Override
    public synchronized void flush() throws java.io.IOException {
      a.flush();
      b.flush();
    }
  }
}
