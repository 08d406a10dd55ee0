package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.SpoolLockedException;
import io.logproducer.internal.spool.Spool;
import io.logproducer.internal.spool.SpoolCursor;
import io.logproducer.internal.spool.SpoolEntry;
import io.logproducer.testing.ChildJvm;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The spool across processes: the directory lock and kill -9 during appends. */
class SpoolProcessTest {
  @TempDir Path dir;

  @Test
  @Timeout(120)
  void aChildHoldsTheLockUntilItIsKilledThenItIsTakenOver() throws Exception {
    try (ChildJvm child =
        ChildJvm.builder(SpoolChildMain.class).args("hold", dir.toString()).start()) {
      child.awaitLine("OPEN", 60_000);
      SpoolLockedException e =
          assertThrows(SpoolLockedException.class, () -> SpoolChildMain.open(dir));
      assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
      assertTrue(e.getMessage().contains("pid=" + child.pid() + " "), e.getMessage());
      child.kill();
    }
    try (Spool spool = SpoolChildMain.open(dir)) {
      assertEquals(0, spool.pendingEntries());
    }
  }

  private static long firstOfRound(List<String> lines) {
    for (String l : lines) {
      if (l.startsWith("SEQ ")) {
        return Long.parseLong(l.substring(4));
      }
    }
    throw new AssertionError("no SEQ line: " + lines);
  }

  @Test
  @Timeout(120)
  void aFailedSecondOpenInThisJvmDoesNotHandTheLockToAnotherProcess() throws Exception {
    try (Spool spool = SpoolChildMain.open(dir)) {
      for (int i = 0; i < 3; i++) {
        assertThrows(SpoolLockedException.class, () -> SpoolChildMain.open(dir));
      }
      try (ChildJvm child =
          ChildJvm.builder(SpoolChildMain.class).args("try", dir.toString()).start()) {
        String line = child.awaitLine("", 60_000);
        assertTrue(line.startsWith("LOCKED "), "the child got: " + line);
        assertTrue(line.contains("pid=" + ProcessHandle.current().pid() + " "), line);
      }
    }
    try (ChildJvm child =
        ChildJvm.builder(SpoolChildMain.class).args("try", dir.toString()).start()) {
      assertEquals("OPENED", child.awaitLine("", 60_000), "released by close");
    }
  }

  @Test
  @Timeout(600)
  void killDashNineDuringAppendsLosesNothingThatWasPrinted() throws Exception {
    Random r = new Random(20261125);
    TreeSet<Long> printed = new TreeSet<>();
    for (int round = 0; round < 12; round++) {
      int killAfter = 1 + r.nextInt(4000);
      List<String> lines;
      try (ChildJvm child =
          ChildJvm.builder(SpoolChildMain.class).args("append", dir.toString()).start()) {
        child.awaitLine("OPEN", 60_000);
        for (int i = 0; i < killAfter; i++) {
          child.awaitLine("SEQ ", 120_000);
        }
        child.kill();
        lines = child.outputLines();
      }
      int before = printed.size();
      for (String l : lines) {
        if (l.startsWith("SEQ ")) { // other lines: OPEN, and what the JVM may print itself
          printed.add(Long.parseLong(l.substring(4)));
        }
      }
      assertTrue(printed.size() - before >= killAfter, "round " + round);
      TreeMap<Long, byte[]> read = new TreeMap<>();
      try (Spool spool = SpoolChildMain.open(dir);
          SpoolCursor c = spool.cursor()) {
        for (SpoolEntry e = c.next(); e != null; e = c.next()) {
          byte[] p = new byte[e.payload().remaining()];
          e.payload().get(p);
          read.put(e.sequence(), p);
        }
        assertTrue(
            spool.corruptEntries() <= 1, "at most the torn entry: " + spool.corruptEntries());
      }
      for (long s : printed) {
        assertTrue(read.containsKey(s), "round " + round + ": printed sequence " + s + " lost");
        assertArrayEquals(SpoolChildMain.payload(s), read.get(s), "payload of " + s);
      }
      long lastPrinted = printed.last();
      for (long s : read.keySet()) {
        assertTrue(printed.contains(s) || s > lastPrinted, "unprinted " + s + " in the middle");
      }
      long roundFirst = read.ceilingKey(printed.ceiling(firstOfRound(lines)));
      long expectedCount = read.lastKey() - roundFirst + 1;
      assertEquals(
          expectedCount, read.tailMap(roundFirst).size(), "this round's entries are contiguous");
      printed.addAll(read.keySet());
      System.out.println(
          "kill -9 round "
              + round
              + ": killed after "
              + killAfter
              + " appends, "
              + read.size()
              + " entries readable, all printed ones among them");
    }
  }
}
