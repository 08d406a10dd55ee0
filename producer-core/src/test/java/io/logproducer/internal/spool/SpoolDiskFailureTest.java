package io.logproducer.internal.spool;

import static io.logproducer.internal.spool.SpoolTestSupport.config;
import static io.logproducer.internal.spool.SpoolTestSupport.meta;
import static io.logproducer.internal.spool.SpoolTestSupport.open;
import static io.logproducer.internal.spool.SpoolTestSupport.payload;
import static io.logproducer.internal.spool.SpoolTestSupport.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.SpoolConfig;
import io.logproducer.SpoolFullPolicy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Full, read-only and vanished disks: append never throws, the spool says DISABLED with the cause,
 * and is used again once writes succeed (back-off 0 here, so each append retries).
 */
@Timeout(120)
class SpoolDiskFailureTest {
  private static final int SIZE = 20 << 10;
  @TempDir Path dir;

  private static AppendResult appendOne(Spool spool, long n) {
    return spool.append(1000 + n, (int) n, meta(n), ByteBuffer.wrap(payload(n, SIZE)));
  }

  @Test
  void aFullFileSystemDisablesTheSpoolUntilSpaceReturns() throws Exception {
    Path mnt = Files.createDirectory(dir.resolve("mnt"));
    String failure = run("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt.toString());
    if (failure != null) {
      System.out.println(
          "SKIPPED (cannot mount a tmpfs: "
              + failure
              + "); the same scenario runs through maxBytes");
      fullThroughMaxBytes();
      return;
    }
    try {
      Path filler = mnt.resolve("filler");
      Files.write(filler, new byte[1200 << 10]);
      SpoolConfig cfg = config(mnt.resolve("spool"), 256 << 10, 64L << 20).build();
      try (Spool spool = open(cfg)) {
        int stored = 0;
        AppendResult r;
        for (int n = 0; (r = appendOne(spool, n)).stored(); n++) {
          stored++;
          assertTrue(n < 1000, "the tmpfs never filled");
        }
        assertEquals(AppendResult.Status.DISABLED, r.status());
        assertEquals(SpoolStatus.DISABLED, spool.status());
        String cause = String.valueOf(r.cause());
        System.out.println("tmpfs full after " + stored + " entries: " + cause);
        assertTrue(
            cause.contains("No space left") || cause.contains("free-disk guard"),
            "cause: " + cause);
        assertEquals(r.cause(), spool.lastError());
        assertEquals(AppendResult.Status.DISABLED, appendOne(spool, 5000).status(), "still full");
        Files.delete(filler);
        AppendResult back = appendOne(spool, stored);
        assertTrue(back.stored(), back.toString());
        assertEquals(SpoolStatus.ENABLED, spool.status());
        assertEquals(stored + 1, readAll(spool).size(), "nothing stored was lost");
      }
    } finally {
      run("umount", mnt.toString());
    }
  }

  private void fullThroughMaxBytes() throws Exception {
    long max = 2 * (256 << 10) + SpoolConfig.FIXED_OVERHEAD_BYTES;
    SpoolConfig cfg =
        config(dir.resolve("spool"), 256 << 10, max)
            .setFullPolicy(SpoolFullPolicy.DROP_NEWEST, 0)
            .build();
    try (Spool spool = open(cfg)) {
      int stored = 0;
      AppendResult r;
      for (int n = 0; (r = appendOne(spool, n)).stored(); n++) {
        stored++;
      }
      assertEquals(AppendResult.Status.FULL, r.status());
      for (long s = 1; s <= stored; s++) {
        spool.acknowledge(s);
      }
      assertTrue(appendOne(spool, stored).stored());
    }
  }

  @Test
  void aReadOnlyOrDeletedDirectoryDisablesTheSpoolUntilWritesSucceed() throws Exception {
    Path spoolDir = dir.resolve("spool");
    SpoolConfig cfg = config(spoolDir, 64 << 10, 16L << 20).build();
    try (Spool spool = open(cfg)) {
      Files.setPosixFilePermissions(spoolDir, PosixFilePermissions.fromString("r-x------"));
      boolean rootIgnoresPermissions = canCreateFileIn(spoolDir);
      if (rootIgnoresPermissions) {
        Files.setPosixFilePermissions(spoolDir, PosixFilePermissions.fromString("rwx------"));
        System.out.println(
            "read-only directory: running as root (permissions ignored); "
                + "the directory is deleted under the spool instead");
        deleteRecursively(spoolDir);
      }
      AppendResult r = null;
      int stored = 0;
      for (int n = 0; n < 100; n++) {
        r = appendOne(spool, n);
        if (!r.stored()) {
          break;
        }
        stored++;
      }
      assertNotNull(r);
      assertEquals(AppendResult.Status.DISABLED, r.status(), "refused once a segment is needed");
      assertTrue(r.cause() instanceof IOException, String.valueOf(r.cause()));
      assertEquals(SpoolStatus.DISABLED, spool.status());
      if (!rootIgnoresPermissions) {
        assertEquals(AppendResult.Status.DISABLED, appendOne(spool, 999).status());
        Files.setPosixFilePermissions(spoolDir, PosixFilePermissions.fromString("rwx------"));
      }
      AppendResult back = appendOne(spool, stored);
      assertTrue(back.stored(), back.toString());
      assertEquals(SpoolStatus.ENABLED, spool.status());
      assertTrue(Files.exists(spoolDir.resolve(DirectoryLock.FILE)), "lock file present again");
      String metaText =
          new String(Files.readAllBytes(spoolDir.resolve(SpoolMeta.FILE)), StandardCharsets.UTF_8);
      assertTrue(metaText.contains("kind=test"), metaText);
    } finally {
      if (Files.exists(spoolDir)) {
        Files.setPosixFilePermissions(spoolDir, PosixFilePermissions.fromString("rwx------"));
      }
    }
  }

  @Test
  void theFreeDiskGuardRefusesASegmentThatWouldLeaveTooLittleFreeSpace() throws Exception {
    SpoolConfig cfg =
        config(dir.resolve("spool"), 64 << 10, 16L << 20).setMinFreeDiskShare(0.999).build();
    try (Spool spool = open(cfg)) {
      AppendResult r = appendOne(spool, 0);
      assertEquals(AppendResult.Status.DISABLED, r.status());
      assertTrue(String.valueOf(r.cause()).contains("free-disk guard"), String.valueOf(r.cause()));
    }
  }

  /**
   * {@return a spool in {@code spoolDir} on the clock {@code now} (retry after 1 s, doubling to 30
   * s), whose directory was deleted before its first append, which was refused}
   */
  private static Spool disabledByADeletedDirectory(
      Path spoolDir, java.util.concurrent.atomic.AtomicLong now) throws IOException {
    SpoolConfig cfg = config(spoolDir, 64 << 10, 16L << 20).build();
    Spool spool =
        Spool.open(
            cfg, "test", SpoolEvents.NONE, new SpoolTuning(3_600_000, 1000, 30_000, now::get));
    deleteRecursively(spoolDir);
    assertEquals(AppendResult.Status.DISABLED, appendOne(spool, 0).status());
    return spool;
  }

  @Test
  void failedCheckpointsWhileDisabledDoNotPostponeTheRetry() throws Exception {
    java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(0);
    Path spoolDir = dir.resolve("spool");
    try (Spool spool = disabledByADeletedDirectory(spoolDir, now)) {
      for (int i = 0; i < 5; i++) {
        SpoolCommitter.writeCheckpoint(spool, true); // the committer's tick, every 200 ms here
        now.addAndGet(200);
      }
      AppendResult back = appendOne(spool, 1);
      assertTrue(back.stored(), "retried once the first back-off passed: " + back);
      assertEquals(SpoolStatus.ENABLED, spool.status());
    }
  }

  @Test
  void aDisabledSpoolRetriesOnlyAfterItsBackOff() throws Exception {
    java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(0);
    Path spoolDir = dir.resolve("spool");
    try (Spool spool = disabledByADeletedDirectory(spoolDir, now)) {
      now.addAndGet(999);
      AppendResult early = appendOne(spool, 1);
      assertEquals(AppendResult.Status.DISABLED, early.status());
      assertTrue(!Files.exists(spoolDir), "no retry before the back-off");
      now.addAndGet(1);
      AppendResult back = appendOne(spool, 2);
      assertTrue(back.stored(), back.toString());
      assertEquals(1, back.sequence());
    }
  }

  private static boolean canCreateFileIn(Path d) {
    try {
      Files.delete(Files.createFile(d.resolve("probe")));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static void deleteRecursively(Path d) throws IOException {
    try (Stream<Path> s = Files.walk(d)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }

  /** Runs a command; {@return null on exit 0, else its output and exit code} */
  private static String run(String... command) throws Exception {
    Process p;
    try {
      p = new ProcessBuilder(command).redirectErrorStream(true).start();
    } catch (IOException e) {
      return e.getMessage();
    }
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return String.join(" ", command) + " did not finish in 30 s";
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    return p.exitValue() == 0 ? null : "exit " + p.exitValue() + ": " + out;
  }
}
