package io.logproducer.internal.spool;

import static io.logproducer.internal.spool.SpoolTestSupport.append;
import static io.logproducer.internal.spool.SpoolTestSupport.config;
import static io.logproducer.internal.spool.SpoolTestSupport.open;
import static io.logproducer.internal.spool.SpoolTestSupport.readAll;
import static io.logproducer.internal.spool.SpoolTestSupport.segments;
import static io.logproducer.internal.spool.SpoolTestSupport.sequences;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.SpoolConfig;
import io.logproducer.SpoolOpenException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every loss is reported, and only losses: segments missing, emptied or shortened are found at open
 * from the checkpoint's manifest and the journal (exact batches and records); a segment deleted
 * while the spool runs is found by the cursor; a stray file and a damaged {@code spool.meta} cost
 * nothing. Entry {@code n} has sequence {@code n + 1} and {@code n} records.
 */
class SpoolLossTest {

  private static final int SIZE = 3000;
  private static final int ENTRIES = 30;
  @TempDir Path dir;

  /** Records every lost range and notice, besides the discards. */
  static final class LossRecorder implements SpoolEvents {
    final List<String> lost = new CopyOnWriteArrayList<>();
    final List<String> notices = new CopyOnWriteArrayList<>();

    @Override
    public void onLost(String file, long from, long to, int batches, long records) {
      lost.add(file + " " + batches + " " + records);
    }

    @Override
    public void onNotice(String message) {
      notices.add(message);
    }
  }

  private SpoolConfig cfg() {
    return config(dir, 16 << 10, 4L << 20).build();
  }

  /** Writes entries 0..ENTRIES-1 and closes; {@return the segment files, oldest first} */
  private List<Path> fill(boolean cleanClose) throws Exception {
    Spool spool = open(cfg());
    for (int n = 0; n < ENTRIES; n++) {
      append(spool, n, SIZE);
    }
    if (cleanClose) {
      spool.close();
    } else {
      spool.abandon();
    }
    List<Path> segs = segments(dir);
    assertTrue(segs.size() >= 4, "several segments: " + segs);
    return segs;
  }

  /** {@return the sequences stored in {@code seg} (its base up to the next segment's)} */
  private static List<Long> sequencesIn(List<Path> segs, int index, long next) {
    long base = Segment.parseBase(segs.get(index).getFileName().toString());
    long end =
        index + 1 < segs.size()
            ? Segment.parseBase(segs.get(index + 1).getFileName().toString())
            : next;
    List<Long> out = new ArrayList<>();
    for (long s = base; s < end && s <= ENTRIES; s++) {
      out.add(s);
    }
    return out;
  }

  private static long records(List<Long> seqs) {
    return seqs.stream().mapToLong(s -> s - 1).sum();
  }

  private static List<Long> allBut(List<Long> gone) {
    List<Long> out = new ArrayList<>();
    for (long s = 1; s <= ENTRIES; s++) {
      if (!gone.contains(s)) {
        out.add(s);
      }
    }
    return out;
  }

  private void assertLost(List<Path> segs, int victim, boolean cleanClose, String damage)
      throws Exception {
    List<Long> gone = sequencesIn(segs, victim, ENTRIES + 1);
    LossRecorder events = new LossRecorder();
    try (Spool spool = open(cfg(), events)) {
      assertEquals(
          List.of(segs.get(victim).getFileName() + " " + gone.size() + " " + records(gone)),
          events.lost,
          damage + (cleanClose ? " after a close" : " after a kill"));
      assertEquals(gone.size(), spool.lostEntries());
      assertEquals(0, spool.corruptEntries(), "nothing counted twice");
      assertEquals(allBut(gone), sequences(readAll(spool)), "the rest is intact");
    }
    LossRecorder again = new LossRecorder();
    try (Spool spool = open(cfg(), again)) {
      assertEquals(List.of(), again.lost, "reported once, not at every open");
    }
  }

  @Test
  void aMiddleSegmentDeletedOrEmptiedIsReportedWithItsBatchesAndRecords() throws Exception {
    for (boolean clean : new boolean[] {true, false}) {
      for (String damage : new String[] {"deleted", "emptied"}) {
        clear();
        List<Path> segs = fill(clean);
        Path victim = segs.get(1);
        if (damage.equals("deleted")) {
          Files.delete(victim);
        } else {
          Files.write(victim, new byte[0]);
        }
        assertLost(segs, 1, clean, damage);
      }
    }
  }

  @Test
  void theNewestSegmentEmptiedIsReported() throws Exception {
    for (boolean clean : new boolean[] {true, false}) {
      clear();
      List<Path> segs = fill(clean);
      int newest = segs.size() - 1;
      Files.write(segs.get(newest), new byte[0]);
      assertLost(segs, newest, clean, "newest emptied");
    }
  }

