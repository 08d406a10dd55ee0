package io.logproducer.internal.spool;

import static io.logproducer.internal.spool.SpoolTestSupport.config;
import static io.logproducer.internal.spool.SpoolTestSupport.meta;
import static io.logproducer.internal.spool.SpoolTestSupport.open;
import static io.logproducer.internal.spool.SpoolTestSupport.payload;
import static io.logproducer.internal.spool.SpoolTestSupport.readAll;
import static io.logproducer.internal.spool.SpoolTestSupport.segments;
import static io.logproducer.internal.spool.SpoolTestSupport.sequences;
import static io.logproducer.internal.spool.SpoolTestSupport.sumFileSizes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.SpoolConfig;
import io.logproducer.SpoolFullPolicy;
import io.logproducer.testsupport.SchedulerLag;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class SpoolFullPolicyTest {
  // Room for three segments of five entries: the public floor (2 segments + 1 MiB) is met with
  // segments of 1 MiB, as the small files take far less than FIXED_OVERHEAD_BYTES.
  private static final long SEGMENT = 1 << 20;
  private static final long MAX = 3 * SEGMENT + SpoolConfig.FIXED_OVERHEAD_BYTES;
  private static final int SIZE = 192_000;
  @TempDir Path dir;

  private SpoolConfig.Builder cfg(Path d, SpoolFullPolicy policy, long blockMillis) {
    return config(d, SEGMENT, MAX).setFullPolicy(policy, blockMillis);
  }

  /**
   * Appends entry {@code n}; checks the bytes on disk against maxBytes exactly; {@return result}
   */
  private static AppendResult appendChecked(Spool spool, long n) throws Exception {
    AppendResult r = spool.append(1000 + n, (int) n, meta(n), ByteBuffer.wrap(payload(n, SIZE)));
    long onDisk = sumFileSizes(spool.directory());
    assertEquals(onDisk, spool.bytesOnDisk(), "bytesOnDisk is the sum of the files");
    assertTrue(onDisk <= MAX, onDisk + " > maxBytes " + MAX);
    return r;
  }

  private int fillUntilFull(Spool spool) throws Exception {
    for (int n = 0; ; n++) {
      AppendResult r = appendChecked(spool, n);
      if (!r.stored()) {
        assertEquals(AppendResult.Status.FULL, r.status());
        return n;
      }
      assertEquals(n + 1, r.sequence());
    }
  }

  @Test
  void dropNewestRefusesUntilAcknowledgementsDeleteASegment() throws Exception {
    try (Spool spool = open(cfg(dir, SpoolFullPolicy.DROP_NEWEST, 0).build())) {
      int stored = fillUntilFull(spool);
      assertTrue(stored >= 8, "stored " + stored);
      assertEquals(AppendResult.Status.FULL, appendChecked(spool, 1000).status());
      assertEquals(stored, spool.pendingEntries());
      long oldest = Segment.parseBase(segments(dir).get(0).getFileName().toString());
      long second = Segment.parseBase(segments(dir).get(1).getFileName().toString());
      for (long s = oldest; s < second; s++) {
        spool.acknowledge(s);
      }
      AppendResult r = appendChecked(spool, stored);
      assertTrue(r.stored(), r.toString());
      assertEquals(stored + 1, r.sequence(), "refused appends use no sequence");
    }
  }

  @Test
  void dropOldestReportsExactlyTheDroppedEntries() throws Exception {
    SpoolTestSupport.Recorder rec = new SpoolTestSupport.Recorder();
    try (Spool spool = open(cfg(dir, SpoolFullPolicy.DROP_OLDEST, 0).build(), rec)) {
      int n = 40;
      for (int i = 0; i < n; i++) {
        AppendResult r = appendChecked(spool, i);
        assertTrue(r.stored(), r.toString());
      }
      List<Long> left = sequences(readAll(spool));
      TreeSet<Long> all = new TreeSet<>(left);
      all.addAll(rec.discarded);
      assertEquals(n, all.size(), "every entry is either still there or reported");
      assertEquals(n, left.size() + rec.discarded.size(), "none both");
      assertEquals(rec.discarded.size(), spool.droppedEntries());
      assertTrue(rec.discarded.size() >= 20, "dropped " + rec.discarded.size());
      for (int i = 0; i < rec.discarded.size(); i++) {
        long s = i + 1;
        String expected =
            "DROPPED_OLDEST "
                + s
                + " "
                + (s - 1)
                + " "
                + new String(meta(s - 1), StandardCharsets.UTF_8);
        assertEquals(expected, rec.events.get(i), "the oldest go first, with count and meta");
      }
    }
  }

  @Test
  void blockTimesOutWithinItsBound() throws Exception {
    try (Spool spool = open(cfg(dir, SpoolFullPolicy.BLOCK, 300).build())) {
      int stored = fillUntilFull(spool);
      // the append that found the spool full waited its 300 ms; so does the next one, timed here
      try (SchedulerLag lag = SchedulerLag.start()) {
        long start = System.nanoTime();
        assertEquals(AppendResult.Status.FULL, appendChecked(spool, stored).status());
        long millis = lag.assertWithin(start, 300, "a blocked append with a 300 ms bound");
        assertTrue(millis >= 300, "waited " + millis + " ms");
      }
      assertEquals(stored, spool.pendingEntries());
    }
  }

  @Test
  void blockSucceedsWhenAnAckOnAnotherThreadFreesASegment() throws Exception {
    int capacity;
    try (Spool probe = open(cfg(dir.resolve("probe"), SpoolFullPolicy.DROP_NEWEST, 0).build())) {
      capacity = fillUntilFull(probe);
    }
    Path d = dir.resolve("block");
    try (Spool spool = open(cfg(d, SpoolFullPolicy.BLOCK, 60_000).build())) {
      for (int i = 0; i < capacity; i++) {
        assertTrue(appendChecked(spool, i).stored());
      }
      CompletableFuture<AppendResult> blocked =
          CompletableFuture.supplyAsync(
              () -> spool.append(0, 1, null, ByteBuffer.wrap(payload(capacity, SIZE))));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!spool.hasBlockedAppenders() && !blocked.isDone()) {
        assertTrue(System.nanoTime() < deadline, "the appender never blocked");
        Thread.onSpinWait();
      }
      assertTrue(!blocked.isDone(), "it waits: " + (blocked.isDone() ? blocked.get() : ""));
      List<Long> bases = new ArrayList<>();
      segments(d).forEach(p -> bases.add(Segment.parseBase(p.getFileName().toString())));
      for (long s = bases.get(0); s < bases.get(1); s++) {
        spool.acknowledge(s);
      }
      AppendResult r = blocked.get(30, TimeUnit.SECONDS);
      assertTrue(r.stored(), r.toString());
      assertEquals(capacity + 1, r.sequence());
      assertTrue(sumFileSizes(d) <= MAX);
    }
  }

  @Test
  void thePublicOverheadCoversTheSmallFiles() {
    // the public maxBytes floor is all the storage relies on: the checkpoint reserved twice (a new
    // one is renamed over the old), the lock and the meta file (under 4 KiB) must fit beside two
    // segments
    assertTrue(2L * Checkpoint.MAX_BYTES + 4096 <= SpoolConfig.FIXED_OVERHEAD_BYTES);
  }

  @Test
  void maxBytesBelowTwoSegmentsIsRejectedNamingTheSetting() {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> config(dir, SEGMENT, 2 * SEGMENT).build());
    assertTrue(e.getMessage().contains("maxBytes"), e.getMessage());
  }
}
