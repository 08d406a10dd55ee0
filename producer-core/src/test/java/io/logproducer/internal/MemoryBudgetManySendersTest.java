package io.logproducer.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.Severity;
import io.logproducer.spi.Batch;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.ExportResult;
import io.logproducer.spi.ExporterCapabilities;
import io.logproducer.spi.RecordEncoder;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Thousands of senders on a budget of one batch (issue 32): the budget must be shared, not lost.
 * Every {@code send} returns before {@code maxBlockMillis} (none throws {@code
 * BufferExhaustedException}) while the exporter accepts everything at once, and every record gets
 * exactly one outcome.
 *
 * <p>Before the fix, a sender that had reserved bytes and found it needed a few more (its shard's
 * batch had been sealed meanwhile, so it now needed a new batch's bookkeeping too) waited for them
 * holding what it had reserved; enough such senders held the whole budget between them while
 * nothing was in a batch, so nothing was ever released and they all waited the full {@code
 * maxBlockMillis}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class MemoryBudgetManySendersTest {

  /** Encoded bytes per record, as the review measured (~450-byte OTLP records). */
  private static final int RECORD_BYTES = 450;

  private static final long TOTAL = 1 << 20;

  private static final long MAX_BLOCK_MILLIS = 20_000;

  /** The most all senders may take (they take seconds): well below the test's timeout. */
  private static final long FINISH_MILLIS = 180_000;

  /** How long the exporter takes per request. */
  private static final long EXPORT_MILLIS = 5;

  @Test
  void twoThousandPlatformThreadsOnABudgetOfOneBatch() throws Exception {
    run("platform", 2_000, 200, null);
  }

  @Test
  void tenThousandVirtualThreadsOnABudgetOfOneBatch() throws Exception {
    Object builder = virtualThreadBuilder();
    if (builder == null) {
      String line =
          "SKIPPED "
              + getClass().getSimpleName()
              + ".tenThousandVirtualThreadsOnABudgetOfOneBatch: no virtual threads on Java "
              + System.getProperty("java.version")
              + " (needs 21+; run with -Djvm=<JDK 21+>/bin/java)";
      System.out.println(line);
      System.err.println(line);
    }
    Assumptions.assumeTrue(builder != null, "virtual threads need Java 21+");
    run("virtual", 10_000, 40, builder);
  }

  private void run(String kind, int threads, int perThread, Object virtualBuilder)
      throws Exception {
    int records = threads * perThread;
    CountingExporter exporter = new CountingExporter();
    ProducerConfig config =
        ProducerConfig.builder()
            .setClientId("budget-" + kind)
            .setTotalSizeInBytes(TOTAL)
            .setBatchSizeInBytes((int) TOTAL)
            .setMaxBlockMillis(MAX_BLOCK_MILLIS)
            .setSendThreads(2)
            .setCompression(Compression.NONE)
            .setJmxEnabled(false)
            .setShutdownHookEnabled(false)
            .build();
    AtomicIntegerArray outcomes = new AtomicIntegerArray(records);
    AtomicLong delivered = new AtomicLong();
    ConcurrentHashMap<String, Integer> failedOutcomes = new ConcurrentHashMap<>();
    ConcurrentHashMap<String, Integer> thrown = new ConcurrentHashMap<>();
    List<String> firstThrown = new CopyOnWriteArrayList<>();
    LongAccumulator longestSendNanos = new LongAccumulator(Math::max, 0);
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch finished = new CountDownLatch(threads);
    long began;
    try (Producer producer = new Producer(config, exporter)) {
      List<Thread> started = new ArrayList<>(threads);
      for (int t = 0; t < threads; t++) {
        int first = t * perThread;
        Runnable task =
            () -> {
              try {
                start.await();
                for (int i = 0; i < perThread; i++) {
                  int id = first + i;
                  LogRecord record =
                      LogRecord.builder().setSeverity(Severity.INFO).setBody("r" + id).build();
                  long t0 = System.nanoTime();
                  try {
                    producer.send(
                        record,
                        r -> {
                          outcomes.incrementAndGet(id);
                          if (r.getStatus() == SendResult.Status.DELIVERED) {
                            delivered.incrementAndGet();
                          } else {
                            failedOutcomes.merge(r.getStatus().toString(), 1, Integer::sum);
                          }
                        });
                  } catch (RuntimeException e) {
                    thrown.merge(e.getClass().getSimpleName(), 1, Integer::sum);
                    if (firstThrown.size() < 3) {
                      firstThrown.add(e.toString());
                    }
                  } finally {
                    longestSendNanos.accumulate(System.nanoTime() - t0);
                  }
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } finally {
                finished.countDown();
              }
            };
        started.add(start(virtualBuilder, "sender-" + t, task));
      }
      began = System.nanoTime();
      start.countDown();
      // A budget that is lost shows up as sends thrown after maxBlockMillis; senders that never
      // finish (on Java 21 the old code could deadlock: every carrier pinned by a sender blocked in
      // a shard's monitor) as a dump of where they are, before the test's own timeout.
      if (!finished.await(FINISH_MILLIS, TimeUnit.MILLISECONDS)) {
        fail("senders still running: " + dumpOf(started));
      }
      producer.flush();
    }
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
    long longestMillis = TimeUnit.NANOSECONDS.toMillis(longestSendNanos.get());
    System.out.printf(
        Locale.ROOT,
        "%s: %,d threads x %d records in %,d ms; longest send %,d ms; thrown %s; exported %,d"
            + " records in %,d batches%n",
        kind,
        threads,
        perThread,
        elapsedMillis,
        longestMillis,
        thrown,
        exporter.records.get(),
        exporter.batches.get());
    assertTrue(
        thrown.isEmpty(),
        "send() threw with a healthy receiver ("
            + kind
            + " threads, longest send "
            + longestMillis
            + " ms of maxBlockMillis "
            + MAX_BLOCK_MILLIS
            + "): "
            + thrown
            + ", first: "
            + firstThrown);
    // No bound on the longest send's wall time: a send that waited maxBlockMillis for memory throws
    // (the assertion above); a longer wall time is a thread the saturated machine did not run.
    assertTrue(failedOutcomes.isEmpty(), "outcomes other than DELIVERED: " + failedOutcomes);
    assertEquals(records, delivered.get(), "DELIVERED outcomes");
    for (int i = 0; i < records; i++) {
      if (outcomes.get(i) != 1) {
        fail("record " + i + " got " + outcomes.get(i) + " outcomes");
      }
    }
    assertEquals(records, exporter.records.get(), "records the exporter received");
  }

  private static Thread start(Object virtualBuilder, String name, Runnable task) throws Exception {
    if (virtualBuilder == null) {
      Thread t = new Thread(task, name);
      t.setDaemon(true);
      t.start();
      return t;
    }
    // Thread.ofVirtual().unstarted(task), by reflection: tests compile for Java 17.
    Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
    Thread t =
        (Thread) ofVirtual.getMethod("unstarted", Runnable.class).invoke(virtualBuilder, task);
    t.start();
    return t;
  }

  /** {@code Thread.ofVirtual()}, or null before Java 21. */
  private static Object virtualThreadBuilder() {
    try {
      return Thread.class.getMethod("ofVirtual").invoke(null);
    } catch (ReflectiveOperationException e) {
      return null;
    }
  }

  /** Where the first live senders and the producer's threads are, for a failure message. */
  private static String dumpOf(List<Thread> senders) {
    StringBuilder s = new StringBuilder();
    int shown = 0;
    for (Thread t : senders) {
      if (t.isAlive() && shown++ < 5) {
        s.append('\n').append(t.getName());
        for (StackTraceElement e : t.getStackTrace()) {
          s.append("\n  at ").append(e);
        }
      }
    }
    for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
      if (info.getThreadName().startsWith("budget-")) {
        s.append('\n').append(info);
      }
    }
    return s.toString();
  }

  /**
   * Accepts every batch at once and counts its records; records are {@value #RECORD_BYTES} bytes.
   */
  private static final class CountingExporter extends StubExporter {
    final AtomicLong records = new AtomicLong();
    final AtomicLong batches = new AtomicLong();

    @Override
    public ExporterCapabilities capabilities() {
      return ExporterCapabilities.builder(16 << 20).build();
    }

    @Override
    public RecordEncoder encoder() {
      return (LogRecord record, EncodeBuffer out) -> {
        int start = out.size();
        out.writeUtf8(record.getBody().asString());
        while (out.size() - start < RECORD_BYTES) {
          out.writeByte(' ');
        }
      };
    }

    @Override
    public ExportResult export(Batch batch, byte[] body, int length, Compression compression) {
      records.addAndGet(batch.recordCount());
      batches.incrementAndGet();
      // The receiver's service time (a loopback receiver takes a few ms per request), not a
      // synchronisation: with none, batches complete as soon as sealed and the budget never stays
      // full long enough for thousands of senders to queue for it.
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(EXPORT_MILLIS));
      return ExportResult.success();
    }
  }
}
