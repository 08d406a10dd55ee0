package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolFullPolicy;
import io.logproducer.SpoolListener;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The public {@link SpoolListener}: one event per stored batch leaving the spool. */
@Timeout(120)
class SpoolListenerTest {

  private static final AtomicInteger IDS = new AtomicInteger();
  private static final ExportResult DOWN = ExportResult.retryable("receiver down", null, -1);

  @TempDir Path dir;
  private final List<Producer> producers = new ArrayList<>();

  @AfterEach
  void closeAll() {
    for (Producer p : producers) {
      p.close(0);
    }
  }

  /** Every event, by kind and sequence; a second event for a sequence is recorded as a repeat. */
  static final class Events implements SpoolListener {
    final Map<Long, String> kindBySequence = new HashMap<>();
    final Map<String, Integer> records = new HashMap<>();
    final Map<String, Integer> batches = new HashMap<>();
    final List<String> repeats = new ArrayList<>();

    private synchronized void on(String kind, long sequence, int recordCount) {
      String before = kindBySequence.put(sequence, kind);
      if (before != null) {
        repeats.add(kind + " #" + sequence + " after " + before);
      }
      records.merge(kind, recordCount, Integer::sum);
      batches.merge(kind, 1, Integer::sum);
    }

    synchronized int records(String kind) {
      return records.getOrDefault(kind, 0);
    }

    synchronized int batches(String kind) {
      return batches.getOrDefault(kind, 0);
    }

    synchronized Map<String, Integer> batches() {
      return new HashMap<>(batches);
    }

    synchronized List<String> repeats() {
      return new ArrayList<>(repeats);
    }

    @Override
    public void onDelivered(long sequence, int recordCount) {
      on("delivered", sequence, recordCount);
    }

    @Override
    public void onExpired(long sequence, int recordCount) {
      on("expired", sequence, recordCount);
    }

    @Override
    public void onDropped(long sequence, int recordCount) {
      on("dropped", sequence, recordCount);
    }

    @Override
    public void onCorrupt(long sequence, int recordCount) {
      on("corrupt", sequence, recordCount);
    }

    @Override
    public void onRefused(long sequence, int recordCount, String reason) {
      on("refused", sequence, recordCount);
    }
  }

  private Producer producer(InMemoryExporter exporter, SpoolConfig spool, long deliveryMillis) {
    return producer(exporter, spool, deliveryMillis, 5);
  }

  private Producer producer(
      InMemoryExporter exporter, SpoolConfig spool, long deliveryMillis, long lingerMillis) {
    ProducerConfig config =
        SpoolTestSettings.producer("spool-listener-" + IDS.incrementAndGet(), deliveryMillis)
            .setLingerMillis(lingerMillis)
            .setSpool(spool)
            .build();
    Producer p = new Producer(config, exporter);
    producers.add(p);
    return p;
  }

  private SpoolConfig.Builder spool() {
    return SpoolTestSettings.spool(dir);
  }

  private static void sendAll(Producer p, Outcomes outcomes, int n, String pad) {
    for (int i = 0; i < n; i++) {
      p.send(
          LogRecord.builder().setBody("r-" + i + pad).setDestination("shard-" + (i % 4)).build(),
          outcomes.callback(i));
    }
  }

  /**
   * A first producer against a dead receiver, closed: all {@code n} records SPOOLED, in full
   * batches of 10 (sealed by count: a 5 ms linger sealed smaller ones on a busy machine).
   */
  private void spoolAll(int n) {
    InMemoryExporter down = InMemoryExporter.create();
    down.respondWith(b -> DOWN);
    Producer first = producer(down, spool().build(), 60_000, 10_000);
    Outcomes outcomes = new Outcomes();
    sendAll(first, outcomes, n, "");
    first.close(1_000);
    SpoolTestSettings.awaitOutcomes(outcomes, n);
    assertEquals(Map.of(SendResult.Status.SPOOLED, n), outcomes.statusCounts());
  }

  @Test
  void eachBatchReplayedIsDeliveredOnceWithItsRecordCount() {
    int n = 200;
    spoolAll(n);
    Events events = new Events();
    Producer second =
        producer(InMemoryExporter.create(), spool().setListener(events).build(), 60_000);
    assertTrue(
        SpoolTestSettings.settles(() -> events.records("delivered") == n, second),
        events.batches()::toString);
    assertTrue(
        SpoolTestSettings.settles(() -> second.getMetrics().getSpoolPendingBatches() == 0, second));
    assertEquals(List.of(), events.repeats());
    assertEquals(Map.of("delivered", n / 10), events.batches());
  }

  @Test
  void eachBatchOlderThanMaxAgeIsExpiredOnce() {
    int n = 200; // 4 shards x 5 full batches of 10
    spoolAll(n);
    Events events = new Events();
    Producer second =
        producer(
            InMemoryExporter.create(),
            spool().setMaxAgeMillis(1).setListener(events).build(),
            60_000);
    assertTrue(
        SpoolTestSettings.settles(() -> events.records("expired") == n, second),
        events.batches()::toString);
    assertTrue(
        SpoolTestSettings.settles(() -> second.getMetrics().getSpoolPendingBatches() == 0, second));
    assertEquals(List.of(), events.repeats());
    assertEquals(Map.of("expired", n / 10), events.batches());
    assertEquals(n, second.getMetrics().getSpoolRecordsExpired());
  }

