package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.logproducer.Producer;
import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32: with a spool that has room, a record whose delivery times out ends SPOOLED, however
 * late the machine schedules the spool's threads. The test starves the CPU itself: four spinning
 * threads per core, plus two, for as long as the outcomes take (at most two minutes). The receiver
 * is down and the delivery timeout 300 ms, so every batch ends at its deadline, through each path:
 * not yet exported (the expiry spooler), waiting to retry, in flight, or on a send thread whose
 * next retry would pass the deadline. A late group commit used to turn them into FAILED ("OUTCOME
 * FAILED" in {@code SpoolKillTest} on a busy machine).
 */
@Timeout(180)
class SpoolStarvedCpuTest {

  private static final ExportResult DOWN = ExportResult.retryable("receiver down", null, -1);

  @TempDir Path dir;

  @Test
  void everyRecordWhoseDeliveryTimesOutEndsSpooledOnAStarvedCpu() throws Exception {
    int n = 2_000; // 200 batches of 10 in 4 shards
    AtomicBoolean spin = new AtomicBoolean(true);
    long spinDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    List<Thread> busy = new ArrayList<>();
    int spinners = 4 * Runtime.getRuntime().availableProcessors() + 2;
    for (int i = 0; i < spinners; i++) {
      Thread t =
          new Thread(
              () -> {
                long x = 0;
                while (spin.get() && System.nanoTime() - spinDeadline < 0) {
                  x += System.nanoTime() & 1; // busy, bounded by the flag and the deadline
                }
                if (x == 42) {
                  System.out.print(""); // keeps the loop from being optimised away
                }
              },
              "starve-" + i);
      t.setDaemon(true);
      busy.add(t);
    }
    InMemoryExporter down = InMemoryExporter.create();
    down.respondWith(b -> DOWN);
    Producer p =
        new Producer(
            SpoolTestSettings.producer("spool-starved", 300)
                .setSpool(SpoolTestSettings.spool(dir).build())
                .build(),
            down);
    Outcomes outcomes = new Outcomes();
    try {
      for (Thread t : busy) {
        t.start();
      }
      for (int i = 0; i < n; i++) {
        p.send(SpoolTestSettings.record(i, 4), outcomes.callback(i));
      }
      outcomes.awaitCount(n, 120_000);
    } finally {
      spin.set(false);
      for (Thread t : busy) {
        t.join(10_000);
      }
    }
    ProducerMetrics m = p.getMetrics();
    try {
      assertEquals(
          Map.of(SendResult.Status.SPOOLED, n),
          outcomes.statusCounts(),
          () ->
              outcomes.all().stream()
                      .filter(r -> r.getStatus() != SendResult.Status.SPOOLED)
                      .map(SendResult::getMessage)
                      .distinct()
                      .limit(5)
                      .collect(Collectors.toList())
                  + " "
                  + m);
      assertEquals(0, outcomes.duplicates());
      assertEquals(n, m.getRecordsSpooled(), m.toString());
      assertEquals(0, m.getRecordsFailed(), m.toString());
      assertEquals(0, m.getSpoolBatchesNotWritten(), m.toString());
    } finally {
      p.close(0);
    }
    System.out.println("starved CPU (" + spinners + " spinning threads): " + m);
  }
}
