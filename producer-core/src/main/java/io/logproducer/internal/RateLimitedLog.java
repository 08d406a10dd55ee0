package io.logproducer.internal;

import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * Logs a recurring warning at most once per interval, counting what it held back ("… (37 similar messages
 * suppressed)"). Thread-safe.
 */
final class RateLimitedLog {

  private final Logger logger;
  private final long intervalNanos;
  private final AtomicLong nextNanos = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong suppressed = new AtomicLong();

  RateLimitedLog(Logger logger, long intervalMillis) {
    this.logger = logger;
    this.intervalNanos = intervalMillis * 1_000_000L;
  }

  void warn(String message, Throwable t) {
    long now = System.nanoTime();
    long next = nextNanos.get();
    if ((next == Long.MIN_VALUE || now - next >= 0) && nextNanos.compareAndSet(next, now + intervalNanos)) {
      long held = suppressed.getAndSet(0);
      String text = held == 0 ? message : message + " (" + held + " similar messages suppressed)";
      if (t != null) {
        logger.warn(text, t);
      } else {
        logger.warn(text);
      }
    } else {
      suppressed.incrementAndGet();
    }
  }
}
