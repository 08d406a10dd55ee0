package io.logproducer.appender;

import io.logproducer.Producer;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.Reply;
import io.logproducer.testsupport.PinnedEvents;
import io.logproducer.testsupport.VirtualThreadChild;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The body of the logback and log4j2 {@code VirtualThreadAppenderMain} child JVMs (run with {@code
 * -Djdk.virtualThreadScheduler.parallelism=2}): virtual threads log through the framework's
 * appender (queue of 64, a 64 KiB budget with {@code BLOCK}) while the receiver holds its
 * responses, so they wait in the hand-off and in the budget; every 100th also flushes the producer.
 * Prints {@code PINNED total=N ours=M} and {@code EVENTS ...}; failures go to {@code failures}
 * ({@link VirtualThreadChild#main} prints the {@code RESULT}). The framework's part (configuring
 * it, its logger, its appender's counts, decoding what was delivered) is {@link Framework}.
 */
public final class VirtualThreadAppenderChild {

  static final int PER_THREAD = 5;
  static final long NO_PROGRESS_MILLIS = 120_000;

  /** Starts the framework with its {@code vthreads.xml} configuration. */
  public interface Framework {
    /** Configures the framework to send to {@code endpoint} and returns its appender under test. */
    Appender start(String endpoint) throws Exception;
  }

  /** The framework's appender under test, its logger and its context. */
  public static final class Appender {
    final Producer producer;
    final Consumer<String> info;
    final BiConsumer<String, Object> infoWithArg;
    final LongSupplier droppedCount;
    final LongSupplier failedCount;
    final Runnable stop;
    final Function<OtlpReceiver, List<String>> deliveredBodies;

    /**
     * @param producer the appender's producer
     * @param info logs a message at INFO through the framework's logger
     * @param infoWithArg logs a format with one {@code {}} argument at INFO through that logger
     * @param droppedCount the appender's dropped count
     * @param failedCount the appender's failed count
     * @param stop stops the framework's context (and the appender with it)
     * @param deliveredBodies the bodies of the records a receiver accepted, one per record
     */
    public Appender(
        Producer producer,
        Consumer<String> info,
        BiConsumer<String, Object> infoWithArg,
        LongSupplier droppedCount,
        LongSupplier failedCount,
        Runnable stop,
        Function<OtlpReceiver, List<String>> deliveredBodies) {
      this.producer = producer;
      this.info = info;
      this.infoWithArg = infoWithArg;
      this.droppedCount = droppedCount;
      this.failedCount = failedCount;
      this.stop = stop;
      this.deliveredBodies = deliveredBodies;
    }
  }

  private VirtualThreadAppenderChild() {}

  /** {@link VirtualThreadChild#main}'s body for the appender of {@code framework}. */
  public static void run(int threads, List<String> failures, Framework framework) throws Exception {
    ExecutorService virtual = VirtualThreadChild.virtualThreads(failures);
    int total = threads * PER_THREAD;
    PinnedEvents pinned = null;
    CountDownLatch gate = new CountDownLatch(1);
    AtomicLong logged = new AtomicLong();
    AtomicLong flushes = new AtomicLong();
    ConcurrentLinkedQueue<Throwable> thrown = new ConcurrentLinkedQueue<>();
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      AtomicBoolean holding = new AtomicBoolean();
      receiver.respond(r -> holding.get() ? Reply.ok(r).heldBy(gate) : Reply.ok(r));
      Appender lp = framework.start(receiver.endpoint());
      Producer producer = lp.producer;
      // One event before the recording: the framework's classes are initialized by then (a
      // virtual thread waiting for another's class initialization is pinned, once, outside our
      // code).
      lp.info.accept("warm-up");
      producer.flush();
      holding.set(true);
      pinned = PinnedEvents.start();
      List<Future<?>> tasks = new ArrayList<>(threads);
      for (int t = 0; t < threads; t++) {
        int thread = t;
        tasks.add(
            virtual.submit(
                () -> {
                  try {
                    for (int k = 0; k < PER_THREAD; k++) {
                      lp.infoWithArg.accept("vthread event {}", thread * PER_THREAD + k);
                      logged.incrementAndGet();
                    }
                    if (thread % 100 == 0) {
                      producer.flush();
                      flushes.incrementAndGet();
                    }
                  } catch (Throwable e) {
                    thrown.add(e);
                  }
                }));
      }
      PinnedEvents.await(
          "logging threads waiting for the budget",
          () -> producer.getMetrics().getWaitingThreads() > 0,
          logged::get,
          NO_PROGRESS_MILLIS);
      Thread.sleep(1_000); // the receiver stalls ~1 s, then accepts
      gate.countDown();
      PinnedEvents.await(
          "every logging thread to finish",
          () -> tasks.stream().allMatch(Future::isDone),
          () -> logged.get() + flushes.get() + receiver.acceptedRecords(),
          NO_PROGRESS_MILLIS);
      Future<?> lastFlush = virtual.submit(producer::flush);
      PinnedEvents.await(
          "a final flush from a virtual thread",
          lastFlush::isDone,
          receiver::acceptedRecords,
          NO_PROGRESS_MILLIS);
      lastFlush.get();
      long blocked = producer.getMetrics().getSendBlockedNanos();
      lp.stop.run();
      Set<String> bodies = new HashSet<>();
      long records = 0;
      for (String body : lp.deliveredBodies.apply(receiver)) {
        if (!"warm-up".equals(body)) {
          bodies.add(body);
        }
        records++;
      }
      System.out.println(
          "EVENTS logged="
              + logged.get()
              + " of "
              + total
              + " deliveredDistinct="
              + bodies.size()
              + " deliveredRecords="
              + records
              + " dropped="
              + lp.droppedCount.getAsLong()
              + " failed="
              + lp.failedCount.getAsLong()
              + " flushes="
              + flushes.get()
              + " sendBlockedNanos="
              + blocked);
      VirtualThreadChild.firstThrown(thrown, "a logging thread", failures);
      if (logged.get() != total) {
        failures.add("logged " + logged.get() + " of " + total);
      }
      if (bodies.size() + lp.droppedCount.getAsLong() + lp.failedCount.getAsLong() != total) {
        failures.add("events not accounted for: delivered " + bodies.size());
      }
      if (bodies.size() != total) {
        failures.add("not every event delivered: " + bodies.size() + " of " + total);
      }
      if (blocked == 0) {
        failures.add("nothing waited for the budget");
      }
    } finally {
      gate.countDown();
      virtual.shutdown();
      VirtualThreadChild.checkPinned(pinned, failures);
    }
  }
}
