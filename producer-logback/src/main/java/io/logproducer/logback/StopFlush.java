package io.logproducer.logback;

import io.logproducer.Producer;
import java.util.concurrent.TimeUnit;

/**
 * The first part of a stop: flushes the producer while the appender still takes events, within a
 * deadline. {@link Producer#flush()} has no timeout of its own (it waits up to {@code
 * deliveryTimeoutMillis} when the receiver is down), so each flush runs on a short-lived daemon
 * thread named {@code <clientId>-stop-flush} (so that what it logs stays out of the appender), and
 * the stopping thread waits for it only until the deadline. A flush still running then ends when
 * the producer's close gives its records their outcome; {@link #awaitEnd(long)} waits for that.
 *
 * <p>Used by one stopping thread at a time.
 */
final class StopFlush {

  private final Producer producer;
  private Thread last;

  /**
   * @param producer the running producer, or null (then nothing is flushed)
   */
  StopFlush(Producer producer) {
    this.producer = producer;
  }

  /**
   * Flushes up to {@code maxFlushes} times, until one takes less than {@code shortNanos} or the
   * deadline passes (events keep arriving during a flush: each flush leaves less for the close).
   *
   * @param deadlineNanos a {@link System#nanoTime()} value
   * @param maxFlushes at least 1
   * @param shortNanos a flush shorter than this is the last
   */
  void flushWhileTaking(long deadlineNanos, int maxFlushes, long shortNanos) {
    if (producer == null) {
      return;
    }
    for (int i = 0; i < maxFlushes; i++) {
      long start = System.nanoTime();
      if (!flushOnce(deadlineNanos) || System.nanoTime() - start < shortNanos) {
        return;
      }
    }
  }

  private boolean flushOnce(long deadlineNanos) {
    Thread t =
        new Thread(
            () -> {
              try {
                producer.flush();
              } catch (RuntimeException e) {
                // interrupted or closed meanwhile: the close that follows gives every record its
                // outcome
              }
            },
            producer.getConfig().getClientId() + "-stop-flush");
    t.setDaemon(true);
    t.setContextClassLoader(StopFlush.class.getClassLoader()); // not the application's
    last = t;
    try {
      t.start();
    } catch (Throwable e) { // no thread: the close ships what is buffered
      return false;
    }
    return join(t, deadlineNanos);
  }

  /**
   * Waits for the last flush thread to end (after the producer closed, it ends at once).
   *
   * @param millis at most this long
   */
  void awaitEnd(long millis) {
    Thread t = last;
    if (t != null) {
      join(t, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis));
    }
  }

  private static boolean join(Thread t, long deadlineNanos) {
    boolean interrupted = false;
    try {
      while (t.isAlive()) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
        if (left <= 0) {
          return false;
        }
        try {
          t.join(left);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      return true;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
