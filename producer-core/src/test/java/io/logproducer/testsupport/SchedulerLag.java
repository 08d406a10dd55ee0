package io.logproducer.testsupport;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Test support shared by the modules' tests (producer-core's test-jar). Measures how late this
 * machine wakes a thread up, so that a test of a bound the product promises ("returns within its
 * timeout plus 1 s") asserts that promise and not how fast the machine is: a daemon thread parks 1
 * ms at a time and records the largest overshoot while the meter is open; a call that waits on a
 * timer returns no later than its bound plus that lag (the waiting thread is woken as late as the
 * probe is). On an idle machine the lag is a millisecond or two; on a machine saturated by other
 * builds it can be seconds.
 *
 * <pre>{@code
 * try (SchedulerLag lag = SchedulerLag.start()) {
 *   long start = System.nanoTime();
 *   producer.close(300);
 *   lag.assertWithin(start, 300 + 1_000, "close(300)");
 * }
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class SchedulerLag implements AutoCloseable {

  /** How long the probe parks each time, in ns. */
  private static final long PROBE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  /**
   * What a bound may take beyond the product's bound and twice the measured lag, in ms: a wait is
   * woken late once for its timer and may be woken late again for each hand-off it waits on (a
   * lock, a thread's termination), and the probe can be lucky where the thread under test was not.
   */
  public static final long MARGIN_MILLIS = 250;

  private final AtomicLong maxLagNanos = new AtomicLong();
  private final Thread probe;
  private volatile boolean open = true;

  private SchedulerLag() {
    probe = new Thread(this::probe, "scheduler-lag-probe");
    probe.setDaemon(true);
  }

  /** {@return a meter that measures from now until {@link #close()}} */
  public static SchedulerLag start() {
    SchedulerLag lag = new SchedulerLag();
    lag.probe.start();
    return lag;
  }

  private void probe() {
    while (open) {
      long before = System.nanoTime();
      LockSupport.parkNanos(PROBE_NANOS);
      long late = System.nanoTime() - before - PROBE_NANOS;
      maxLagNanos.accumulateAndGet(late, Math::max);
    }
  }

  /** {@return the largest wake-up delay seen so far, in ms (rounded up)} */
  public long maxMillis() {
    return (maxLagNanos.get() + 999_999) / 1_000_000;
  }

  /**
   * The most a call bounded by {@code boundMillis} may take on this machine now.
   *
   * @param boundMillis the product's bound, in ms
   * @return the bound plus twice the measured lag plus {@link #MARGIN_MILLIS}, in ms
   */
  public long allowanceMillis(long boundMillis) {
    return boundMillis + 2 * maxMillis() + MARGIN_MILLIS;
  }

  /**
   * Asserts that what started at {@code startNanos} ({@link System#nanoTime()}) and ended now took
   * no longer than {@code boundMillis} plus the scheduler's lag ({@link #allowanceMillis}).
   *
   * @param startNanos when it started, from {@link System#nanoTime()}
   * @param boundMillis the product's bound, in ms
   * @param what what took the time, for the message
   * @return the time it took, in ms
   * @throws AssertionError if it took longer
   */
  public long assertWithin(long startNanos, long boundMillis, String what) {
    long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    long allowed = allowanceMillis(boundMillis);
    if (tookMillis > allowed) {
      throw new AssertionError(
          what
              + " took "
              + tookMillis
              + " ms: more than its bound "
              + boundMillis
              + " ms plus the scheduler's lag (at most "
              + maxMillis()
              + " ms measured meanwhile): "
              + allowed
              + " ms");
    }
    return tookMillis;
  }

  /** Stops the probe. */
  @Override
  public void close() {
    open = false;
    probe.interrupt();
  }
}
