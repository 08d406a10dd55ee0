package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Invalid settings: an error naming the setting on log4j2's status channel, no appender, nothing
 * thrown.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ConfigErrorTest {

  @Test
  void invalidSettingsAreReportedAndTheAppenderIsNotCreated() {
    LoggerContext ctx;
    List<String> errors;
    try (Support.Status status = Support.Status.register()) {
      ctx = Support.context("invalid.xml");
      errors = status.messages(Level.ERROR);
    }
    try {
      for (String name :
          List.of("badsize", "badpolicy", "badendpoint", "badstop", "both", "badmapping")) {
        assertNull(ctx.getConfiguration().getAppender(name), name + " must not be created");
      }
      String all = String.join("\n", errors);
      assertTrue(
          all.contains(
              "invalid <ProducerSettings totalSizeInBytes=\"lots\">: totalSizeInBytes must be an"
                  + " integer, was 'lots'"),
          all);
      assertTrue(
          all.contains(
              "invalid <ProducerSettings bufferFullPolicy=\"WAIT\">: bufferFullPolicy must be one of"
                  + " BLOCK, DROP, was 'WAIT'"),
          all);
      assertTrue(
          all.contains(
              "invalid <Otlp endpoint> (value not shown): endpoint must be an http or https URL"
                  + " with a host, was 'ftp://127.0.0.1:4318'"),
          all);
      assertTrue(all.contains("stopTimeoutMillis must be >= 0, was -5"), all);
      assertTrue(
          all.contains(
              "Logproducer appender 'both': more than one of <Otlp>, <Gse>, <Kafka> is configured"),
          all);
      assertTrue(
          all.contains("invalid <Mapping captureCode=\"yes\">: captureCode must be true or false"),
          all);
      // Logging still works (the other appender) and nothing is thrown into the application.
      ctx.getLogger("test.invalid").error("still logging");
      CaptureAppender capture = ctx.getConfiguration().getAppender("capture");
      assertEquals(1, capture.seen().size());
    } finally {
      ctx.stop();
    }
  }
}