  @Test
  void aSegmentCutShortLosesOnlyItsTailAndSaysSo() throws Exception {
    List<Path> segs = fill(true);
    List<Long> in = sequencesIn(segs, 0, ENTRIES + 1);
    long entry = EntryFrame.HEADER_BYTES + SpoolTestSupport.meta(0).length + SIZE;
    try (RandomAccessFile f = new RandomAccessFile(segs.get(0).toFile(), "rw")) {
      f.setLength(2 * entry); // two whole entries kept, the rest and the footer gone
    }
    LossRecorder events = new LossRecorder();
    try (Spool spool = open(cfg(), events)) {
      List<Long> gone = in.subList(2, in.size());
      assertEquals(
          List.of(segs.get(0).getFileName() + " " + gone.size() + " " + records(gone)),
          events.lost);
      assertEquals(allBut(gone), sequences(readAll(spool)));
    }
  }

  @Test
  void aSegmentDeletedWhileRunningIsReportedWhenReplayReachesIt() throws Exception {
    LossRecorder events = new LossRecorder();
    try (Spool spool = open(cfg(), events)) {
      for (int n = 0; n < ENTRIES; n++) {
        append(spool, n, SIZE);
      }
      List<Path> segs = segments(dir);
      List<Long> gone = sequencesIn(segs, 1, ENTRIES + 1);
      Files.delete(segs.get(1));
      assertEquals(allBut(gone), sequences(readAll(spool)));
      assertEquals(
          List.of(segs.get(1).getFileName() + " " + gone.size() + " " + records(gone)),
          events.lost);
      assertEquals(gone.size(), spool.lostEntries());
      assertEquals(ENTRIES - gone.size(), spool.pendingEntries(), "the lost left the accounting");
    }
  }

  @Test
  void aStrayFileCountsNothingAndIsMovedAside() throws Exception {
    fill(true);
    Path stray = dir.resolve(Segment.fileName(3));
    List<Path> before = segments(dir);
    assertFalse(before.contains(stray));
    byte[] junk = "not a segment of this spool\n".repeat(100).getBytes(StandardCharsets.UTF_8);
    // a name that sorts between real segments but that no checkpoint or journal knows
    Path name =
        dir.resolve(
            Segment.fileName(Segment.parseBase(before.get(0).getFileName().toString()) + 1));
    Files.write(name, junk);
    LossRecorder events = new LossRecorder();
    try (Spool spool = open(cfg(), events)) {
      assertEquals(0, spool.corruptEntries());
      assertEquals(List.of(), events.lost);
      assertEquals(1, events.notices.size(), events.notices.toString());
      assertEquals(allBut(List.of()), sequences(readAll(spool)));
    }
    assertTrue(Files.exists(dir.resolve(name.getFileName() + ".stray")), "kept aside");
  }

  @Test
  void aDamagedMetaFileIsKeptAsideAndTheBacklogStays() throws Exception {
    for (byte[] damage :
        new byte[][] {new byte[0], "garbage\u0000\u0001".getBytes(StandardCharsets.UTF_8)}) {
      clear();
      fill(true);
      Files.write(dir.resolve(SpoolMeta.FILE), damage);
      LossRecorder events = new LossRecorder();
      try (Spool spool = open(cfg(), events)) {
        assertEquals(allBut(List.of()), sequences(readAll(spool)));
        assertEquals(1, events.notices.size(), events.notices.toString());
        assertTrue(events.notices.get(0).contains("damaged"), events.notices.get(0));
      }
      try (Stream<Path> files = Files.list(dir)) {
        List<String> aside =
            files
                .map(p -> p.getFileName().toString())
                .filter(n -> n.startsWith(SpoolMeta.FILE + ".damaged-"))
                .collect(Collectors.toList());
        assertEquals(1, aside.size(), aside.toString());
      }
      assertTrue(
          new String(Files.readAllBytes(dir.resolve(SpoolMeta.FILE)), StandardCharsets.UTF_8)
              .contains("kind=test"));
    }
  }

  @Test
  void aMetaFileOfAnotherKindStillRefuses() throws Exception {
    fill(true);
    SpoolMeta.write(dir, "other");
    SpoolOpenException e = assertThrows(SpoolOpenException.class, () -> open(cfg()));
    assertTrue(e.getMessage().contains("'other'"), e.getMessage());
  }

  @Test
  void aDeletedMetaFileBesideSegmentsIsRebuiltAndSaidOnce() throws Exception {
    fill(true);
    Files.delete(dir.resolve(SpoolMeta.FILE));
    LossRecorder events = new LossRecorder();
    try (Spool spool = open(cfg(), events)) {
      assertEquals(allBut(List.of()), sequences(readAll(spool)));
      assertEquals(1, events.notices.size(), events.notices.toString());
    }
  }

  @Test
  void acknowledgementsSurviveAKillWithoutACheckpoint() throws Exception {
    Spool spool = open(cfg());
    List<Long> unacked = new ArrayList<>();
    for (int n = 0; n < ENTRIES; n++) {
      long seq = append(spool, n, SIZE);
      if (n % 3 == 0) {
        unacked.add(seq);
      }
    }
    for (long s = ENTRIES; s >= 1; s--) {
      if (!unacked.contains(s)) {
        assertTrue(spool.acknowledge(s));
      }
    }
    spool.abandon(); // no checkpoint since open: only the journal knows the acknowledgements
    try (Spool again = open(cfg())) {
      assertEquals(unacked, sequences(readAll(again)));
      assertEquals(0, again.lostEntries());
    }
  }

  private void clear() throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : files.collect(Collectors.toList())) {
        Files.delete(p);
      }
    }
  }
}
