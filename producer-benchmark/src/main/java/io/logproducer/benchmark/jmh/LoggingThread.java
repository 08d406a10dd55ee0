package io.logproducer.benchmark.jmh;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Collection;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * One benchmark thread of {@link AppenderBenchmark} and {@link Log4j2AppenderBenchmark} (their
 * {@code ThreadState}s extend it): its own order ids and users (the logging call's two arguments),
 * the calls it made, and its own CPU time in the measurement iterations (not the time it waited for
 * a core). Used by its thread only.
 */
public abstract class LoggingThread {

  private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
  private static final int POOL = 1024;

  final Long[] orderIds = new Long[POOL];
  final String[] users = new String[POOL];
  private int next;
  long logged;
  private boolean measuring;
  private long iterationLogged;
  private long iterationCpu;
  long measuredCpuNanos;
  long measuredLogged;

  /** Fills this thread's ids and users, distinct for each {@code thread} (from 1). */
  void fill(int thread) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int i = 0; i < POOL; i++) {
      orderIds[i] = 700_000_000L + thread * 10_000_000L + random.nextInt(10_000_000);
      users[i] = "user-" + Integer.toHexString(random.nextInt()) + "@example.com";
    }
  }

  /** {@return the pool index of the next call}, counting the call. */
  int nextCall() {
    logged++;
    return next++ & (POOL - 1);
  }

  /** Call on the benchmark thread when an iteration starts. */
  void iterationStarts(IterationParams iteration) {
    measuring = iteration.getType() == IterationType.MEASUREMENT;
    iterationLogged = logged;
    iterationCpu = CPU.getCurrentThreadCpuTime();
  }

  /** Call on the benchmark thread when an iteration ends. */
  void iterationEnds() {
    if (measuring) {
      measuredCpuNanos += CPU.getCurrentThreadCpuTime() - iterationCpu;
      measuredLogged += logged - iterationLogged;
    }
  }

  /** {@return the calls of all {@code threads}} */
  static long logged(Collection<? extends LoggingThread> threads) {
    return threads.stream().mapToLong(t -> t.logged).sum();
  }

  /**
   * {@return {@code threads=N logged=N loggingThreadCpuNsPerOp=X}}: CPU ns per call of the
   * measurement iterations, over all {@code threads} ({@code n/a} without any)
   */
  static String summary(Collection<? extends LoggingThread> threads) {
    long cpu = threads.stream().mapToLong(t -> t.measuredCpuNanos).sum();
    long calls = threads.stream().mapToLong(t -> t.measuredLogged).sum();
    return String.format(
        Locale.ROOT,
        "threads=%d logged=%d loggingThreadCpuNsPerOp=%s",
        threads.size(),
        logged(threads),
        calls == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", (double) cpu / calls));
  }
}
