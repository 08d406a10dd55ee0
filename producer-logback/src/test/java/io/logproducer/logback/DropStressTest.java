package io.logproducer.logback;

import static io.logproducer.logback.LogbackTestSupport.configure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.status.Status;
import io.logproducer.Producer;
import io.logproducer.ProducerMetrics;
import io.logproducer.testsupport.SchedulerLag;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The receiver is down (a closed port) and 8 threads log 200,000 events into an 8 MiB buffer: no
 * logging call blocks (DROP), every event is either accepted or counted as dropped, the drops are
 * reported in logback's status channel, the buffer never exceeds its budget, and the context then
 * stops in bounded time.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DropStressTest {

  private static final int THREADS = 8;
  private static final int PER_THREAD = 25_000; // 200,000 events: 40 MB into 8 MiB
  private static final long TOTAL_BYTES = 8L << 20;

  /**
   * The bound on one logging call's wall time: maxBlockMillis (60 s, the default), which is what a
   * call that blocked on the full buffer would take with the receiver down. A call's wall time also
   * includes the time its thread was descheduled (on a saturated 2-core machine, hundreds of ms),
   * so no tighter bound tells a blocking appender from a slow machine; the percentiles, and the
   * time the threads spent waiting (parked on a lock or condition, the JVM's own accounting), are
   * printed.
   */
  private static final long MAX_CALL_MILLIS = 60_000;

  @Test
  void neverBlocksAndCountsEveryDrop() throws Exception {
    LoggerContext ctx =
        configure(
            "stress.xml",
            Map.of("otlp.endpoint", "http://127.0.0.1:" + LogbackTestSupport.closedPort()));
    LogproducerAppender lp = LogbackTestSupport.appender(ctx, "LP");
    assertTrue(lp.isStarted());
    Producer producer = lp.getProducer();
    long[][] nanos = new long[THREADS][PER_THREAD];
    CyclicBarrier start = new CyclicBarrier(THREADS);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    boolean contention = mx.isThreadContentionMonitoringSupported();
    if (contention) {
      mx.setThreadContentionMonitoringEnabled(true);
    }
    AtomicLong waitedMillis = new AtomicLong();
    AtomicLong blockedMillis = new AtomicLong();
    long t0 = System.nanoTime();
    for (int t = 0; t < THREADS; t++) {
      int id = t;
      Thread thread =
          new Thread(
              () -> {
                try {
                  Logger log = ctx.getLogger("app.stress." + id);
                  long[] mine = nanos[id];
                  start.await(60, TimeUnit.SECONDS);
                  for (int i = 0; i < PER_THREAD; i++) {
                    long s = System.nanoTime();
                    log.info(
                        "stress event {} of thread {} with some text to make it a realistic size",
                        i,
                        id);
                    mine[i] = System.nanoTime() - s;
                  }
                  if (contention) {
                    ThreadInfo info = mx.getThreadInfo(Thread.currentThread().getId());
                    waitedMillis.addAndGet(info.getWaitedTime());
                    blockedMillis.addAndGet(info.getBlockedTime());
                  }
                } catch (Throwable e) {
                  errors.add(e);
                }
              },
              "app-stress-" + t);
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join(100_000);
      assertTrue(!thread.isAlive(), thread.getName() + " still logging: blocked?");
    }
    long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    assertEquals(List.of(), errors);

    long[] all = new long[THREADS * PER_THREAD];
    for (int t = 0; t < THREADS; t++) {
      System.arraycopy(nanos[t], 0, all, t * PER_THREAD, PER_THREAD);
    }
    Arrays.sort(all);
    long max = all[all.length - 1];
    long p999 = all[(int) (all.length * 0.999) - 1];
    long p50 = all[all.length / 2];
    long over50 = Arrays.stream(all).filter(n -> n > 50_000_000L).count();

    // the appender's worker hands the last queued events over (accepted or dropped) as this
    // machine schedules it: wait for that while it progresses
    LogbackTestSupport.await(
        "every event accepted or dropped",
        () ->
            producer.getMetrics().getRecordsAccepted() + lp.droppedCount()
                >= (long) THREADS * PER_THREAD,
        30_000,
        () ->
            producer.getMetrics().getRecordsAccepted()
                + " accepted, "
                + lp.droppedCount()
                + " dropped");
    try (SchedulerLag lag = SchedulerLag.start()) {
      long s = System.nanoTime();
      ctx.stop();
      // the appender's contract: stopTimeoutMillis (500) + 1 s, plus how late this machine wakes
      long stopMillis = lag.assertWithin(s, 500 + 1_000, "the context's stop");
      System.out.println("stop took " + stopMillis + " ms; failed at stop " + lp.failedCount());
    }
    // read after the stop: a send in progress counts its record accepted until it returns, and the
    // appender's hand-off worker may still be inside the send that drops the last event
    ProducerMetrics m = producer.getMetrics();
    long dropped = lp.droppedCount();
    long accepted = m.getRecordsAccepted();
    List<String> reports =
        LogbackTestSupport.statuses(ctx, Status.WARN).stream()
            .filter(s -> s.startsWith("logproducer appender 'LP':") && s.contains("events dropped"))
            .collect(Collectors.toList());
    String summary =
        String.format(
            java.util.Locale.ROOT,
            "%,d events from %d threads in %d ms: per call "
                + "p50 %.3f ms, p99.9 %.3f ms, max %.3f ms, %d calls over 50 ms; waited %d ms and blocked %d ms in all "
                + "(ThreadMXBean, start barrier included); accepted %d + dropped %d; peak buffered %d of %d bytes; "
                + "%d drop reports, first: %s",
            THREADS * PER_THREAD,
            THREADS,
            elapsedMillis,
            p50 / 1e6,
            p999 / 1e6,
            max / 1e6,
            over50,
            waitedMillis.get(),
            blockedMillis.get(),
            accepted,
            dropped,
            m.getPeakBufferedBytes(),
            TOTAL_BYTES,
            reports.size(),
            reports.isEmpty() ? "-" : reports.get(0));
    System.out.println(summary);

    assertTrue(TimeUnit.NANOSECONDS.toMillis(max) < MAX_CALL_MILLIS, summary);
    assertEquals((long) THREADS * PER_THREAD, accepted + dropped, summary);
    assertTrue(dropped > 0, "the 8 MiB buffer must have filled: " + summary);
    assertEquals(dropped, m.getRecordsDropped(), "the producer's own count of DROPPED");
    assertTrue(m.getPeakBufferedBytes() <= TOTAL_BYTES, summary);
    assertTrue(!reports.isEmpty(), "a drop report in the status channel: " + summary);

    // a wait rather than a read: should a callback ever run after the stop returned (close joins
    // the producer threads, so none should), the count is late, not wrong; a wait that ends says
    // where the rest went
    LogbackTestSupport.await(
        "every accepted event's outcome",
        () -> lp.failedCount() >= accepted,
        30_000,
        () ->
            lp.failedCount()
                + " of "
                + accepted
                + " failed, "
                + lp.droppedCount()
                + " dropped; "
                + producer.getMetrics());
    assertEquals(
        accepted, lp.failedCount(), "every accepted event failed (receiver down), and was counted");
    LogbackTestSupport.awaitNoThreads("lp-stress-");
  }
}
