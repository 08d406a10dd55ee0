package io.logproducer.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.ReferenceWorkload;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The long outage of issue 17: a real OTLP/HTTP receiver on 127.0.0.1 is up for a few seconds, then
 * down (connections refused) for {@code logproducer.outage.seconds} (20) while application threads
 * send the reference workload (plus an integer {@code seq} attribute) at a paced {@code
 * logproducer.outage.rate} (15,000 records/s in all: a backlog of 300,000 records, as the 60 s at
 * 5,000/s this test ran before, in a third of the time), then up again. Every record gets exactly
 * one outcome — DELIVERED before the outage, SPOOLED during it — every SPOOLED record reaches the
 * receiver exactly once after it returns, in order per application thread (hence per shard), and
 * the heap after a full GC at the end of the outage is within 8 MiB of the heap after GC a third of
 * the way in (memory does not grow with the backlog). Prints the drain rate, the time to empty and
 * the spool's bytes per record.
 *
 * <p>The 10-minute version of docs/spool-outage.md sets {@code logproducer.outage.seconds=600},
 * {@code logproducer.outage.rate=50000}, {@code logproducer.outage.maxBytes=2147483648} and {@code
 * logproducer.outage.dir} (a directory on a real disk). Every wait lasts as long as the producer
 * makes progress (records sent, outcomes, records received), however slow the machine; it fails
 * after {@link #IDLE_MILLIS} without any.
 */
class SpoolOutageTest {

  private static final int THREADS = 2;
  private static final int UP_SECONDS = 3;
  private static final long DELIVERY_TIMEOUT_MILLIS = 6_000;
  private static final long HEAP_GROWTH_BOUND = 8L << 20;

  /** How long a wait may see no progress at all before the test fails (a stall), in ms. */
  private static final long IDLE_MILLIS = 60_000;

  private static final int DELIVERED = SendResult.Status.DELIVERED.ordinal() + 1;
  private static final int SPOOLED = SendResult.Status.SPOOLED.ordinal() + 1;

  @TempDir Path tempDir;

  private final int outageSeconds = Integer.getInteger("logproducer.outage.seconds", 20);
  private final int rate = Integer.getInteger("logproducer.outage.rate", 15_000);
  private final long maxBytes = Long.getLong("logproducer.outage.maxBytes", 1L << 30);
  private final int perThreadUp = rate * UP_SECONDS / THREADS;
  private final int perThreadDown = (int) ((long) rate * outageSeconds / THREADS);
  private final int total = THREADS * (perThreadUp + perThreadDown);

  /** Outcome per seq (status ordinal + 1; 0 none yet); receipts per seq at the receiver. */
  private final AtomicIntegerArray outcome = new AtomicIntegerArray(total);

  private final AtomicIntegerArray received = new AtomicIntegerArray(total);

  /**
   * Each record's outcome (one object per batch, shared by its records: the heap check stays
   * unaffected): says how its batch got SPOOLED, for the order check and for a failure's report.
   */
  private final AtomicReferenceArray<SendResult> outcomeOf = new AtomicReferenceArray<>(total);

  private long passedByYounger; // guarded by this
  private final AtomicLong outcomes = new AtomicLong();
  private final AtomicLong secondOutcomes = new AtomicLong();
  private final AtomicLong sent = new AtomicLong();
  private final long[] lastReceived = new long[THREADS]; // guarded by this
  private long outOfOrder; // guarded by this
  private final List<String> firstOutOfOrder = new ArrayList<>(); // guarded by this
  private volatile boolean resumed;
  private long unknownIds; // guarded by this

  private synchronized void receive(long seq) {
    if (seq < 0 || seq >= total) {
      unknownIds++;
      return;
    }
    int t = (int) (seq % THREADS);
    if (seq <= lastReceived[t] && resumed && writtenAtDeadline((int) seq)) {
      passedByYounger++; // the documented exception: written after younger batches
    } else if (seq <= lastReceived[t]) {
      outOfOrder++;
      if (firstOutOfOrder.size() < 10) {
        firstOutOfOrder.add(
            seq / THREADS
                + " after "
                + lastReceived[t] / THREADS
                + " (thread "
                + t
                + (resumed ? ", drain" : ", before the outage")
                + "; outcomes: "
                + outcomeOf.get((int) seq)
                + " / "
                + outcomeOf.get((int) lastReceived[t])
                + ")");
      }
    }
    lastReceived[t] = seq;
    received.incrementAndGet((int) seq);
  }

  @Test
  void aLongOutageIsAbsorbedByTheSpoolWithFlatHeapThenDrainedOnceInOrder() throws Exception {
    java.util.Arrays.fill(lastReceived, -1);
    String dirProperty = System.getProperty("logproducer.outage.dir");
    Path dir = dirProperty == null ? tempDir : Files.createDirectories(Paths.get(dirProperty));
    try (OtlpReceiver receiver =
        OtlpReceiver.builder().counting().recordIds("seq", this::receive).start()) {
      Producer producer = producer(receiver.logsUrl(), dir);
      try {
        run(producer, receiver, dir);
      } finally {
        producer.close(0);
      }
    }
  }

  private void run(Producer producer, OtlpReceiver receiver, Path dir) throws Exception {
    int n1 = THREADS * perThreadUp;
    sendPhase(producer, 0, perThreadUp);
    assertTrue(
        Outcomes.whileProgressing(() -> outcomes.get() == n1, outcomes::get, IDLE_MILLIS),
        () -> "up: outcomes " + outcomes);
    long receivedUp = receiver.acceptedRecords();
    receiver.refuse();

    long outageStart = System.nanoTime();
    HeapSampler heap = new HeapSampler(10 * outageSeconds + 60); // however slow the machine
    heap.start();
    List<Thread> senders = startSenders(producer, perThreadUp, perThreadUp + perThreadDown);
    long third = n1 + (total - n1) / 3;
    assertTrue(
        Outcomes.whileProgressing(() -> sent.get() >= third, sent::get, IDLE_MILLIS),
        "senders stalled");
    long heapThird = heapAfterGc();
    assertTrue(
        Outcomes.whileProgressing(() -> sent.get() == total, sent::get, IDLE_MILLIS),
        "senders stalled");
    for (Thread t : senders) {
      t.join(IDLE_MILLIS);
    }
    assertEquals(total, sent.get(), "records sent");
    assertTrue(
        Outcomes.whileProgressing(() -> outcomes.get() == total, outcomes::get, IDLE_MILLIS),
        () -> "outage: outcomes " + outcomes + " of " + total);
    heap.finish();
    long heapEnd = heapAfterGc();
    double outageS = (System.nanoTime() - outageStart) / 1e9;
    ProducerMetrics atEnd = producer.getMetrics();
    int n2 = total - n1;
    assertOutcomes(n1, n2, atEnd);

    long drainStart = System.nanoTime();
    long wireBefore = receiver.acceptedWireBytes();
    resumed = true;
    receiver.resume();
    assertTrue(
        Outcomes.whileProgressing(
            () ->
                receiver.acceptedRecords() >= total
                    || producer.getMetrics().getSpoolPendingBatches() == 0,
            receiver::acceptedRecords,
            IDLE_MILLIS),
        () -> "drained " + receiver.acceptedRecords() + " of " + total);
    assertTrue(
        receiver.awaitAcceptedRecords(total, 30_000),
        () ->
            "spool empty with "
                + receiver.acceptedRecords()
                + " of "
                + total
                + " records received: "
                + producer.getMetrics());
    double drainS = (System.nanoTime() - drainStart) / 1e9;
    long drainWire = receiver.acceptedWireBytes() - wireBefore;
    assertTrue(
        Outcomes.whileProgressing(
            () -> producer.getMetrics().getSpoolPendingBatches() == 0,
            () -> producer.getMetrics().getSpoolPendingBatches(),
            IDLE_MILLIS),
        () -> "spool not empty: " + producer.getMetrics());

    System.out.printf(
        Locale.ROOT,
        "outage: %d records at %d/s for %.1f s absorbed; heap after GC %.1f MiB at 1/3, %.1f MiB"
            + " at the end, every second %s; spool %d bytes on disk (with preallocation); stored bodies %.1f"
            + " bytes/record (%.0f records/GiB); drain %.2f s: %.0f records/s, %.2f MB/s%n",
        n2,
        rate,
        outageS,
        heapThird / 1048576.0,
        heapEnd / 1048576.0,
        heap.summary(),
        atEnd.getSpoolBytesOnDisk(),
        (double) drainWire / n2,
        (1L << 30) * (double) n2 / drainWire,
        drainS,
        n2 / drainS,
        drainWire / drainS / 1e6);
    assertReceipts(producer, n1, n2, receivedUp);
    assertTrue(
        heapEnd - heapThird < HEAP_GROWTH_BOUND,
        () -> "heap after GC grew with the backlog: " + heapThird + " -> " + heapEnd);
  }

  /** Before the receiver returns: DELIVERED while it was up, SPOOLED during the outage. */
  private void assertOutcomes(int n1, int n2, ProducerMetrics m) {
    int[] byStatus = new int[SendResult.Status.values().length + 1];
    int mismatched = 0;
    for (int seq = 0; seq < total; seq++) {
      int o = outcome.get(seq);
      byStatus[o]++;
      boolean upPhase = seq / THREADS < perThreadUp;
      mismatched += upPhase == (o == DELIVERED) ? 0 : 1;
    }
    StringBuilder why = new StringBuilder("(none ").append(byStatus[0]);
    for (SendResult.Status st : SendResult.Status.values()) {
      why.append(", ").append(st).append(' ').append(byStatus[st.ordinal() + 1]);
    }
    why.append("; spoolBatchesNotWritten ").append(m.getSpoolBatchesNotWritten()).append(") ");
    why.append(m);
    assertEquals(0, secondOutcomes.get(), "records with a second outcome " + why);
    assertEquals(n1, byStatus[DELIVERED], "DELIVERED " + why);
    assertEquals(n2, byStatus[SPOOLED], "SPOOLED " + why);
    assertEquals(0, mismatched, "DELIVERED exactly the records sent while the receiver was up");
  }

  private void assertReceipts(Producer producer, int n1, int n2, long receivedUp) {
    int missing = 0;
    int duplicates = 0;
    for (int seq = 0; seq < total; seq++) {
      int r = received.get(seq);
      missing += r == 0 ? 1 : 0;
      duplicates += r > 1 ? r - 1 : 0;
    }
    assertEquals(n1, receivedUp, "records received before the outage");
    assertEquals(0, missing, "records never received");
    assertEquals(0, duplicates, "records received twice");
    synchronized (this) {
      assertEquals(0, unknownIds, "ids never sent");
      assertEquals(
          0, outOfOrder, "records out of order per application thread: " + firstOutOfOrder);
      System.out.printf(
          Locale.ROOT,
          "outage: %d batches written at their deadline by the spool-expiry thread arrived after"
              + " younger ones%n",
          passedByYounger);
    }
    ProducerMetrics m = producer.getMetrics();
    assertEquals(n2, m.getRecordsSpooled(), m.toString());
    assertEquals(n2, m.getSpoolRecordsDelivered(), m.toString());
    assertEquals(0, m.getSpoolBatchesNotWritten(), m.toString());
    assertEquals(0, m.getSpoolRecordsDropped(), m.toString());
  }

  private Producer producer(String endpoint, Path dir) {
    ProducerConfig config =
        ProducerConfig.builder()
            .setClientId("spool-outage")
            .setCompression(Compression.LZ4)
            .setLingerMillis(200)
            .setTotalSizeInBytes(512L << 20)
            .setDeliveryTimeoutMillis(DELIVERY_TIMEOUT_MILLIS)
            .setMaxRetryBackoffMillis(500)
            .setSendThreads(1)
            .setJmxEnabled(false)
            .setShutdownHookEnabled(false)
            .setSpool(
                SpoolConfig.builder(dir)
                    .setMaxBytes(maxBytes)
                    .setDurability(SpoolDurability.GROUP_COMMIT)
                    .setGroupCommitMillis(200)
                    .build())
            .build();
    return new Producer(
        config,
        OtlpHttpExporter.builder()
            .setEndpoint(endpoint)
            .setTimeoutMillis(5_000)
            .setServiceName("spool-outage")
            .build());
  }

  private void sendPhase(Producer producer, int from, int to) throws InterruptedException {
    for (Thread t : startSenders(producer, from, to)) {
      t.join(); // sends paced, never blocked: the waits on outcomes bound the phase
    }
  }

  /** Starts one sender per application thread sending its indices [from, to), paced. */
  private List<Thread> startSenders(Producer producer, int from, int to) {
    List<Thread> threads = new ArrayList<>();
    long perRecordNanos = 1_000_000_000L * THREADS / rate;
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      Thread th =
          new Thread(
              () -> {
                ReferenceWorkload workload = new ReferenceWorkload();
                long start = System.nanoTime();
                for (int i = from; i < to; i++) {
                  long due = start + (i - from) * perRecordNanos;
                  long wait = due - System.nanoTime();
                  if (wait > 0) {
                    LockSupport.parkNanos(wait); // pacing, not synchronisation
                  }
                  int seq = i * THREADS + thread;
                  producer.send(record(workload.next(seq), seq), r -> outcome(seq, r));
                  sent.incrementAndGet();
                }
              },
              "outage-sender-" + t);
      th.start();
      threads.add(th);
    }
    return threads;
  }

  /**
   * Whether record {@code seq}'s batch was written by the spool-expiry thread at its deadline,
   * never sent before (its SPOOLED outcome says "expired before it could be sent"): docs/usage.md's
   * one exception to the stored order, such a batch may land after younger batches of its shard
   * that the send thread wrote meanwhile (the send thread, busy with retries on a saturated
   * machine, fell 6 s behind).
   */
  private boolean writtenAtDeadline(int seq) {
    SendResult r = outcomeOf.get(seq);
    return r != null
        && r.getStatus() == SendResult.Status.SPOOLED
        && r.getMessage().contains("expired before it could be sent");
  }

  private void outcome(int seq, SendResult r) {
    outcomeOf.set(seq, r);
    if (!outcome.compareAndSet(seq, 0, r.getStatus().ordinal() + 1)) {
      secondOutcomes.incrementAndGet();
    }
    outcomes.incrementAndGet();
  }

  /** The reference record with an integer {@code seq} attribute for the receiver. */
  private static LogRecord record(LogRecord ref, int seq) {
    LogRecord.Builder b =
        LogRecord.builder()
            .setTimeUnixNano(ref.getTimeUnixNano())
            .setSeverityNumber(ref.getSeverityNumber())
            .setBody(ref.getBody());
    for (int i = 0; i < ref.getAttributeCount(); i++) {
      b.setAttribute(ref.getAttributeKey(i), ref.getAttributeValue(i));
    }
    return b.setAttribute("seq", (long) seq).build();
  }

  /** Samples the heap after a full GC once a second, until {@link #finish}. */
  private static final class HeapSampler extends Thread {
    private final long[] samples;
    private volatile boolean done;
    private int count; // read after join

    HeapSampler(int max) {
      super("outage-heap-sampler");
      samples = new long[max];
    }

    @Override
    public void run() {
      long next = System.nanoTime();
      while (!done && count < samples.length) {
        samples[count++] = heapAfterGc();
        next += 1_000_000_000L;
        LockSupport.parkNanos(next - System.nanoTime()); // sampling period, not synchronisation
      }
    }

    void finish() throws InterruptedException {
      done = true;
      interrupt();
      join(10_000);
    }

    /** Min and max of the samples, and the max of each fifth of the outage, in MiB. */
    String summary() {
      StringBuilder b = new StringBuilder();
      long min = Long.MAX_VALUE;
      long max = 0;
      for (int i = 0; i < count; i++) {
        min = Math.min(min, samples[i]);
        max = Math.max(max, samples[i]);
      }
      b.append(
          String.format(
              Locale.ROOT,
              "(%d samples) min %.1f max %.1f MiB; per fifth max",
              count,
              min / 1048576.0,
              max / 1048576.0));
      for (int f = 0; f < 5; f++) {
        long m = 0;
        for (int i = f * count / 5; i < (f + 1) * count / 5; i++) {
          m = Math.max(m, samples[i]);
        }
        b.append(String.format(Locale.ROOT, " %.1f", m / 1048576.0));
      }
      return b.toString();
    }
  }

  private static long heapAfterGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
