package io.logproducer.gse;

import static io.logproducer.gse.GseExporterTest.awaitTrue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.logproducer.Producer;
import io.logproducer.SendResult;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.gse.internal.DataIds;
import io.logproducer.testing.gse.GseAgent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** GSE batches through the disk spool: stored while the agent is away, replayed when it is back. */
@Timeout(120)
class GseSpoolTest {

  private static final int DATA_ID = 1500001;

  @TempDir Path dir;

  private GseAgent agent;
  private final List<Producer> producers = new ArrayList<>();

  @AfterEach
  void tearDown() {
    for (Producer p : producers) {
      p.close(0);
    }
    if (agent != null) {
      agent.close();
    }
  }

  private Producer producer(long deliveryMillis) {
    SpoolConfig spool =
        SpoolConfig.builder(dir.resolve("spool"))
            .setSegmentBytes(256 * 1024)
            .setMaxBytes(8L << 20)
            .setDurability(SpoolDurability.GROUP_COMMIT)
            .setGroupCommitMillis(20)
            .build();
    Producer p =
        new Producer(
            Support.config()
                .setBatchCountThreshold(10)
                .setBatchSizeInBytes(128 * 1024) // requests fit the 256 KiB segments
                .setSendThreads(1)
                .setDeliveryTimeoutMillis(deliveryMillis)
                .setShutdownHookEnabled(false)
                .setSpool(spool)
                .build(),
            GseExporter.builder()
                .setUnixSocketPath(dir.resolve("gse.sock").toString())
                .setDataId(DATA_ID)
                .build());
    producers.add(p);
    return p;
  }

  private static Support.Outcomes sendAll(Producer p, int n) {
    Support.Outcomes outcomes = new Support.Outcomes();
    for (long i = 0; i < n; i++) {
      p.send(Support.record(i), outcomes.forSeq(i));
    }
    return outcomes;
  }

  private void assertReceivedExactly(int n) throws InterruptedException {
    agent.awaitRecords(n, 30_000);
    List<Long> seqs = Support.receivedSeqs(agent);
    TreeSet<Long> expected = new TreeSet<>();
    for (long i = 0; i < n; i++) {
      expected.add(i);
    }
    assertEquals(n, seqs.size(), "records received, duplicates included");
    assertEquals(expected, new TreeSet<>(seqs));
  }

  @Test
  void shardKeysRoundTripThroughTheirStoredForm() {
    GseExporter exporter =
        GseExporter.builder()
            .setUnixSocketPath(dir.resolve("gse.sock").toString())
            .setDataId(DATA_ID)
            .build();
    DataIds.ShardKey key = DataIds.ShardKey.of(DATA_ID, 3);
    byte[] stored = exporter.spoolShardKey(key);
    assertEquals(9, stored.length);
    assertEquals(key, exporter.spoolShardKey(stored));
    assertArrayEquals(stored, exporter.spoolShardKey(exporter.spoolShardKey(stored)));
    assertEquals(null, exporter.spoolShardKey((Object) "not a GSE key"));
  }

  @Test
  void agentAwayPastTheDeliveryTimeoutSpoolsEveryRecordAndItsReturnReplaysThemExactlyOnce()
      throws Exception {
    agent = GseAgent.notStarted(dir.resolve("gse.sock"));
    Producer p = producer(500);
    int n = 300;
    Support.Outcomes outcomes = sendAll(p, n);
    outcomes.await(n, 30_000);
    assertEquals(n, outcomes.count(SendResult.Status.SPOOLED));
    assertEquals(n, p.getMetrics().getRecordsSpooled());

    agent.start();
    awaitTrue("replayed", () -> p.getMetrics().getSpoolRecordsDelivered() == n, 30_000);
    awaitTrue("spool empty", () -> p.getMetrics().getSpoolPendingBatches() == 0, 30_000);
    assertReceivedExactly(n);
    assertEquals(0, agent.violationCount(), agent.violations().toString());
  }

  @Test
  void batchesSpooledAtCloseWhileTheAgentIsDownAreDeliveredByTheNextProducer() throws Exception {
    agent = GseAgent.notStarted(dir.resolve("gse.sock"));
    Producer first = producer(60_000);
    int n = 300;
    Support.Outcomes outcomes = sendAll(first, n);
    first.close(500);
    assertEquals(n, outcomes.total());
    assertEquals(n, outcomes.count(SendResult.Status.SPOOLED));

    agent.start();
    Producer second = producer(60_000);
    awaitTrue("replayed", () -> second.getMetrics().getSpoolRecordsDelivered() == n, 30_000);
    awaitTrue("spool empty", () -> second.getMetrics().getSpoolPendingBatches() == 0, 30_000);
    assertReceivedExactly(n);
    assertEquals(0, agent.violationCount(), agent.violations().toString());
  }
}
