package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.testing.ChildJvm;
import io.logproducer.testing.ExportedBatch;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The guarantee table of the disk spool, cell by cell, through the producer: what a record whose
 * outcome was SPOOLED survives under each durability policy, for a process kill ({@code kill -9})
 * and for a power loss (simulated: after the kill, every segment is cut back to what the storage
 * had forced to the device, as its fsync log says, and the rest overwritten by a torn page of
 * garbage and zeros). A child JVM ({@link SpoolGuaranteeMain}) produces to a receiver that is down;
 * a new producer then opens the directory with a receiver that is up.
 */
class SpoolGuaranteeTest {

  /** Shards (destinations) of the child's records; a round is one batch of 10 per shard. */
  static final int SHARDS = 4;

  /** The system property of the storage's fsync log (a test hook, off in production). */
  private static final String FSYNC_LOG = "io.logproducer.spool.fsyncLog";

  @TempDir Path tmp;

  /**
   * {@return the producer settings of the child and of the restart: one send thread, batches of 10
   * records, deliveryTimeoutMillis {@code deliveryMillis}, segments of 4 KiB (five batches: a run
   * seals several, so that both sealed and active segments are cut)}
   */
  static ProducerConfig config(
      String clientId, Path dir, SpoolDurability durability, long deliveryMillis) {
    return SpoolTestSettings.producer(clientId, deliveryMillis)
        .setBatchSizeInBytes(2 * 1024) // requests fit the 4 KiB segments
        .setSpool(
            SpoolConfig.builder(dir)
                .setSegmentBytes(4096)
                .setMaxBytes(8L << 20)
                .setDurability(durability)
                .setGroupCommitMillis(20)
                .build())
        .build();
  }

  /** What the child said before it was killed. */
  private static final class ChildRun {
    final Set<Integer> spooled = new TreeSet<>();
    final Set<Integer> failed = new TreeSet<>();
    int lastRoundFirst;
    int sentEnd;

    /** {@return whether {@code id} may be delivered though not reported SPOOLED} */
    boolean mayAlsoArrive(int id) {
      return failed.contains(id) || (id >= lastRoundFirst && id < sentEnd);
    }
  }

  /**
   * Runs the child on {@code dir} with {@code durability} until it has reported a random number
   * (80..200) of outcomes, then kills it with SIGKILL. {@return what it printed}
   */
  private static ChildRun runAndKill(Path dir, SpoolDurability durability, Path fsyncLog)
      throws Exception {
    long seed = System.nanoTime();
    int killAfter = 80 + new Random(seed).nextInt(121);
    System.out.println(
        durability + ": kill -9 after " + killAfter + " outcomes (seed " + seed + ")");
    List<String> lines;
    ChildJvm.Builder b =
        ChildJvm.builder(SpoolGuaranteeMain.class).args(dir.toString(), durability.name());
    if (fsyncLog != null) {
      b.jvmOptions("-D" + FSYNC_LOG + "=" + fsyncLog);
    }
    try (ChildJvm child = b.start()) {
      assertTrue(
          Outcomes.until(() -> outcomeLines(child) >= killAfter, 40_000),
          () -> "too few outcomes: " + child.output());
      child.kill();
      lines = child.outputLines();
    }
    ChildRun run = new ChildRun();
    for (String line : lines) {
      String[] f = line.split(" ");
      if (f[0].equals("ROUND")) {
        run.lastRoundFirst = Integer.parseInt(f[1]);
        run.sentEnd = Integer.parseInt(f[2]);
      } else if (f[0].equals("OUTCOME")) {
        int id = Integer.parseInt(f[2]);
        boolean fresh =
            f[1].equals("SPOOLED") || f[1].equals("DELIVERED")
                ? run.spooled.add(id)
                : run.failed.add(id);
        assertTrue(fresh, "two outcomes for one record: " + line);
      }
    }
    assertTrue(run.spooled.size() >= 40, "records reported SPOOLED: " + run.spooled.size());
    return run;
  }

