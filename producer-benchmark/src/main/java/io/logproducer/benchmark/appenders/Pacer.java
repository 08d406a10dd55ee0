package io.logproducer.benchmark.appenders;

import java.util.concurrent.locks.LockSupport;

/**
 * A deadline schedule for one paced logging thread: event {@code i} is due at {@code start + i *
 * interval}. {@link #awaitNext()} parks until the next event is due, and for at least {@value
 * #QUANTUM_NANOS} ns (never spins: a spinning logging thread would take a core from the appender's
 * own threads on a small machine); an event that is already due returns at once, so a late wake-up
 * is caught up without drift. So at 20–40 µs intervals events leave in groups of about 250 µs'
 * worth (6–13 events), as a service handling requests logs, and the park's own cost (a system call
 * and a context switch, 2–6 µs) is paid once a group, not once an event: it would otherwise weigh
 * more than the logging call on the process's CPU. Not thread-safe: one per thread.
 */
final class Pacer {

  /** The shortest park: 250 µs. */
  static final long QUANTUM_NANOS = 250_000L;

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
      LockSupport.parkNanos(Math.max(left, QUANTUM_NANOS));
    }
  }
}
