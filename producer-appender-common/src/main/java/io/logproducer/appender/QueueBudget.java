package io.logproducer.appender;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How much an appender's {@link HandOff} queue may hold, which is outside the producer's {@code
 * totalSizeInBytes}. Small events (a message of at most {@value #SMALL_MESSAGE_CHARS} chars, at
 * most {@value #SMALL_CONTEXT_ENTRIES} MDC / ThreadContext entries, no exception: nearly every
 * event) are bounded by the queue's slots alone: 2,048 of them hold at most about 10 MiB, typically
 * well under 1 MiB. Large events (long messages, exceptions with their stack traces, large
 * contexts) also reserve their estimated size from a shared budget of {@value #LARGE_BYTES} bytes;
 * an event that does not fit is mapped and sent on the logging thread instead, as with {@code
 * queueSize} 0. So the queue stays bounded however large the application's events are, and events
 * keep their order through the one queue in all but that case.
 *
 * <p>Thread-safe: {@link #tryReserve} on logging threads, {@link #release} on the worker.
 */
public final class QueueBudget {

  /** The appenders' default {@code queueSize}: 2,048 events, as OpenTelemetry's batch processor. */
  public static final int DEFAULT_QUEUE_SIZE = 2048;

  /** The longest formatted message (in chars) of a small event: 2,048. */
  public static final int SMALL_MESSAGE_CHARS = 2048;

  /** The most MDC / ThreadContext entries of a small event: 32. */
  public static final int SMALL_CONTEXT_ENTRIES = 32;

  /** What large events waiting in one queue may hold together: 8 MiB (estimated). */
  public static final long LARGE_BYTES = 8L << 20;

  /** Estimated bytes of one stack frame (class, method and file names are shared strings). */
  private static final int FRAME_BYTES = 48;

  /** Estimated bytes of one context entry (the map's entry; its strings are the application's). */
  private static final int ENTRY_BYTES = 64;

  /** Estimated fixed bytes of an event (the event object, its level, names and time). */
  private static final int EVENT_BYTES = 256;

  private final AtomicLong largeBytes = new AtomicLong();

  /** Creates an empty budget. */
  public QueueBudget() {}

  /**
   * Whether an event is small: it then needs no reservation.
   *
   * @param messageChars the formatted message's length in chars (0 for none)
   * @param contextEntries the event's MDC / ThreadContext entries
   * @param thrown whether the event carries an exception
   * @return true if small
   */
  public static boolean isSmall(int messageChars, int contextEntries, boolean thrown) {
    return !thrown
        && messageChars <= SMALL_MESSAGE_CHARS
        && contextEntries <= SMALL_CONTEXT_ENTRIES;
  }

  /**
   * The estimated heap a large event holds while it waits: a function of its shape only, so that
   * the worker releases exactly what the logging thread reserved.
   *
   * @param messageChars the formatted message's length in chars
   * @param contextEntries the context's entries
   * @param frames the stack frames of its exception and causes (0 for none)
   * @return bytes, at least the fixed cost of an event
   */
  public static long estimate(int messageChars, int contextEntries, long frames) {
    return EVENT_BYTES
        + 2L * messageChars
        + (long) ENTRY_BYTES * contextEntries
        + FRAME_BYTES * frames;
  }

  /**
   * Reserves {@code bytes} for a large event if they fit.
   *
   * @param bytes the event's {@link #estimate}
   * @return false if the budget cannot take them (map the event on the logging thread)
   */
  public boolean tryReserve(long bytes) {
    long used;
    do {
      used = largeBytes.get();
      if (used + bytes > LARGE_BYTES) {
        return false;
      }
    } while (!largeBytes.compareAndSet(used, used + bytes));
    return true;
  }

  /**
   * Gives back what {@link #tryReserve} took, once the worker is done with the event.
   *
   * @param bytes the event's {@link #estimate}, as reserved
   */
  public void release(long bytes) {
    largeBytes.addAndGet(-bytes);
  }

  /** {@return the bytes reserved now} */
  public long reservedBytes() {
    return largeBytes.get();
  }
}
