package io.logproducer.internal;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Logs a recurring warning at most once per interval, counting what it held back ("… (37 similar
 * messages suppressed)"). Used by the producer's own threads and by exporters (the GSE transport).
 * Thread-safe.
 */
public final class RateLimitedLog {

  private final InternalLogger logger;
  private final long intervalNanos;
  private final AtomicLong nextNanos = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong suppressed = new AtomicLong();

  /**
   * @param logger where the warnings go
   * @param intervalMillis the least time between two logged warnings, in ms
   */
  public RateLimitedLog(InternalLogger logger, long intervalMillis) {
    this.logger = logger;
    this.intervalNanos = intervalMillis * 1_000_000L;
  }

  /**
   * Like {@link #warn(String, Throwable)}, building the message only when it is logged.
   *
   * @param message builds the message; called at most once, only when due
   * @param t the cause to log with it, or null
   */
  public void warn(java.util.function.Supplier<String> message, Throwable t) {
    if (due()) {
      emit(message.get(), t);
    }
  }

  /**
   * Logs {@code message} at WARN if the interval since the last logged one has passed, else counts
   * it as suppressed (the count is appended to the next logged message).
   *
   * @param message the message
   * @param t the cause to log with it, or null
   */
  public void warn(String message, Throwable t) {
    if (due()) {
      emit(message, t);
    }
  }

  /** Whether a message may be logged now; if not, it counts as suppressed. */
  private boolean due() {
    long now = System.nanoTime();
    long next = nextNanos.get();
    if ((next == Long.MIN_VALUE || now - next >= 0)
        && nextNanos.compareAndSet(next, now + intervalNanos)) {
      return true;
    }
    suppressed.incrementAndGet();
    return false;
  }

  private void emit(String message, Throwable t) {
    long held = suppressed.getAndSet(0);
    String text = held == 0 ? message : message + " (" + held + " similar messages suppressed)";
    if (t != null) {
      logger.warn(text, t);
    } else {
      logger.warn(text);
    }
  }
}
