package io.logproducer.internal.spool;

import static io.logproducer.internal.spool.SpoolTestSupport.config;
import static io.logproducer.internal.spool.SpoolTestSupport.payload;
import static io.logproducer.internal.spool.SpoolTestSupport.readAll;
import static io.logproducer.internal.spool.SpoolTestSupport.sumFileSizes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Several appenders, an acknowledging thread and the committer at once. */
@Timeout(120)
class SpoolConcurrencyTest {
  private static final int THREADS = 4;
  private static final int PER_THREAD = 300;
  @TempDir Path dir;

  @Test
  void concurrentAppendsAndAcksKeepEveryEntryAndTheAccountingExact() throws Exception {
    SpoolConfig cfg =
        config(dir, 128 << 10, 64L << 20)
            .setDurability(SpoolDurability.GROUP_COMMIT)
            .setGroupCommitMillis(5)
            .build();
    SpoolTuning tuning = new SpoolTuning(10, 0, 0, System::currentTimeMillis);
    Map<Long, String> stored = new ConcurrentHashMap<>();
    LinkedBlockingQueue<Long> toAck = new LinkedBlockingQueue<>();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
    try (Spool spool = Spool.open(cfg, "test", SpoolEvents.NONE, tuning)) {
      List<Future<?>> appenders = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        appenders.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < PER_THREAD; i++) {
                    String key = thread + "/" + i;
                    byte[] meta = key.getBytes(StandardCharsets.UTF_8);
                    AppendResult r =
                        spool.append(0, i, meta, ByteBuffer.wrap(payload(key.hashCode(), i * 13)));
                    assertTrue(r.stored(), r.toString());
                    assertTrue(stored.put(r.sequence(), key) == null, "sequence reused");
                    if (i % 2 == 0) {
                      toAck.add(r.sequence());
                    }
                  }
                  return null;
                }));
      }
      Future<Integer> acker =
          pool.submit(
              () -> {
                int acked = 0;
                while (acked < THREADS * PER_THREAD / 2) {
                  Long s = toAck.poll(30, TimeUnit.SECONDS);
                  assertTrue(s != null, "acks stopped coming");
                  assertTrue(spool.acknowledge(s));
                  acked++;
                }
                return acked;
              });
      for (Future<?> f : appenders) {
        f.get(60, TimeUnit.SECONDS);
      }
      assertEquals(THREADS * PER_THREAD / 2, acker.get(60, TimeUnit.SECONDS));
      assertEquals(THREADS * PER_THREAD, stored.size());
      assertTrue(spool.awaitDurable(THREADS * PER_THREAD, 30_000));
      List<SpoolTestSupport.Read> left = readAll(spool);
      assertEquals(THREADS * PER_THREAD / 2, left.size());
      long bytes = 0;
      for (SpoolTestSupport.Read r : left) {
        String key = stored.get(r.sequence());
        int i = Integer.parseInt(key.substring(key.indexOf('/') + 1));
        assertEquals(1, i % 2, "only odd entries are left: " + key);
        assertArrayEquals(payload(key.hashCode(), i * 13), r.payload(), key);
        bytes += EntryFrame.HEADER_BYTES + r.meta().length + r.payload().length;
      }
      assertEquals(bytes, spool.bytesUsed());
    }
    assertTrue(sumFileSizes(dir) > 0);
    pool.shutdownNow();
    try (Spool spool = Spool.open(cfg, "test", SpoolEvents.NONE, tuning)) {
      assertEquals(THREADS * PER_THREAD / 2, readAll(spool).size(), "the same after reopen");
    }
  }
}
