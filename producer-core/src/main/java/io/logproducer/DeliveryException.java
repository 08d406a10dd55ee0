package io.logproducer;

/**
 * Completes the future of {@link Producer#sendAsync(LogRecord)} exceptionally when the record is
 * not known to be delivered: every status but {@link SendResult.Status#DELIVERED}, that is whenever
 * {@link SendResult#isSuccess()} is false. {@link #getResult()} holds the outcome; {@link
 * #getCause()} is the result's error, if any.
 */
public class DeliveryException extends ProducerException {
  private static final long serialVersionUID = 1L;

  private final transient SendResult result;

  /**
   * Creates the exception for an outcome that is not a success (every status but {@link
   * SendResult.Status#DELIVERED}). The message is "record not delivered: " — "record may not have
   * been delivered: " for {@link SendResult.Status#PARTIALLY_REJECTED} — followed by the result;
   * the cause is {@link SendResult#getError()} (may be null).
   *
   * @param result the outcome that was not a success; not null
   * @throws IllegalArgumentException if {@code result} is null or a success
   */
  public DeliveryException(SendResult result) {
    super(describe(result), result == null ? null : result.getError());
    this.result = result;
  }

  private static String describe(SendResult result) {
    if (result == null || result.isSuccess()) {
      throw new IllegalArgumentException(
          "a DeliveryException needs a result that is not a success, was " + result);
    }
    switch (result.getStatus()) {
      case PARTIALLY_REJECTED:
        return "record may not have been delivered: " + result;
      case SPOOLED:
        return "record not delivered yet, stored in the disk spool for later delivery: " + result;
      default:
        return "record not delivered: " + result;
    }
  }

  /**
   * The record's outcome.
   *
   * @return the result this exception reports; never a success (null only after deserialisation)
   */
  public SendResult getResult() {
    return result;
  }
}
