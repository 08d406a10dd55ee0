package io.logproducer;

/** Base of the producer's unchecked exceptions. */
public class ProducerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ProducerException(String message) {
    super(message);
  }

  public ProducerException(String message, Throwable cause) {
    super(message, cause);
  }
}
