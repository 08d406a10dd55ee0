package io.logproducer.logback;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The door between logging threads and a stopping appender's producer: appends pass while it is
 * open; {@link #close(long)} shuts it and waits for the appends already inside to leave, so that
 * the producer closes only after them, and every append that comes later is refused (the caller
 * counts it as dropped).
 *
 * <p>Thread-safe. An append costs two striped-counter increments ({@link LongAdder}: no line shared
 * by all logging threads) and one volatile read. Both counters only grow, and {@link #close(long)}
 * reads the one of appends that left before the one of appends that entered: then an append inside
 * always shows as a difference, however the counters' stripes are read.
 */
final class AppendGate {

  /** How long {@link #close(long)} naps between two looks at the appends inside: 0.1 ms. */
  private static final long NAP_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

  private final LongAdder entered = new LongAdder();
  private final LongAdder left = new LongAdder();
  private volatile boolean closed;

  /**
   * Enters; when true, the caller must call {@link #exit()} in a {@code finally} block.
   *
   * @return false once {@link #close(long)} was called: the append must not reach the producer
   */
  boolean enter() {
    entered.increment(); // before the read of closed: close() sees this append or it sees closed
    if (closed) {
      left.increment();
      return false;
    }
    return true;
  }

  /** Leaves (after {@link #enter()} returned true). */
  void exit() {
    left.increment();
  }

  /** {@return whether {@link #close(long)} was called} */
  boolean isClosed() {
    return closed;
  }

  /**
   * Shuts the gate and waits until no append is inside, up to {@code timeoutMillis}.
   *
   * @param timeoutMillis how long to wait, at least 0 (an append inside waits at most {@code
   *     maxBlockMillis} for buffer space, and not at all under {@code DROP})
   * @return true if no append was inside when it returned
   */
  boolean close(long timeoutMillis) {
    closed = true;
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, timeoutMillis));
    while (true) {
      long out = left.sum(); // first: then entered.sum() counts at least every append inside now
      if (entered.sum() == out) {
        return true;
      }
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      LockSupport.parkNanos(this, NAP_NANOS);
    }
  }
}
