package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Callback;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.SendResult;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.SpoolFullPolicy;
import io.logproducer.SpoolOpenException;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failing disks under a whole producer whose receiver is down: a full file system, a read-only one,
 * the spool directory deleted, and a directory of another exporter kind. No exception reaches
 * {@code send}, every record gets exactly one outcome (SPOOLED while the spool works, FAILED at the
 * delivery timeout while it does not: memory only), and the spool is used again once writes
 * succeed. The file systems are tmpfs mounts (as root); where one cannot be mounted the test says
 * SKIPPED and runs the scenario through {@code maxBytes}.
 */
@Timeout(60)
class SpoolDiskFaultTest {

  private static final int ROUND = 40;

  /** The spool kind of the OTLP exporter (its class name). */
  private static final String OTLP = "io.logproducer.otlp.OtlpHttpExporter";

  /** Bodies of about 1 KB: a batch of 10 takes a sixth of a 64 KiB segment. */
  private static final String PAD = "x".repeat(1000);

  @TempDir Path tmp;
  private Producer producer;
  private final Deque<Path> mounts = new ArrayDeque<>();

  @AfterEach
  void cleanUp() {
    if (producer != null) {
      producer.close(0);
    }
    while (!mounts.isEmpty()) {
      run("umount", "-l", mounts.pop().toString());
    }
  }

  private static SpoolConfig.Builder spool(Path dir) {
    return SpoolConfig.builder(dir)
        .setSegmentBytes(64 * 1024)
        .setMaxBytes(8L << 20)
        .setDurability(SpoolDurability.GROUP_COMMIT)
        .setGroupCommitMillis(20)
        .setMinFreeDiskShare(0);
  }

  private Producer producer(InMemoryExporter exporter, SpoolConfig spool) {
    producer =
        new Producer(
            SpoolTestSettings.producer("spool-disk-fault", 300).setSpool(spool).build(), exporter);
    return producer;
  }

  private static InMemoryExporter down() {
    InMemoryExporter e = InMemoryExporter.create();
    e.respondWith(b -> ExportResult.retryable("receiver down", null, -1));
    return e;
  }

  /** Sends rounds of {@link #ROUND} records and their outcomes, counted by status. */
  private static final class Rounds {
    final Producer p;
    final Outcomes outcomes = new Outcomes();
    int sent;

    Rounds(Producer p) {
      this.p = p;
    }

    /** Sends one round (4 shards) and waits for its outcomes; {@return how many were SPOOLED} */
    int round() {
      Outcomes mine = new Outcomes();
      for (int i = 0; i < ROUND; i++) {
        int id = sent++;
        LogRecord r =
            LogRecord.builder().setBody(PAD + id).setDestination("shard-" + (id % 4)).build();
        Callback all = outcomes.callback(id);
        Callback one = mine.callback(id);
        p.send(
            r,
            result -> {
              all.onCompletion(result);
              one.onCompletion(result);
            });
      }
      SpoolTestSettings.awaitOutcomes(mine, ROUND);
      return mine.statusCounts().getOrDefault(SendResult.Status.SPOOLED, 0);
    }

    /** Sends rounds until {@code done} holds (at most 40 rounds). */
    void until(BooleanSupplier done, String what) {
      for (int k = 0; k < 40 && !done.getAsBoolean(); k++) {
        round();
      }
      assertTrue(done.getAsBoolean(), what + ": " + p.getMetrics());
    }

    /** Every record sent has exactly one outcome, SPOOLED or FAILED (the receiver is down). */
    void assertAccounted() {
      assertEquals(sent, outcomes.total(), "outcomes");
      assertEquals(0, outcomes.duplicates(), "second outcomes");
      Map<SendResult.Status, Integer> counts = outcomes.statusCounts();
      int spooled = counts.getOrDefault(SendResult.Status.SPOOLED, 0);
      int failed = counts.getOrDefault(SendResult.Status.FAILED, 0);
      assertEquals(sent, spooled + failed, "statuses " + counts);
      assertEquals(spooled, p.getMetrics().getRecordsSpooled(), "records spooled, metrics");
    }
  }

  /**
   * A spool that stops taking batches (disk full, read-only, gone) and takes them again: a round
   * all SPOOLED, {@code fault}, rounds until a batch is not written, {@code heal}, rounds until a
   * whole round is SPOOLED again.
   */
  private static void failAndHeal(Rounds rounds, Runnable fault, Runnable heal) {
    assertEquals(ROUND, rounds.round(), "the spool works at first");
    fault.run();
    long notWritten = rounds.p.getMetrics().getSpoolBatchesNotWritten();
    rounds.until(
        () -> rounds.p.getMetrics().getSpoolBatchesNotWritten() > notWritten,
        "the spool never refused a batch");
    assertTrue(
        rounds.round() < ROUND, "a round while the disk fails is not all SPOOLED (memory only)");
    heal.run();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (rounds.round() < ROUND) {
      assertTrue(System.nanoTime() < deadline, "the spool was not used again");
    }
    rounds.assertAccounted();
  }

  @Test
  void aFullFileSystemGoesMemoryOnlyAndTheSpoolIsUsedAgainWhenSpaceReturns() throws Exception {
    Path mnt = mountTmpfs("size=2m");
    if (mnt == null) {
      fullThroughMaxBytes();
      return;
    }
    Path filler = mnt.resolve("filler");
    Files.write(filler, new byte[1900 << 10]);
    Rounds rounds = new Rounds(producer(down(), spool(mnt.resolve("spool")).build()));
    failAndHeal(rounds, () -> {}, () -> deleteQuietly(filler));
    System.out.println("full tmpfs: " + rounds.p.getMetrics());
  }

