package io.logproducer.benchmark.appenders;

import java.util.concurrent.locks.LockSupport;

/**
 * A deadline schedule for one paced logging thread: event {@code i} is due at {@code start + i *
 * interval}. {@link #awaitNext()} parks until the next event is due (never spins: a spinning
 * logging thread would take a core from the appender's own threads on a small machine); an event
 * that is already due returns at once, so a late wake-up is caught up without drift. Linux wakes a
 * parked thread some 50–80 µs late (timer slack), so at 20–40 µs intervals events leave in groups
 * of two or three within 100 µs, never in bursts longer than that. Not thread-safe: one per thread.
 */
final class Pacer {

  private final long start;
  private final double intervalNanos;
  private long next;

  /**
   * @param ratePerSecond events per second for this thread, > 0
   * @param startNanos {@code System.nanoTime()} of event 0
   */
  Pacer(double ratePerSecond, long startNanos) {
    if (!(ratePerSecond > 0)) {
      throw new IllegalArgumentException("rate must be > 0, was " + ratePerSecond);
    }
    this.start = startNanos;
    this.intervalNanos = 1e9 / ratePerSecond;
  }

  /** Waits until the next event is due. */
  void awaitNext() {
    long due = start + (long) (next++ * intervalNanos);
    long left;
    while ((left = due - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
    }
  }
}
