package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.testing.ChildJvm;
import io.logproducer.testing.ExportedBatch;
import io.logproducer.testing.InMemoryExporter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of a producer mid-outage, at 20 random moments: 20 children in turn on one directory
 * (each sends 1,000 records to a receiver that is down, and replays what the ones before it stored)
 * are each killed with SIGKILL after a random share of their outcomes; every record any of them
 * reported SPOOLED (or DELIVERED) before its kill reaches the receiver, exactly once, once a new
 * producer opens the directory with the receiver up.
 */
@Timeout(180)
class SpoolKillTest {

  @TempDir Path dir;

  private static long outcomeLines(ChildJvm child) {
    return child.outputLines().stream().filter(l -> l.startsWith("OUTCOME ")).count();
  }

  /**
   * One child on the directory: sends {@code n} records with ids from {@code first}, is killed with
   * SIGKILL once it reported {@code killAfter} outcomes; {@return the ids it reported SPOOLED or
   * DELIVERED}
   */
  private Set<Integer> runAndKill(int first, int n, int killAfter) throws Exception {
    List<String> lines;
    try (ChildJvm child =
        ChildJvm.builder(SpoolKillMain.class)
            .args(dir.toString(), Integer.toString(n), Integer.toString(first))
            .start()) {
      // SENT follows the last send; the outcomes come meanwhile: waited for while they do (a
      // loaded machine is slow, only a stalled child fails), then its threads' stacks are shown
      if (!SpoolTestSettings.whileProgressing(
          () -> child.outputLines().contains("SENT"), () -> child.outputLines().size(), 30_000)) {
        child.dumpThreads();
        throw new AssertionError("no SENT, and no output for 30 s:\n" + child.output());
      }
      assertTrue(
          SpoolTestSettings.whileProgressing(
              () -> outcomeLines(child) >= killAfter, () -> outcomeLines(child), 30_000),
          () -> "too few outcomes: " + outcomeLines(child));
      child.kill();
      child.waitFor(20_000);
      lines = child.outputLines();
    }
    Set<Integer> reported = new HashSet<>();
    for (String line : lines) {
      if (line.startsWith("OUTCOME ")) {
        String[] f = line.split(" ");
        assertTrue(f[1].equals("SPOOLED") || f[1].equals("DELIVERED"), line);
        assertTrue(reported.add(Integer.parseInt(f[2])), "two outcomes for one record: " + line);
      }
    }
    return reported;
  }

  @Test
  void everyRecordReportedBeforeAKill9IsDeliveredAfterTheRestart() throws Exception {
    int kills = 20;
    int perChild = 1_000;
    int n = kills * perChild;
    Random random = new Random(17);
    Set<Integer> reported = new HashSet<>();
    for (int k = 0; k < kills; k++) {
      // killed at a random moment: after 10 % to 60 % of its records had their outcome, while it
      // also replays (to a receiver that is still down) what the children before it stored
      int killAfter = perChild / 10 + random.nextInt(perChild / 2);
      reported.addAll(runAndKill(k * perChild, perChild, killAfter));
    }
    assertTrue(!reported.isEmpty());

    InMemoryExporter up = InMemoryExporter.create();
    ProducerConfig config =
        SpoolTestSettings.producer("spool-kill-restart", 120_000)
            .setSpool(
                SpoolConfig.builder(dir)
                    .setSegmentBytes(64 * 1024)
                    .setMaxBytes(8L << 20)
                    .setDurability(SpoolDurability.GROUP_COMMIT)
                    .setGroupCommitMillis(20)
                    .build())
            .build();
    Producer p = new Producer(config, up);
    try {
      assertTrue(
          SpoolTestSettings.settles(() -> p.getMetrics().getSpoolPendingBatches() == 0, p),
          () -> "spool not drained: " + p.getMetrics());
      List<Integer> delivered = new ArrayList<>();
      for (ExportedBatch b : up.batches()) {
        if (b.isDelivered()) {
          for (String body : b.bodies()) {
            delivered.add(Integer.parseInt(body.substring(2)));
          }
        }
      }
      Set<Integer> distinct = new HashSet<>(delivered);
      Set<Integer> missing = new HashSet<>(reported);
      missing.removeAll(distinct);
      assertEquals(Set.of(), missing, "records reported before a kill and never delivered");
      assertTrue(distinct.stream().allMatch(i -> i >= 0 && i < n), "only records that were sent");
      // the receiver was down: nothing was delivered before the kill, so nothing twice after it
      assertEquals(distinct.size(), delivered.size(), "duplicates");
      System.out.println(
          "kill -9 at "
              + kills
              + " moments: "
              + reported.size()
              + " records reported SPOOLED before the kills, "
              + distinct.size()
              + " delivered after the restart, "
              + (delivered.size() - distinct.size())
              + " duplicates");
    } finally {
      p.close(0);
    }
  }
}
