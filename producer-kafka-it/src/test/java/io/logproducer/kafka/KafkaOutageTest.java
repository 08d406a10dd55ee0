package io.logproducer.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.InvalidProtocolBufferException;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.kafka.embedded.EmbeddedKafkaBroker;
import io.logproducer.kafka.testing.SharedKafkaBroker;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.kafka.TopicReader;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The broker goes away: every record has exactly one outcome, nothing reported delivered is missing
 * from the topic, and close returns in bounded time leaving no thread behind. The module's
 * {@linkplain SharedKafkaBroker shared broker}, which the tests stop (the next test that asks for
 * it finds it running again), and a topic of each test's own.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
@ExtendWith(SharedKafkaBroker.class)
class KafkaOutageTest {

  private EmbeddedKafkaBroker broker;
  private String topic;

  @BeforeEach
  void sharedBroker(EmbeddedKafkaBroker shared) {
    broker = shared;
    topic = SharedKafkaBroker.topic("outage");
    broker.createTopic(topic, 2);
  }

  private static List<Thread> threadsNamed(String part) {
    List<Thread> found = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.isAlive() && t.getName().contains(part)) {
        found.add(t);
      }
    }
    return found;
  }

  /** The record bodies (sequence numbers) in these otlp_proto messages. */
  private static Set<Integer> bodies(List<ConsumerRecord<byte[], byte[]>> messages) {
    Set<Integer> bodies = new HashSet<>();
    for (ConsumerRecord<byte[], byte[]> m : messages) {
      try {
        ExportLogsServiceRequest.parseFrom(m.value())
            .getResourceLogs(0)
            .getScopeLogs(0)
            .getLogRecordsList()
            .forEach(lr -> bodies.add(Integer.parseInt(lr.getBody().getStringValue())));
      } catch (InvalidProtocolBufferException e) {
        throw new AssertionError("not an ExportLogsServiceRequest at offset " + m.offset(), e);
      }
    }
    return bodies;
  }

  @Test
  void brokerStoppedForFiveSecondsMidStreamLosesNothingReportedDelivered() throws Exception {
    int n = 20_000;
    Outcomes outcomes = new Outcomes();
    Producer producer =
        new Producer(
            ProducerConfig.builder()
                .setClientId("kafka-outage")
                .setLingerMillis(50)
                .setBatchCountThreshold(500)
                .build(),
            KafkaExporter.builder()
                .setBootstrapServers(broker.bootstrapServers())
                .setTopic(topic)
                .build());
    Thread app =
        new Thread(
            () -> {
              for (int i = 0; i < n; i++) {
                producer.send(
                    LogRecord.builder().setBody(Integer.toString(i)).build(), outcomes.callback(i));
                if (i % 1_000 == 999) {
                  LockSupport.parkNanos(
                      TimeUnit.MILLISECONDS.toNanos(
                          50)); // ~1 s of traffic, the outage in its middle
                }
              }
            });
    app.start();
    assertTrue(
        Outcomes.until(() -> outcomes.total() >= 4_000, 30_000),
        "some delivered before the outage");
    broker.stop();
    long downAt = System.nanoTime();
    LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(5));
    broker.restart();
    long downMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - downAt);
    app.join(60_000);
    producer.flush();
    assertTrue(outcomes.await(n, 60_000), "outcomes: " + outcomes.statusCounts());
    producer.close(5_000);

    assertEquals(n, outcomes.distinctIds());
    assertEquals(0, outcomes.duplicates(), "exactly one outcome per record");
    Set<Integer> delivered = outcomes.idsWith(SendResult.Status.DELIVERED);
    List<ConsumerRecord<byte[], byte[]>> messages;
    try (TopicReader reader = TopicReader.fromBeginning(broker.bootstrapServers(), topic)) {
      messages = reader.awaitUntil(read -> bodies(read).containsAll(delivered), 60_000);
    }
    Set<Integer> stored = bodies(messages);
    Set<Integer> missing = new HashSet<>(delivered);
    missing.removeAll(stored);
    assertEquals(new HashSet<Integer>(), missing, "reported delivered but not in the topic");
    System.out.println(
        "broker down "
            + downMillis
            + " ms: "
            + outcomes.statusCounts()
            + ", retries "
            + producer.getMetrics().getRetries());
    assertEquals(
        n, delivered.size(), "a 5 s outage is within every timeout: " + outcomes.statusCounts());
  }

  @Test
  void brokerGoneLongerThanTheDeliveryTimeoutFailsEveryRecordAndCloseLeavesNoThread()
      throws Exception {
    broker.stop();
    Outcomes outcomes = new Outcomes();
    String clientId = "kafka-gone";
    // max.block.ms 5 s: were send() ever to wait for Kafka metadata, sending would take that long
    // at least
    Producer producer =
        new Producer(
            ProducerConfig.builder()
                .setClientId(clientId)
                .setLingerMillis(100)
                .setDeliveryTimeoutMillis(9_000)
                .build(),
            KafkaExporter.builder()
                .setBootstrapServers(broker.bootstrapServers())
                .setTopic(topic)
                .setProperty("max.block.ms", 5_000)
                .setProperty("request.timeout.ms", 1_000)
                .setProperty("delivery.timeout.ms", 3_000)
                .build());
    long start = System.nanoTime();
    int n = 1_000;
    for (int i = 0; i < n; i++) {
      producer.send(LogRecord.builder().setBody("gone " + i).build(), outcomes.callback(i));
    }
    long sendMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    // The bound is Kafka's own: a send that waited for metadata would wait max.block.ms (5 s).
    assertTrue(
        sendMillis < 5_000, "send() never waits for Kafka: 1,000 sends took " + sendMillis + " ms");
    assertTrue(outcomes.await(n, 9_000 + 60_000), "outcomes: " + outcomes.statusCounts());
    long failedAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertEquals(0, outcomes.duplicates());
    Map<SendResult.Status, Integer> counts = outcomes.statusCounts();
    assertEquals(null, counts.get(SendResult.Status.DELIVERED), counts.toString());
    for (int i = 0; i < n; i++) {
      SendResult r = outcomes.get(i);
      // Failed by the delivery deadline (the producer's own account of it), not by a guess of how
      // late this machine's timers fire.
      assertTrue(
          r.getMessage() != null && r.getMessage().contains("deliveryTimeoutMillis (9000 ms)"),
          "the delivery timeout for record " + i + ": " + r);
    }
    assertTrue(failedAfter >= 9_000, "not before the delivery timeout: " + failedAfter + " ms");

    long closeStart = System.nanoTime();
    producer.close(2_000);
    long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closeStart);
    // The bound is the point: close(2 s) returns within 2 s + its 1 s slack (Producer#close), plus
    // the scheduling of this thread's wake-up.
    assertTrue(closeMillis < 3_000 + 2_000, "close(2 s) took " + closeMillis + " ms");
    assertTrue(
        Outcomes.until(() -> threadsNamed(clientId).isEmpty(), 30_000),
        "left: " + threadsNamed(clientId));
    System.out.println(
        "broker gone: 1,000 sends took "
            + sendMillis
            + " ms; all "
            + n
            + " failed after "
            + failedAfter
            + " ms ("
            + counts
            + "), close took "
            + closeMillis
            + " ms");
  }
}
