package io.logproducer.testing;

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
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link Exporter} must show through a real {@link Producer} against its real
 * receiver on this machine, as a JUnit 5 suite: each exporter module subclasses it with its
 * receiver (an OTLP/HTTP server on 127.0.0.1, a GSE agent on a Unix socket, a Kafka broker…), so
 * the same delivery, retry, close and budget assertions, with exact counts, hold for every
 * exporter. A user writing an exporter can run it too:
 *
 * <pre>{@code
 * class MyExporterContractTest extends ExporterContract {
 *   protected Receiver startReceiver() throws Exception {
 *     return new MyReceiverAdapter(MyReceiver.start());
 *   }
 * }
 * }</pre>
 *
 * <p>Each test starts a fresh receiver and closes it and its producers afterwards; a test takes at
 * most 120 s.
 */
@Timeout(120)
public abstract class ExporterContract {

  /**
   * A real receiver for the exporter under test; its methods are called from the test thread only.
   */
  @SuppressWarnings(
      "try") // close() may throw any Exception, InterruptedException included: the suite reports it
  public interface Receiver extends AutoCloseable {

    /** {@return a new exporter that ships to this receiver} */
    Exporter newExporter();

    /**
     * {@return the bodies of the records the receiver accepted, decoded independently of the
     * exporter, in arrival order} Records refused by {@link #refuse()} are not among them.
     */
    List<String> deliveredBodies();

    /** From now on the receiver holds every request (or stops reading) until {@link #resume()}. */
    void stall();

    /** Lets held and new requests through. */
    void resume();

    /**
     * From now on the receiver refuses every request in a way the exporter must retry (OTLP: HTTP
     * 503; GSE: the agent is down; Kafka: the broker is unreachable), until {@link #accept()}, and
     * keeps none of them. Called only when nothing is in flight.
     */
    void refuse();

    /** Accepts requests again, after {@link #refuse()}. */
    void accept();

    /** Stops the receiver and frees its port, socket or files. */
    @Override
    void close() throws Exception;
  }

  private static final AtomicInteger IDS = new AtomicInteger();
  private static final String PADDING = new String(new char[100]).replace('\0', 'x');
  private Receiver receiver;
  private final List<Producer> producers = new ArrayList<>();

  /**
   * Starts a fresh receiver for one test.
   *
   * @return the receiver, closed by the suite after the test
   * @throws Exception if it cannot start; the test fails
   */
  protected abstract Receiver startReceiver() throws Exception;

  /**
   * Whether a record may arrive twice after the receiver comes back, once per attempt: the
   * exporter's transport reported a timeout for a request the receiver did append (a lost
   * acknowledgement), so the producer sent it again as a new request. At-least-once transports
   * (Kafka: a batch whose {@code delivery.timeout.ms} passes while its request is in flight) return
   * true; the contract then checks that every record arrived, at least once and at most once per
   * attempt, and still exactly one outcome per record. Default false: each record arrives exactly
   * once.
   *
   * @return whether a lost acknowledgement may duplicate a record
   */
  protected boolean mayDuplicateOnLostAcknowledgement() {
    return false;
  }

  @BeforeEach
  void startReceiverForTest() throws Exception {
    receiver = startReceiver();
  }

  @AfterEach
  void stopReceiverAndProducers() throws Exception {
    receiver.accept();
    receiver.resume();
    for (Producer p : producers) {
      p.close(0);
    }
    receiver.close();
  }

  private Producer producer(ProducerConfig.Builder config) {
    Producer p =
        new Producer(
            config.setClientId("contract-" + IDS.incrementAndGet()).setJmxEnabled(false).build(),
            receiver.newExporter());
    producers.add(p);
    return p;
  }

  private static LogRecord record(String body) {
    return LogRecord.builder().setBody(body).setAttribute("contract", true).build();
  }

