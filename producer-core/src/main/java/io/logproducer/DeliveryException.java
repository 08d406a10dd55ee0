package io.logproducer;

/**
 * Completes the future of {@link Producer#sendAsync(LogRecord)} exceptionally when the record was not delivered
 * (status REJECTED, FAILED, FAILED_AT_CLOSE or DROPPED). {@link #getResult()} holds the outcome.
 */
public class DeliveryException extends ProducerException {
  private static final long serialVersionUID = 1L;

  private final transient SendResult result;

  public DeliveryException(SendResult result) {
    super("record not delivered: " + result, result.getError());
    this.result = result;
  }

  public SendResult getResult() {
    return result;
  }
}
