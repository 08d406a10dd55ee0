package io.logproducer;

/** What {@code send} does when {@code totalSizeInBytes} is exhausted. */
public enum BufferFullPolicy {
  /**
   * Wait, longest waiter first, up to {@code maxBlockMillis}; then throw {@link
   * BufferExhaustedException}. The default, for applications that must not lose records.
   */
  BLOCK,
  /**
   * Do not wait: report the record as {@link SendResult.Status#DROPPED} to its callback on the
   * calling thread, count it in {@code recordsDropped}, and return. For logging appenders, which
   * must never stall the application.
   */
  DROP
}
