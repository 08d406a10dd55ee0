package io.logproducer.internal.spool;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * The durable watermark S (every entry up to S is as durable as the policy promises, or was
 * reported through {@link SpoolEvents#onDurabilityFailed}) and the force failure waiting to be
 * reported. The watermark only grows; waiters are woken when it does. Thread-safe: the watermark is
 * guarded by this object's monitor (and volatile for readers); the pending failure by the {@link
 * Spool}'s lock.
 */
final class DurableWatermark {

  /** A force that failed for entries {@code from..to}, to be reported once. Immutable. */
  static final class Failure {
    final long from;
    final long to;
    final IOException cause;

    Failure(long from, long to, IOException cause) {
      this.from = from;
      this.to = to;
      this.cause = cause;
    }
  }

  private volatile long value;
  private Failure pending;

  /** A watermark at {@code initial} (the last sequence of previous runs: already on disk). */
  DurableWatermark(long initial) {
    value = initial;
  }

  /** {@return the watermark} */
  long value() {
    return value;
  }

  /** Raises the watermark to {@code sequence} (never lowers it) and wakes the waiters. */
  synchronized void advance(long sequence) {
    if (sequence > value) {
      value = sequence;
      notifyAll();
    }
  }

  /**
   * Waits until the watermark reaches {@code sequence} or {@code timeoutMillis} passes. {@return
   * whether it did}
   *
   * @throws InterruptedException when interrupted while waiting
   */
  synchronized boolean await(long sequence, long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (value < sequence) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
    return true;
  }

  /** Queues the failure of forcing {@code from..to} (caller holds the spool's lock). */
  void queueFailure(long from, long to, IOException cause) {
    if (pending == null) {
      pending = new Failure(from, to, cause);
    } else {
      pending = new Failure(Math.min(from, pending.from), Math.max(to, pending.to), cause);
    }
  }

  /** {@return the queued failure, now cleared, or null} (caller holds the spool's lock) */
  Failure takeFailure() {
    Failure f = pending;
    pending = null;
    return f;
  }
}
