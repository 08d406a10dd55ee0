package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Producer;
import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Map;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32: the spool's counters count what their names say (a batch the spool refuses on each of
 * its attempts is one batch not written), and the spool's own last problem stays visible ({@code
 * lastSpoolError}) after later export errors replace the last error.
 */
@Timeout(120)
class SpoolCountersTest {

  private static final ExportResult DOWN = ExportResult.retryable("connection refused", null, -1);

  @TempDir Path dir;

  /**
   * Four records in four shards: four batches of one record. The spool refuses every write (the
   * free-disk guard: it may leave 99.99 % of the file system free, which no test disk is), the
   * receiver is down; each batch is tried (and refused) many times within its 1 s delivery timeout,
   * then FAILED. Each is counted once.
   */
  @Test
  void aBatchTheSpoolRefusesOnEachAttemptIsCountedOnceAndItsProblemStaysVisible() throws Exception {
    InMemoryExporter down = InMemoryExporter.create();
    down.respondWith(b -> DOWN);
    String clientId = "spool-counters-" + ProcessHandle.current().pid();
    Producer p =
        new Producer(
            SpoolTestSettings.producer(clientId, 1_000)
                .setJmxEnabled(true)
                .setSpool(SpoolTestSettings.spool(dir).setMinFreeDiskShare(0.9999).build())
                .build(),
            down);
    try {
      Outcomes outcomes = new Outcomes();
      int batches = 4;
      for (int i = 0; i < batches; i++) {
        p.send(SpoolTestSettings.record(i, batches), outcomes.callback(i));
      }
      SpoolTestSettings.awaitOutcomes(outcomes, batches);
      assertEquals(Map.of(SendResult.Status.FAILED, batches), outcomes.statusCounts());
      ProducerMetrics m = p.getMetrics();
      assertTrue(
          down.exportCalls() >= 2 * batches,
          "each batch was tried (and refused by the spool) several times: " + down.exportCalls());
      assertEquals(batches, m.getSpoolBatchesNotWritten(), m.toString());
      assertEquals(batches, m.getBatchesFailed(), m.toString());
      assertEquals(0, m.getBatchesSpooled(), m.toString());
      assertEquals(0, m.getSpoolRecordsReplayed(), m.toString());

      // The refusal was the last error once; the export errors after it replaced it there, not in
      // lastSpoolError.
      String spoolError = m.getLastSpoolError();
      assertTrue(
          spoolError != null
              && spoolError.contains("spool " + dir)
              && spoolError.contains("did not store a batch of 1 records"),
          "lastSpoolError: " + spoolError);
      assertTrue(
          m.getLastError() != null && m.getLastError().contains("connection refused"),
          "lastError: " + m.getLastError());
      Object overJmx =
          ManagementFactory.getPlatformMBeanServer()
              .getAttribute(
                  new ObjectName(
                      "io.logproducer:type=Producer,clientId=" + ObjectName.quote(clientId)),
                  "LastSpoolError");
      assertEquals(spoolError, overJmx);
    } finally {
      p.close(0);
    }
  }

  @Test
  void withoutAProblemLastSpoolErrorIsNull() {
    InMemoryExporter up = InMemoryExporter.create();
    Producer p =
        new Producer(
            SpoolTestSettings.producer("spool-counters-ok", 60_000)
                .setSpool(SpoolTestSettings.spool(dir).build())
                .build(),
            up);
    try {
      Outcomes outcomes = new Outcomes();
      for (int i = 0; i < 40; i++) {
        p.send(SpoolTestSettings.record(i, 4), outcomes.callback(i));
      }
      SpoolTestSettings.awaitOutcomes(outcomes, 40);
      assertEquals(Map.of(SendResult.Status.DELIVERED, 40), outcomes.statusCounts());
      assertNull(p.getMetrics().getLastSpoolError());
      assertEquals(0, p.getMetrics().getSpoolBatchesNotWritten());
    } finally {
      p.close(0);
    }
  }

  /** The same snapshot without a spool: nothing to report. */
  @Test
  void aProducerWithoutASpoolHasNoSpoolError() {
    Producer p =
        new Producer(
            SpoolTestSettings.producer("no-spool", 60_000).build(), InMemoryExporter.create());
    try {
      assertNull(p.getMetrics().getLastSpoolError());
    } finally {
      p.close(0);
    }
  }
}
