package io.logproducer.kafka.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads a topic back with a real Kafka consumer: every partition from the beginning, no consumer group. */
public final class TopicReader {

  private TopicReader() {
  }

  /**
   * Reads {@code topic} until {@code expected} messages arrived or {@code timeoutMillis} passed, then once more
   * briefly, so that a message beyond the expected count would be seen too.
   *
   * @return the messages, partition by partition in offset order within each
   */
  public static List<ConsumerRecord<byte[], byte[]>> readAll(String bootstrap, String topic, int expected,
      long timeoutMillis) {
    return readUntil(bootstrap, topic, read -> read.size() >= expected, timeoutMillis);
  }

  /**
   * Reads {@code topic} until {@code done} holds for the messages read so far or {@code timeoutMillis} passed, then
   * once more briefly.
   *
   * @return the messages, partition by partition in offset order within each
   */
  public static List<ConsumerRecord<byte[], byte[]>> readUntil(String bootstrap, String topic,
      Predicate<List<ConsumerRecord<byte[], byte[]>>> done, long timeoutMillis) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    p.put("enable.auto.commit", "false");
    p.put("max.partition.fetch.bytes", Integer.toString(8 << 20));
    p.put("isolation.level", "read_committed");
    List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
        new ByteArrayDeserializer())) {
      List<TopicPartition> parts = new ArrayList<>();
      for (PartitionInfo info : c.partitionsFor(topic, Duration.ofSeconds(30))) {
        parts.add(new TopicPartition(topic, info.partition()));
      }
      c.assign(parts);
      c.seekToBeginning(parts);
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
      while (!done.test(out) && System.nanoTime() < deadline) {
        c.poll(Duration.ofMillis(200)).forEach(out::add);
      }
      c.poll(Duration.ofMillis(300)).forEach(out::add);
    }
    out.sort((a, b) -> a.partition() != b.partition() ? Integer.compare(a.partition(), b.partition())
        : Long.compare(a.offset(), b.offset()));
    return out;
  }
}
