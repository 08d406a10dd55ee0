package io.logproducer.kafka.internal;

import io.logproducer.spi.ExportResult;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;

/**
 * Maps what the Kafka client reports for a send to the producer's outcome kinds. Kafka's
 * classification decides: its {@code RetriableException}s (timeouts, leader changes, network
 * errors, a metadata wait that ran out) are {@link ExportResult.Kind#RETRYABLE}; a record or batch
 * too large for {@code max.request.size} or the broker's {@code message.max.bytes} is {@link
 * ExportResult.Kind#TOO_LARGE} (the producer splits the batch); any other {@code ApiException}
 * (authorization, authentication, invalid topic, unsupported version, a record the broker refuses)
 * is {@link ExportResult.Kind#REJECTED}; anything else (a closed client, an interrupt, a local
 * error) is {@link ExportResult.Kind#FAILED}. The message always carries Kafka's own.
 */
public final class KafkaErrors {

  private KafkaErrors() {}

  /**
   * @param e what the client threw or completed the send's future with
   * @param where the topic (and partition) the message was for, for the message
   * @return the outcome kind with Kafka's message
   */
  public static ExportResult classify(Throwable e, String where) {
    String message =
        "Kafka "
            + where
            + ": "
            + e.getClass().getSimpleName()
            + (e.getMessage() != null ? ": " + e.getMessage() : "");
    if (e instanceof RecordTooLargeException || e instanceof RecordBatchTooLargeException) {
      return ExportResult.tooLarge(message);
    }
    if (e instanceof RetriableException) {
      return ExportResult.retryable(message, e, -1);
    }
    if (e instanceof ApiException) {
      return ExportResult.rejected(message);
    }
    return ExportResult.failed(
        message, e); // e.g. a closed client, an interrupt, a local KafkaException
  }

  /**
   * Whether {@code e} is the client's metadata wait running out for a topic ({@code
   * KafkaProducer.waitOnMetadata}: "Topic T not present in metadata after N ms."), which means
   * either no broker answered or the topic does not exist.
   */
  static boolean isMetadataWait(Throwable e) {
    return e instanceof org.apache.kafka.common.errors.TimeoutException
        && e.getMessage() != null
        && e.getMessage().contains("not present in metadata");
  }
}
