package io.logproducer.kafka.embedded;

import java.util.concurrent.TimeUnit;

/**
 * Deadlines on {@link System#nanoTime()} and the short pause between two polls of the broker.
 * Stateless.
 */
final class Deadlines {

  private Deadlines() {}

  /**
   * The time left until a deadline.
   *
   * @param deadlineNanos a {@link System#nanoTime()} value
   * @return the milliseconds left, negative once it passed
   */
  static long remainingMillis(long deadlineNanos) {
    return TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
  }

  /**
   * Waits between two polls of a child process or socket (the broker gives no notification to wait
   * on).
   *
   * @param millis the pause
   * @throws IllegalStateException when interrupted (the interrupt status is set again)
   */
  static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    }
  }
}
