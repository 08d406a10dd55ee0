package io.logproducer.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.kafka.embedded.EmbeddedKafkaBroker;
import io.logproducer.kafka.testing.SharedKafkaBroker;
import io.logproducer.otlp.encoding.internal.resource.ResourceDetector;
import io.logproducer.otlp.encoding.testing.ExpectedProto;
import io.logproducer.otlp.encoding.testing.OtlpJson;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.kafka.TopicReader;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The exporter against a real single-node KRaft broker (4.3.1, a child JVM on 127.0.0.1), read back
 * with a real consumer: exact counts, every OTLP message decoded with the independent {@code
 * opentelemetry-proto} classes and compared field by field, raw values and keys byte for byte,
 * partitions as documented.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@ExtendWith(SharedKafkaBroker.class)
class KafkaExporterIntegrationTest {

  private static final int PARTITIONS = 3;

  private EmbeddedKafkaBroker broker;

  /** The module's shared broker: the topics of these tests are theirs alone. */
  @BeforeAll
  void sharedBroker(EmbeddedKafkaBroker shared) {
    broker = shared;
  }

  private String topic(String name) throws Exception {
    broker.createTopic(name, PARTITIONS);
    return name;
  }

  /**
   * Batches of exactly {@code count} records (a long linger: only the count seals them), one send
   * thread.
   */
  private static ProducerConfig.Builder config(int count) {
    return ProducerConfig.builder()
        .setBatchCountThreshold(count)
        .setLingerMillis(5_000)
        .setSendThreads(1);
  }

  private KafkaExporterBuilder exporter(String topic) {
    return KafkaExporter.builder().setBootstrapServers(broker.bootstrapServers()).setTopic(topic);
  }

  private static void sendAll(Producer producer, List<LogRecord> records, Outcomes outcomes) {
    for (int i = 0; i < records.size(); i++) {
      producer.send(records.get(i), outcomes.callback(i));
    }
    producer.flush();
    assertTrue(outcomes.await(records.size(), 30_000), "outcomes: " + outcomes.statusCounts());
    assertEquals(
        records.size(),
        outcomes.idsWith(SendResult.Status.DELIVERED).size(),
        "delivered: " + outcomes.statusCounts());
    assertEquals(0, outcomes.duplicates());
  }

