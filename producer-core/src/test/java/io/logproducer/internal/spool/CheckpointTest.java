package io.logproducer.internal.spool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointTest {
  @TempDir Path dir;

  @Test
  void roundTripsAndAnswersAcknowledgement() throws Exception {
    Checkpoint.SegmentState seg = new Checkpoint.SegmentState(1, 99, 60, 3, 1234);
    new Checkpoint(
            100, 40, 7, new long[] {42, 42, 77, 77, 99, 99}, new Checkpoint.SegmentState[] {seg})
        .write(dir);
    assertFalse(Files.exists(dir.resolve(Checkpoint.TMP_FILE)), "the tmp file was renamed");
    Checkpoint cp = Checkpoint.read(dir);
    assertEquals(100, cp.nextSequence);
    assertEquals(40, cp.lowestUnacked);
    assertArrayEquals(new long[] {42, 42, 77, 77, 99, 99}, cp.runs);
    assertEquals(7, cp.journalGeneration);
    assertEquals(1, cp.segments.length);
    assertEquals(99, cp.segments[0].lastSequence);
    assertEquals(60, cp.segments[0].count);
    assertEquals(3, cp.segments[0].unackedCount);
    assertEquals(1234, cp.segments[0].unackedRecords);
    assertTrue(cp.acknowledges(39) && cp.acknowledges(42) && cp.acknowledges(99));
    assertFalse(cp.acknowledges(40) || cp.acknowledges(43) || cp.acknowledges(100));
    assertEquals(36 + 3 * 16 + 4 + 32 + 4, Files.size(dir.resolve(Checkpoint.FILE)));
    assertEquals(36 + 3 * 16 + 4 + 32 + 4, cp.bytes());
  }

  @Test
  void runsCoverEverySequenceBetweenTheirEnds() throws Exception {
    new Checkpoint(1000, 10, 0, new long[] {20, 30, 40, 40, 900, 950}, null).write(dir);
    Checkpoint cp = Checkpoint.read(dir);
    for (long s = 0; s < 1000; s++) {
      boolean expected = s < 10 || (s >= 20 && s <= 30) || s == 40 || (s >= 900 && s <= 950);
      assertEquals(expected, cp.acknowledges(s), "sequence " + s);
    }
  }

  @Test
  void missingOrDamagedIsAbsent() throws Exception {
    assertNull(Checkpoint.read(dir));
    new Checkpoint(5, 1, 0, new long[] {3, 3}, new Checkpoint.SegmentState[0]).write(dir);
    byte[] b = Files.readAllBytes(dir.resolve(Checkpoint.FILE));
    for (int i = 0; i < b.length; i++) {
      byte[] flipped = b.clone();
      flipped[i] ^= 0x10;
      Files.write(dir.resolve(Checkpoint.FILE), flipped);
      assertNull(Checkpoint.read(dir), "byte " + i + " flipped");
    }
    Files.write(dir.resolve(Checkpoint.FILE), new byte[0]);
    assertNull(Checkpoint.read(dir), "empty (a 0-byte checkpoint after a crash)");
  }
}
