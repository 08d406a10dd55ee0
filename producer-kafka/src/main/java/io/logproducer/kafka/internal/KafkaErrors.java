package io.logproducer.kafka.internal;

import io.logproducer.spi.ExportResult;
import org.apache.kafka.common.config.ConfigException;
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
 * error) is {@link ExportResult.Kind#FAILED}. The message always carries Kafka's own. It also tells
 * which refusals of a client's construction may pass ({@link #unresolvedBootstrap}).
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
   * The reason Kafka refused to build a client when that reason is only that no bootstrap host
   * resolves (yet): {@code ClientUtils.parseAndValidateAddresses}, called by the {@code
   * KafkaProducer} constructor (kafka-clients 3.x and 4.x), throws a {@code ConfigException} "No
   * resolvable bootstrap urls given in bootstrap.servers" when no host resolves (the default {@code
   * client.dns.lookup}), or "Unknown host in bootstrap.servers: &lt;url&gt;" ({@code
   * resolve_canonical_bootstrap_servers_only}), which the constructor wraps in a {@code
   * KafkaException}. Its other refusals ("Invalid url", "Invalid port", bad values, missing
   * classes, SASL/TLS settings) can never pass by waiting.
   *
   * @param e what the constructor threw
   * @return the {@code ConfigException} about the unresolved bootstrap in {@code e}'s cause chain,
   *     or null if {@code e} is another refusal
   */
  static ConfigException unresolvedBootstrap(Throwable e) {
    Throwable t = e;
    for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
      String m = t.getMessage();
      if (t instanceof ConfigException
          && m != null
          && (m.startsWith("No resolvable bootstrap urls given in ")
              || m.startsWith("Unknown host in "))) {
        return (ConfigException) t;
      }
    }
    return null;
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
