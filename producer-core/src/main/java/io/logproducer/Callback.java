package io.logproducer;

/**
 * Receives the single outcome of one record passed to {@link Producer#send(LogRecord, Callback)}.
 *
 * <p>Called exactly once per accepted record, on a producer thread (a send thread, or the thread
 * that calls {@link Producer#close}), except for {@link SendResult.Status#DROPPED}, which is
 * reported on the calling thread before {@code send} returns. Keep it short: a slow callback delays
 * other batches' completion. Exceptions thrown by a callback are caught and logged. Calling {@code
 * send}, {@code flush} or {@code close} from a callback never deadlocks (see those methods).
 */
@FunctionalInterface
public interface Callback {
  /**
   * @param result the record's outcome; shared by all records of the same batch
   */
  void onCompletion(SendResult result);
}