  @Test
  void everyRecordIsDeliveredExactlyOnceFromManyThreads() throws Exception {
    Producer p =
        producer(ProducerConfig.builder().setBatchSizeInBytes(16 * 1024).setLingerMillis(20));
    Outcomes outcomes = new Outcomes();
    Thread[] threads = new Thread[4];
    Set<String> expected = new HashSet<>();
    for (int t = 0; t < threads.length; t++) {
      int id = t;
      for (int i = 0; i < 2_500; i++) {
        expected.add("contract-" + id + "-" + i + "-日志");
      }
      threads[t] =
          new Thread(
              () -> {
                for (int i = 0; i < 2_500; i++) {
                  p.send(record("contract-" + id + "-" + i + "-日志"), outcomes);
                }
              });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    p.flush();
    assertEquals(
        Collections.singletonMap(SendResult.Status.DELIVERED, 10_000), outcomes.statusCounts());
    List<String> delivered = awaitDelivered(10_000);
    assertEquals(10_000, delivered.size(), "each record arrived once");
    assertEquals(expected, new HashSet<>(delivered));
    ProducerMetrics m = p.getMetrics();
    assertEquals(10_000, m.getRecordsSent());
    assertEquals(0, m.getRecordsFailed() + m.getRecordsRejected() + m.getRecordsDropped());
    assertEquals(0, m.getBufferedBytes());
    assertTrue(
        m.getBatchesSent() > 1, "sealed by size into several batches: " + m.getBatchesSent());
  }

  @Test
  void retryableRefusalsAreRetriedUntilTheReceiverAcceptsEachRecordOnce() throws Exception {
    Producer p =
        producer(
            ProducerConfig.builder()
                .setLingerMillis(5)
                .setRetries(1_000)
                .setInitialRetryBackoffMillis(10)
                .setMaxRetryBackoffMillis(100)
                .setDeliveryTimeoutMillis(60_000));
    Outcomes outcomes = new Outcomes();
    p.send(record("before"), outcomes);
    p.flush();
    assertEquals(1, awaitDelivered(1).size(), "connected and delivered before the refusals");
    receiver.refuse();
    Set<String> expected = new HashSet<>(Collections.singleton("before"));
    for (int i = 0; i < 100; i++) {
      expected.add("refused-" + i);
      p.send(record("refused-" + i), outcomes);
    }
    assertTrue(
        Outcomes.until(() -> p.getMetrics().getRetries() >= 2, 30_000),
        "retried: " + p.getMetrics());
    assertEquals(1, outcomes.total(), "no outcome while the receiver refuses");
    receiver.accept();
    p.flush();
    assertEquals(
        Collections.singletonMap(SendResult.Status.DELIVERED, 101), outcomes.statusCounts());
    int maxAttempts = 0;
    for (SendResult r : outcomes.all()) {
      maxAttempts = Math.max(maxAttempts, r.getAttempts());
    }
    // retries >= 2 may be two batches retried once each: a refused record was tried at least twice
    assertTrue(maxAttempts >= 2, "attempts of the refused records: " + maxAttempts);
    List<String> delivered = awaitDelivered(101);
    if (mayDuplicateOnLostAcknowledgement()) {
      assertEquals(1, Collections.frequency(delivered, "before"), "before: " + delivered);
      assertTrue(
          delivered.size() <= 1 + 100L * maxAttempts,
          "each refused record at most once per attempt: " + delivered.size());
    } else {
      assertEquals(
          101,
          delivered.size(),
          "refused requests were not kept, accepted ones once: " + delivered.size());
    }
    assertEquals(expected, new HashSet<>(delivered));
    ProducerMetrics m = p.getMetrics();
    assertEquals(101, m.getRecordsSent());
    assertEquals(0, m.getRecordsFailed() + m.getRecordsRejected() + m.getRecordsDropped());
    assertEquals(0, m.getBufferedBytes());
  }

  @Test
  void aStalledReceiverNeverPushesTheBufferPastItsBoundAndCloseReportsEveryRecord()
      throws Exception {
    receiver.stall();
    long total = 64 * 1024;
    Producer p =
        producer(
            ProducerConfig.builder()
                .setTotalSizeInBytes(total)
                .setBatchSizeInBytes(8 * 1024)
                .setLingerMillis(5)
                .setBufferFullPolicy(BufferFullPolicy.DROP)
                .setSendThreads(2));
    Outcomes outcomes = new Outcomes();
    int sent = 5_000;
    for (int i = 0; i < sent; i++) {
      p.send(record("stalled-" + i + "-" + PADDING), outcomes);
    }
    ProducerMetrics before = p.getMetrics();
    assertTrue(before.getRecordsDropped() > 0, "the budget filled up");
    assertTrue(before.getPeakBufferedBytes() <= total, "peak " + before.getPeakBufferedBytes());
    assertEquals(sent, before.getRecordsAccepted() + before.getRecordsDropped());
    p.close(300);
    receiver.resume();
    ProducerMetrics after = p.getMetrics();
    assertEquals(sent, outcomes.total(), "one outcome per send: " + outcomes.statusCounts());
    assertEquals(after.getRecordsDropped(), count(outcomes, SendResult.Status.DROPPED));
    assertEquals(
        after.getRecordsAccepted(),
        after.getRecordsSent() + after.getRecordsFailed() + after.getRecordsRejected());
    assertEquals(after.getRecordsSent(), count(outcomes, SendResult.Status.DELIVERED));
    assertEquals(0, after.getBufferedBytes());
  }

  @Test
  void closeDuringHeavySendingGivesEveryAcceptedRecordOneOutcome() throws Exception {
    Producer p =
        producer(ProducerConfig.builder().setBatchSizeInBytes(8 * 1024).setLingerMillis(5));
    AtomicLong accepted = new AtomicLong();
    AtomicInteger ids = new AtomicInteger();
    Outcomes outcomes = new Outcomes();
    Thread[] threads = new Thread[3];
    for (int t = 0; t < threads.length; t++) {
      threads[t] =
          new Thread(
              () -> {
                while (true) {
                  int id = ids.getAndIncrement();
                  try {
                    p.send(record("busy-" + id), outcomes.callback(id));
                    accepted.incrementAndGet();
                  } catch (IllegalStateException closed) {
                    return;
                  }
                }
              });
      threads[t].start();
    }
    assertTrue(Outcomes.until(() -> p.getMetrics().getRecordsSent() >= 5_000, 30_000), "sending");
    p.close(5_000);
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(accepted.get(), outcomes.total(), outcomes.statusCounts().toString());
    assertEquals(0, outcomes.duplicates());
    ProducerMetrics m = p.getMetrics();
    assertEquals(
        accepted.get(), m.getRecordsSent() + m.getRecordsFailed() + m.getRecordsRejected());
    Set<Integer> deliveredIds = outcomes.idsWith(SendResult.Status.DELIVERED);
    assertEquals(m.getRecordsSent(), deliveredIds.size());
    Set<String> atReceiver = new HashSet<>(awaitDelivered(m.getRecordsSent()));
    for (int id : deliveredIds) {
      assertTrue(
          atReceiver.contains("busy-" + id),
          "busy-" + id + " reported delivered but not at the receiver");
    }
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      assertTrue(
          !t.getName().startsWith(p.getConfig().getClientId() + "-") || !t.isAlive(), t.getName());
    }
  }

  private static long count(Outcomes outcomes, SendResult.Status status) {
    Integer n = outcomes.statusCounts().get(status);
    return n == null ? 0 : n;
  }

  /**
   * The receiver's bodies once it has at least {@code n} (waiting up to 20 s): for fire-and-forget
   * transports (GSE) "delivered" means "fully written", and the receiver may still be reading.
   */
  private List<String> awaitDelivered(long n) {
    Outcomes.until(() -> receiver.deliveredBodies().size() >= n, 20_000);
    return receiver.deliveredBodies();
  }
}
