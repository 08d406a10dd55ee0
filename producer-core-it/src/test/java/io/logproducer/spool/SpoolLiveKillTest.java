package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.ChildJvm;
import io.logproducer.testing.Outcomes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The duplicate bound after kill -9 with the receiver up: a killed producer's successor replays at
 * most the batches that were in flight at the kill — {@code sendThreads} live exports plus {@code
 * max(1, floor(replayShare × sendThreads))} replay exports — because every acknowledgement reaches
 * the spool's journal (the page cache) the moment the receiver's answer is taken. Children send to
 * a live {@link BatchReceiver} that records every batch; each is killed with SIGKILL at a random
 * moment (a condition, then 0 to 30 ms more), and the next producer's duplicates (batches whose
 * records had all arrived before) are counted per kill. Nothing any child reported DELIVERED or
 * SPOOLED is lost.
 */
@Timeout(900)
class SpoolLiveKillTest {

  /** The batches that can be in flight at a kill: live exports plus replay exports. */
  private static final int BOUND =
      SpoolLiveKillMain.SEND_THREADS
          + SpoolLiveKillMain.config("unused", 120_000)
              .getSpool()
              .getReplayExports(SpoolLiveKillMain.SEND_THREADS);

  @TempDir Path dir;

  private static long outcomes(ChildJvm child) {
    return child.outputLines().stream().filter(l -> l.startsWith("OUTCOME ")).count();
  }

  private static Set<Integer> reported(ChildJvm child) {
    Set<Integer> out = new HashSet<>();
    for (String line : child.outputLines()) {
      if (line.startsWith("OUTCOME ")) {
        String[] f = line.split(" ");
        assertTrue(f[1].equals("SPOOLED") || f[1].equals("DELIVERED"), line);
        assertTrue(out.add(Integer.parseInt(f[2])), "two outcomes for one record: " + line);
      }
    }
    return out;
  }

  private ChildJvm child(BatchReceiver receiver, String... args) throws Exception {
    List<String> all = new ArrayList<>();
    all.add(args[0]);
    all.add(dir.toString());
    all.add(Integer.toString(receiver.port()));
    for (int i = 1; i < args.length; i++) {
      all.add(args[i]);
    }
    return ChildJvm.builder(SpoolLiveKillMain.class).args(all.toArray(new String[0])).start();
  }

  /** Drains the spool with a child that is not killed; the receiver's epoch is {@code epoch}. */
  private void drain(BatchReceiver receiver, int epoch) throws Exception {
    receiver.setEpoch(epoch);
    try (ChildJvm drainer = child(receiver, "drain")) {
      drainer.awaitLine("DRAINED", 600_000);
      assertEquals(0, drainer.waitFor(120_000), "the drainer exits cleanly");
    }
  }

  private static String figures(List<Long> dups) {
    List<Long> sorted = new ArrayList<>(dups);
    Collections.sort(sorted);
    return "duplicate batches per kill "
        + dups
        + " (max "
        + sorted.get(sorted.size() - 1)
        + ", median "
        + sorted.get(sorted.size() / 2)
        + ", bound "
        + BOUND
        + ")";
  }

  @Test
  void killsWhileSendingToALiveReceiverReplayAtMostTheBatchesInFlight() throws Exception {
    int kills = 10;
    int perChild = 3_000;
    Random random = new Random(23);
    Set<Integer> reported = new HashSet<>();
    List<Long> dups = new ArrayList<>();
    try (BatchReceiver receiver = new BatchReceiver()) {
      for (int k = 0; k < kills; k++) {
        receiver.setEpoch(2 * k);
        int killAfter = 100 + random.nextInt(perChild - 200);
        try (ChildJvm sender =
            child(receiver, "send", Integer.toString(perChild), Integer.toString(k * perChild))) {
          assertTrue(
              Outcomes.until(() -> outcomes(sender) >= killAfter, 300_000),
              () -> "too few outcomes: " + outcomes(sender));
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(random.nextInt(30)));
          sender.kill();
          sender.waitFor(60_000);
          reported.addAll(reported(sender));
        }
        drain(receiver, 2 * k + 1);
        dups.add(receiver.count(2 * k + 1, true));
      }
      Set<Integer> missing = new HashSet<>(reported);
      missing.removeAll(receiver.seen());
      assertEquals(Set.of(), missing, "records reported before a kill and never received");
      System.out.println(
          "SpoolLiveKillTest live: "
              + kills
              + " kills, "
              + reported.size()
              + " records reported, "
              + figures(dups));
      for (int k = 0; k < kills; k++) {
        assertTrue(dups.get(k) <= BOUND, "kill " + k + ": " + figures(dups));
      }
    }
  }

  @Test
  void killsMidDrainOfABacklogReplayAtMostTheBatchesInFlight() throws Exception {
    int backlog = 30_000;
    int kills = 5;
    Random random = new Random(29);
    List<Long> dups = new ArrayList<>();
    try (BatchReceiver receiver = new BatchReceiver()) {
      receiver.setDown(true);
      Set<Integer> stored;
      try (ChildJvm writer = child(receiver, "send", Integer.toString(backlog), "100000", "300")) {
        assertTrue(
            Outcomes.until(() -> outcomes(writer) >= backlog, 600_000),
            () -> "too few outcomes: " + outcomes(writer));
        writer.endInput();
        writer.awaitLine("CLOSED", 120_000);
        stored = reported(writer);
      }
      assertEquals(backlog, stored.size(), "every record of the backlog SPOOLED");
      receiver.setDown(false);
      for (int j = 0; j < kills; j++) {
        int epoch = 100 + j;
        receiver.setEpoch(epoch);
        // killed once it delivered enough that the previous kill's in-flight batches (the oldest
        // pending, replayed first) have been sent again
        long killAfter = 2L * BOUND + 1 + random.nextInt(60);
        try (ChildJvm drainer = child(receiver, "drain")) {
          assertTrue(
              Outcomes.until(() -> receiver.count(epoch, false) >= killAfter, 300_000),
              () -> "drain too slow: " + receiver.count(epoch, false));
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(random.nextInt(30)));
          drainer.kill();
          drainer.waitFor(60_000);
        }
        if (j > 0) {
          dups.add(receiver.count(epoch, true));
        }
      }
      drain(receiver, 100 + kills);
      dups.add(receiver.count(100 + kills, true));
      Set<Integer> missing = new HashSet<>(stored);
      missing.removeAll(receiver.seen());
      assertEquals(Set.of(), missing, "stored records never received");
      System.out.println(
          "SpoolLiveKillTest mid-drain: "
              + kills
              + " kills, "
              + backlog
              + " records, "
              + figures(dups));
      for (int k = 0; k < dups.size(); k++) {
        assertTrue(dups.get(k) <= BOUND, "kill " + k + ": " + figures(dups));
      }
    }
  }
}
