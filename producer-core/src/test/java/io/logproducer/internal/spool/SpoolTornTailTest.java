package io.logproducer.internal.spool;

import static io.logproducer.internal.spool.SpoolTestSupport.append;
import static io.logproducer.internal.spool.SpoolTestSupport.assertEntry;
import static io.logproducer.internal.spool.SpoolTestSupport.config;
import static io.logproducer.internal.spool.SpoolTestSupport.meta;
import static io.logproducer.internal.spool.SpoolTestSupport.open;
import static io.logproducer.internal.spool.SpoolTestSupport.readAll;
import static io.logproducer.internal.spool.SpoolTestSupport.segments;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.SpoolConfig;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Power loss / kill during a write, simulated: the active segment is cut at every byte offset of
 * its last two entries (truncated, or zero-filled as a preallocated file looks).
 */
@Timeout(300)
class SpoolTornTailTest {
  private static final int[] SIZES = {700, 0, 1500, 300, 120, 90};
  @TempDir Path dir;

  @Test
  void truncatedAtEveryOffsetOfTheLastTwoEntries() throws Exception {
    cutEverywhere(false);
  }

  @Test
  void zeroFilledFromEveryOffsetOfTheLastTwoEntries() throws Exception {
    cutEverywhere(true);
  }

  private void cutEverywhere(boolean zeroFill) throws Exception {
    SpoolConfig cfg = config(dir, 64 << 10, 4L << 20).build();
    Spool first = open(cfg);
    long[] starts = new long[SIZES.length + 1];
    for (int i = 0; i < SIZES.length; i++) {
      append(first, i, SIZES[i]);
      starts[i + 1] = starts[i] + EntryFrame.HEADER_BYTES + meta(i).length + SIZES[i];
    }
    first.abandon();
    Path seg = segments(dir).get(0);
    byte[] original = Files.readAllBytes(seg);
    byte[] checkpoint = Files.readAllBytes(dir.resolve(Checkpoint.FILE));
    int n = SIZES.length;
    for (long cut = starts[n - 2]; cut < starts[n]; cut++) {
      Files.write(seg, original);
      Files.write(dir.resolve(Checkpoint.FILE), checkpoint);
      try (RandomAccessFile f = new RandomAccessFile(seg.toFile(), "rw")) {
        if (zeroFill) {
          f.seek(cut);
          f.write(new byte[(int) (original.length - cut)]);
        } else {
          f.setLength(cut);
        }
      }
      int damaged = cut < starts[n - 1] ? n - 2 : n - 1;
      String at = (zeroFill ? "zero-filled" : "truncated") + " at " + cut;
      try (Spool spool = open(cfg)) {
        List<SpoolTestSupport.Read> all = readAll(spool);
        assertEquals(damaged, all.size(), at);
        for (int i = 0; i < damaged; i++) {
          assertEntry(all.get(i), i, SIZES[i]);
        }
        assertEquals(cut > starts[damaged] ? 1 : 0, spool.corruptEntries(), at);
        long next = append(spool, 99, 10);
        assertTrue(next > n, at + ": next sequence " + next);
        assertEquals(damaged + 1, readAll(spool).size(), at);
      }
    }
  }

  @Test
  void aRecoveredTailIsNotCountedAgainAfterASecondCrash() throws Exception {
    SpoolConfig cfg = config(dir, 64 << 10, 4L << 20).build();
    Spool first = open(cfg);
    append(first, 0, 100);
    append(first, 1, 5000);
    first.abandon();
    Path seg = segments(dir).get(0);
    try (RandomAccessFile f = new RandomAccessFile(seg.toFile(), "rw")) {
      f.seek(EntryFrame.HEADER_BYTES + meta(0).length + 100 + 2000);
      f.write(new byte[64 << 10 - 3000]);
    }
    Spool second = open(cfg);
    assertEquals(1, second.corruptEntries());
    append(second, 2, 10);
    second.abandon();
    try (Spool third = open(cfg)) {
      assertEquals(0, third.corruptEntries(), "the zeroed tail is clean");
      assertEquals(2, readAll(third).size());
    }
  }

  @Test
  void aSealWhoseTruncationWasLostIsNotADamagedEntry() throws Exception {
    SpoolConfig cfg = config(dir, 64 << 10, 4L << 20).build();
    try (Spool spool = open(cfg)) {
      for (int i = 0; i < 3; i++) {
        append(spool, i, SIZES[i]);
      }
    }
    Path seg = segments(dir).get(0);
    try (RandomAccessFile f = new RandomAccessFile(seg.toFile(), "rw")) {
      f.setLength(64 << 10);
    }
    try (Spool spool = open(cfg)) {
      assertEquals(0, spool.corruptEntries());
      List<SpoolTestSupport.Read> all = readAll(spool);
      assertEquals(3, all.size());
      assertEntry(all.get(2), 2, SIZES[2]);
    }
  }
}
