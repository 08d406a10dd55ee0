package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Producer;
import io.logproducer.ProducerMetrics;
import io.logproducer.testsupport.SchedulerLag;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Receiver down, 200,000 events from 8 threads: no logging call waits, every event is accepted or
 * counted.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NeverBlocksTest {

  static final int THREADS = 8;
  static final int PER_THREAD = 25_000; // 200,000 events of ~300 bytes: 60 MB into 8 MiB
  static final int TOTAL = THREADS * PER_THREAD;
  static final long TOTAL_SIZE = 8L << 20;

  /**
   * The bound on any single call: the maxBlockMillis set in never-blocks.xml (60 s), what a call
   * that waited for buffer space would take (nothing frees space with the receiver down). A call's
   * wall time also includes the time its thread was descheduled (hundreds of ms on a saturated
   * machine), so no tighter bound tells a blocking appender from a slow machine; the percentiles
   * are printed.
   */
  static final long MAX_BOUND_MILLIS = 60_000;

  @Test
  void loggingNeverBlocksAndDropsAreCountedExactly() throws Exception {
    System.setProperty("nb.otlp.endpoint", "http://127.0.0.1:" + Support.closedPort());
    // The application's logging is initialised before it runs (the producer's own warnings go
    // through SLF4J to the
    // global log4j2 context here): not part of what a logging call costs.
    org.slf4j.LoggerFactory.getLogger(NeverBlocksTest.class).debug("warm-up");
    try (Support.Status status = Support.Status.register()) {
      LoggerContext ctx = Support.context("never-blocks.xml");
      LogproducerAppender appender = Support.appender(ctx, "nb");
      Producer producer = appender.getProducer();
      Logger log = ctx.getLogger("test.nb");
      String payload = "x".repeat(200);
      long[][] nanos = new long[THREADS][PER_THREAD];
      CountDownLatch start = new CountDownLatch(1);
      Thread[] threads = new Thread[THREADS];
      for (int t = 0; t < THREADS; t++) {
        final int id = t;
        threads[t] =
            new Thread(
                () -> {
                  try {
                    start.await();
                  } catch (InterruptedException e) {
                    return;
                  }
                  long[] mine = nanos[id];
                  for (int i = 0; i < PER_THREAD; i++) {
                    long t0 = System.nanoTime();
                    log.info("event {} {} {}", id, i, payload);
                    mine[i] = System.nanoTime() - t0;
                  }
                },
                "app-" + t);
        threads[t].start();
      }
      long t0 = System.nanoTime();
      start.countDown();
      for (Thread t : threads) {
        t.join(100_000);
        assertFalse(t.isAlive(), "deadlock: " + t.getName() + " still logging");
      }
      long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

      int slow = 0;
      for (int t = 0; t < THREADS; t++) {
        for (int i = 0; i < PER_THREAD; i++) {
          if (nanos[t][i] > 5_000_000) {
            slow++;
          }
        }
      }
      long[] all = Arrays.stream(nanos).flatMapToLong(Arrays::stream).sorted().toArray();
      long max = all[all.length - 1];
      long p999 = all[(int) (all.length * 0.999) - 1];
      long p50 = all[all.length / 2];
      // The logging calls have returned; the events still in the appender's hand-off queue (up to
      // its
      // capacity) reach the producer, or are dropped, within moments: wait for that, bounded.
      long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (producer.getMetrics().getRecordsAccepted() + appender.droppedCount() < TOTAL
          && System.nanoTime() - settle < 0) {
        Thread.sleep(10);
      }
      try (SchedulerLag lag = SchedulerLag.start()) {
        long stopStart = System.nanoTime();
        ctx.stop();
        // the appender's contract: stopTimeoutMillis (1000) + 1 s, plus how late this machine
        // wakes
        long stopMillis = lag.assertWithin(stopStart, 1000 + 1_000, "stop with the receiver down");
        System.out.printf(
            "NeverBlocksTest: stop with the receiver down took %,d ms (stopTimeoutMillis 1000)%n",
            stopMillis);
      }
      // read after the stop: a send in progress counts its record accepted until it returns, and
      // the appender's hand-off worker may still be inside the send that drops the last event
      ProducerMetrics m = producer.getMetrics();
      long accepted = m.getRecordsAccepted();
      long dropped = appender.droppedCount();
      System.out.printf(
          "NeverBlocksTest: %,d events in %,d ms; per call: max %.3f ms, p99.9 %.3f ms, p50 %.3f us;"
              + " %,d calls over 5 ms; accepted %,d, dropped %,d, peak buffered %,d of %,d bytes%n",
          TOTAL,
          elapsedMillis,
          max / 1e6,
          p999 / 1e6,
          p50 / 1e3,
          slow,
          accepted,
          dropped,
          m.getPeakBufferedBytes(),
          TOTAL_SIZE);

      assertTrue(
          max < TimeUnit.MILLISECONDS.toNanos(MAX_BOUND_MILLIS),
          "max per call " + max / 1e6 + " ms");
      assertEquals(TOTAL, accepted + dropped, "accepted " + accepted + " + dropped " + dropped);
      assertTrue(dropped > 0, "drops must have happened");
      assertTrue(m.getPeakBufferedBytes() <= TOTAL_SIZE, "peak " + m.getPeakBufferedBytes());
      assertTrue(
          m.getPeakBufferedBytes() > TOTAL_SIZE / 2,
          "the buffer filled: " + m.getPeakBufferedBytes());

      // its threads may take a moment to exit after the stop returned
      Support.await(
          "no producer thread left",
          () -> Support.threads("logproducer-nb-").isEmpty(),
          30_000,
          () -> Support.threads("logproducer-nb-").toString());

      List<String> warnings = status.messages(Level.WARN);
      assertTrue(
          warnings.stream()
              .anyMatch(
                  w -> w.startsWith("logproducer appender 'nb': ") && w.contains("events dropped")),
          warnings.toString());
      // After stop every drop was reported: the counts in all of the last report are the exact
      // totals.
      String last =
          warnings.stream()
              .filter(w -> w.startsWith("logproducer appender 'nb': "))
              .reduce((a, b) -> b)
              .orElseThrow();
      assertTrue(
          last.contains(String.format(java.util.Locale.ROOT, "(%,d and", appender.droppedCount())),
          last);
    } finally {
      System.clearProperty("nb.otlp.endpoint");
    }
  }
}
