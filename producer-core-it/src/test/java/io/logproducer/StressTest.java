package io.logproducer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * 8 threads × 1,000,000 records against a receiver that fails at random (retryable, final, too
 * large, slow), with callbacks that randomly throw, block briefly, send, flush — and one that
 * closes the producer near the end. Every accepted record must get exactly one outcome, the buffer
 * must drain to 0 bytes, and no thread may remain.
 */
@Timeout(240)
class StressTest {

  private static final int THREADS = 8;
  private static final int PER_THREAD = 1_000_000;

  @Test
  void everyAcceptedRecordGetsExactlyOneOutcomeUnderChaos() throws Exception {
    InMemoryExporter exporter = InMemoryExporter.builder().setRetaining(false).build();
    exporter.respondWith(
        batch -> {
          ThreadLocalRandom rnd = ThreadLocalRandom.current();
          int dice = rnd.nextInt(100);
          if (dice < 15) {
            return ExportResult.retryable("503 (chaos)", null, -1);
          }
          if (dice < 17) {
            return ExportResult.failed("500 (chaos)", null);
          }
          if (dice < 19 && batch.recordCount() > 1) {
            return ExportResult.tooLarge("413 (chaos)");
          }
          if (dice < 20) {
            LockSupport.parkNanos(2_000_000L);
          }
          return ExportResult.success();
        });
    String id = "stress";
    Producer p =
        new Producer(
            ProducerConfig.builder()
                .setClientId(id)
                .setJmxEnabled(false)
                .setShutdownHookEnabled(false)
                .setTotalSizeInBytes(32L << 20)
                .setBatchSizeInBytes(256 * 1024)
                .setLingerMillis(5)
                .setSendThreads(4)
                .setRetries(3)
                .setInitialRetryBackoffMillis(1)
                .setMaxRetryBackoffMillis(5)
                .setDeliveryTimeoutMillis(30_000)
                .build(),
            exporter);

    int total = THREADS * PER_THREAD;
    AtomicIntegerArray outcomes = new AtomicIntegerArray(total);
    AtomicLong extraSent = new AtomicLong();
    AtomicLong extraOutcomes = new AtomicLong();
    AtomicLong outcomeCount = new AtomicLong();
    AtomicBoolean closeCalled = new AtomicBoolean();
    AtomicLong accepted = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    Callback extra = r -> extraOutcomes.incrementAndGet();

    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int base = t * PER_THREAD;
      Thread th =
          new Thread(
              () -> {
                for (int i = 0; i < PER_THREAD; i++) {
                  int idx = base + i;
                  try {
                    p.send(
                        LogRecord.builder().setBody("r" + idx).build(),
                        r -> {
                          outcomes.incrementAndGet(idx);
                          long n = outcomeCount.incrementAndGet();
                          ThreadLocalRandom rnd = ThreadLocalRandom.current();
                          int dice = rnd.nextInt(100_000);
                          if (n > (long) total * 9 / 10 && closeCalled.compareAndSet(false, true)) {
                            p.close(); // from a callback: closes without waiting
                          } else if (dice < 1_000) {
                            throw new IllegalStateException("callback chaos");
                          } else if (dice < 1_010) {
                            LockSupport.parkNanos(1_000_000L);
                          } else if (dice < 1_110) {
                            try {
                              p.send(LogRecord.builder().setBody("extra").build(), extra);
                              extraSent.incrementAndGet();
                            } catch (IllegalStateException | BufferExhaustedException e) {
                              // closed, or no room without waiting (callbacks never wait)
                            }
                          } else if (dice < 1_120) {
                            p.flush(); // from a callback: seals without waiting
                          }
                        });
                    accepted.incrementAndGet();
                  } catch (IllegalStateException closed) {
                    refused.incrementAndGet();
                  }
                }
              },
              "stress-app-" + t);
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) {
      th.join(TimeUnit.SECONDS.toMillis(200));
      assertTrue(!th.isAlive(), th.getName() + " finished");
    }
    p.close(30_000);

    long missing = 0;
    long duplicated = 0;
    long counted = 0;
    for (int i = 0; i < total; i++) {
      int c = outcomes.get(i);
      counted += c;
      if (c > 1) {
        duplicated++;
      }
    }
    ProducerMetrics m = p.getMetrics();
    System.out.printf(
        "stress: accepted=%d refused_after_close=%d outcomes=%d extra=%d/%d metrics=%s%n",
        accepted.get(), refused.get(), counted, extraSent.get(), extraOutcomes.get(), m);
    assertEquals(0, duplicated, "no record has two outcomes");
    assertEquals(accepted.get(), counted, "every accepted record has an outcome");
    assertEquals(total, accepted.get() + refused.get());
    assertEquals(extraSent.get(), extraOutcomes.get(), "records sent from callbacks too");
    assertEquals(accepted.get() + extraSent.get(), m.getRecordsAccepted());
    assertEquals(
        m.getRecordsAccepted(), m.getRecordsSent() + m.getRecordsRejected() + m.getRecordsFailed());
    assertEquals(0, m.getBufferedBytes(), "the buffer drained");
    assertTrue(closeCalled.get(), "close was called from a callback");
    assertTrue(accepted.get() > total * 9L / 10, "most records were sent before the close");
    assertTrue(missing == 0);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    List<String> alive = new ArrayList<>();
    do {
      alive.clear();
      for (Thread t : Thread.getAllStackTraces().keySet()) {
        if (t.isAlive() && t.getName().startsWith(id + "-")) {
          alive.add(t.getName());
        }
      }
    } while (!alive.isEmpty() && System.nanoTime() < deadline && sleep());
    assertEquals(List.of(), alive, "no producer thread left");
  }

  private static boolean sleep() {
    LockSupport.parkNanos(10_000_000L);
    return true;
  }
}
