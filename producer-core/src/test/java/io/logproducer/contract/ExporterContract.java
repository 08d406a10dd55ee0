package io.logproducer.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.BufferFullPolicy;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import io.logproducer.spi.Exporter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link Exporter} must show through a real {@link Producer} against its real receiver on this
 * machine: each exporter module subclasses this with its receiver (an OTLP/HTTP server on 127.0.0.1, a GSE agent
 * on a Unix socket, a Kafka broker…), so delivery, close and budget guarantees are asserted the same way for all.
 */
@Timeout(120)
public abstract class ExporterContract {

  /** A real receiver for the exporter under test. */
  public interface Receiver extends AutoCloseable {
    /** A new exporter that ships to this receiver. */
    Exporter newExporter();

    /** Bodies of the records the receiver accepted, decoded independently of the exporter, in arrival order. */
    List<String> deliveredBodies();

    /** From now on the receiver holds every request (or stops reading) until {@link #resume()}. */
    void stall();

    /** Lets held and new requests through. */
    void resume();

    @Override
    void close() throws Exception;
  }

  private static final AtomicInteger IDS = new AtomicInteger();
  private Receiver receiver;
  private final List<Producer> producers = new ArrayList<>();

  /** Starts a fresh receiver for one test. */
  protected abstract Receiver startReceiver() throws Exception;

  @BeforeEach
  void start() throws Exception {
    receiver = startReceiver();
  }

  @AfterEach
  void stop() throws Exception {
    receiver.resume();
    for (Producer p : producers) {
      p.close(0);
    }
    receiver.close();
  }

  private Producer producer(ProducerConfig.Builder config) {
    Producer p = new Producer(config.setClientId("contract-" + IDS.incrementAndGet()).setJmxEnabled(false).build(),
        receiver.newExporter());
    producers.add(p);
    return p;
  }

  private static LogRecord record(String body) {
    return LogRecord.builder().setBody(body).setAttribute("contract", true).build();
  }

  @Test
  void everyRecordIsDeliveredExactlyOnceFromManyThreads() throws Exception {
    Producer p = producer(ProducerConfig.builder().setBatchSizeInBytes(16 * 1024).setLingerMillis(20));
    Tally tally = new Tally();
    Thread[] threads = new Thread[4];
    for (int t = 0; t < threads.length; t++) {
      int id = t;
      threads[t] = new Thread(() -> {
        for (int i = 0; i < 2_500; i++) {
          p.send(record("contract-" + id + "-" + i + "-日志"), tally);
        }
      });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    p.flush();
    assertEquals(Map.of(SendResult.Status.DELIVERED, 10_000), tally.byStatus());
    List<String> delivered = awaitDelivered(10_000);
    assertEquals(10_000, delivered.size());
    assertEquals(10_000, new HashSet<>(delivered).size());
    for (int t = 0; t < threads.length; t++) {
      assertTrue(delivered.contains("contract-" + t + "-2499-日志"));
    }
    ProducerMetrics m = p.getMetrics();
    assertEquals(10_000, m.getRecordsSent());
    assertEquals(0, m.getBufferedBytes());
    assertTrue(m.getBatchesSent() > 1, "sealed by size into several batches");
  }

  @Test
  void aStalledReceiverNeverPushesTheBufferPastItsBoundAndCloseReportsEveryRecord() throws Exception {
    receiver.stall();
    long total = 64 * 1024;
    Producer p = producer(ProducerConfig.builder().setTotalSizeInBytes(total).setBatchSizeInBytes(8 * 1024)
        .setLingerMillis(5).setBufferFullPolicy(BufferFullPolicy.DROP).setSendThreads(2));
    Tally tally = new Tally();
    int sent = 5_000;
    for (int i = 0; i < sent; i++) {
      p.send(record("stalled-" + i + "-" + "x".repeat(100)), tally);
    }
    ProducerMetrics before = p.getMetrics();
    assertTrue(before.getRecordsDropped() > 0, "the budget filled up");
    assertTrue(before.getPeakBufferedBytes() <= total, "peak " + before.getPeakBufferedBytes());
    assertEquals(sent, before.getRecordsAccepted() + before.getRecordsDropped());
    p.close(300);
    receiver.resume();
    ProducerMetrics after = p.getMetrics();
    assertEquals(sent, tally.count(), "one outcome per send: " + tally.byStatus());
    assertEquals(after.getRecordsDropped(), (long) tally.byStatus().getOrDefault(SendResult.Status.DROPPED, 0));
    assertEquals(after.getRecordsAccepted(), after.getRecordsSent() + after.getRecordsFailed()
        + after.getRecordsRejected());
    assertEquals(0, after.getBufferedBytes());
  }

  @Test
  void closeDuringHeavySendingGivesEveryAcceptedRecordOneOutcome() throws Exception {
    Producer p = producer(ProducerConfig.builder().setBatchSizeInBytes(8 * 1024).setLingerMillis(5));
    AtomicLong accepted = new AtomicLong();
    Tally tally = new Tally();
    Thread[] threads = new Thread[3];
    for (int t = 0; t < threads.length; t++) {
      int id = t;
      threads[t] = new Thread(() -> {
        for (int i = 0; ; i++) {
          try {
            p.send(record("busy-" + id + "-" + i), tally);
            accepted.incrementAndGet();
          } catch (IllegalStateException closed) {
            return;
          }
        }
      });
      threads[t].start();
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (p.getMetrics().getRecordsSent() < 5_000 && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    p.close(5_000);
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(accepted.get(), tally.count(), tally.byStatus().toString());
    ProducerMetrics m = p.getMetrics();
    assertEquals(accepted.get(), m.getRecordsSent() + m.getRecordsFailed() + m.getRecordsRejected());
    Set<String> delivered = new HashSet<>(awaitDelivered(m.getRecordsSent()));
    assertTrue(delivered.size() >= m.getRecordsSent(), "the receiver has every record reported delivered");
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      assertTrue(!t.getName().startsWith(p.getConfig().getClientId() + "-") || !t.isAlive(), t.getName());
    }
  }

  /**
   * The receiver's bodies once it has at least {@code n} (waiting up to 20 s): for fire-and-forget transports
   * (GSE) "delivered" means "fully written", and the receiver may still be reading.
   */
  private List<String> awaitDelivered(long n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    List<String> bodies = receiver.deliveredBodies();
    while (bodies.size() < n && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(10);
      bodies = receiver.deliveredBodies();
    }
    return bodies;
  }

  /** Counts outcomes by status; thread-safe. */
  static final class Tally implements io.logproducer.Callback {
    private final Map<SendResult.Status, Integer> counts = new EnumMap<>(SendResult.Status.class);
    private int total;

    @Override
    public synchronized void onCompletion(SendResult result) {
      counts.merge(result.getStatus(), 1, Integer::sum);
      total++;
    }

    synchronized int count() {
      return total;
    }

    synchronized Map<SendResult.Status, Integer> byStatus() {
      return new EnumMap<>(counts);
    }
  }
}