  private static long outcomeLines(ChildJvm child) {
    return child.outputLines().stream().filter(l -> l.startsWith("OUTCOME ")).count();
  }

  /** The restarted producer's view: what it delivered, in arrival order, and its metrics. */
  private static final class Restart {
    final List<Integer> delivered = new ArrayList<>();
    final Map<Object, List<Integer>> byShard = new HashMap<>();
    long corrupt;
  }

  /**
   * Opens a producer on {@code dir} with a live receiver and waits until the spool is empty; when
   * {@code probe}, it then sends one new record and checks it is DELIVERED. {@return what arrived}
   */
  private static Restart restart(Path dir, SpoolDurability durability, boolean probe) {
    InMemoryExporter up = InMemoryExporter.create();
    Producer p = new Producer(config("guarantee-restart", dir, durability, 30_000), up);
    Restart r = new Restart();
    try {
      assertTrue(
          SpoolTestSettings.settles(() -> p.getMetrics().getSpoolPendingBatches() == 0, p),
          () -> "spool not drained: " + p.getMetrics());
      for (ExportedBatch b : up.batches()) {
        if (b.isDelivered()) {
          for (String body : b.bodies()) {
            int id = Integer.parseInt(body.substring(2));
            r.delivered.add(id);
            r.byShard.computeIfAbsent(b.shardKey(), k -> new ArrayList<>()).add(id);
          }
        }
      }
      r.corrupt = p.getMetrics().getSpoolBatchesCorrupt();
      if (probe) {
        Outcomes outcomes = new Outcomes();
        p.send(LogRecord.builder().setBody("probe").build(), outcomes.callback(0));
        SpoolTestSettings.awaitOutcomes(outcomes, 1);
        assertEquals(Map.of(SendResult.Status.DELIVERED, 1), outcomes.statusCounts());
      }
    } finally {
      p.close(0);
    }
    return r;
  }

  /**
   * Every record reported SPOOLED arrived; nothing arrived twice (the receiver was down before); a
   * record not reported SPOOLED arrived only if it was in the round under way at the kill or was
   * reported FAILED (its acknowledgement may be younger than the checkpoint); per shard, in order.
   */
  private static void assertEverySpooledRecordArrivedOnceInOrder(ChildRun run, Restart r) {
    Set<Integer> missing = new TreeSet<>(run.spooled);
    missing.removeAll(r.delivered);
    assertEquals(Set.of(), missing, "records reported SPOOLED and never delivered");
    assertEquals(new HashSet<>(r.delivered).size(), r.delivered.size(), "duplicates");
    for (int id : r.delivered) {
      assertTrue(run.spooled.contains(id) || run.mayAlsoArrive(id), "unexpected record " + id);
    }
    for (Map.Entry<Object, List<Integer>> e : r.byShard.entrySet()) {
      List<Integer> ids = e.getValue();
      for (int k = 1; k < ids.size(); k++) {
        assertTrue(ids.get(k - 1) < ids.get(k), "order of " + e.getKey() + ": " + ids);
      }
    }
    System.out.println(
        run.spooled.size()
            + " records reported SPOOLED before the kill, "
            + r.delivered.size()
            + " delivered after the restart, "
            + r.corrupt
            + " damaged batches counted");
  }

  /**
   * Table cells "process killed" × NONE / GROUP_COMMIT / EVERY_BATCH: every record reported SPOOLED
   * before a {@code kill -9} is delivered after the restart, once, in order per shard.
   */
  @ParameterizedTest
  @EnumSource(SpoolDurability.class)
  @Timeout(60)
  void kill9KeepsEverySpooledRecord(SpoolDurability durability) throws Exception {
    Path dir = tmp.resolve("spool");
    ChildRun run = runAndKill(dir, durability, null);
    Restart r = restart(dir, durability, false);
    assertEverySpooledRecordArrivedOnceInOrder(run, r);
    assertEquals(0, r.corrupt, "a kill tears nothing a write(2) finished");
  }

