package io.logproducer;

/**
 * Thrown by {@code send} when the record's bytes could not be reserved from {@code totalSizeInBytes} within
 * {@code maxBlockMillis} (policy {@link BufferFullPolicy#BLOCK}). The record was not accepted. The message states
 * the budget's state, e.g. "failed to reserve 612 bytes within 60000 ms: budget 104857600, in use 104857300,
 * waiting threads 7".
 */
public class BufferExhaustedException extends ProducerException {
  private static final long serialVersionUID = 1L;

  public BufferExhaustedException(String message) {
    super(message);
  }
}
