package io.logproducer.internal.spool;

import static io.logproducer.internal.spool.SpoolTestSupport.append;
import static io.logproducer.internal.spool.SpoolTestSupport.config;
import static io.logproducer.internal.spool.SpoolTestSupport.meta;
import static io.logproducer.internal.spool.SpoolTestSupport.open;
import static io.logproducer.internal.spool.SpoolTestSupport.readAll;
import static io.logproducer.internal.spool.SpoolTestSupport.segments;
import static io.logproducer.internal.spool.SpoolTestSupport.sequences;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.SpoolConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class SpoolAckTest {
  private static final int N = 30;
  @TempDir Path dir;

  private static long total(int n, int size) {
    return EntryFrame.HEADER_BYTES + meta(n).length + size;
  }

  private static int size(int n) {
    return 1000 + 97 * n;
  }

  @Test
  void anAckAfterCloseChangesNothingAndTheNextOpenCountsTheEntry() throws Exception {
    Spool spool = open(config(dir, 16 << 10, 4L << 20).build());
    for (int i = 0; i < 3; i++) {
      append(spool, i, size(i));
    }
    spool.close();
    assertFalse(spool.acknowledge(2), "an ack after close is refused");
    assertEquals(3, spool.pendingEntries(), "the counts say what the disk says");
    try (Spool reopened = open(config(dir, 16 << 10, 4L << 20).build())) {
      assertEquals(3, reopened.pendingEntries());
      assertTrue(reopened.acknowledge(2));
      assertEquals(2, reopened.pendingEntries());
    }
  }

  @Test
  void outOfOrderAcksCreditBytesExactlyAndDeleteWholeSegmentsOnly() throws Exception {
    try (Spool spool = open(config(dir, 16 << 10, 4L << 20).build())) {
      long expected = 0;
      for (int i = 0; i < N; i++) {
        append(spool, i, size(i));
        expected += total(i, size(i));
      }
      assertEquals(expected, spool.bytesUsed());
      List<Long> bases = new ArrayList<>();
      for (Path p : segments(dir)) {
        bases.add(Segment.parseBase(p.getFileName().toString()));
      }
      assertTrue(bases.size() >= 4, "several segments: " + bases);
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < N; i++) {
        order.add(i);
      }
      Collections.shuffle(order, new Random(3));
      TreeSet<Long> unacked = new TreeSet<>();
      for (int i = 0; i < N; i++) {
        unacked.add(i + 1L);
      }
      for (int i : order) {
        assertTrue(spool.acknowledge(i + 1));
        assertFalse(spool.acknowledge(i + 1), "a second ack is refused");
        unacked.remove(i + 1L);
        expected -= total(i, size(i));
        assertEquals(expected, spool.bytesUsed(), "after ack of " + (i + 1));
        assertEquals(unacked.size(), spool.pendingEntries());
        for (int k = 0; k < bases.size() - 1; k++) {
          long from = bases.get(k);
          long to = bases.get(k + 1);
          boolean anyUnacked = !unacked.subSet(from, to).isEmpty();
          Path file = dir.resolve(Segment.fileName(from));
          assertEquals(anyUnacked, Files.exists(file), "segment " + from + " after ack " + (i + 1));
        }
      }
      assertEquals(0, spool.bytesUsed());
      assertEquals(1, segments(dir).size(), "only the active segment is left");
      assertFalse(spool.acknowledge(12345), "unknown sequence");
    }
  }

  @Test
  void reopenReplaysExactlyTheUnackedEntriesAfterCloseAndAfterACrash() throws Exception {
    SpoolConfig cfg = config(dir, 16 << 10, 4L << 20).build();
    TreeSet<Long> unacked = new TreeSet<>();
    Random r = new Random(11);
    try (Spool spool = open(cfg)) {
      for (int i = 0; i < N; i++) {
        unacked.add(append(spool, i, size(i)));
      }
      for (int i = 0; i < N; i++) {
        if (r.nextInt(3) > 0) {
          spool.acknowledge(i + 1);
          unacked.remove(i + 1L);
        }
      }
    }
    try (Spool spool = open(cfg)) {
      assertEquals(new ArrayList<>(unacked), sequences(readAll(spool)), "after close");
      for (long s : new ArrayList<>(unacked)) {
        if (s % 2 == 0) {
          spool.acknowledge(s);
          unacked.remove(s);
        }
      }
      SpoolCommitter.writeCheckpoint(spool, true);
      spool.abandon();
    }
    try (Spool spool = open(cfg)) {
      assertEquals(new ArrayList<>(unacked), sequences(readAll(spool)), "after a crash");
      long sum = 0;
      for (long s : unacked) {
        sum += total((int) s - 1, size((int) s - 1));
      }
      assertEquals(sum, spool.bytesUsed());
    }
  }

  @Test
  void aDamagedCheckpointReplaysEverythingStillOnDisk() throws Exception {
    SpoolConfig cfg = config(dir, 16 << 10, 4L << 20).build();
    try (Spool spool = open(cfg)) {
      for (int i = 0; i < 8; i++) {
        append(spool, i, 3000);
      }
      spool.acknowledge(2);
      spool.acknowledge(3);
    }
    byte[] cp = Files.readAllBytes(dir.resolve(Checkpoint.FILE));
    cp[20] ^= 1;
    Files.write(dir.resolve(Checkpoint.FILE), cp);
    try (Spool spool = open(cfg)) {
      assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L), sequences(readAll(spool)));
      assertEquals(9, spool.nextSequence(), "the clean close's footers still give the sequence");
    }
  }

  @Test
  void sequencesNeverRepeatWhenEverySegmentWasDeleted() throws Exception {
    SpoolConfig cfg = config(dir, 16 << 10, 4L << 20).build();
    try (Spool spool = open(cfg)) {
      for (int i = 0; i < 10; i++) {
        spool.acknowledge(append(spool, i, 3000));
      }
    }
    Files.delete(dir.resolve(Checkpoint.FILE));
    try (Spool spool = open(cfg)) {
      assertEquals(0, readAll(spool).size());
      assertEquals(11, append(spool, 10, 10));
    }
  }
}