  /**
   * Table cells "power loss" × GROUP_COMMIT / EVERY_BATCH: SPOOLED is given only once the batch is
   * forced, so every record reported SPOOLED survives losing everything the device did not hold.
   */
  @ParameterizedTest
  @EnumSource(
      value = SpoolDurability.class,
      names = {"GROUP_COMMIT", "EVERY_BATCH"})
  @Timeout(60)
  void powerLossKeepsEverySpooledRecordWhenForced(SpoolDurability durability) throws Exception {
    Path dir = tmp.resolve("spool");
    Path log = tmp.resolve("fsync.log");
    ChildRun run = runAndKill(dir, durability, log);
    assertTrue(Files.exists(log), "the child forced nothing");
    int torn = cutToDurable(dir, log);
    System.out.println(durability + ": power loss tore " + torn + " segment tails");
    Restart r = restart(dir, durability, true);
    assertEverySpooledRecordArrivedOnceInOrder(run, r);
    assertTrue(r.corrupt <= torn, "at most one damaged batch per torn tail: " + r.corrupt);
  }

  /**
   * Table cell "power loss" × NONE, not guaranteed: NONE forces nothing, so a power loss may lose
   * every stored batch (here: every segment is cut to nothing). The producer still opens the
   * directory, delivers nothing twice or out of thin air, counts the damage and works on.
   */
  @Test
  @Timeout(60)
  void powerLossUnderNoneMayLoseEverythingButOpensCountsAndGoesOn() throws Exception {
    Path dir = tmp.resolve("spool");
    Path log = tmp.resolve("fsync.log");
    ChildRun run = runAndKill(dir, SpoolDurability.NONE, log);
    assertTrue(!Files.exists(log), "NONE forced a segment");
    int torn = cutToDurable(dir, log);
    assertTrue(torn >= 1, "segments cut: " + torn);
    Restart r = restart(dir, SpoolDurability.NONE, true);
    assertEquals(List.of(), r.delivered, "nothing survived, nothing was made up");
    assertEquals(torn, r.corrupt, "one damaged batch counted per torn segment");
    System.out.println(
        "NONE: "
            + run.spooled.size()
            + " records reported SPOOLED, all lost to the simulated power loss; "
            + r.corrupt
            + " damaged batches counted");
  }

  /**
   * Simulates a power loss on {@code dir}: each segment keeps the bytes before the largest offset
   * its fsync log line names (none: 0); after them come 4 KiB of random bytes (a torn page) and
   * zeros to the end of the file. {@return the segments that lost bytes}
   */
  private static int cutToDurable(Path dir, Path log) throws IOException {
    Map<String, Long> durable = new HashMap<>();
    if (Files.exists(log)) {
      for (String line : Files.readAllLines(log)) {
        String[] f = line.split(" ");
        durable.merge(f[1], Long.parseLong(f[2]), Math::max);
      }
    }
    int torn = 0;
    Random random = new Random(42);
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.seg")) {
      for (Path seg : ds) {
        long keep = durable.getOrDefault(seg.getFileName().toString(), 0L);
        long size = Files.size(seg);
        if (keep >= size) {
          continue;
        }
        try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.WRITE)) {
          byte[] page = new byte[(int) Math.min(4096, size - keep)];
          random.nextBytes(page);
          writeAt(ch, page, keep);
          for (long at = keep + page.length; at < size; at += 65536) {
            writeAt(ch, new byte[(int) Math.min(65536, size - at)], at);
          }
          ch.force(true);
        }
        torn++;
      }
    }
    return torn;
  }

  private static void writeAt(FileChannel ch, byte[] bytes, long at) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    while (b.hasRemaining()) {
      ch.write(b, at + b.position());
    }
  }
}
