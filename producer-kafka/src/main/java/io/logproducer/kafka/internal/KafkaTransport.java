package io.logproducer.kafka.internal;

import io.logproducer.spi.ExportResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The Kafka client of one exporter: sends messages and waits for their acknowledgements on the
 * calling send thread, turning every answer into an {@link ExportResult}. Only send threads call
 * it, so the application never waits for Kafka metadata or the client's buffer. When a metadata
 * wait runs out, an admin client (created then, closed with the transport) asks the cluster whether
 * the topic exists: a missing topic is a final rejection, anything else (no broker reachable) is
 * retried. The client itself is a {@link DeferredClient}: built at start, or later when only its
 * bootstrap host did not resolve yet. Thread-safe.
 */
public final class KafkaTransport implements AutoCloseable {

  /** Bound on the topic-existence question after a metadata wait ran out, in ms. */
  static final int TOPIC_CHECK_TIMEOUT_MILLIS = 5_000;

  private final Map<String, Object> properties;
  private final List<String> secrets;
  private final long waitMillis;
  private final Object adminLock = new Object();
  private final DeferredClient client;
  private Admin admin; // guarded by adminLock
  private volatile boolean closed;

  /**
   * @param properties the Kafka producer properties, complete
   * @param waitMillis the longest a send may take until its acknowledgement, in ms: the client's
   *     {@code max.block.ms} plus {@code delivery.timeout.ms}, and a margin
   */
  public KafkaTransport(Map<String, Object> properties, long waitMillis) {
    this.properties = new HashMap<>(properties);
    this.secrets = SecretProperties.secretValues(properties);
    this.waitMillis = waitMillis;
    this.client =
        new DeferredClient(
            properties,
            p -> new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer()));
  }

  /**
   * Creates the Kafka producer (it connects lazily, on the first send), or defers that while no
   * bootstrap host resolves (see {@link DeferredClient}).
   *
   * @return true if the client was built, false if its build is deferred
   * @throws IllegalArgumentException if Kafka refuses the configuration for a reason other than an
   *     unresolved bootstrap host, with its message
   */
  public boolean start() {
    return client.start();
  }

  /**
   * {@return null when the client is there (built now if its build was deferred and due), else the
   * export's answer saying why not: retryable while the bootstrap does not resolve} Called by the
   * send threads before each export.
   */
  public ExportResult notReady() {
    return client.get() != null ? null : client.notBuilt();
  }

  /** The client; after {@link #notReady()} said it is there, only a close can take it away. */
  private Producer<byte[], byte[]> producer() {
    Producer<byte[], byte[]> p = client.get();
    if (p == null) {
      throw new IllegalStateException("the Kafka client is closed");
    }
    return p;
  }

  /**
   * The partition count of {@code topic}, waiting for metadata up to {@code max.block.ms}.
   *
   * @throws KafkaException as the client throws it (e.g. a {@code TimeoutException} when no
   *     metadata came)
   */
  public int partitionCount(String topic) {
    return producer().partitionsFor(topic).size();
  }

  /**
   * Sends {@code records} and waits for all their acknowledgements (at most the wait given at
   * construction).
   *
   * @param records the messages, all for {@code topic}
   * @param topic their topic, for messages
   * @return success when every message was acknowledged; else the first failure, classified
   */
  public ExportResult send(List<ProducerRecord<byte[], byte[]>> records, String topic) {
    List<Future<RecordMetadata>> acks = new ArrayList<>(records.size());
    try {
      Producer<byte[], byte[]> p = producer();
      for (ProducerRecord<byte[], byte[]> r : records) {
        acks.add(p.send(r));
      }
    } catch (RuntimeException e) {
      return failure(e, topic);
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
    ExportResult first = null;
    for (Future<RecordMetadata> ack : acks) {
      try {
        ack.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException e) {
        if (first == null) {
          first = failure(e.getCause(), topic);
        }
      } catch (java.util.concurrent.TimeoutException e) {
        return ExportResult.retryable(
            "Kafka topic " + topic + ": no acknowledgement within " + waitMillis + " ms", e, -1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return ExportResult.failed("interrupted while waiting for Kafka's acknowledgement", e);
      }
    }
    return first != null ? first : ExportResult.success();
  }

  /**
   * Classifies a failure of a send or metadata wait for {@code topic}; a metadata wait that ran out
   * for a topic the cluster does not have is a rejection.
   */
  public ExportResult failure(Throwable e, String topic) {
    if (KafkaErrors.isMetadataWait(e) && !closed && topicMissing(topic)) {
      return ExportResult.rejected(
          "Kafka topic "
              + topic
              + " does not exist (and the broker does not create it): "
              + SecretProperties.scrub(e.getMessage(), secrets));
    }
    return KafkaErrors.classify(e, "topic " + topic, secrets);
  }

  private boolean topicMissing(String topic) {
    Admin a;
    synchronized (adminLock) {
      if (closed) {
        return false;
      }
      if (admin == null) {
        Map<String, Object> adminProperties = new HashMap<>();
        for (Map.Entry<String, Object> e : properties.entrySet()) {
          if (AdminClientConfig.configNames().contains(e.getKey())) {
            adminProperties.put(e.getKey(), e.getValue());
          }
        }
        Object clientId = properties.get(AdminClientConfig.CLIENT_ID_CONFIG);
        adminProperties.put(
            AdminClientConfig.CLIENT_ID_CONFIG,
            (clientId != null ? clientId : "logproducer") + "-admin");
        try {
          admin = Admin.create(adminProperties);
        } catch (RuntimeException e) { // e.g. the bootstrap no longer resolves: not known missing
          return false;
        }
      }
      a = admin;
    }
    try {
      a.describeTopics(
              Collections.singleton(topic),
              new DescribeTopicsOptions().timeoutMs(TOPIC_CHECK_TIMEOUT_MILLIS))
          .allTopicNames()
          .get(TOPIC_CHECK_TIMEOUT_MILLIS + 1_000L, TimeUnit.MILLISECONDS);
      return false;
    } catch (ExecutionException e) {
      return e.getCause() instanceof UnknownTopicOrPartitionException;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
      return false;
    }
  }

  /**
   * Closes the client without waiting: by the time the producer closes its exporter, every batch
   * has its outcome, so whatever the client still holds belongs to batches already reported; sends
   * waiting in {@link #send} fail at once; a deferred build under way closes the client it builds.
   * Idempotent.
   */
  @Override
  public void close() {
    closed = true;
    client.close();
    synchronized (adminLock) {
      if (admin != null) {
        admin.close(Duration.ZERO);
        admin = null;
      }
    }
  }
}
