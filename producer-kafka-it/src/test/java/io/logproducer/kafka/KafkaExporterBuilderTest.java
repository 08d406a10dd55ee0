package io.logproducer.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.otlp.encoding.internal.resource.ResourceDetector;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The exporter's configuration, without a broker: defaults, validation, the Kafka properties it
 * derives.
 */
class KafkaExporterBuilderTest {

  private static ProducerConfig config(Compression compression, int level) {
    return ProducerConfig.builder()
        .setClientId("kafka-test")
        .setCompression(compression)
        .setCompressionLevel(level)
        .build();
  }

  @Test
  void defaults() {
    KafkaExporter e = KafkaExporter.builder().build();
    assertEquals(KafkaEncoding.OTLP_PROTO, e.encoding());
    assertEquals("otlp_logs", e.topic());
    assertEquals("kafka://localhost:9092/otlp_logs (otlp_proto)", e.describe());
    assertEquals("kafka", e.name());
    assertEquals(Compression.NONE, e.capabilities().defaultCompression());
    assertTrue(e.capabilities().compressesItself());
    assertEquals(
        40_000L,
        e.capabilities().requestTimeoutMillis(),
        "max.block.ms 10 s + delivery.timeout.ms 30 s");
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("bootstrap.servers", "localhost:9092");
    expected.put("client.id", "kafka-test");
    expected.put("acks", "all");
    expected.put("enable.idempotence", "true");
    expected.put("linger.ms", "0");
    expected.put("batch.size", "262144");
    expected.put("max.block.ms", "10000");
    expected.put("request.timeout.ms", "10000");
    expected.put("delivery.timeout.ms", "30000");
    expected.put("compression.type", "none");
    assertEquals(
        expected, e.kafkaProperties(ProducerConfig.builder().setClientId("kafka-test").build()));
  }

  @Test
  void theProducersCompressionAndLevelBecomeKafkas() {
    KafkaExporter e = KafkaExporter.builder().setCompression(Compression.LZ4).build();
    assertEquals(
        "lz4",
        e.kafkaProperties(config(null, 0)).get("compression.type"),
        "the exporter's default");
    Map<String, Object> zstd = e.kafkaProperties(config(Compression.ZSTD, 7));
    assertEquals("zstd", zstd.get("compression.type"));
    assertEquals("7", zstd.get("compression.zstd.level"));
    Map<String, Object> gzip = e.kafkaProperties(config(Compression.GZIP, 0));
    assertEquals("gzip", gzip.get("compression.type"));
    assertFalse(gzip.containsKey("compression.gzip.level"), "level 0: Kafka's default");
    Map<String, Object> snappy =
        KafkaExporter.builder()
            .setProperty("compression.type", "snappy")
            .build()
            .kafkaProperties(config(Compression.GZIP, 0));
    assertEquals("snappy", snappy.get("compression.type"), "a property wins");
  }

  @Test
  void propertiesOverrideDefaultsAndSizeTheExporter() {
    KafkaExporter e =
        KafkaExporter.builder()
            .setProperty("acks", "1")
            .setProperty("max.request.size", 100_000)
            .setProperty("max.block.ms", "2000")
            .setProperty("delivery.timeout.ms", 15_000L)
            .setProperty("security.protocol", "SASL_SSL")
            .setProperty("bootstrap.servers", "a:1,b:2")
            .setResourceDetection(false)
            .build();
    Map<String, Object> p = e.kafkaProperties(config(null, 0));
    assertEquals("1", p.get("acks"));
    assertEquals("SASL_SSL", p.get("security.protocol"));
    assertEquals("a:1,b:2", p.get("bootstrap.servers"));
    assertEquals(17_000L, e.capabilities().requestTimeoutMillis());
    int framing =
        100_000
            - KafkaExporter.KAFKA_MESSAGE_OVERHEAD_BYTES
            - e.capabilities().maxBatchSizeInBytes();
    assertTrue(framing > 0 && framing < 200, "the request framing: " + framing);
    KafkaExporter detecting =
        KafkaExporter.builder()
            .setProperty("max.request.size", 100_000)
            .setResourceDetection(true)
            .build();
    assertTrue(
        detecting.capabilities().maxBatchSizeInBytes()
            < e.capabilities().maxBatchSizeInBytes() - 100,
        "the detected attributes are part of each request's framing");
    KafkaExporter raw =
        KafkaExporter.builder()
            .setEncoding(KafkaEncoding.RAW)
            .setProperty("max.request.size", "5000")
            .build();
    assertEquals(5000 - 82, raw.capabilities().maxBatchSizeInBytes());
  }

