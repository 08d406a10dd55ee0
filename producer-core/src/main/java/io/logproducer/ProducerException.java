package io.logproducer;

/** Base of the producer's unchecked exceptions. */
public class ProducerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception without a cause.
   *
   * @param message the explanation
   */
  public ProducerException(String message) {
    super(message);
  }

  /**
   * Creates an exception with a cause.
   *
   * @param message the explanation
   * @param cause the underlying failure, or null
   */
  public ProducerException(String message, Throwable cause) {
    super(message, cause);
  }
}
