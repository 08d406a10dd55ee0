package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.SpoolListener;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator's damage to a producer's spool directory costs, seen through the producer: a
 * deleted or emptied segment is reported (the lost counters, one {@link SpoolListener#onLost} per
 * file, the last errors) and the rest drains; a damaged {@code spool.meta} costs nothing.
 */
@Timeout(300)
class SpoolDamageTest {

  private static final int N = 2_000;
  @TempDir Path dir;

  /** Stores records 0..N-1 with the receiver down and closes: every one SPOOLED. */
  private void storeBacklog() {
    InMemoryExporter down = InMemoryExporter.create();
    down.respondWith(b -> ExportResult.retryable("receiver down", null, -1));
    Producer p = new Producer(config(null), down);
    AtomicInteger spooled = new AtomicInteger();
    for (int i = 0; i < N; i++) {
      p.send(
          SpoolTestSettings.record(i, 4),
          r -> {
            if (r.getStatus() == SendResult.Status.SPOOLED) {
              spooled.incrementAndGet();
            }
          });
    }
    p.close(30_000);
    assertEquals(N, spooled.get(), "every record SPOOLED");
  }

  private ProducerConfig config(SpoolListener listener) {
    return SpoolTestSettings.producer("spool-damage", 200)
        .setSpool(SpoolTestSettings.spool(dir).setListener(listener).build())
        .build();
  }

  private List<Path> segments() throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(p -> p.getFileName().toString().endsWith(".seg"))
          .sorted()
          .collect(Collectors.toList());
    }
  }

  private static Set<Integer> delivered(InMemoryExporter up) {
    Set<Integer> out = new HashSet<>();
    for (String body : up.bodies()) {
      out.add(Integer.parseInt(body.substring(body.lastIndexOf('-') + 1)));
    }
    return out;
  }

  @Test
  void aDeletedSegmentIsCountedToldAndNamedAndTheRestDrains() throws Exception {
    storeBacklog();
    List<Path> segs = segments();
    assertTrue(segs.size() >= 3, "several segments: " + segs);
    Path victim = segs.get(1);
    Files.delete(victim);
    List<long[]> lost = new CopyOnWriteArrayList<>();
    SpoolListener listener =
        new SpoolListener() {
          @Override
          public void onLost(long from, long to, int batches, long records) {
            lost.add(new long[] {from, to, batches, records});
          }
        };
    InMemoryExporter up = InMemoryExporter.create();
    Producer p = new Producer(config(listener), up);
    try {
      assertTrue(
          SpoolTestSettings.settles(() -> p.getMetrics().getSpoolPendingBatches() == 0, p),
          () -> "not drained: " + p.getMetrics());
      assertEquals(1, lost.size(), "one event for the one file");
      long batches = lost.get(0)[2];
      long records = lost.get(0)[3];
      assertTrue(batches > 0 && records > 0, "batches and records known");
      assertEquals(batches, p.getMetrics().getSpoolBatchesLost());
      assertEquals(records, p.getMetrics().getSpoolRecordsLost());
      String name = victim.getFileName().toString();
      assertTrue(
          p.getMetrics().getLastSpoolError().contains(name), p.getMetrics().getLastSpoolError());
      Set<Integer> got = delivered(up);
      assertEquals(N - records, got.size(), "everything else delivered, nothing invented");
      assertEquals(N - records, up.bodies().size(), "once each");
    } finally {
      p.close(10_000);
    }
  }

  @Test
  void aDamagedMetaFileCostsNothing() throws Exception {
    storeBacklog();
    Files.write(dir.resolve("spool.meta"), new byte[0]);
    InMemoryExporter up = InMemoryExporter.create();
    Producer p = new Producer(config(null), up);
    try {
      assertTrue(
          Outcomes.until(() -> up.bodies().size() >= N, 120_000),
          () -> "not drained: " + p.getMetrics());
      assertEquals(N, delivered(up).size());
      assertEquals(0, p.getMetrics().getSpoolBatchesLost());
      assertEquals(0, p.getMetrics().getSpoolBatchesCorrupt());
    } finally {
      p.close(10_000);
    }
    List<String> aside = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      files
          .map(f -> f.getFileName().toString())
          .filter(n -> n.startsWith("spool.meta.damaged-"))
          .forEach(aside::add);
    }
    assertEquals(1, aside.size(), aside.toString());
  }
}
