package io.logproducer;

/**
 * Thrown by {@code send} or {@code flush} when the calling thread is interrupted while waiting. The
 * thread's interrupt status is set again before this is thrown. A {@code send} that throws this did
 * not accept its record.
 */
public class ProducerInterruptedException extends ProducerException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception (thrown by the producer's {@code send} and {@code flush}).
   *
   * @param message what the thread was waiting for
   * @param cause the interruption
   */
  public ProducerInterruptedException(String message, InterruptedException cause) {
    super(message, cause);
  }
}
