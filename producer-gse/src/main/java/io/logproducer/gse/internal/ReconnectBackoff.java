package io.logproducer.gse.internal;

import io.logproducer.internal.InternalLogger;
import io.logproducer.internal.RateLimitedLog;
import io.logproducer.internal.RetryPolicy;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * When the transport may try to connect again: after each failed attempt the next waits an
 * exponential backoff (the core's {@link RetryPolicy}: from {@code initialBackoffMillis} to {@code
 * maxBackoffMillis}, ±20 % jitter); a success resets it. Failures are logged at WARN at most once
 * per {@value #LOG_INTERVAL_MILLIS} ms (the core's {@link RateLimitedLog}, which counts what it
 * held back).
 *
 * <p>Not thread-safe: guarded by the transport's write lock.
 */
final class ReconnectBackoff {

  /** The least time between two logged connection failures, in ms. */
  static final long LOG_INTERVAL_MILLIS = 10_000;

  private static final InternalLogger log = InternalLogger.get(GseTransport.class);

  private final RetryPolicy policy;
  private final RateLimitedLog failureLog = new RateLimitedLog(log, LOG_INTERVAL_MILLIS);
  private final String where;
  private int failures;

  /** No attempt before this nanoTime (while {@link #failures} &gt; 0). */
  private long nextAttemptNanos;

  private IOException lastError;

  /**
   * @param initialBackoffMillis the delay after the first failure, in ms
   * @param maxBackoffMillis the largest delay, in ms
   * @param where the agent's address, for messages
   */
  ReconnectBackoff(long initialBackoffMillis, long maxBackoffMillis, String where) {
    this.policy =
        new RetryPolicy(Integer.MAX_VALUE, Math.max(1, initialBackoffMillis), maxBackoffMillis);
    this.where = where;
  }

  /** Whether an attempt may be made at {@code nowNanos} ({@link System#nanoTime()}). */
  boolean mayAttempt(long nowNanos) {
    return failures == 0 || nowNanos - nextAttemptNanos >= 0;
  }

  /** Records a failed attempt, schedules the next, and logs it (rate-limited). */
  void onFailure(Throwable e) {
    failures++;
    lastError = e instanceof IOException ? (IOException) e : new IOException(e);
    long backoff = policy.backoffMillis(failures, -1);
    nextAttemptNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff);
    int attempt = failures;
    failureLog.warn(
        () ->
            "cannot connect to the GSE agent at "
                + where
                + ": "
                + e
                + "; attempt "
                + attempt
                + ", next in "
                + backoff
                + " ms; records wait in the producer's buffer until it is reachable or "
                + "deliveryTimeoutMillis passes",
        null);
  }

  /** Records a successful attempt; returns the number of failed attempts before it. */
  int onSuccess() {
    int before = failures;
    failures = 0;
    return before;
  }

  /** {@return the time until the next attempt, in ms, at least 1} */
  long remainingMillis() {
    return Math.max(1, TimeUnit.NANOSECONDS.toMillis(nextAttemptNanos - System.nanoTime()));
  }

  /** {@return the last attempt's failure, or null} */
  IOException lastError() {
    return lastError;
  }
}
