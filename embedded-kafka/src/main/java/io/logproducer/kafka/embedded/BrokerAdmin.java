package io.logproducer.kafka.embedded;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka Admin client the parent JVM talks to the broker with: whether the broker lists itself
 * as an alive node, and topic creation with a leader barrier. Uses only Admin API that
 * kafka-clients 3.x and 4.x both have ({@code Admin.create}, {@code describeCluster}, {@code
 * createTopics}, {@code listOffsets}, {@code close(Duration)}). One per broker run; not thread-safe
 * (the broker's lifecycle lock serializes its use).
 */
final class BrokerAdmin implements AutoCloseable {

  private static final AtomicInteger IDS = new AtomicInteger();
  private static final Logger log = LoggerFactory.getLogger(BrokerAdmin.class);
  private static final int MAX_CALL_MILLIS = 5_000;
  private static final long RETRY_PAUSE_MILLIS = 100;

  private final Admin admin;

  BrokerAdmin(String bootstrapServers) {
    Map<String, Object> config = new HashMap<>();
    config.put("bootstrap.servers", bootstrapServers);
    config.put("client.id", "embedded-kafka-admin-" + IDS.incrementAndGet());
    config.put("request.timeout.ms", 10_000);
    config.put("default.api.timeout.ms", 15_000);
    config.put("retry.backoff.ms", 50);
    config.put("reconnect.backoff.ms", 50);
    config.put("reconnect.backoff.max.ms", 500);
    this.admin = Admin.create(config);
  }

  /**
   * Asks the broker for the cluster's alive nodes: a broker lists itself once it is unfenced.
   *
   * @param callMillis the call's timeout, at least 1
   * @return true when at least one node is listed
   * @throws ExecutionException when the call fails (its cause says why)
   * @throws TimeoutException when no answer came in time
   * @throws InterruptedException when interrupted
   */
  boolean listsAliveNode(int callMillis)
      throws ExecutionException, TimeoutException, InterruptedException {
    Collection<Node> nodes =
        admin
            .describeCluster(new DescribeClusterOptions().timeoutMs(callMillis))
            .nodes()
            .get(callMillis + 1_000L, TimeUnit.MILLISECONDS);
    return !nodes.isEmpty();
  }

  /**
   * Creates a topic with a replication factor of 1 and waits until the broker leads every one of
   * its partitions.
   *
   * @param name the topic
   * @param partitions its number of partitions, at least 1
   * @param configs topic configuration; may be empty
   * @param timeout for the creation and the leaders together
   * @param running whether the broker's JVM still runs (checked between attempts)
   * @param logTail the end of the broker's log, for a message
   * @throws IllegalStateException when the topic exists or cannot be created, or its partitions get
   *     no leader in time, or the broker stops meanwhile, or the caller is interrupted
   */
  void createTopic(
      String name,
      int partitions,
      Map<String, String> configs,
      Duration timeout,
      BooleanSupplier running,
      Supplier<String> logTail) {
    long deadline = System.nanoTime() + timeout.toNanos();
    NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(new HashMap<>(configs));
    try {
      admin
          .createTopics(Collections.singletonList(topic))
          .all()
          .get(Deadlines.remainingMillis(deadline), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "Cannot create topic " + name + ": " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("Topic " + name + " was not created within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while creating topic " + name, e);
    }
    awaitLeaders(name, partitions, deadline, timeout, running, logTail);
  }

  /**
   * The leader barrier: {@code listOffsets} is answered only by a partition's leader (KAFKA-15591:
   * {@code createTopics} can return before the broker leads the partitions, and an idempotent
   * producer that writes at once can then hang for its delivery timeout and lose records).
   */
  private void awaitLeaders(
      String name,
      int partitions,
      long deadline,
      Duration timeout,
      BooleanSupplier running,
      Supplier<String> logTail) {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (int p = 0; p < partitions; p++) {
      latest.put(new TopicPartition(name, p), OffsetSpec.latest());
    }
    Throwable last = null;
    int attempts = 0;
    while (true) {
      long remaining = Deadlines.remainingMillis(deadline);
      if (remaining <= 0) {
        throw new IllegalStateException(
            "The partitions of topic "
                + name
                + " got no leader within "
                + timeout
                + " ("
                + attempts
                + " attempts); last error: "
                + last,
            last);
      }
      attempts++;
      int callMillis = (int) Math.min(remaining, MAX_CALL_MILLIS);
      try {
        admin
            .listOffsets(latest, new ListOffsetsOptions().timeoutMs(callMillis))
            .all()
            .get(callMillis + 1_000L, TimeUnit.MILLISECONDS);
        if (attempts > 1) {
          log.debug("Topic {}: every partition has a leader after {} attempts", name, attempts);
        }
        return;
      } catch (ExecutionException e) {
        last = e.getCause();
      } catch (TimeoutException e) {
        last = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(
            "Interrupted while waiting for the leaders of topic " + name, e);
      }
      if (!running.getAsBoolean()) {
        throw new IllegalStateException(
            "The broker stopped while topic " + name + " was being created" + logTail.get(), last);
      }
      Deadlines.pause(RETRY_PAUSE_MILLIS);
    }
  }

  /** Closes the client, waiting up to 5 s; a failure is logged at debug level only. */
  @Override
  public void close() {
    try {
      admin.close(Duration.ofSeconds(5));
    } catch (RuntimeException e) {
      log.debug("Closing the admin client failed", e);
    }
  }
}
