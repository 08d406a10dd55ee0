package com.example.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.spring.boot.autoconfigure.InvalidPropertyException;
import io.logproducer.spring.boot.autoconfigure.LogproducerFailureAnalyzer;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Invalid properties stop the application at start with a message that names the property, and
 * leave no producer behind.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StarterPropertiesTest {

  @Test
  void anInvalidValueStopsTheStartAndNamesTheProperty() {
    assertInvalid("logproducer.producer.linger=-5s", "logproducer.producer.linger", "-5000ms");
    assertInvalid("logproducer.producer.send-threads=0", "logproducer.producer.send-threads", "0");
    assertInvalid("logproducer.otlp.encoding=xml", "logproducer.otlp.encoding", "xml");
    assertInvalid("logproducer.appender.queue-size=-1", "logproducer.appender.queue-size", "-1");
    assertInvalid(
        "logproducer.spool.durability=sometimes",
        "logproducer.spool.durability",
        "sometimes",
        "logproducer.spool.directory=target/never-created-spool");
  }

  @Test
  void anExporterWithoutItsRequiredPropertiesNamesThem() {
    assertInvalid("logproducer.exporter=gse", "logproducer.gse.data-id", "null");
    assertInvalid("logproducer.exporter=kafka", "logproducer.kafka.bootstrap-servers", "null");
  }

  @Test
  void springBootsFailureReportSaysWhatToChange() throws Exception {
    InvalidPropertyException e =
        new InvalidPropertyException("logproducer.producer.linger", "-5000ms", "must be >= 0");
    FailureAnalysis analysis =
        new LogproducerFailureAnalyzer().analyze(new IllegalStateException(e));
    assertEquals(
        "Invalid value '-5000ms' for property 'logproducer.producer.linger': must be >= 0",
        analysis.getDescription());
    assertTrue(
        analysis.getAction().contains("'logproducer.producer.linger'"), analysis.getAction());
    try (InputStream in =
        StarterPropertiesTest.class
            .getClassLoader()
            .getResourceAsStream("META-INF/spring.factories")) {
      String factories = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(factories.contains(LogproducerFailureAnalyzer.class.getName()), factories);
    }
  }

  private static void assertInvalid(String setting, String property, String value, String... more) {
    List<String> properties = Apps.baseProperties("http://127.0.0.1:9");
    properties.add(setting);
    properties.addAll(List.of(more));
    Throwable thrown = assertThrows(Throwable.class, () -> Apps.start(properties).close());
    InvalidPropertyException cause = null;
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (t instanceof InvalidPropertyException) {
        cause = (InvalidPropertyException) t;
      }
    }
    assertTrue(cause != null, "not an InvalidPropertyException: " + thrown);
    assertEquals(property, cause.getProperty(), cause.getMessage());
    assertTrue(
        cause
            .getMessage()
            .startsWith("Invalid value '" + value + "' for property '" + property + "': "),
        cause.getMessage());
    assertEquals(Set.of(), Apps.producerThreads(), "no producer left behind");
  }
}
