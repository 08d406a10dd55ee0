package io.logproducer.gse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.SendResult;
import io.logproducer.testing.gse.GseAgent;
import io.logproducer.testing.gse.GseFrame;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Many application threads, many dataids, four send threads, one connection. */
class GseConcurrencyTest {

  @TempDir Path dir;

  private GseAgent agent;
  private Producer producer;

  @AfterEach
  void tearDown() {
    if (producer != null) {
      producer.close(5_000);
    }
    if (agent != null) {
      agent.close();
    }
  }

  @Test
  void manyThreadsAndDataIdsFramesNeverMixDataIdsAndEveryRecordArrivesOnce() throws Exception {
    run(1);
  }

  @Test
  void withStripesPerDataIdFramesStillNeverMixDataIds() throws Exception {
    run(4);
  }

  private void run(int stripes) throws Exception {
    agent = GseAgent.unix(dir.resolve("gse.sock"));
    int threads = 8;
    int perThread = 5_000;
    int dataIds = 16;
    producer =
        new Producer(
            Support.config()
                .setSendThreads(4)
                .setBatchCountThreshold(200)
                .setLingerMillis(10)
                .build(),
            GseExporter.builder()
                .setUnixSocketPath(dir.resolve("gse.sock").toString())
                .setStripesPerDataId(stripes)
                .build());
    Support.Outcomes outcomes = new Support.Outcomes();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> senders = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      Thread th =
          new Thread(
              () -> {
                try {
                  go.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < perThread; i++) {
                  long seq = (long) thread * perThread + i;
                  int dataId = 1000 + (int) (seq % dataIds);
                  producer.send(
                      LogRecord.builder()
                          .setBody("r" + seq)
                          .setAttribute("seq", seq)
                          .setAttribute("dataid", (long) dataId)
                          .setDestination(Integer.toString(dataId))
                          .build(),
                      outcomes.forSeq(seq));
                }
              });
      senders.add(th);
      th.start();
    }
    go.countDown();
    for (Thread th : senders) {
      th.join(30_000);
    }
    int n = threads * perThread;
    producer.flush();
    outcomes.await(n, 30_000);
    agent.awaitRecords(n, 30_000);

    assertEquals(List.of(), agent.violations());
    assertEquals(n, outcomes.count(SendResult.Status.DELIVERED));
    boolean[] seen = new boolean[n];
    Map<Integer, Integer> perDataId = new HashMap<>();
    Map<Integer, Long> lastGseIndex = new HashMap<>();
    for (GseFrame f : agent.frames()) {
      long gseIndex = Support.json(f).get("gseindex").getAsLong();
      long previous = lastGseIndex.getOrDefault(f.dataId(), 0L);
      assertEquals(
          previous + 1,
          gseIndex,
          "gseindex of dataid " + f.dataId() + " counts its frames in order");
      lastGseIndex.put(f.dataId(), gseIndex);
      for (String d : f.data()) {
        JsonObject r = Support.inner(d);
        JsonObject attributes = r.getAsJsonObject("attributes");
        long seq = attributes.get("seq").getAsLong();
        assertEquals(
            f.dataId(),
            attributes.get("dataid").getAsInt(),
            "record " + seq + " in a foreign frame");
        assertEquals("r" + seq, r.get("body").getAsString());
        assertTrue(!seen[(int) seq], "record " + seq + " arrived twice");
        seen[(int) seq] = true;
        perDataId.merge(f.dataId(), 1, Integer::sum);
      }
    }
    assertEquals(dataIds, perDataId.size());
    for (int id = 1000; id < 1000 + dataIds; id++) {
      assertEquals(n / dataIds, perDataId.get(id), "records of dataid " + id);
    }
    assertEquals(1, agent.connections());
  }
}
