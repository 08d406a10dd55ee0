package io.logproducer.kafka.internal;

import io.logproducer.spi.ExportResult;
import java.util.Collections;
import java.util.List;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;

/**
 * Maps what the Kafka client reports for a send to the producer's outcome kinds. Kafka's
 * classification decides: its {@code RetriableException}s (timeouts, leader changes, network
 * errors, a metadata wait that ran out) are {@link ExportResult.Kind#RETRYABLE}; a record or batch
 * too large for {@code max.request.size} or the broker's {@code message.max.bytes} is {@link
 * ExportResult.Kind#TOO_LARGE} (the producer splits the batch); any other {@code ApiException}
 * (authorization, authentication, invalid topic, unsupported version, a record the broker refuses)
 * is {@link ExportResult.Kind#REJECTED}; anything else (a closed client, an interrupt, a local
 * error) is {@link ExportResult.Kind#FAILED}. The message always carries Kafka's own; an
 * authentication failure ({@code AuthenticationException}: a SASL mechanism refused, a wrong
 * password, a TLS handshake failed) reads "Kafka topic T: authentication failed (SASL): &lt;Kafka's
 * message&gt; (SaslAuthenticationException)", "(TLS)" for a TLS one. It is a rejection, not
 * retried: Kafka's client does not retry it either (it is no {@code RetriableException}; the client
 * fails the metadata wait and the sends at once, without waiting for {@code max.block.ms}), and a
 * wrong password stays wrong until the application is configured again. It also tells which
 * refusals of a client's construction may pass ({@link #unresolvedBootstrap}).
 */
public final class KafkaErrors {

  private KafkaErrors() {}

  /**
   * @param e what the client threw or completed the send's future with
   * @param where the topic (and partition) the message was for, for the message
   * @return the outcome kind with Kafka's message
   */
  public static ExportResult classify(Throwable e, String where) {
    return classify(e, where, Collections.<String>emptyList());
  }

  /**
   * As {@link #classify(Throwable, String)}, with the given secret values replaced by {@value
   * SecretProperties#MASK} in the message and the cause (see {@link SecretProperties#scrubbed}).
   *
   * @param e what the client threw or completed the send's future with
   * @param where the topic (and partition) the message was for, for the message
   * @param secrets from {@link SecretProperties#secretValues}
   * @return the outcome kind with Kafka's message
   */
  public static ExportResult classify(Throwable e, String where, List<String> secrets) {
    String message;
    if (e instanceof AuthenticationException) {
      message =
          "Kafka "
              + where
              + ": authentication failed"
              + (e instanceof SaslAuthenticationException
                  ? " (SASL)"
                  : e instanceof SslAuthenticationException ? " (TLS)" : "")
              + ": "
              + e.getMessage()
              + " ("
              + e.getClass().getSimpleName()
              + ")";
    } else {
      message =
          "Kafka "
              + where
              + ": "
              + e.getClass().getSimpleName()
              + (e.getMessage() != null ? ": " + e.getMessage() : "");
    }
    message = SecretProperties.scrub(message, secrets);
    if (e instanceof RecordTooLargeException || e instanceof RecordBatchTooLargeException) {
      return ExportResult.tooLarge(message);
    }
    if (e instanceof RetriableException) {
      return ExportResult.retryable(message, SecretProperties.scrubbed(e, secrets), -1);
    }
    if (e instanceof ApiException) {
      return ExportResult.rejected(message);
    }
    return ExportResult.failed(
        message,
        SecretProperties.scrubbed(
            e, secrets)); // e.g. a closed client, an interrupt, a local KafkaException
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
