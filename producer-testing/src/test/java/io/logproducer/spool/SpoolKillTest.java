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
import io.logproducer.testing.Outcomes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 of a producer mid-outage: every record it reported SPOOLED (or DELIVERED) before the kill
 * reaches the receiver once a new producer opens the same directory.
 */
@Timeout(180)
class SpoolKillTest {

  @TempDir Path dir;

  private static long outcomeLines(ChildJvm child) {
    return child.outputLines().stream().filter(l -> l.startsWith("OUTCOME ")).count();
  }

  @Test
  void everyRecordReportedBeforeAKill9IsDeliveredAfterTheRestart() throws Exception {
    int n = 3_000;
    List<String> lines;
    try (ChildJvm child =
        ChildJvm.builder(SpoolKillMain.class).args(dir.toString(), Integer.toString(n)).start()) {
      child.awaitLine("SENT", 60_000);
      assertTrue(
          Outcomes.until(() -> outcomeLines(child) >= n / 3, 60_000),
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
          Outcomes.until(() -> p.getMetrics().getSpoolPendingBatches() == 0, 60_000),
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
      assertEquals(Set.of(), missing, "records reported before the kill and never delivered");
      assertTrue(distinct.stream().allMatch(i -> i >= 0 && i < n), "only records that were sent");
      // the receiver was down: nothing was delivered before the kill, so nothing twice after it
      assertEquals(distinct.size(), delivered.size(), "duplicates");
      System.out.println(
          "kill -9: "
              + reported.size()
              + " records reported SPOOLED before the kill, "
              + distinct.size()
              + " delivered after the restart, "
              + (delivered.size() - distinct.size())
              + " duplicates");
    } finally {
      p.close(0);
    }
  }
}
