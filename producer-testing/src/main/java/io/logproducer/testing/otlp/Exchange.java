package io.logproducer.testing.otlp;

/** One request {@link OtlpReceiver} received and how it answered. Immutable, thread-safe. */
public final class Exchange {

  private final ReceivedRequest request;
  private final int status;

  Exchange(ReceivedRequest request, int status) {
    this.request = request;
    this.status = status;
  }

  /** {@return the request} */
  public ReceivedRequest request() {
    return request;
  }

  /** {@return the HTTP status answered; 0 if the connection was dropped instead} */
  public int status() {
    return status;
  }

  /** {@return whether the answer was 2xx (the records count as delivered)} */
  public boolean accepted() {
    return status >= 200 && status < 300;
  }

  @Override
  public String toString() {
    return "Exchange{#"
        + request.index()
        + " "
        + request.recordCount()
        + " records -> "
        + status
        + "}";
  }
}
