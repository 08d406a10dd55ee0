package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.testing.ExportedBatch;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/** The producer settings the spool tests (and their child JVMs) share. */
final class SpoolTestSettings {

  private SpoolTestSettings() {}

  /**
   * {@return a producer config builder: one send thread, batches of 10 records (linger 5 ms) and at
   * most 32 KiB (a request fits the 64 KiB segments of {@link #spool}), retries every 10 to 50 ms,
   * deliveryTimeoutMillis {@code deliveryMillis}, no compression, no JMX, no shutdown hook; the
   * caller sets the spool}
   */
  static ProducerConfig.Builder producer(String clientId, long deliveryMillis) {
    return ProducerConfig.builder()
        .setClientId(clientId)
        .setBatchSizeInBytes(32 * 1024)
        .setLingerMillis(5)
        .setBatchCountThreshold(10)
        .setDeliveryTimeoutMillis(deliveryMillis)
        .setInitialRetryBackoffMillis(10)
        .setMaxRetryBackoffMillis(50)
        .setSendThreads(1)
        .setCompression(Compression.NONE)
        .setJmxEnabled(false)
        .setShutdownHookEnabled(false);
  }

  /**
   * {@return a spool config builder on {@code dir}: 64 KiB segments, 8 MiB, group commit every 20
   * ms}
   */
  static SpoolConfig.Builder spool(Path dir) {
    return SpoolConfig.builder(dir)
        .setSegmentBytes(64 * 1024)
        .setMaxBytes(8L << 20)
        .setDurability(SpoolDurability.GROUP_COMMIT)
        .setGroupCommitMillis(20);
  }

  /**
   * Waits until {@code done} holds for as long as {@code progress} keeps changing, however slow the
   * machine is. {@return false once {@code progress} stood still for {@code idleMillis} without
   * {@code done} (a stall)}
   */
  static boolean whileProgressing(BooleanSupplier done, LongSupplier progress, long idleMillis) {
    long last = progress.getAsLong();
    long idleSince = System.nanoTime();
    while (!done.getAsBoolean()) {
      long now = progress.getAsLong();
      if (now != last) {
        last = now;
        idleSince = System.nanoTime();
      } else if (System.nanoTime() - idleSince > idleMillis * 1_000_000L) {
        return done.getAsBoolean();
      }
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return done.getAsBoolean();
      }
    }
    return true;
  }

  /**
   * Waits until {@code done} holds for as long as producer {@code p} makes progress (any of its
   * counters changes), however slow the machine is. {@return false once none of its counters
   * changed for 30 s without {@code done}: a stall, not a slow machine}
   */
  static boolean settles(BooleanSupplier done, Producer p) {
    return whileProgressing(done, () -> p.getMetrics().toString().hashCode(), 30_000);
  }

  /**
   * Waits, after a close, for the {@code n} outcomes: close returns within its grace period plus 1
   * s, and on a starved machine its closer thread may give the last outcomes after that.
   */
  static void awaitOutcomes(Outcomes outcomes, int n) {
    assertTrue(
        whileProgressing(() -> outcomes.total() >= n, outcomes::total, 30_000),
        () ->
            "outcomes stalled at "
                + outcomes.total()
                + " of "
                + n
                + ": "
                + outcomes.statusCounts());
  }

  /** {@return record {@code i}: body {@code r-<i>}, destination {@code shard-<i % shards>}} */
  static LogRecord record(int i, int shards) {
    return LogRecord.builder().setBody("r-" + i).setDestination("shard-" + (i % shards)).build();
  }

  /** {@return the record ids ({@code r-<id>} bodies) delivered, per shard, in arrival order} */
  static Map<Object, List<Integer>> deliveredByShard(InMemoryExporter exporter) {
    Map<Object, List<Integer>> out = new HashMap<>();
    for (ExportedBatch b : exporter.batches()) {
      if (b.isDelivered()) {
        for (String body : b.bodies()) {
          out.computeIfAbsent(b.shardKey(), k -> new ArrayList<>())
              .add(Integer.parseInt(body.substring(body.lastIndexOf('-') + 1)));
        }
      }
    }
    return out;
  }

  /** Asserts that records 0..n-1 were each delivered once, in order within each shard. */
  static void assertDeliveredOnceInOrder(InMemoryExporter exporter, int n) {
    Set<Integer> all = new HashSet<>();
    int count = 0;
    for (Map.Entry<Object, List<Integer>> e : deliveredByShard(exporter).entrySet()) {
      List<Integer> ids = e.getValue();
      for (int k = 1; k < ids.size(); k++) {
        assertTrue(ids.get(k - 1) < ids.get(k), "order of " + e.getKey() + ": " + ids);
      }
      all.addAll(ids);
      count += ids.size();
    }
    assertEquals(n, all.size(), "distinct records delivered");
    assertEquals(n, count, "records delivered, duplicates included");
  }
}