  @Test
  @Timeout(600) // it waits while the outcomes, drops and deliveries progress: a busy machine
  void eachBatchDroppedToMakeRoomIsDroppedOnceAndTheRestDelivered() {
    Events events = new Events();
    SpoolConfig small =
        spool()
            .setMaxBytes(2 * 64 * 1024 + SpoolConfig.FIXED_OVERHEAD_BYTES)
            .setFullPolicy(SpoolFullPolicy.DROP_OLDEST, 0)
            .setListener(events)
            .build();
    InMemoryExporter exporter = InMemoryExporter.create();
    exporter.respondWith(b -> DOWN);
    Producer p = producer(exporter, small, 500);
    Outcomes outcomes = new Outcomes();
    int n = 2_000;
    String pad = "x".repeat(1_000);
    // First a few batches get SPOOLED; then the rest makes room by dropping them (a batch dropped
    // while still in memory gets FAILED instead, and no event: see SpoolReplayTest).
    int first = 60;
    for (int i = 0; i < n; i++) {
      if (i == first) {
        assertTrue(
            SpoolTestSettings.whileProgressing(
                () -> outcomes.total() >= first, outcomes::total, 30_000),
            () -> "outcomes stalled at " + outcomes.total() + ": " + p.getMetrics());
        assertEquals(Map.of(SendResult.Status.SPOOLED, first), outcomes.statusCounts());
      }
      p.send(
          LogRecord.builder().setBody("r-" + i + pad).setDestination("shard-" + (i % 4)).build(),
          outcomes.callback(i));
    }
    assertTrue(
        SpoolTestSettings.whileProgressing(() -> outcomes.total() >= n, outcomes::total, 30_000),
        () -> "outcomes stalled at " + outcomes.total() + ": " + p.getMetrics());
    assertEquals(n, outcomes.total());
    int spooled = outcomes.statusCounts().getOrDefault(SendResult.Status.SPOOLED, 0);
    assertTrue(
        SpoolTestSettings.whileProgressing(
            () -> events.records("dropped") > 0, () -> events.records("dropped"), 30_000),
        events.batches()::toString);
    exporter.respondWith(b -> ExportResult.success());
    // the last delivery is counted (and told) just after the acknowledgement that empties the spool
    assertTrue(
        SpoolTestSettings.whileProgressing(
            () ->
                p.getMetrics().getSpoolPendingBatches() == 0
                    && events.records("dropped") + events.records("delivered") >= spooled,
            () ->
                p.getMetrics().getSpoolPendingBatches()
                    + 31L * (events.records("dropped") + events.records("delivered")),
            30_000),
        () ->
            events.batches()
                + " records dropped "
                + events.records("dropped")
                + " delivered "
                + events.records("delivered")
                + " of "
                + spooled
                + " SPOOLED; outcomes "
                + outcomes.statusCounts()
                + "; "
                + p.getMetrics());
    assertEquals(List.of(), events.repeats());
    assertEquals(p.getMetrics().getSpoolRecordsDropped(), events.records("dropped"));
    assertEquals(p.getMetrics().getSpoolRecordsDelivered(), events.records("delivered"));
    assertEquals(
        spooled,
        events.records("dropped") + events.records("delivered"),
        "every SPOOLED record dropped or delivered: " + events.batches());
  }

  @Test
  void aDamagedBatchIsCorruptOnceAndTheOthersDelivered() throws IOException {
    int n = 200;
    spoolAll(n);
    flipByteOf("r-57");
    Events events = new Events();
    Producer second =
        producer(InMemoryExporter.create(), spool().setListener(events).build(), 60_000);
    assertTrue(
        SpoolTestSettings.settles(() -> second.getMetrics().getSpoolPendingBatches() == 0, second));
    assertEquals(List.of(), events.repeats());
    assertEquals(Map.of("corrupt", 1, "delivered", n / 10 - 1), events.batches());
    assertEquals(n - 10, events.records("delivered"));
    assertEquals(1, second.getMetrics().getSpoolBatchesCorrupt());
  }

  @Test
  void aListenerThatThrowsChangesNothing() {
    int n = 200;
    spoolAll(n);
    AtomicInteger calls = new AtomicInteger();
    SpoolListener throwing =
        new SpoolListener() {
          @Override
          public void onDelivered(long sequence, int recordCount) {
            calls.incrementAndGet();
            throw new IllegalStateException("listener bug");
          }
        };
    Producer second =
        producer(InMemoryExporter.create(), spool().setListener(throwing).build(), 60_000);
    assertTrue(
        SpoolTestSettings.settles(
            () -> second.getMetrics().getSpoolRecordsDelivered() == n, second),
        () -> second.getMetrics().toString());
    assertTrue(
        SpoolTestSettings.settles(() -> second.getMetrics().getSpoolPendingBatches() == 0, second));
    assertEquals(n / 10, calls.get());
  }

  /** Flips one byte of {@code text} in the only segment file holding it. */
  private void flipByteOf(String text) throws IOException {
    byte[] needle = text.getBytes(StandardCharsets.US_ASCII);
    List<Path> hits = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (!f.getFileName().toString().endsWith(".seg")) {
          continue;
        }
        byte[] bytes = Files.readAllBytes(f);
        int at = indexOf(bytes, needle);
        if (at >= 0) {
          bytes[at + needle.length - 1] ^= 0x01;
          Files.write(f, bytes);
          hits.add(f);
        }
      }
    }
    assertEquals(1, hits.size(), "segments holding " + text + ": " + hits);
  }

  private static int indexOf(byte[] hay, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= hay.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (hay[i + j] != needle[j]) {
          continue outer;
        }
      }
      if (i + needle.length < hay.length && Character.isDigit((char) hay[i + needle.length])) {
        continue;
      }
      return i;
    }
    return -1;
  }
}
