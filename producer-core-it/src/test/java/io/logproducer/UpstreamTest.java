package io.logproducer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.InMemoryExporter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Producer#addUpstream}: a stage that sends records to the producer from its own queue (an
 * appender's hand-off) is drained by {@link Producer#flush()} and {@link Producer#close(long)}
 * first, so that both cover the records it held; not from a callback; not after removal.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UpstreamTest {

  /** A queue with its own worker thread that sends to the producer, like an appender's hand-off. */
  private static final class QueueStage implements Producer.Upstream {
    private final BlockingQueue<String> queue = new ArrayBlockingQueue<>(10_000);
    private final AtomicLong taken = new AtomicLong();
    private final AtomicLong queued = new AtomicLong();
    private final List<Long> drainTimeouts = new CopyOnWriteArrayList<>();
    private final Thread worker;

    QueueStage(Producer producer) {
      worker =
          new Thread(
              () -> {
                try {
                  while (true) {
                    String body = queue.take();
                    // slow: a flush that did not wait would miss most records
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
                    producer.send(LogRecord.builder().setBody(body).build());
                    taken.incrementAndGet();
                  }
                } catch (InterruptedException e) {
                  // ended by the test
                }
              },
              "stage-worker");
      worker.setDaemon(true);
      worker.start();
    }

    void put(String body) {
      queued.incrementAndGet();
      queue.add(body);
    }

    @Override
    public boolean awaitDrained(long timeoutMillis) {
      drainTimeouts.add(timeoutMillis);
      long target = queued.get();
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
      while (taken.get() < target) {
        if (System.nanoTime() > deadline) {
          return false;
        }
        Thread.onSpinWait();
      }
      return true;
    }
  }

  @Test
  void flushAndCloseCoverWhatTheUpstreamHeld() {
    InMemoryExporter exporter = InMemoryExporter.create();
    Producer producer =
        new Producer(
            ProducerConfig.builder()
                .setClientId("upstream-test")
                .setLingerMillis(60_000)
                .setDeliveryTimeoutMillis(120_000)
                .build(),
            exporter);
    QueueStage stage = new QueueStage(producer);
    producer.addUpstream(stage);
    for (int i = 0; i < 50; i++) {
      stage.put("a" + i);
    }
    producer.flush();
    assertEquals(50, exporter.records().size(), "the flush waited for the stage's 50 records");
    assertEquals(1, stage.drainTimeouts.size());
    long bound = stage.drainTimeouts.get(0);
    assertTrue(bound > 110_000 && bound <= 120_000, "bounded by deliveryTimeoutMillis: " + bound);
    for (int i = 0; i < 20; i++) {
      stage.put("b" + i);
    }
    producer.close(10_000);
    assertEquals(70, exporter.records().size(), "the close drained the stage before closing");
    assertEquals(2, stage.drainTimeouts.size());
    stage.worker.interrupt();
  }

  @Test
  void aRemovedUpstreamAndACallbacksFlushDoNotWait() {
    InMemoryExporter exporter = InMemoryExporter.create();
    Producer producer =
        new Producer(
            ProducerConfig.builder().setClientId("upstream-removed").setLingerMillis(5).build(),
            exporter);
    List<Long> calls = new ArrayList<>();
    Producer.Upstream u =
        t -> {
          calls.add(t);
          return true;
        };
    producer.addUpstream(u);
    List<Throwable> inCallback = new CopyOnWriteArrayList<>();
    producer.send(
        LogRecord.builder().setBody("x").build(),
        r -> {
          try {
            producer.flush(); // on a producer thread: seals, does not drain or wait
          } catch (Throwable t) {
            inCallback.add(t);
          }
        });
    producer.flush();
    assertEquals(List.of(), inCallback);
    assertEquals(1, calls.size(), "only the application's flush drained the upstream");
    producer.removeUpstream(u);
    producer.flush();
    producer.close(1_000);
    assertEquals(1, calls.size(), "a removed upstream is not drained");
    assertThrows(IllegalArgumentException.class, () -> producer.addUpstream(null));
  }
}
