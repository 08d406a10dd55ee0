package io.logproducer.appender;

/**
 * Which events may wait in an appender's {@link HandOff} queue: those small enough that a full
 * queue stays small. The queue holds events outside the producer's {@code totalSizeInBytes}, so an
 * event with a long message, an exception (its stack trace) or a large context is mapped and sent
 * on the logging thread instead, as with {@code queueSize} 0. With the default 2,048 slots the
 * queue then holds at most about 2,048 × (2 × {@value #MAX_MESSAGE_CHARS} + {@value
 * #MAX_CONTEXT_ENTRIES} entries) — under 10 MiB however large the application's events are, and
 * typically under 1 MiB.
 *
 * <p>Stateless; thread-safe.
 */
public final class QueueLimits {

  /** The appenders' default {@code queueSize}: 2,048 events, as OpenTelemetry's batch processor. */
  public static final int DEFAULT_QUEUE_SIZE = 2048;

  /** The longest formatted message (in chars) of a queued event: 2,048. */
  public static final int MAX_MESSAGE_CHARS = 2048;

  /** The most MDC / ThreadContext entries of a queued event: 32. */
  public static final int MAX_CONTEXT_ENTRIES = 32;

  private QueueLimits() {}

  /**
   * Whether an event may wait in the queue.
   *
   * @param messageChars the formatted message's length in chars (0 for none)
   * @param contextEntries the event's MDC / ThreadContext entries
   * @param thrown whether the event carries an exception
   * @return true if it may be queued; false if it must be mapped on the logging thread
   */
  public static boolean admits(int messageChars, int contextEntries, boolean thrown) {
    return !thrown && messageChars <= MAX_MESSAGE_CHARS && contextEntries <= MAX_CONTEXT_ENTRIES;
  }
}
