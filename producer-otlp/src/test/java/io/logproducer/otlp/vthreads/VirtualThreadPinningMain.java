package io.logproducer.otlp.vthreads;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import io.logproducer.Severity;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.Reply;
import io.logproducer.testsupport.PinnedEvents;
import io.logproducer.testsupport.VirtualThreadChild;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child JVM of {@link VirtualThreadPinningTest} (run with {@code
 * -Djdk.virtualThreadScheduler.parallelism=2}): 10,000 virtual threads send through one producer
 * whose budget is far smaller than what they send, while the receiver holds its responses; every
 * 100th thread also flushes. Prints {@code CARRIERS}, {@code WAITED}, {@code OUTCOMES}, {@code
 * PINNED total=N ours=M} (with the offending stacks) and {@code RESULT ok}, or {@code RESULT
 * failed: why} and exits 1.
 */
public final class VirtualThreadPinningMain {

  static final int THREADS = 10_000;
  static final int PER_THREAD = 5;
  static final long NO_PROGRESS_MILLIS = 120_000;

  private VirtualThreadPinningMain() {}

  public static void main(String[] args) {
    VirtualThreadChild.main(args, THREADS, VirtualThreadPinningMain::run);
  }

  private static void run(int threads, List<String> failures) throws Exception {
    ExecutorService virtual = VirtualThreadChild.virtualThreads(failures);
    int total = threads * PER_THREAD;
    // The application's first record initialises the record classes (LogRecord, its builder,
    // values):
    // done here, before recording, as an application's start-up would; a virtual thread waiting for
    // another's class initialisation is pinned on JDK 25, whoever's the class.
    record(0);
    PinnedEvents pinned = PinnedEvents.start();
    CountDownLatch gate = new CountDownLatch(1);
    AtomicIntegerArray outcomes = new AtomicIntegerArray(total);
    Map<SendResult.Status, AtomicInteger> statuses = new EnumMap<>(SendResult.Status.class);
    for (SendResult.Status s : SendResult.Status.values()) {
      statuses.put(s, new AtomicInteger());
    }
    AtomicInteger outcomeCount = new AtomicInteger();
    AtomicLong sent = new AtomicLong();
    AtomicInteger flushes = new AtomicInteger();
    ConcurrentLinkedQueue<Throwable> thrown = new ConcurrentLinkedQueue<>();
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      receiver.respond(r -> Reply.ok(r).heldBy(gate));
      Producer producer =
          new Producer(
              ProducerConfig.builder()
                  .setClientId("vthreads")
                  .setJmxEnabled(false)
                  .setBatchSizeInBytes(16 * 1024)
                  .setTotalSizeInBytes(64 * 1024)
                  .setLingerMillis(5)
                  .setMaxBlockMillis(600_000)
                  .setDeliveryTimeoutMillis(600_000)
                  .build(),
              OtlpHttpExporter.builder()
                  .setEndpoint(receiver.endpoint())
                  .setTimeoutMillis(300_000)
                  .build());
      ProducerMetrics before = producer.getMetrics();
      List<Future<?>> tasks = new ArrayList<>(threads);
      for (int t = 0; t < threads; t++) {
        int thread = t;
        tasks.add(
            virtual.submit(
                () -> {
                  try {
                    for (int k = 0; k < PER_THREAD; k++) {
                      int id = thread * PER_THREAD + k;
                      producer.send(
                          record(id),
                          result -> {
                            outcomes.incrementAndGet(id);
                            statuses.get(result.getStatus()).incrementAndGet();
                            outcomeCount.incrementAndGet();
                          });
                      sent.incrementAndGet();
                    }
                    if (thread % 100 == 0) {
                      producer.flush(); // flush from virtual threads too
                      flushes.incrementAndGet();
                    }
                  } catch (Throwable e) {
                    thrown.add(e);
                  }
                }));
      }
      // The receiver holds every response: the budget fills and senders must wait.
      PinnedEvents.await(
          "senders waiting for the budget",
          () -> producer.getMetrics().getWaitingThreads() > 0,
          sent::get,
          NO_PROGRESS_MILLIS);
      int waitingWhileHeld = producer.getMetrics().getWaitingThreads();
      Thread.sleep(1_000); // the receiver stalls ~1 s with senders waiting, then accepts
      waitingWhileHeld = Math.max(waitingWhileHeld, producer.getMetrics().getWaitingThreads());
      gate.countDown();
      PinnedEvents.await(
          "every sender to finish",
          () -> tasks.stream().allMatch(Future::isDone),
          () -> sent.get() + outcomeCount.get() + flushes.get(),
          NO_PROGRESS_MILLIS);
      Future<?> lastFlush = virtual.submit(producer::flush);
      PinnedEvents.await(
          "a final flush from a virtual thread",
          lastFlush::isDone,
          outcomeCount::get,
          NO_PROGRESS_MILLIS);
      lastFlush.get();
      producer.close();
      ProducerMetrics m = producer.getMetrics();
      System.out.println(
          "WAITED waitingWhileHeld="
              + waitingWhileHeld
              + " sendBlockedNanos="
              + m.getSendBlockedNanos()
              + " peakBufferedBytes="
              + m.getPeakBufferedBytes()
              + " budget="
              + m.getTotalSizeInBytes());
      if (waitingWhileHeld == 0 || m.getSendBlockedNanos() == 0) {
        failures.add("no sender waited for the budget");
      }
      int once = 0;
      StringBuilder wrong = new StringBuilder();
      for (int i = 0; i < total; i++) {
        int n = outcomes.get(i);
        if (n == 1) {
          once++;
        } else if (wrong.length() < 200) {
          wrong.append(" id ").append(i).append(": ").append(n);
        }
      }
      System.out.println(
          "OUTCOMES sent="
              + sent.get()
              + " exactlyOnce="
              + once
              + " of "
              + total
              + " statuses="
              + statuses
              + " flushes="
              + flushes.get()
              + " received="
              + receiver.acceptedRecords()
              + " accepted="
              + (m.getRecordsAccepted() - before.getRecordsAccepted()));
      VirtualThreadChild.firstThrown(thrown, "a sender", failures);
      if (sent.get() != total || once != total) {
        failures.add("not exactly one outcome per record:" + wrong);
      }
      if (statuses.get(SendResult.Status.DELIVERED).get() != total) {
        failures.add("not every record delivered: " + statuses);
      }
      if (receiver.acceptedRecords() != total) {
        failures.add("the receiver accepted " + receiver.acceptedRecords() + " of " + total);
      }
      if (flushes.get() != (threads + 99) / 100) {
        failures.add("flushes " + flushes.get());
      }
    } finally {
      gate.countDown();
      virtual.shutdown();
      VirtualThreadChild.checkPinned(pinned, failures);
    }
  }

  private static LogRecord record(int id) {
    return LogRecord.builder()
        .setTimeUnixNano(1_700_000_000_000_000_000L)
        .setSeverity(Severity.INFO)
        .setBody("virtual thread record " + id)
        .setAttribute("id", Integer.toString(id))
        .build();
  }
}
