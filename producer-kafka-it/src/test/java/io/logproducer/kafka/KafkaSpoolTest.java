package io.logproducer.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.kafka.embedded.EmbeddedKafkaBroker;
import io.logproducer.kafka.testing.SharedKafkaBroker;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.kafka.TopicReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka batches through the disk spool against a real KRaft broker (a child JVM on 127.0.0.1):
 * while the broker is down a producer stores every batch and gives each record exactly the outcome
 * {@code SPOOLED}; a new producer on the same directory, with the broker back, delivers exactly
 * those records, each once, in order within each partition, for {@code otlp_proto} (one message per
 * batch) and {@code raw} (one message per record, cut out of the stored body with the stored record
 * sizes, keyed by an attribute).
 *
 * <p>Phase 1 has a short {@code deliveryTimeoutMillis} (2 s). With the broker down one Kafka export
 * blocks for {@code max.block.ms} and then for the exporter's topic-existence check (up to 5 s), so
 * with one send thread every batch but the first is still queued when its timeout passes, never
 * exported and so never written ahead: the spool-expiry thread writes each at its deadline, and
 * every record gets SPOOLED before the producer is closed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedKafkaBroker.class)
class KafkaSpoolTest {

  private static final int RECORDS = 400;
  private static final int BATCH = 50;
  private static final int PARTITIONS = 2;

  private EmbeddedKafkaBroker broker;

  /** The module's shared broker (running: restarted if an earlier test left it stopped). */
  @BeforeEach
  void sharedBroker(EmbeddedKafkaBroker shared) {
    broker = shared;
  }

  private static SpoolConfig spool(Path dir) {
    return SpoolConfig.builder(dir)
        .setSegmentBytes(256 * 1024)
        .setMaxBytes(8L << 20)
        .setDurability(SpoolDurability.GROUP_COMMIT)
        .setGroupCommitMillis(50)
        .build();
  }

  /**
   * A producer on {@code dir}. While the broker is {@code away}: Kafka timeouts of half a second
   * and a {@code deliveryTimeoutMillis} of 2 s. Once it is back: the exporter's default timeouts (a
   * request timed out on this loaded machine would make the replay send the batch again: at least
   * once, and the test counts exactly).
   */
  private Producer producer(Path dir, KafkaEncoding encoding, String topic, boolean away) {
    KafkaExporterBuilder exporter =
        KafkaExporter.builder()
            .setBootstrapServers(broker.bootstrapServers())
            .setTopic(topic)
            .setEncoding(encoding);
    if (away) {
      exporter
          .setProperty("max.block.ms", 500)
          .setProperty("request.timeout.ms", 500)
          .setProperty("delivery.timeout.ms", 1_000);
    }
    if (encoding == KafkaEncoding.RAW) {
      exporter.setKeyAttribute("user");
    }
    return new Producer(
        ProducerConfig.builder()
            .setClientId(away ? "kafka-spool-away" : "kafka-spool-back")
            .setBatchCountThreshold(BATCH)
            .setBatchSizeInBytes(128 * 1024) // requests fit the 256 KiB segments
            .setLingerMillis(200)
            .setSendThreads(1)
            .setDeliveryTimeoutMillis(away ? 2_000 : 60_000)
            .setShutdownHookEnabled(false)
            .setSpool(spool(dir))
            .build(),
        exporter.build());
  }

  private static LogRecord record(int i) {
    return LogRecord.builder()
        .setBody(Integer.toString(i))
        .setAttribute("user", "u-" + (i % 3))
        .build();
  }

  /**
   * Phase 1, broker down: all records sent at once; the one send thread blocks in its first export,
   * the other batches queue behind it. Every record gets SPOOLED by its delivery deadline, before
   * close (the batch in flight from its write-ahead, the queued ones from the spool-expiry thread),
   * exactly once.
   */
  private void spoolEverything(Path dir, KafkaEncoding encoding, String topic) {
    broker.stop();
    Outcomes outcomes = new Outcomes();
    Producer p = producer(dir, encoding, topic, true);
    for (int i = 0; i < RECORDS; i++) {
      p.send(record(i), outcomes.callback(i));
    }
    assertTrue(outcomes.await(RECORDS, 30_000), "outcomes: " + outcomes.statusCounts());
    assertEquals(
        Collections.singletonMap(SendResult.Status.SPOOLED, RECORDS),
        outcomes.statusCounts(),
        "every batch, past its delivery timeout while safely in the spool, before close");
    p.close(1_000);
    assertEquals(RECORDS, outcomes.distinctIds());
    assertEquals(0, outcomes.duplicates());
    ProducerMetrics m = p.getMetrics();
    assertEquals(RECORDS, m.getRecordsSpooled());
    assertEquals(RECORDS / BATCH, m.getBatchesSpooled());
    assertEquals(0, m.getSpoolBatchesNotWritten());
  }

