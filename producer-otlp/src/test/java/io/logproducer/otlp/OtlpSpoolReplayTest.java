package io.logproducer.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.SpoolConfig;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.Reply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parallel replay through the real OTLP/HTTP exporter to a real loopback receiver: a backlog in
 * several shards (stripes) is replayed with {@code floor(replayShare × sendThreads)} requests in
 * flight, per-shard order kept, every record once.
 */
@Timeout(120)
class OtlpSpoolReplayTest {

  private static final int STRIPES = 8;
  private static final int THREADS = 4;
  private static final int PER_THREAD = 60;

  @TempDir Path dir;

  private static ProducerConfig config(String id, int sendThreads, SpoolConfig spool) {
    return ProducerConfig.builder()
        .setClientId(id)
        .setJmxEnabled(false)
        .setShutdownHookEnabled(false)
        .setLingerMillis(5)
        .setBatchCountThreshold(10)
        .setDeliveryTimeoutMillis(60_000)
        .setInitialRetryBackoffMillis(10)
        .setMaxRetryBackoffMillis(50)
        .setSendThreads(sendThreads)
        .setCompression(Compression.GZIP)
        .setSpool(spool)
        .build();
  }

  private static OtlpHttpExporter exporter(OtlpReceiver receiver) {
    return OtlpHttpExporter.builder(Map.of())
        .setEndpoint(receiver.endpoint())
        .setTimeoutMillis(5_000)
        .setStripes(STRIPES)
        .build();
  }

  private SpoolConfig spool(double replayShare) {
    return SpoolConfig.builder(dir)
        .setSegmentBytes(64 * 1024)
        .setMaxBytes(8L << 20)
        .setReplayShare(replayShare)
        .build();
  }

  /** Records "t-i" sent by thread t (its own stripe), while the receiver refuses connections. */
  private Set<Long> spoolBacklog(OtlpReceiver receiver) throws InterruptedException {
    receiver.refuse();
    Outcomes outcomes = new Outcomes();
    Set<Long> stripes = new HashSet<>();
    Producer first = new Producer(config("replay-first", 1, spool(0.5)), exporter(receiver));
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      Thread th =
          new Thread(
              () -> {
                for (int i = 0; i < PER_THREAD; i++) {
                  first.send(
                      LogRecord.builder().setBody(thread + "-" + i).build(),
                      outcomes.callback(thread * PER_THREAD + i));
                }
              });
      @SuppressWarnings("deprecation") // Thread.getId(), as the exporter's stripes use it
      long stripe = th.getId() % STRIPES;
      stripes.add(stripe);
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) {
      th.join(30_000);
    }
    first.close(2_000);
    int n = THREADS * PER_THREAD;
    assertEquals(Map.of(SendResult.Status.SPOOLED, n), outcomes.statusCounts());
    return stripes;
  }

  @Test
  void aMultiShardBacklogIsReplayedWithTwoRequestsInFlightInOrderPerShardAndOnce()
      throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      Set<Long> stripes = spoolBacklog(receiver);
      assertTrue(stripes.size() >= 2, "the sending threads use several stripes: " + stripes);

      AtomicInteger inFlight = new AtomicInteger();
      AtomicInteger maxInFlight = new AtomicInteger();
      CountDownLatch twoAtOnce = new CountDownLatch(1);
      List<String> arrived = new ArrayList<>();
      receiver.respond(
          r -> {
            int now = inFlight.incrementAndGet();
            maxInFlight.accumulateAndGet(now, Math::max);
            if (now >= 2) {
              twoAtOnce.countDown();
            }
            synchronized (arrived) {
              arrived.addAll(r.bodies());
            }
            try {
              // A slow receiver: each request is held until two were seen at once (at most 2 s).
              twoAtOnce.await(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            } finally {
              inFlight.decrementAndGet();
            }
            return Reply.ok(r);
          });
      receiver.resume();
      int n = THREADS * PER_THREAD;
      // floor(0.5 x 5) = 2 replay requests at once.
      Producer second = new Producer(config("replay-second", 5, spool(0.5)), exporter(receiver));
      try {
        assertTrue(
            Outcomes.until(() -> second.getMetrics().getSpoolRecordsDelivered() == n, 30_000),
            () -> second.getMetrics().toString());
        assertTrue(Outcomes.until(() -> second.getMetrics().getSpoolPendingBatches() == 0, 10_000));
      } finally {
        second.close(0);
      }
      assertEquals(2, maxInFlight.get(), "replay requests in flight at once");
      assertEquals(n, receiver.acceptedRecords(), "every record once");
      Map<String, List<Integer>> byThread = new HashMap<>();
      synchronized (arrived) {
        assertEquals(n, new HashSet<>(arrived).size(), "distinct records");
        for (String body : arrived) {
          String[] f = body.split("-");
          byThread.computeIfAbsent(f[0], k -> new ArrayList<>()).add(Integer.parseInt(f[1]));
        }
      }
      for (Map.Entry<String, List<Integer>> e : byThread.entrySet()) {
        List<Integer> ids = e.getValue();
        for (int k = 1; k < ids.size(); k++) {
          assertTrue(ids.get(k - 1) < ids.get(k), "order of thread " + e.getKey() + ": " + ids);
        }
      }
    }
  }
}
