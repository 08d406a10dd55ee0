package io.logproducer.internal.spool;

/**
 * Whether the spool's disk works, the last error, and when to retry after a failure: the back-off
 * starts at {@code minMillis} and doubles on each failed retry up to {@code maxMillis}; a success
 * resets it. Not thread-safe: guarded by the {@link Spool}'s lock (the status and last error are
 * volatile for lock-free readers).
 */
final class DiskHealth {
  private final long minMillis;
  private final long maxMillis;
  private volatile boolean disabled;
  private volatile Throwable lastError;
  private long retryAtMillis;
  private long backoffMillis;

  /** A healthy state whose back-off goes from {@code minMillis} doubling to {@code maxMillis}. */
  DiskHealth(long minMillis, long maxMillis) {
    this.minMillis = minMillis;
    this.maxMillis = maxMillis;
    this.backoffMillis = minMillis;
  }

  /** Records a failure at {@code nowMillis}: disabled until the back-off has passed. */
  void failed(Throwable cause, long nowMillis) {
    lastError = cause;
    if (!disabled) {
      backoffMillis = minMillis;
    } else {
      backoffMillis = Math.min(maxMillis, Math.max(1, backoffMillis * 2));
    }
    disabled = true;
    retryAtMillis = nowMillis + backoffMillis;
  }

  /** Records an error that does not disable the spool (e.g. a failed deletion). */
  void noted(Throwable cause) {
    lastError = cause;
  }

  /** Records that the disk works again. */
  void recovered() {
    disabled = false;
    backoffMillis = minMillis;
  }

  /** {@return whether the disk failed and has not worked since} */
  boolean disabled() {
    return disabled;
  }

  /** {@return whether a disabled spool may retry the disk at {@code nowMillis}} */
  boolean retryDue(long nowMillis) {
    return nowMillis >= retryAtMillis;
  }

  /** {@return the last error recorded, or null} */
  Throwable lastError() {
    return lastError;
  }
}