  /** Phase 2, broker back: a new producer on the directory drains it; returns the messages. */
  private List<ConsumerRecord<byte[], byte[]>> drain(
      Path dir, KafkaEncoding encoding, String topic, int expectedMessages) {
    broker.restart();
    List<ConsumerRecord<byte[], byte[]>> messages;
    try (Producer p = producer(dir, encoding, topic, false)) {
      boolean drained =
          Outcomes.until(
              () -> {
                ProducerMetrics now = p.getMetrics(); // a snapshot
                return now.getSpoolRecordsDelivered() == RECORDS
                    && now.getSpoolPendingBatches() == 0;
              },
              30_000);
      ProducerMetrics m = p.getMetrics();
      assertTrue(
          drained,
          "drained: delivered "
              + m.getSpoolRecordsDelivered()
              + ", pending batches "
              + m.getSpoolPendingBatches());
      messages = TopicReader.readAll(broker.bootstrapServers(), topic, expectedMessages, 20_000);
      assertEquals(RECORDS, m.getSpoolRecordsReplayed());
      assertEquals(RECORDS, m.getSpoolRecordsDelivered());
      assertEquals(0, m.getSpoolRecordsRefused());
      assertEquals(0, m.getSpoolRecordsExpired());
      assertEquals(0, m.getSpoolRecordsDropped());
      assertEquals(0, m.getSpoolBatchesCorrupt());
      assertEquals(0, m.getRecordsSpooled());
    }
    assertEquals(expectedMessages, messages.size(), "messages in topic " + topic);
    return messages;
  }

  /** Checks that the records are exactly 0..RECORDS-1, each once, increasing in each partition. */
  private static void assertExactlyOnceInOrder(Map<Integer, List<Integer>> byPartition) {
    List<Integer> all = new ArrayList<>();
    for (Map.Entry<Integer, List<Integer>> e : byPartition.entrySet()) {
      List<Integer> ids = e.getValue();
      for (int i = 1; i < ids.size(); i++) {
        assertTrue(
            ids.get(i - 1) < ids.get(i),
            "partition " + e.getKey() + " out of order at " + i + ": " + ids);
      }
      all.addAll(ids);
    }
    Collections.sort(all);
    List<Integer> expected = new ArrayList<>();
    for (int i = 0; i < RECORDS; i++) {
      expected.add(i);
    }
    assertEquals(expected, all);
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void otlpProtoBatchesSpooledWhileTheBrokerIsDownAreDeliveredByTheNextProducer(@TempDir Path dir) {
    String topic = "spool-otlp";
    broker.createTopic(topic, PARTITIONS);
    spoolEverything(dir, KafkaEncoding.OTLP_PROTO, topic);

    List<ConsumerRecord<byte[], byte[]>> messages =
        drain(dir, KafkaEncoding.OTLP_PROTO, topic, RECORDS / BATCH);
    Map<Integer, List<Integer>> byPartition = new TreeMap<>();
    for (ConsumerRecord<byte[], byte[]> m : messages) {
      List<Integer> ids = byPartition.computeIfAbsent(m.partition(), k -> new ArrayList<>());
      List<String> bodies = TopicReader.otlpStringBodies(m.value());
      assertEquals(BATCH, bodies.size(), "one stored batch per message");
      for (String body : bodies) {
        ids.add(Integer.parseInt(body));
      }
    }
    assertEquals(PARTITIONS, byPartition.size(), "batches round-robin over the partitions");
    assertExactlyOnceInOrder(byPartition);
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void rawBatchesSpooledWhileTheBrokerIsDownAreCutIntoRecordsByTheirStoredSizes(@TempDir Path dir) {
    String topic = "spool-raw";
    broker.createTopic(topic, PARTITIONS);
    spoolEverything(dir, KafkaEncoding.RAW, topic);

    List<ConsumerRecord<byte[], byte[]>> messages = drain(dir, KafkaEncoding.RAW, topic, RECORDS);
    Map<Integer, List<Integer>> byPartition = new TreeMap<>();
    for (ConsumerRecord<byte[], byte[]> m : messages) {
      int id = Integer.parseInt(TopicReader.utf8(m.value()));
      assertEquals("u-" + (id % 3), TopicReader.utf8(m.key()), "record " + id + "'s key");
      byPartition.computeIfAbsent(m.partition(), k -> new ArrayList<>()).add(id);
    }
    assertExactlyOnceInOrder(byPartition);
  }
}