  @Test
  void badInputIsRefusedWithItsReason() {
    KafkaExporterBuilder b = KafkaExporter.builder();
    assertEquals(
        "Kafka topic 'a b' has an illegal character at index 1; legal are ASCII letters, digits, '.', '_'"
            + " and '-'",
        assertThrows(IllegalArgumentException.class, () -> b.setTopic("a b")).getMessage());
    assertThrows(IllegalArgumentException.class, () -> b.setTopic(".."));
    assertThrows(
        IllegalArgumentException.class,
        () -> b.setTopic(new String(new char[250]).replace('\0', 'x')));
    b.setTopic(new String(new char[249]).replace('\0', 'x'));
    assertEquals(
        "key.serializer cannot be set: the exporter sends byte arrays",
        assertThrows(IllegalArgumentException.class, () -> b.setProperty("key.serializer", "x"))
            .getMessage());
    assertEquals(
        "Kafka property max.request.size must be a number, was big",
        assertThrows(IllegalArgumentException.class, () -> b.setProperty("max.request.size", "big"))
            .getMessage());
    assertEquals(
        "Kafka property delivery.timeout.ms must be positive, was 0",
        assertThrows(IllegalArgumentException.class, () -> b.setProperty("delivery.timeout.ms", 0))
            .getMessage());
    assertThrows(IllegalArgumentException.class, () -> b.setBootstrapServers(" "));
    assertThrows(IllegalArgumentException.class, () -> b.setKeySlots(0));
    assertThrows(IllegalArgumentException.class, () -> b.setKeySlots(1025));
    assertThrows(IllegalArgumentException.class, () -> b.setKeyAttribute(""));
    assertEquals(
        "Kafka encoding must be otlp_proto, otlp_json or raw, was text",
        assertThrows(IllegalArgumentException.class, () -> KafkaEncoding.fromName("text"))
            .getMessage());
    assertSame(KafkaEncoding.OTLP_JSON, KafkaEncoding.fromName("OTLP_JSON"));
    assertSame(KafkaEncoding.RAW, KafkaEncoding.fromName(" raw "));
    assertEquals(
        "max.request.size (100) leaves no room for records after the message framing",
        assertThrows(
                IllegalArgumentException.class,
                () -> KafkaExporter.builder().setProperty("max.request.size", 100).build())
            .getMessage());
  }

  @Test
  void aRecordsDestinationIsItsTopicAndAKeyPicksItsSlot() {
    KafkaExporter e = KafkaExporter.builder().setTopic("logs").build();
    assertEquals("logs", e.shardKey(LogRecord.builder().setBody("x").build()));
    assertEquals(
        "audit", e.shardKey(LogRecord.builder().setBody("x").setDestination("audit").build()));
    IllegalArgumentException bad =
        assertThrows(
            IllegalArgumentException.class,
            () -> e.shardKey(LogRecord.builder().setBody("x").setDestination("bad/topic").build()));
    assertTrue(
        bad.getMessage().startsWith("Kafka topic 'bad/topic' has an illegal character"),
        bad.getMessage());

    KafkaExporter keyed = KafkaExporter.builder().setKeyAttribute("user").setKeySlots(4).build();
    Object a1 = keyed.shardKey(LogRecord.builder().setAttribute("user", "alice").build());
    Object a2 =
        keyed.shardKey(LogRecord.builder().setAttribute("user", "alice").setBody("other").build());
    assertEquals(a1, a2);
    assertEquals(a1.hashCode(), a2.hashCode());
    assertEquals("otlp_logs#slot" + ("alice".hashCode() & 0x7fffffff) % 4, a1.toString());
    assertEquals(
        "otlp_logs#slot0",
        keyed.shardKey(LogRecord.builder().setBody("no key").build()).toString());
    assertNotEquals(
        a1,
        keyed.shardKey(LogRecord.builder().setAttribute("user", "bob").build()),
        "alice and bob fall in different slots of 4");

    KafkaExporter rawKeyed =
        KafkaExporter.builder().setEncoding(KafkaEncoding.RAW).setKeyAttribute("user").build();
    assertEquals(
        "otlp_logs",
        rawKeyed.shardKey(LogRecord.builder().setAttribute("user", "alice").build()),
        "raw: the key travels with each message; the shard is the topic");
  }

