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
    new Checkpoint(100, 40, new long[] {77, 42, 99}).write(dir);
    assertFalse(Files.exists(dir.resolve(Checkpoint.TMP_FILE)), "the tmp file was renamed");
    Checkpoint cp = Checkpoint.read(dir);
    assertEquals(100, cp.nextSequence);
    assertEquals(40, cp.lowestUnacked);
    assertArrayEquals(new long[] {42, 77, 99}, cp.ackedAbove);
    assertTrue(cp.acknowledges(39) && cp.acknowledges(42) && cp.acknowledges(99));
    assertFalse(cp.acknowledges(40) || cp.acknowledges(43) || cp.acknowledges(100));
    assertEquals(32 + 3 * 8, Files.size(dir.resolve(Checkpoint.FILE)));
    assertEquals(32 + 3 * 8, cp.bytes());
  }

  @Test
  void missingOrDamagedIsAbsent() throws Exception {
    assertNull(Checkpoint.read(dir));
    new Checkpoint(5, 1, new long[] {3}).write(dir);
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
