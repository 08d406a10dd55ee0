package io.logproducer.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.kafka.embedded.EmbeddedKafkaBroker;
import io.logproducer.kafka.testing.KafkaCollector;
import io.logproducer.kafka.testing.SharedKafkaBroker;
import io.logproducer.otlp.encoding.testing.TestRecords;
import io.logproducer.testing.Outcomes;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The real OpenTelemetry Collector (contrib Kafka receiver v0.155.0, built by {@code
 * tools/otelcol-kafka/build.sh}) reads the topic the exporter writes and counts exactly the records
 * sent, for {@code otlp_proto} and {@code otlp_json}, with Kafka compression none and zstd. Without
 * the Collector binary (no Go to build it) the tests are skipped with one line on the build's
 * console.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@ExtendWith(SharedKafkaBroker.class)
class OtelCollectorKafkaTest {

  private EmbeddedKafkaBroker broker;

  @BeforeEach
  void collectorAndBroker(EmbeddedKafkaBroker shared) throws Exception {
    KafkaCollector.assumeAvailable(OtelCollectorKafkaTest.class);
    broker = shared; // the module's shared broker: the topics below are this class's alone
  }

  @ParameterizedTest(name = "{0}, Kafka compression {1}")
  @CsvSource({"otlp_proto, NONE", "otlp_proto, ZSTD", "otlp_json, NONE", "otlp_json, ZSTD"})
  void theCollectorCountsExactlyTheRecordsSent(String encoding, Compression compression)
      throws Exception {
    String topic =
        "collector-" + encoding.replace('_', '-') + "-" + compression.name().toLowerCase();
    broker.createTopic(topic, 2);
    int n = 2_345;
    Outcomes outcomes = new Outcomes();
    try (KafkaCollector collector =
        KafkaCollector.start(broker.bootstrapServers(), topic, encoding)) {
      try (Producer producer =
          new Producer(
              ProducerConfig.builder()
                  .setCompression(compression)
                  .setBatchCountThreshold(500)
                  .setLingerMillis(200)
                  .build(),
              KafkaExporter.builder()
                  .setBootstrapServers(broker.bootstrapServers())
                  .setTopic(topic)
                  .setEncoding(KafkaEncoding.fromName(encoding))
                  .setServiceName("collector-test")
                  .build())) {
        for (int i = 0; i < n; i++) {
          LogRecord r =
              i % 3 == 0 ? TestRecords.full("full " + i) : TestRecords.simple("simple " + i);
          producer.send(r, outcomes.callback(i));
        }
        producer.flush();
        assertTrue(outcomes.await(n, 30_000), outcomes.statusCounts().toString());
      }
      assertEquals(
          n,
          outcomes.idsWith(SendResult.Status.DELIVERED).size(),
          outcomes.statusCounts().toString());
      assertEquals(n, collector.awaitRecordCount(n, 60_000), collector.logTail());
      LockSupport.parkNanos(
          TimeUnit.SECONDS.toNanos(1)); // nothing more arrives: no message was counted twice
      assertEquals(n, collector.recordCount(), collector.logTail());
      assertEquals(Collections.emptyList(), collector.errors());
    }
  }
}