  private void fullThroughMaxBytes() {
    Path dir = tmp.resolve("spool");
    SpoolConfig small =
        spool(dir)
            .setMaxBytes(2 * 64 * 1024 + SpoolConfig.FIXED_OVERHEAD_BYTES)
            .setFullPolicy(SpoolFullPolicy.DROP_NEWEST, 0)
            .build();
    InMemoryExporter exporter = down();
    Rounds rounds = new Rounds(producer(exporter, small));
    failAndHeal(
        rounds,
        () -> {},
        () -> {
          exporter.respondWith(b -> ExportResult.success());
          assertTrue(
              SpoolTestSettings.settles(
                  () -> rounds.p.getMetrics().getSpoolPendingBatches() == 0, rounds.p),
              "the spool drained");
          exporter.respondWith(b -> ExportResult.retryable("receiver down", null, -1));
        });
  }

  /**
   * The spool directory becomes read-only under the producer: a read-only bind mount of the
   * directory over itself (as root, permissions do not bind; a whole file system cannot be
   * remounted read-only while the spool holds files open for writing). Files already open stay
   * writable; creating the next segment or checkpoint fails with EROFS.
   */
  @Test
  void aReadOnlyDirectoryGoesMemoryOnlyAndTheSpoolIsUsedAgainWhenWritable() throws IOException {
    Path probe = Files.createDirectory(tmp.resolve("probe"));
    String bind = run("mount", "--bind", "-o", "ro", probe.toString(), probe.toString());
    if (bind != null) {
      System.out.println(
          "SKIPPED (read-only directory: cannot bind-mount read-only: " + bind + ")");
      return;
    }
    assertEquals(null, run("umount", probe.toString()));
    Path dir = tmp.resolve("spool");
    Rounds rounds = new Rounds(producer(down(), spool(dir).build()));
    failAndHeal(
        rounds,
        () -> {
          assertEquals(null, run("mount", "--bind", "-o", "ro", dir.toString(), dir.toString()));
          mounts.push(dir);
        },
        () -> {
          // The spool may hold a file of the read-only mount open at this instant (a read, the
          // directory's fsync): then detach it lazily; new opens see the writable directory.
          String umount = run("umount", dir.toString());
          if (umount != null && umount.contains("busy")) {
            umount = run("umount", "-l", dir.toString());
          }
          assertEquals(null, umount);
          mounts.pop();
        });
  }

  @Test
  void aDeletedSpoolDirectoryGoesMemoryOnlyAndIsRecreated() throws Exception {
    Path dir = tmp.resolve("spool");
    Rounds rounds = new Rounds(producer(down(), spool(dir).build()));
    failAndHeal(rounds, () -> deleteQuietly(dir), () -> {});
    assertTrue(Files.exists(dir.resolve("lock")), "the directory and its lock are back");
  }

  /**
   * A directory written by another exporter: its {@code spool.meta} names the OTLP exporter's kind
   * (the meta file is how a directory says whose it is; see docs/spool-format.md), and a producer
   * with the in-memory exporter opens it.
   */
  @Test
  void aDirectoryOfAnotherExporterKindIsRefusedNamingBothKinds() throws IOException {
    Path dir = tmp.resolve("spool");
    producer(InMemoryExporter.create(), spool(dir).build()).close(0);
    producer = null;
    Path meta = dir.resolve("spool.meta");
    String mine = "kind=" + InMemoryExporter.class.getName() + "\n";
    String text = new String(Files.readAllBytes(meta), StandardCharsets.UTF_8);
    assertTrue(text.contains(mine), text);
    Files.write(meta, text.replace(mine, "kind=" + OTLP + "\n").getBytes(StandardCharsets.UTF_8));
    SpoolOpenException e =
        assertThrows(
            SpoolOpenException.class,
            () -> producer(InMemoryExporter.create(), spool(dir).build()));
    assertEquals(dir, e.getDirectory());
    String m = e.getMessage();
    assertTrue(m.contains(dir.toString()), m);
    assertTrue(m.contains("'" + OTLP + "'"), m);
    assertTrue(m.contains("'" + InMemoryExporter.class.getName() + "'"), m);
  }

  /** {@return a new tmpfs mounted with {@code options}, or null after a SKIPPED line} */
  private Path mountTmpfs(String options) throws IOException {
    Path mnt = Files.createDirectory(tmp.resolve("mnt"));
    String failure = run("mount", "-t", "tmpfs", "-o", options, "tmpfs", mnt.toString());
    if (failure != null) {
      System.out.println(
          "SKIPPED (cannot mount a tmpfs: " + failure + "); the scenario runs through maxBytes");
      return null;
    }
    mounts.push(mnt);
    return mnt;
  }

  /** Runs a command; {@return null when it exited 0, else its exit code and output} */
  private static String run(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes()).trim();
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return "timed out";
      }
      return p.exitValue() == 0 ? null : "exit " + p.exitValue() + ": " + out;
    } catch (IOException e) {
      return e.toString();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return e.toString();
    }
  }

  private static void deleteQuietly(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> s = Files.walk(path)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