  private static List<LogRecord> fullRecords(int n) {
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      records.add(
          i % 2 == 0 ? TestRecords.full("record " + i + " 日志") : TestRecords.simple("record " + i));
    }
    return records;
  }

  private static Map<Integer, Integer> messagesPerPartition(
      List<ConsumerRecord<byte[], byte[]>> messages) {
    Map<Integer, Integer> counts = new TreeMap<>();
    for (ConsumerRecord<byte[], byte[]> m : messages) {
      counts.merge(m.partition(), 1, Integer::sum);
    }
    return counts;
  }

  private static Map<Integer, Integer> counts(int... perPartition) {
    Map<Integer, Integer> m = new TreeMap<>();
    for (int p = 0; p < perPartition.length; p++) {
      m.put(p, perPartition[p]);
    }
    return m;
  }

  /**
   * Checks every message is one request for resource and scope, and returns their records in
   * message order.
   */
  private static List<io.opentelemetry.proto.logs.v1.LogRecord> recordsOf(
      List<ExportLogsServiceRequest> requests, Map<String, AnyValue> resource) {
    ExportLogsServiceRequest frame =
        ExpectedProto.request(
            resource, KafkaExporter.DEFAULT_SCOPE_NAME, null, Collections.emptyList());
    List<io.opentelemetry.proto.logs.v1.LogRecord> out = new ArrayList<>();
    for (ExportLogsServiceRequest r : requests) {
      assertEquals(1, r.getResourceLogsCount());
      ResourceLogs rl = r.getResourceLogs(0);
      assertEquals(frame.getResourceLogs(0).getResource(), rl.getResource());
      assertEquals(1, rl.getScopeLogsCount());
      ScopeLogs sl = rl.getScopeLogs(0);
      assertEquals(frame.getResourceLogs(0).getScopeLogs(0).getScope(), sl.getScope());
      out.addAll(sl.getLogRecordsList());
    }
    return out;
  }

  private static void assertSameRecords(
      List<LogRecord> sent, List<io.opentelemetry.proto.logs.v1.LogRecord> got) {
    assertEquals(sent.size(), got.size());
    Map<String, io.opentelemetry.proto.logs.v1.LogRecord> byBody = new HashMap<>();
    for (io.opentelemetry.proto.logs.v1.LogRecord r : got) {
      assertNull(byBody.put(r.getBody().getStringValue(), r), "received twice: " + r.getBody());
    }
    for (LogRecord r : sent) {
      assertEquals(
          ExpectedProto.logRecord(r), byBody.get(r.getBody().asString()), r.getBody().asString());
    }
  }

  @Test
  void otlpProtoMessagesAreRequestsTheIndependentDecoderReadsFieldByField() throws Exception {
    String topic = topic("proto");
    List<LogRecord> records = fullRecords(50);
    Outcomes outcomes = new Outcomes();
    try (Producer producer =
        new Producer(
            config(10).build(),
            exporter(topic)
                .setServiceName("checkout")
                .setResourceAttribute("host.name", "h1")
                .build())) {
      sendAll(producer, records, outcomes);
    }
    List<ConsumerRecord<byte[], byte[]>> messages =
        TopicReader.readAll(broker.bootstrapServers(), topic, 5, 30_000);
    assertEquals(5, messages.size(), "one message per batch of 10");
    assertEquals(
        counts(2, 2, 1), messagesPerPartition(messages), "round-robin over the partitions");
    List<ExportLogsServiceRequest> requests = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> m : messages) {
      assertNull(m.key());
      ExportLogsServiceRequest request = ExportLogsServiceRequest.parseFrom(m.value());
      requests.add(request);
      // The test kit's decoder agrees with protobuf-java.
      List<String> bodies = new ArrayList<>();
      request
          .getResourceLogs(0)
          .getScopeLogs(0)
          .getLogRecordsList()
          .forEach(
              lr ->
                  bodies.add(lr.getBody().hasStringValue() ? lr.getBody().getStringValue() : null));
      assertEquals(bodies, TopicReader.otlpStringBodies(m.value()));
      assertEquals(10, TopicReader.otlpRecordCount(m.value()));
    }
    // The detected attributes (resource detection is on by default) after the configured ones,
    // which win: host.name is h1, not this machine's name.
    Map<String, AnyValue> resource = new LinkedHashMap<>();
    resource.put("service.name", AnyValue.of("checkout"));
    resource.put("host.name", AnyValue.of("h1"));
    for (Map.Entry<String, AnyValue> e : ResourceDetector.detect().entrySet()) {
      resource.putIfAbsent(e.getKey(), e.getValue());
    }
    assertEquals(
        ProcessHandle.current().pid(),
        requests.get(0).getResourceLogs(0).getResource().getAttributesList().stream()
            .filter(kv -> kv.getKey().equals("process.pid"))
            .findFirst()
            .orElseThrow(AssertionError::new)
            .getValue()
            .getIntValue());
    List<io.opentelemetry.proto.logs.v1.LogRecord> got = recordsOf(requests, resource);
    for (ExportLogsServiceRequest r : requests) {
      assertEquals(10, r.getResourceLogs(0).getScopeLogs(0).getLogRecordsCount());
    }
    assertSameRecords(records, got);
  }

  @Test
  void otlpJsonMessagesAreTheSameRequestsInOtlpJson() throws Exception {
    String topic = topic("json");
    List<LogRecord> records = fullRecords(30);
    Outcomes outcomes = new Outcomes();
    try (Producer producer =
        new Producer(
            config(10).setCompression(Compression.ZSTD).build(),
            exporter(topic)
                .setEncoding(KafkaEncoding.OTLP_JSON)
                .setResourceDetection(false)
                .build())) {
      sendAll(producer, records, outcomes);
    }
    List<ConsumerRecord<byte[], byte[]>> messages =
        TopicReader.readAll(broker.bootstrapServers(), topic, 3, 30_000);
    assertEquals(counts(1, 1, 1), messagesPerPartition(messages));
    List<ExportLogsServiceRequest> requests = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> m : messages) {
      String json = new String(m.value(), StandardCharsets.UTF_8);
      assertTrue(json.startsWith("{\"resourceLogs\":["), json);
      requests.add(OtlpJson.parseRequest(json));
    }
    // Detection off: only the configured attribute.
    Map<String, AnyValue> resource =
        Collections.singletonMap("service.name", AnyValue.of(KafkaExporter.DEFAULT_SERVICE_NAME));
    assertSameRecords(records, recordsOf(requests, resource));
  }

  @Test
  void rawMessagesAreBodiesKeyedByTheAttributeAndPartitionedAsKafkaDoes() throws Exception {
    String topic = topic("raw");
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      LogRecord.Builder b =
          LogRecord.builder().setBody("line " + i + " ü").setAttribute("seq", (long) i);
      if (i % 4 != 0) {
        b.setAttribute("user", "user-" + (i % 5));
      }
      records.add(b.build());
    }
    Outcomes outcomes = new Outcomes();
    try (Producer producer =
        new Producer(
            config(20).setCompression(Compression.LZ4).build(),
            exporter(topic).setEncoding(KafkaEncoding.RAW).setKeyAttribute("user").build())) {
      sendAll(producer, records, outcomes);
    }
    List<ConsumerRecord<byte[], byte[]>> messages =
        TopicReader.readAll(broker.bootstrapServers(), topic, 40, 30_000);
    assertEquals(40, messages.size());
    Map<String, ConsumerRecord<byte[], byte[]>> byValue = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> m : messages) {
      assertNull(byValue.put(new String(m.value(), StandardCharsets.UTF_8), m));
    }
    Map<Integer, Integer> unkeyedPartitionOfBatch = new HashMap<>();
    for (int i = 0; i < 40; i++) {
      ConsumerRecord<byte[], byte[]> m = byValue.get("line " + i + " ü");
      if (i % 4 == 0) {
        assertNull(m.key());
        Integer prior = unkeyedPartitionOfBatch.putIfAbsent(i / 20, m.partition());
        assertEquals(
            prior == null ? m.partition() : prior,
            m.partition(),
            "unkeyed records stay in their batch's");
      } else {
        byte[] key = ("user-" + (i % 5)).getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(key, m.key());
        assertEquals(
            Utils.toPositive(Utils.murmur2(key)) % PARTITIONS,
            m.partition(),
            "Kafka's key partitioning");
      }
    }
    assertEquals(2, unkeyedPartitionOfBatch.size());
    assertTrue(
        !unkeyedPartitionOfBatch.get(0).equals(unkeyedPartitionOfBatch.get(1)),
        "round-robin per batch");
  }

  @Test
  void keyedOtlpBatchesHoldOneSlotAndEachSlotKeepsToOnePartition() throws Exception {
    String topic = topic("keyed");
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      records.add(
          LogRecord.builder().setBody("k " + i).setAttribute("tenant", "t" + (i % 6)).build());
    }
    Outcomes outcomes = new Outcomes();
    try (Producer producer =
        new Producer(
            config(5).build(),
            exporter(topic).setKeyAttribute("tenant").setKeySlots(PARTITIONS).build())) {
      sendAll(producer, records, outcomes);
    }
    List<ConsumerRecord<byte[], byte[]>> messages =
        TopicReader.readAll(broker.bootstrapServers(), topic, 12, 30_000);
    int total = 0;
    for (ConsumerRecord<byte[], byte[]> m : messages) {
      ExportLogsServiceRequest r = ExportLogsServiceRequest.parseFrom(m.value());
      for (io.opentelemetry.proto.logs.v1.LogRecord lr :
          r.getResourceLogs(0).getScopeLogs(0).getLogRecordsList()) {
        String tenant = lr.getAttributes(0).getValue().getStringValue();
        assertEquals((tenant.hashCode() & 0x7fffffff) % PARTITIONS, m.partition(), tenant);
        total++;
      }
    }
    assertEquals(60, total);
  }

  @Test
  void aRecordsDestinationIsItsTopic() throws Exception {
    String orders = topic("orders");
    String audit = topic("audit");
    List<LogRecord> records = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      records.add(
          LogRecord.builder().setBody("d " + i).setDestination(i % 3 == 0 ? audit : null).build());
    }
    Outcomes outcomes = new Outcomes();
    try (Producer producer =
        new Producer(
            config(100).setLingerMillis(200).build(),
            exporter(orders).setEncoding(KafkaEncoding.RAW).build())) {
      sendAll(producer, records, outcomes);
    }
    assertEquals(20, TopicReader.readAll(broker.bootstrapServers(), orders, 20, 30_000).size());
    assertEquals(10, TopicReader.readAll(broker.bootstrapServers(), audit, 10, 30_000).size());
  }

  @Test
  void aMessageNeverExceedsMaxRequestSize() throws Exception {
    String topic = topic("sized");
    List<LogRecord> records = new ArrayList<>();
    String padding = new String(new char[1000]).replace('\0', 'p');
    for (int i = 0; i < 1_000; i++) {
      records.add(LogRecord.builder().setBody(i + " " + padding).build());
    }
    Outcomes outcomes = new Outcomes();
    try (Producer producer =
        new Producer(
            ProducerConfig.builder().setLingerMillis(200).build(),
            exporter(topic).setProperty("max.request.size", 100_000).build())) {
      sendAll(producer, records, outcomes);
    }
    List<ConsumerRecord<byte[], byte[]>> messages =
        TopicReader.readAll(broker.bootstrapServers(), topic, 11, 30_000);
    int total = 0;
    for (ConsumerRecord<byte[], byte[]> m : messages) {
      assertTrue(
          m.value().length <= 100_000 - KafkaExporter.KAFKA_MESSAGE_OVERHEAD_BYTES,
          "" + m.value().length);
      total +=
          ExportLogsServiceRequest.parseFrom(m.value())
              .getResourceLogs(0)
              .getScopeLogs(0)
              .getLogRecordsCount();
    }
    assertEquals(1_000, total);
    assertTrue(
        messages.size() >= 11, "1 MB of records in messages under 100 kB: " + messages.size());
  }

  @Test
  void aBatchTheBrokerFindsTooLargeIsSplitNotRejected() throws Exception {
    String topic = "small-messages";
    broker.createTopic(topic, 1, Collections.singletonMap("max.message.bytes", "20000"));
    List<LogRecord> records = new ArrayList<>();
    String padding = new String(new char[500]).replace('\0', 'q');
    for (int i = 0; i < 400; i++) {
      records.add(LogRecord.builder().setBody(i + " " + padding).build());
    }
    Outcomes outcomes = new Outcomes();
    try (Producer producer = new Producer(config(400).build(), exporter(topic).build())) {
      sendAll(producer, records, outcomes);
    }
    List<ConsumerRecord<byte[], byte[]>> messages =
        TopicReader.readAll(broker.bootstrapServers(), topic, 16, 30_000);
    int total = 0;
    for (ConsumerRecord<byte[], byte[]> m : messages) {
      assertTrue(m.value().length <= 20_000, "" + m.value().length);
      total +=
          ExportLogsServiceRequest.parseFrom(m.value())
              .getResourceLogs(0)
              .getScopeLogs(0)
              .getLogRecordsCount();
    }
    assertEquals(400, total, "every record once, in halves of halves of the 200 kB batch");

    Outcomes single = new Outcomes();
    try (Producer producer = new Producer(config(1).build(), exporter(topic).build())) {
      producer.send(
          LogRecord.builder().setBody(new String(new char[30_000]).replace('\0', 'x')).build(),
          single.callback(0));
      producer.flush();
      assertTrue(single.await(1, 30_000));
    }
    assertEquals(SendResult.Status.REJECTED, single.get(0).getStatus(), single.get(0).toString());
    assertTrue(
        single.get(0).getMessage().contains("RecordTooLargeException"), single.get(0).getMessage());
  }

  @Test
  void aTopicTheClusterDoesNotHaveFailsEveryRecordWithKafkasMessage() throws Exception {
    Outcomes outcomes = new Outcomes();
    try (Producer producer =
        new Producer(
            config(10).setLingerMillis(100).build(),
            exporter("never-created").setProperty("max.block.ms", 2_000).build())) {
      for (int i = 0; i < 25; i++) {
        producer.send(LogRecord.builder().setBody("lost " + i).build(), outcomes.callback(i));
      }
      producer.flush();
      assertTrue(outcomes.await(25, 30_000), "outcomes: " + outcomes.statusCounts());
    }
    assertEquals(
        25,
        outcomes.idsWith(SendResult.Status.REJECTED).size(),
        outcomes.statusCounts().toString());
    String message = outcomes.get(0).getMessage();
    assertTrue(
        message.contains(
            "Kafka topic never-created does not exist (and the broker does not create it): "
                + "Topic never-created not present in metadata after 2000 ms."),
        message);
  }

  @Test
  void kafkaCompressesTheStoredBatches() throws Exception {
    Map<Compression, Long> bytes = new LinkedHashMap<>();
    for (Compression c :
        new Compression[] {Compression.NONE, Compression.GZIP, Compression.LZ4, Compression.ZSTD}) {
      String topic = "compressed-" + c.name().toLowerCase();
      broker.createTopic(topic, 1);
      Outcomes outcomes = new Outcomes();
      try (Producer producer =
          new Producer(config(100).setCompression(c).build(), exporter(topic).build())) {
        sendAll(producer, fullRecords(500), outcomes);
      }
      assertEquals(5, TopicReader.readAll(broker.bootstrapServers(), topic, 5, 30_000).size());
      bytes.put(c, logBytes(topic + "-0"));
    }
    for (Compression c : new Compression[] {Compression.GZIP, Compression.LZ4, Compression.ZSTD}) {
      assertTrue(bytes.get(c) * 3 < bytes.get(Compression.NONE), "stored bytes " + bytes);
    }
  }

  private long logBytes(String partitionDir) throws Exception {
    long total = 0;
    try (java.util.stream.Stream<Path> files = Files.walk(broker.dataDir())) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (f.getParent() != null
            && f.getParent().getFileName().toString().equals(partitionDir)
            && f.getFileName().toString().endsWith(".log")) {
          total += Files.size(f);
        }
      }
    }
    assertTrue(total > 0, "no log segment for " + partitionDir);
    return total;
  }
}
