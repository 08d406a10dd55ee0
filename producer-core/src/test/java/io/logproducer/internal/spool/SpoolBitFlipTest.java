package io.logproducer.internal.spool;

import static io.logproducer.internal.spool.SpoolTestSupport.append;
import static io.logproducer.internal.spool.SpoolTestSupport.assertEntry;
import static io.logproducer.internal.spool.SpoolTestSupport.config;
import static io.logproducer.internal.spool.SpoolTestSupport.meta;
import static io.logproducer.internal.spool.SpoolTestSupport.open;
import static io.logproducer.internal.spool.SpoolTestSupport.readAll;
import static io.logproducer.internal.spool.SpoolTestSupport.segments;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.logproducer.SpoolConfig;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A flipped byte inside a middle entry costs that entry only, sealed or active. */
@Timeout(120)
class SpoolBitFlipTest {
  private static final int[] SIZES = {400, 1200, 2000, 800, 333};
  private static final int MIDDLE = 2;
  @TempDir Path dir;

  /**
   * Offsets inside the middle entry: magic, length, sequence, createdAt, count, metaLength, crc.
   */
  private static final int[] HEADER_OFFSETS = {0, 3, 4, 7, 8, 15, 16, 24, 28, 31, 32, 35};

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void headerFlips(boolean sealed) throws Exception {
    for (int off : HEADER_OFFSETS) {
      flipAndCheck(sealed, off, "header byte " + off);
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void metaAndPayloadFlips(boolean sealed) throws Exception {
    int body = EntryFrame.HEADER_BYTES + meta(MIDDLE).length;
    int[] offsets = {
      EntryFrame.HEADER_BYTES, body - 1, body, body + 1000, body + SIZES[MIDDLE] - 1
    };
    for (int off : offsets) {
      flipAndCheck(sealed, off, "body byte " + off);
    }
  }

  @Test
  void everyEntryOfASegmentCanBeDamagedAloneAtOpen() throws Exception {
    for (int victim = 0; victim < SIZES.length - 1; victim++) {
      Path sub = dir.resolve("v" + victim);
      SpoolConfig cfg = config(sub, 64 << 10, 4L << 20).build();
      Spool spool = open(cfg);
      for (int i = 0; i < SIZES.length; i++) {
        append(spool, i, SIZES[i]);
      }
      spool.abandon();
      flip(segments(sub).get(0), start(victim) + 5);
      try (Spool reopened = open(cfg)) {
        assertEquals(1, reopened.corruptEntries(), "victim " + victim);
        assertEquals(SIZES.length - 1, readAll(reopened).size(), "victim " + victim);
      }
    }
  }

  @Test
  void aDamagedFooterFallsBackToAScanAndIsRewritten() throws Exception {
    SpoolConfig cfg = config(dir, 16 << 10, 4L << 20).build();
    try (Spool spool = open(cfg)) {
      for (int i = 0; i < 12; i++) {
        append(spool, i, 3000);
      }
    }
    Path first = segments(dir).get(0);
    long size = java.nio.file.Files.size(first);
    flip(first, size - 10);
    try (Spool spool = open(cfg)) {
      assertEquals(12, readAll(spool).size());
      assertEquals(0, spool.corruptEntries());
    }
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(first)) {
      Segment probe = new Segment(first, 1);
      assertEquals(true, SegmentFiles.readFooter(ch, ch.size(), probe), "footer rewritten");
      assertEquals(size, ch.size());
    }
  }

  private void flipAndCheck(boolean sealed, int offsetInEntry, String what) throws Exception {
    Path sub = dir.resolve((sealed ? "sealed-" : "active-") + what.replace(' ', '-'));
    SpoolTestSupport.Recorder rec = new SpoolTestSupport.Recorder();
    SpoolConfig cfg = config(sub, 64 << 10, 4L << 20).build();
    Spool spool = open(cfg, rec);
    for (int i = 0; i < SIZES.length; i++) {
      append(spool, i, SIZES[i]);
    }
    if (sealed) {
      spool.close();
    } else {
      spool.abandon();
    }
    flip(segments(sub).get(0), start(MIDDLE) + offsetInEntry);
    try (Spool reopened = open(cfg, rec)) {
      List<SpoolTestSupport.Read> all = readAll(reopened);
      assertEquals(SIZES.length - 1, all.size(), what);
      for (int i = 0, j = 0; i < SIZES.length; i++) {
        if (i != MIDDLE) {
          assertEntry(all.get(j++), i, SIZES[i]);
        }
      }
      assertEquals(1, reopened.corruptEntries(), what);
      assertEquals(1, rec.count(DiscardReason.CORRUPT), what + ": " + rec.events);
      assertEquals(SIZES.length - 1, reopened.pendingEntries(), what + ": the others stay pending");
    }
  }

  private static long start(int index) {
    long s = 0;
    for (int i = 0; i < index; i++) {
      s += EntryFrame.HEADER_BYTES + meta(i).length + SIZES[i];
    }
    return s;
  }

  private static void flip(Path file, long offset) throws Exception {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(b ^ 0x5A);
    }
  }
}
