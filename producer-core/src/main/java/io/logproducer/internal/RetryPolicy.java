package io.logproducer.internal;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Backoff arithmetic: exponential from {@code initialRetryBackoffMillis}, doubling per failed
 * attempt, capped at {@code maxRetryBackoffMillis}, with ±{@value #JITTER_PERCENT} % jitter so that
 * many producers do not retry in step; a receiver's {@code Retry-After} is a floor (we never retry
 * sooner than asked). Used by the send loop for batches and by exporters for their own reconnection
 * (the GSE transport). Stateless, thread-safe.
 */
public final class RetryPolicy {

  /** Jitter, in percent of the exponential backoff, either way. */
  static final int JITTER_PERCENT = 20;

  private final int retries;
  private final long initialMillis;
  private final long maxMillis;

  /**
   * @param retries how many times a failed attempt may be repeated, at least 0
   * @param initialMillis the backoff after the first failure, in ms, at least 1
   * @param maxMillis the largest backoff, in ms; raised to {@code initialMillis} if below it
   */
  public RetryPolicy(int retries, long initialMillis, long maxMillis) {
    this.retries = retries;
    this.initialMillis = initialMillis;
    this.maxMillis = Math.max(initialMillis, maxMillis);
  }

  /**
   * Whether a batch whose attempt number {@code attempt} (1-based) just failed may be sent again.
   */
  boolean mayRetry(int attempt) {
    return attempt - 1 < retries;
  }

  /**
   * The delay before the next attempt after attempt {@code attempt} (1-based) failed, in ms.
   *
   * @param retryAfterMillis the receiver's Retry-After in ms, or -1
   * @param random a uniform value in [0, 1)
   */
  long backoffMillis(int attempt, long retryAfterMillis, double random) {
    int shift = Math.min(Math.max(attempt - 1, 0), 40);
    double exp = Math.min((double) initialMillis * (1L << shift), (double) maxMillis);
    double jitter = 1.0 + (JITTER_PERCENT / 100.0) * (2 * random - 1);
    long backoff = Math.min(maxMillis, Math.max(1L, Math.round(exp * jitter)));
    return Math.max(backoff, retryAfterMillis);
  }

  /**
   * {@link #backoffMillis(int, long, double)} with a random jitter.
   *
   * @param attempt the failed attempt, 1-based
   * @param retryAfterMillis the receiver's Retry-After in ms, or -1
   * @return the delay in ms, in [1, maxMillis] unless {@code retryAfterMillis} asks for more
   */
  public long backoffMillis(int attempt, long retryAfterMillis) {
    return backoffMillis(attempt, retryAfterMillis, ThreadLocalRandom.current().nextDouble());
  }

  int retries() {
    return retries;
  }
}
