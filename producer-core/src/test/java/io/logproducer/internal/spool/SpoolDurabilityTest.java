package io.logproducer.internal.spool;

import static io.logproducer.internal.spool.SpoolTestSupport.append;
import static io.logproducer.internal.spool.SpoolTestSupport.config;
import static io.logproducer.internal.spool.SpoolTestSupport.open;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class SpoolDurabilityTest {
  @TempDir Path dir;

  @Test
  void groupCommitAdvancesTheWatermarkAndTellsTheListener() throws Exception {
    List<Long> durable = new CopyOnWriteArrayList<>();
    java.util.concurrent.CountDownLatch toldFifty = new java.util.concurrent.CountDownLatch(1);
    SpoolEvents l =
        new SpoolEvents() {
          @Override
          public void onDurable(long sequence) {
            durable.add(sequence);
            if (sequence == 50) {
              toldFifty.countDown();
            }
          }
        };
    SpoolConfig cfg =
        config(dir, 1 << 20, 4L << 20)
            .setDurability(SpoolDurability.GROUP_COMMIT)
            .setGroupCommitMillis(20)
            .build();
    try (Spool spool = open(cfg, l)) {
      long last = 0;
      for (int i = 0; i < 50; i++) {
        last = append(spool, i, 1000);
      }
      assertTrue(spool.awaitDurable(last, 30_000), "durable within the bound");
      assertEquals(50, spool.durableSequence());
      // the listener is told after the watermark moved: wait for it, bounded
      assertTrue(toldFifty.await(30, java.util.concurrent.TimeUnit.SECONDS), "told: " + durable);
      assertEquals(50L, durable.get(durable.size() - 1));
      for (int i = 1; i < durable.size(); i++) {
        assertTrue(durable.get(i) > durable.get(i - 1), "increasing: " + durable);
      }
    }
  }

  @Test
  void everyBatchIsDurableWhenAppendReturns() throws Exception {
    SpoolConfig cfg =
        config(dir, 64 << 10, 4L << 20)
            .setDurability(SpoolDurability.EVERY_BATCH)
            .setGroupCommitMillis(200)
            .build();
    try (Spool spool = open(cfg)) {
      for (int i = 0; i < 30; i++) {
        long seq = append(spool, i, 3000);
        assertTrue(spool.durableSequence() >= seq);
        assertTrue(spool.awaitDurable(seq, 0));
      }
    }
  }

  @Test
  void noneCountsWhatWasWritten() throws Exception {
    try (Spool spool = open(config(dir, 64 << 10, 4L << 20).build())) {
      assertEquals(0, spool.durableSequence());
      long seq = append(spool, 0, 10);
      assertEquals(seq, spool.durableSequence());
      assertTrue(spool.awaitDurable(seq, 0));
    }
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.EnumSource(SpoolDurability.class)
  void anInterruptedAppenderIsRefusedAndTheSpoolStaysUsable(SpoolDurability policy)
      throws Exception {
    SpoolConfig cfg =
        config(dir, 64 << 10, 4L << 20).setDurability(policy).setGroupCommitMillis(20).build();
    try (Spool spool = open(cfg)) {
      long first = append(spool, 0, 1000);
      Thread.currentThread().interrupt();
      AppendResult r;
      try {
        r = spool.append(0, 1, null, java.nio.ByteBuffer.wrap(new byte[500]));
      } finally {
        assertTrue(Thread.interrupted(), "the interrupt status is kept");
      }
      assertEquals(AppendResult.Status.INTERRUPTED, r.status(), r.toString());
      assertEquals(SpoolStatus.ENABLED, spool.status());
      assertTrue(spool.awaitDurable(first, 30_000), "what was stored before stays durable");
      long next = append(spool, 2, 1000);
      assertEquals(first + 1, next, "the refused append used no sequence");
      assertTrue(spool.awaitDurable(next, 30_000));
      assertEquals(
          List.of(first, next), SpoolTestSupport.sequences(SpoolTestSupport.readAll(spool)));
    }
  }
}
