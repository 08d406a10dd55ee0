package io.logproducer.spring.boot.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SpoolConfig;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The health rule on a real producer, with a clock the test moves. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProducerHealthTest {

  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final InMemoryExporter exporter = InMemoryExporter.create();
  private final Producer producer =
      new Producer(
          ProducerConfig.builder()
              .setClientId("health-test")
              .setRetries(0)
              .setLingerMillis(5)
              .setShutdownHookEnabled(false)
              .setJmxEnabled(false)
              .build(),
          exporter);

  @AfterEach
  void close() {
    exporter.release();
    producer.close(5_000);
  }

  private ProducerHealth rule(int failedBatches) {
    return rule(producer, failedBatches);
  }

  private ProducerHealth rule(Producer producer, int failedBatches) {
    HealthProperties p = new HealthProperties();
    p.setStallTimeout(Duration.ofSeconds(60));
    p.setFailedBatches(failedBatches);
    return new ProducerHealth(producer, "otlp http://collector:4318", p, now::get);
  }

  @Test
  void theSpoolsLastProblemIsADetailThatALaterExportErrorDoesNotReplace(@TempDir Path dir) {
    InMemoryExporter refusing = InMemoryExporter.create();
    refusing.respondWith(b -> ExportResult.retryable("503 Service Unavailable", null, -1));
    Producer spooling =
        new Producer(
            ProducerConfig.builder()
                .setClientId("health-spool-test")
                .setLingerMillis(5)
                .setBatchSizeInBytes(16 * 1024)
                .setDeliveryTimeoutMillis(60_000)
                .setShutdownHookEnabled(false)
                .setJmxEnabled(false)
                .setSpool(
                    SpoolConfig.builder(dir)
                        .setSegmentBytes(64 * 1024)
                        .setMaxBytes(8L << 20)
                        .build())
                .build(),
            refusing);
    try {
      ProducerHealth health = rule(spooling, 10);
      assertEquals(null, health.check().details.get("lastSpoolError"), "no problem yet");
      // A record larger than a segment travels alone, and the spool refuses it (TOO_LARGE).
      spooling.send(LogRecord.builder().setBody("x".repeat(100_000)).build());
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (spooling.getMetrics().getLastSpoolError() == null && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      String spoolError = spooling.getMetrics().getLastSpoolError();
      assertTrue(
          spoolError != null && spoolError.contains("TOO_LARGE"),
          () -> "spool error " + spoolError);
      // Then an export error (the retried 503) becomes the last error; the spool's stays.
      while (String.valueOf(spooling.getMetrics().getLastError()).contains("TOO_LARGE")
          && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      ProducerHealth.Result r = health.check();
      assertTrue(
          String.valueOf(r.details.get("lastError")).contains("503 Service Unavailable"),
          r.details.toString());
      assertEquals(spoolError, r.details.get("lastSpoolError"), r.details.toString());
    } finally {
      spooling.close(0);
    }
  }

  private void advanceSeconds(long seconds) {
    now.addAndGet(TimeUnit.SECONDS.toNanos(seconds));
  }

  private static LogRecord record(int i) {
    return LogRecord.builder().setBody("line " + i).build();
  }

  @Test
  void anIdleProducerIsUpHoweverLongNothingIsSent() {
    ProducerHealth health = rule(10);
    advanceSeconds(3_600);
    ProducerHealth.Result r = health.check();
    assertEquals(ProducerHealth.UP, r.status);
    assertEquals("otlp http://collector:4318", r.details.get("receiver"));
    assertEquals("health-test", r.details.get("clientId"));
    assertEquals(0L, r.details.get("bufferedBytes"));
  }

  @Test
  void recordsThatWaitWithNoDeliveryForTheStallTimeoutAreDownThenUpAgain() throws Exception {
    ProducerHealth health = rule(10);
    exporter.hold();
    producer.send(record(1));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (exporter.heldCalls() == 0 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertEquals(1, exporter.heldCalls(), "the export is held");
    assertEquals(ProducerHealth.UP, health.check().status, "waiting, but not for long");
    advanceSeconds(59);
    assertEquals(ProducerHealth.UP, health.check().status, "59 s < stall-timeout");
    advanceSeconds(1);
    ProducerHealth.Result down = health.check();
    assertEquals(ProducerHealth.DOWN, down.status);
    assertEquals(60_000L, down.details.get("millisSinceDelivery"));
    assertTrue(
        String.valueOf(down.details.get("reason")).contains("stall-timeout"),
        down.details.toString());
    exporter.release();
    producer.flush();
    assertEquals(ProducerHealth.UP, health.check().status, "delivered since");
  }

  @Test
  void theLastBatchesAllFailedIsDownUntilOneSucceeds() {
    ProducerHealth health = rule(3);
    exporter.failNext(3, ExportResult.rejected("400 Bad Request"));
    for (int i = 0; i < 3; i++) {
      producer.send(record(i));
      producer.flush();
    }
    assertEquals(3, producer.getMetrics().getBatchesFailed());
    ProducerHealth.Result down = health.check();
    assertEquals(ProducerHealth.DOWN, down.status, down.details.toString());
    assertTrue(String.valueOf(down.details.get("reason")).startsWith("3 batches in a row failed"));
    assertTrue(
        String.valueOf(down.details.get("lastError")).contains("400 Bad Request"),
        down.details.toString());
    producer.send(record(9));
    producer.flush();
    assertEquals(ProducerHealth.UP, health.check().status, "a batch succeeded since");
  }

  @Test
  void fewerFailuresThanTheThresholdAmongSuccessesStayUp() {
    ProducerHealth health = rule(3);
    exporter.failNext(2, ExportResult.rejected("400 Bad Request"));
    for (int i = 0; i < 3; i++) {
      producer.send(record(i));
      producer.flush();
    }
    assertEquals(ProducerHealth.UP, health.check().status);
  }

  @Test
  void aClosedProducerIsOutOfService() {
    ProducerHealth health = rule(10);
    producer.close(1_000);
    assertEquals(ProducerHealth.OUT_OF_SERVICE, health.check().status);
  }

  @Test
  void settingsOutOfRangeNameTheProperty() {
    HealthProperties zero = new HealthProperties();
    zero.setFailedBatches(0);
    InvalidPropertyException e =
        assertThrows(
            InvalidPropertyException.class,
            () -> new ProducerHealth(producer, "r", zero, now::get));
    assertEquals("logproducer.health.failed-batches", e.getProperty());
    HealthProperties noStall = new HealthProperties();
    noStall.setStallTimeout(Duration.ZERO);
    e =
        assertThrows(
            InvalidPropertyException.class,
            () -> new ProducerHealth(producer, "r", noStall, now::get));
    assertEquals("logproducer.health.stall-timeout", e.getProperty());
  }
}
