package io.logproducer;

/**
 * Thrown by {@code send} when the record's bytes could not be reserved from {@code
 * totalSizeInBytes} within {@code maxBlockMillis} (policy {@link BufferFullPolicy#BLOCK}). The
 * record was not accepted. The message states the budget's state, e.g. "failed to reserve 612 bytes
 * within 60000 ms: budget 104857600, in use 104857300, waiting threads 7".
 */
public class BufferExhaustedException extends ProducerException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception (thrown by the producer's {@code send}).
   *
   * @param message the budget's state when the wait ended (bytes requested, wait in ms, budget,
   *     bytes in use, waiting threads)
   */
  public BufferExhaustedException(String message) {
    super(message);
  }
}
