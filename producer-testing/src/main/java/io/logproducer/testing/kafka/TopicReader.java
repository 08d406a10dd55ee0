package io.logproducer.testing.kafka;

import io.logproducer.testing.otlp.OtlpRequests;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.ToLongFunction;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads one Kafka topic back with a real {@link KafkaConsumer}, for tests: every partition assigned
 * (no consumer group, nothing committed), from the beginning ({@link #fromBeginning}) or from the
 * end offsets it had when the reader was made ({@link #atEnd}), only committed messages ({@code
 * isolation.level=read_committed}). Keys and values are the raw bytes; {@link #utf8}, {@link
 * #otlpRecordCount} and {@link #otlpStringBodies} decode them as the {@code raw} and {@code
 * otlp_proto} encodings write them.
 *
 * <p>Typical use: send, then assert an exact count, seeing extras too.
 *
 * <pre>{@code
 * try (TopicReader reader = TopicReader.fromBeginning(bootstrapServers, "logs")) {
 *   List<ConsumerRecord<byte[], byte[]>> messages = reader.awaitCount(5, 30_000);
 *   assertEquals(5, messages.size());
 *   assertEquals("hello", TopicReader.utf8(messages.get(0).value()));
 * }
 * }</pre>
 *
 * <p>The reader keeps every message {@link #poll}, {@link #awaitCount} and {@link #awaitUntil} read
 * ({@link #messages()}); {@link #count} reads on from there to the partitions' current ends and
 * only counts. Needs kafka-clients (3.x or 4.x) on the class path: this module declares it
 * optional. Thread-safe: the methods are serialized (a {@code KafkaConsumer} allows one thread at a
 * time).
 */
public final class TopicReader implements AutoCloseable {

  /**
   * Log records per {@code otlp_proto} message, for {@link #count}: {@link
   * #otlpRecordCount(byte[])}.
   */
  public static final ToLongFunction<byte[]> OTLP_PROTO_RECORDS = TopicReader::otlpRecordCount;

  /**
   * Log records per {@code raw} message, for {@link #count}: one per message with a value (maybe
   * empty).
   */
  public static final ToLongFunction<byte[]> RAW_RECORDS = TopicReader::rawRecordCount;

  private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration PARTITION_RETRY_TIMEOUT = Duration.ofMillis(500);
  private static final long POLL_MILLIS = 200;

  /**
   * The extra poll after a wait succeeded, in ms: a message beyond the expected count shows up in
   * it.
   */
  private static final long SETTLE_MILLIS = 300;

  private final KafkaConsumer<byte[], byte[]> consumer;
  private final String topic;
  // Guarded by this.
  private final List<TopicPartition> assigned = new ArrayList<>();
  private final Map<TopicPartition, Long> startOffsets = new HashMap<>();
  private final List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();

  private TopicReader(String bootstrapServers, String topic, boolean atEnd) {
    if (bootstrapServers == null || topic == null) {
      throw new NullPointerException(bootstrapServers == null ? "bootstrapServers" : "topic");
    }
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrapServers);
    p.put("client.id", "logproducer-topic-reader-" + topic);
    p.put("enable.auto.commit", "false");
    p.put("allow.auto.create.topics", "false");
    p.put("isolation.level", "read_committed");
    p.put("max.partition.fetch.bytes", Integer.toString(8 << 20));
    p.put("fetch.max.bytes", Integer.toString(64 << 20));
    p.put("max.poll.records", "10000");
    this.consumer =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    this.topic = topic;
    try {
      assign(METADATA_TIMEOUT, atEnd);
    } catch (RuntimeException e) {
      consumer.close();
      throw e;
    }
  }

  /**
   * A reader of the whole topic, from the first offset of every partition.
   *
   * @param bootstrapServers {@code host:port[,host:port...]}
   * @param topic the topic; when it does not exist yet, its partitions are looked for again on each
   *     read
   * @return the reader; close it
   * @throws org.apache.kafka.common.KafkaException when the cluster cannot be asked for the topic's
   *     partitions within 30 s
   */
  public static TopicReader fromBeginning(String bootstrapServers, String topic) {
    return new TopicReader(bootstrapServers, topic, false);
  }

  /**
   * A reader of what is written to the topic from now on: it starts at each partition's current end
   * offset (a topic that does not exist yet is read from its beginning once it does).
   *
   * @param bootstrapServers {@code host:port[,host:port...]}
   * @param topic the topic
   * @return the reader; close it
   * @throws org.apache.kafka.common.KafkaException when the cluster cannot be asked for the topic's
   *     partitions or their end offsets within 30 s
   */
  public static TopicReader atEnd(String bootstrapServers, String topic) {
    return new TopicReader(bootstrapServers, topic, true);
  }

  /**
   * Reads a topic from the beginning until {@code expected} messages arrived or {@code
   * timeoutMillis} passed, then once more briefly; the one-call form of {@link #fromBeginning} and
   * {@link #awaitCount}.
   *
   * @param bootstrapServers {@code host:port[,host:port...]}
   * @param topic the topic
   * @param expected the number of messages to wait for, at least 0
   * @param timeoutMillis the longest wait, in milliseconds
   * @return every message read, possibly more or fewer than {@code expected}: partition by
   *     partition, in offset order within each
   */
  public static List<ConsumerRecord<byte[], byte[]>> readAll(
      String bootstrapServers, String topic, int expected, long timeoutMillis) {
    try (TopicReader reader = fromBeginning(bootstrapServers, topic)) {
      return reader.awaitCount(expected, timeoutMillis);
    }
  }

  /**
   * Polls once, waiting up to {@code maxWaitMillis} for messages, and keeps what arrived.
   *
   * @param maxWaitMillis the longest wait, in milliseconds, at least 0
   * @return the messages this call read (possibly none), in arrival order
   */
  public synchronized List<ConsumerRecord<byte[], byte[]>> poll(long maxWaitMillis) {
    if (maxWaitMillis < 0) {
      throw new IllegalArgumentException("maxWaitMillis must be at least 0, was " + maxWaitMillis);
    }
    if (assigned.isEmpty()) {
      assign(PARTITION_RETRY_TIMEOUT, false);
      if (assigned.isEmpty()) {
        return Collections.emptyList();
      }
    }
    List<ConsumerRecord<byte[], byte[]>> fresh = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(maxWaitMillis))) {
      fresh.add(r);
    }
    read.addAll(fresh);
    return fresh;
  }

  /**
   * Reads until this reader has read at least {@code expected} messages in all or {@code
   * timeoutMillis} passed, then polls once more for 300 ms, so that a message beyond the expected
   * count is seen too. Compare the size of the result with {@code expected}: more means duplicates
   * or strangers, fewer that they did not arrive in time.
   *
   * @param expected the number of messages to wait for, at least 0
   * @param timeoutMillis the longest wait, in milliseconds
   * @return {@link #messages()}
   */
  public List<ConsumerRecord<byte[], byte[]>> awaitCount(int expected, long timeoutMillis) {
    if (expected < 0) {
      throw new IllegalArgumentException("expected must be at least 0, was " + expected);
    }
    return awaitUntil(messages -> messages.size() >= expected, timeoutMillis);
  }

  /**
   * Reads until {@code done} holds for every message read so far or {@code timeoutMillis} passed,
   * then polls once more for 300 ms.
   *
   * @param done tested after each poll with {@link #messages()}
   * @param timeoutMillis the longest wait, in milliseconds
   * @return {@link #messages()}
   */
  public synchronized List<ConsumerRecord<byte[], byte[]>> awaitUntil(
      Predicate<? super List<ConsumerRecord<byte[], byte[]>>> done, long timeoutMillis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (!done.test(messages()) && System.nanoTime() - deadline < 0) {
      poll(POLL_MILLIS);
    }
    poll(SETTLE_MILLIS);
    return messages();
  }

  /**
   * Every message this reader has kept so far.
   *
   * @return a copy, partition by partition, in offset order within each
   */
  public synchronized List<ConsumerRecord<byte[], byte[]>> messages() {
    List<ConsumerRecord<byte[], byte[]>> copy = new ArrayList<>(read);
    copy.sort(
        Comparator.<ConsumerRecord<byte[], byte[]>>comparingInt(ConsumerRecord::partition)
            .thenComparingLong(ConsumerRecord::offset));
    return copy;
  }

  /**
   * Reads on, from where this reader is, to the end offsets the partitions have now, and counts the
   * messages and the log records in them without keeping them. Suits large runs: memory does not
   * grow with the topic.
   *
   * @param recordsPerMessage the log records in one message's value, for example {@link
   *     #OTLP_PROTO_RECORDS} or {@link #RAW_RECORDS}; a value it throws a {@link RuntimeException}
   *     for is counted as malformed
   * @param idleMillis how long to go on while no message arrives before giving up, in milliseconds
   *     (the count is then {@linkplain Count#complete() incomplete})
   * @return what was read
   */
  public synchronized Count count(ToLongFunction<byte[]> recordsPerMessage, long idleMillis) {
    if (assigned.isEmpty()) {
      assign(METADATA_TIMEOUT, false);
      if (assigned.isEmpty()) {
        return new Count(0, 0, 0, 0, null, true);
      }
    }
    Map<TopicPartition, Long> end = consumer.endOffsets(assigned, METADATA_TIMEOUT);
    Count.Tally tally = new Count.Tally();
    long lastProgress = System.nanoTime();
    while (!reached(end)) {
      if (System.nanoTime() - lastProgress > TimeUnit.MILLISECONDS.toNanos(idleMillis)) {
        return tally.result(assigned.size(), false);
      }
      for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(POLL_MILLIS))) {
        lastProgress = System.nanoTime();
        tally.add(r, recordsPerMessage);
      }
    }
    return tally.result(assigned.size(), true);
  }

  /** Closes the consumer. Idempotent. */
  @Override
  public synchronized void close() {
    consumer.close();
  }

  @Override
  public String toString() {
    return "TopicReader[" + topic + "]";
  }

  // ------------------------------------------------------------------------------------------------ decoding

  /**
   * The number of log records in an {@code otlp_proto} message: one protobuf {@code
   * ExportLogsServiceRequest}.
   *
   * @param value the message's value
   * @return its {@code LogRecord}s over all resource and scope groups
   * @throws IllegalArgumentException when {@code value} is null or not a well-formed request
   */
  public static long otlpRecordCount(byte[] value) {
    requireValue(value);
    try {
      return OtlpRequests.countProtobuf(value, 0, value.length);
    } catch (IllegalArgumentException e) {
      throw notARequest(e);
    }
  }

  /**
   * The number of log records in a {@code raw} message: one, whatever its value holds (an empty
   * value is a record without a body).
   *
   * @param value the message's value
   * @return 1
   * @throws IllegalArgumentException when {@code value} is null (a tombstone, which the exporter
   *     never writes)
   */
  public static long rawRecordCount(byte[] value) {
    if (value == null) {
      throw new IllegalArgumentException(
          "value is null: a message without a value is not a raw log record");
    }
    return 1;
  }

  /**
   * The string bodies of the log records in an {@code otlp_proto} message, in the order the message
   * holds them.
   *
   * @param value the message's value
   * @return one entry per record: its string body, or null when it has no body or another kind of
   *     body
   * @throws IllegalArgumentException when {@code value} is null or not a well-formed request
   */
  public static List<String> otlpStringBodies(byte[] value) {
    requireValue(value);
    List<ReceivedLogRecord> records;
    try {
      records = OtlpRequests.decodeProtobuf(value);
    } catch (IllegalArgumentException e) {
      throw notARequest(e);
    }
    List<String> bodies = new ArrayList<>(records.size());
    for (ReceivedLogRecord record : records) {
      bodies.add(record.body() instanceof String ? (String) record.body() : null);
    }
    return bodies;
  }

  private static void requireValue(byte[] value) {
    if (value == null) {
      throw new IllegalArgumentException("value is null: not an ExportLogsServiceRequest");
    }
  }

  /**
   * The OTLP package's "malformed protobuf: ..." refusal, saying what the message should have been.
   */
  private static IllegalArgumentException notARequest(IllegalArgumentException e) {
    return new IllegalArgumentException(
        "not a well-formed ExportLogsServiceRequest: " + e.getMessage(), e);
  }

  /**
   * A {@code raw} message's key or value as text (the encoding writes strings as UTF-8).
   *
   * @param bytes a key or value, may be null
   * @return the UTF-8 text, or null for null
   */
  public static String utf8(byte[] bytes) {
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }

  // ------------------------------------------------------------------------------------------------ internals

  /**
   * Assigns the topic's partitions when it has some, each at its start offset (noted the first
   * time).
   */
  private void assign(Duration timeout, boolean atEnd) {
    List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
    if (infos == null || infos.isEmpty()) {
      return;
    }
    List<TopicPartition> parts = new ArrayList<>();
    for (PartitionInfo info : infos) {
      parts.add(new TopicPartition(topic, info.partition()));
    }
    // Assigned before endOffsets: asking about partitions not assigned makes the client warn for
    // each.
    consumer.assign(parts);
    if (atEnd) {
      startOffsets.putAll(consumer.endOffsets(parts, METADATA_TIMEOUT));
      for (TopicPartition tp : parts) {
        consumer.seek(tp, startOffsets.get(tp));
      }
    } else {
      consumer.seekToBeginning(parts);
    }
    assigned.clear();
    assigned.addAll(parts);
  }

  private boolean reached(Map<TopicPartition, Long> end) {
    for (TopicPartition tp : assigned) {
      if (consumer.position(tp, METADATA_TIMEOUT) < end.get(tp)) {
        return false;
      }
    }
    return true;
  }

  /** What {@link #count} read. Immutable. */
  public static final class Count {
    private final int partitions;
    private final long messages;
    private final long records;
    private final long malformed;
    private final String firstProblem;
    private final boolean complete;

    Count(
        int partitions,
        long messages,
        long records,
        long malformed,
        String firstProblem,
        boolean complete) {
      this.partitions = partitions;
      this.messages = messages;
      this.records = records;
      this.malformed = malformed;
      this.firstProblem = firstProblem;
      this.complete = complete;
    }

    /** {@return the topic's partitions (0 when it does not exist)} */
    public int partitions() {
      return partitions;
    }

    /** {@return the Kafka messages read} */
    public long messages() {
      return messages;
    }

    /** {@return the log records in the well-formed messages} */
    public long records() {
      return records;
    }

    /** {@return the messages the record counter refused} */
    public long malformed() {
      return malformed;
    }

    /** {@return where and why the first malformed message was refused, or null} */
    public String firstProblem() {
      return firstProblem;
    }

    /**
     * {@return whether every partition was read to its end offset (false: no message within the
     * idle time)}
     */
    public boolean complete() {
      return complete;
    }

    @Override
    public String toString() {
      return "Count["
          + partitions
          + " partitions, "
          + messages
          + " messages, "
          + records
          + " records, "
          + malformed
          + " malformed"
          + (firstProblem == null ? "" : " (first: " + firstProblem + ")")
          + (complete ? "" : ", incomplete")
          + "]";
    }

    /** The running sums of one {@link #count} call; confined to its thread. */
    static final class Tally {
      private long messages;
      private long records;
      private long malformed;
      private String firstProblem;

      void add(ConsumerRecord<byte[], byte[]> r, ToLongFunction<byte[]> recordsPerMessage) {
        messages++;
        try {
          records += recordsPerMessage.applyAsLong(r.value());
        } catch (RuntimeException e) {
          malformed++;
          if (firstProblem == null) {
            firstProblem =
                "partition " + r.partition() + " offset " + r.offset() + ": " + e.getMessage();
          }
        }
      }

      Count result(int partitions, boolean complete) {
        return new Count(partitions, messages, records, malformed, firstProblem, complete);
      }
    }
  }
}
