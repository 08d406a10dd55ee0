package io.logproducer.examples.kafka;

import io.logproducer.kafka.KafkaEncoding;
import io.logproducer.testing.otlp.OtlpRequests;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads a topic back with a real {@link KafkaConsumer} (partitions assigned, no consumer group, nothing committed)
 * and counts the log records its messages hold: for {@code otlp_proto} and {@code otlp_json} the records of each
 * message's {@code ExportLogsServiceRequest} ({@link OtlpRequests}, which walks the request and refuses
 * malformed ones), for {@code raw} one per message.
 *
 * <p>{@link #atEnd} notes where each partition ends before a run, and {@link #count} reads from there to the ends
 * the partitions have after it, so records already in the topic are not counted.
 */
public final class TopicCounter implements AutoCloseable {

  /**
   * What {@link #count} read.
   *
   * @param partitions the topic's partitions
   * @param messages Kafka messages read
   * @param records log records in them
   * @param malformed messages that are not a well-formed request of the encoding
   * @param firstProblem why the first malformed message was refused, or null
   * @param complete whether every partition was read to its end offset (false: no progress within the idle time)
   */
  public record Count(int partitions, long messages, long records, long malformed, String firstProblem,
      boolean complete) {
  }

  private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final String topic;
  private final Map<TopicPartition, Long> from;

  private TopicCounter(String bootstrapServers, String topic, boolean atEnd) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrapServers);
    p.put("client.id", "kafka-example-reader");
    p.put("enable.auto.commit", "false");
    p.put("allow.auto.create.topics", "false");
    p.put("max.partition.fetch.bytes", Integer.toString(8 << 20));
    p.put("fetch.max.bytes", Integer.toString(64 << 20));
    p.put("max.poll.records", "10000");
    this.consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    this.topic = topic;
    this.from = new HashMap<>();
    try {
      if (atEnd) {
        List<TopicPartition> parts = partitions();
        if (!parts.isEmpty()) {
          // Assigned first: endOffsets on partitions not assigned makes the client warn for each.
          consumer.assign(parts);
          from.putAll(consumer.endOffsets(parts, METADATA_TIMEOUT));
        }
      }
    } catch (RuntimeException e) {
      consumer.close();
      throw e;
    }
  }

  /**
   * A counter that will count what is written to {@code topic} from now on: it notes the current end of each of
   * the topic's partitions (a topic that does not exist yet is counted from its beginning).
   */
  public static TopicCounter atEnd(String bootstrapServers, String topic) {
    return new TopicCounter(bootstrapServers, topic, true);
  }

  /** A counter that counts the whole of {@code topic}. */
  public static TopicCounter fromBeginning(String bootstrapServers, String topic) {
    return new TopicCounter(bootstrapServers, topic, false);
  }

  private List<TopicPartition> partitions() {
    List<TopicPartition> parts = new ArrayList<>();
    List<PartitionInfo> infos = consumer.partitionsFor(topic, METADATA_TIMEOUT);
    if (infos != null) {
      for (PartitionInfo info : infos) {
        parts.add(new TopicPartition(topic, info.partition()));
      }
    }
    return parts;
  }

  /**
   * Reads every partition from where this counter started to the end offset it has now, and counts.
   *
   * @param encoding what the messages hold
   * @param idle how long to go on while no message arrives before giving up (the count is then incomplete)
   */
  public Count count(KafkaEncoding encoding, Duration idle) {
    List<TopicPartition> parts = partitions();
    if (parts.isEmpty()) {
      return new Count(0, 0, 0, 0, null, true);
    }
    consumer.assign(parts);
    Map<TopicPartition, Long> end = consumer.endOffsets(parts, METADATA_TIMEOUT);
    List<TopicPartition> fromStart = new ArrayList<>();
    for (TopicPartition tp : parts) {
      Long offset = from.get(tp);
      if (offset == null) {
        fromStart.add(tp);
      } else {
        consumer.seek(tp, offset);
      }
    }
    if (!fromStart.isEmpty()) {
      consumer.seekToBeginning(fromStart);
    }
    long messages = 0;
    long records = 0;
    long malformed = 0;
    String firstProblem = null;
    long lastProgress = System.nanoTime();
    while (!atEnd(parts, end)) {
      if (System.nanoTime() - lastProgress > idle.toNanos()) {
        return new Count(parts.size(), messages, records, malformed, firstProblem, false);
      }
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
        lastProgress = System.nanoTime();
        messages++;
        try {
          records += records(encoding, r.value());
        } catch (RuntimeException e) {
          malformed++;
          if (firstProblem == null) {
            firstProblem = "partition " + r.partition() + " offset " + r.offset() + ": " + e.getMessage();
          }
        }
      }
    }
    return new Count(parts.size(), messages, records, malformed, firstProblem, true);
  }

  private boolean atEnd(List<TopicPartition> parts, Map<TopicPartition, Long> end) {
    for (TopicPartition tp : parts) {
      if (consumer.position(tp, METADATA_TIMEOUT) < end.get(tp)) {
        return false;
      }
    }
    return true;
  }

  /** The log records in one message's value. */
  static long records(KafkaEncoding encoding, byte[] value) {
    if (value == null) {
      throw new IllegalArgumentException("a message without a value");
    }
    switch (encoding) {
      case OTLP_PROTO:
        return OtlpRequests.countProtobuf(value, 0, value.length);
      case OTLP_JSON:
        return OtlpRequests.countJson(new String(value, StandardCharsets.UTF_8));
      default:
        return 1;
    }
  }

  @Override
  public void close() {
    consumer.close();
  }
}