  @Test
  void theProducerLowersItsDefaultBatchSizeToWhatAMessageCarriesAndChecksTheDeliveryTimeout() {
    KafkaExporter e = KafkaExporter.builder().setBootstrapServers("127.0.0.1:1").build();
    assertTrue(e.capabilities().maxBatchSizeInBytes() < ProducerConfig.DEFAULT_BATCH_SIZE_IN_BYTES);
    try (Producer p =
        new Producer(ProducerConfig.builder().setClientId("kafka-lowered").build(), e)) {
      assertTrue(p.getMetrics() != null);
    }
    IllegalArgumentException tooShort =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new Producer(
                    ProducerConfig.builder().setDeliveryTimeoutMillis(30_000).build(),
                    KafkaExporter.builder().setBootstrapServers("127.0.0.1:1").build()));
    assertTrue(
        tooShort
            .getMessage()
            .startsWith(
                "deliveryTimeoutMillis (30000) must be at least lingerMillis (1000)"
                    + " + the exporter's request timeout (40000 ms"),
        tooShort.getMessage());
    IllegalArgumentException refused =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new Producer(
                    ProducerConfig.defaults(),
                    KafkaExporter.builder()
                        .setBootstrapServers("127.0.0.1:1")
                        .setProperty("acks", "most")
                        .build()));
    assertTrue(
        refused.getMessage().startsWith("the Kafka producer configuration was refused: "),
        refused.getMessage());
  }

  @Test
  void otlpResourcesHoldTheDetectedAttributesUnderTheConfiguredOnes() {
    Map<String, AnyValue> detected = ResourceDetector.detect();
    assertTrue(detected.containsKey("host.name"), detected.toString());
    assertTrue(detected.containsKey("process.pid"), detected.toString());

    Map<String, AnyValue> expected = new LinkedHashMap<>();
    expected.put("service.name", AnyValue.of(KafkaExporter.DEFAULT_SERVICE_NAME));
    expected.putAll(detected);
    assertEquals(expected, KafkaExporter.builder().build().resource());
    assertEquals(
        expected, KafkaExporter.builder().setEncoding(KafkaEncoding.OTLP_JSON).build().resource());

    KafkaExporter explicit =
        KafkaExporter.builder()
            .setServiceName("checkout")
            .setResourceAttribute("host.name", "h1")
            .setResourceAttribute("process.pid", AnyValue.of(7L))
            .build();
    assertEquals(AnyValue.of("checkout"), explicit.resource().get("service.name"));
    assertEquals(AnyValue.of("h1"), explicit.resource().get("host.name"));
    assertEquals(AnyValue.of(7L), explicit.resource().get("process.pid"));
    assertEquals(detected.get("os.type"), explicit.resource().get("os.type"));
    assertEquals(expected.size(), explicit.resource().size());
  }

  @Test
  void detectionOffLeavesOnlyTheConfiguredAttributes() {
    Map<String, AnyValue> expected = new LinkedHashMap<>();
    expected.put("service.name", AnyValue.of("checkout"));
    expected.put("deployment.environment.name", AnyValue.of("prod"));
    assertEquals(
        expected,
        KafkaExporter.builder()
            .setResourceDetection(false)
            .setServiceName("checkout")
            .setResourceAttribute("deployment.environment.name", "prod")
            .build()
            .resource());
    assertEquals(
        Collections.emptyMap(),
        KafkaExporter.builder().setEncoding(KafkaEncoding.RAW).build().resource(),
        "raw messages have no resource");
  }
}
