package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.kafka.embedded.EmbeddedKafkaBroker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code <Kafka>} element against a real single-node KRaft broker: every event arrives as an
 * OTLP/JSON record, and the Kafka client's DEBUG logging (through SLF4J into this log4j2 context)
 * never re-enters the producer.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Log4j2KafkaTest {

  private static final Pattern BODY =
      Pattern.compile("\"body\":\\{\"stringValue\":\"(order \\d+ paid)\"\\}");

  @Test
  void eventsArriveInKafkaAndTheClientsOwnLoggingDoesNotReEnter() throws Exception {
    try (EmbeddedKafkaBroker broker =
        EmbeddedKafkaBroker.start(Paths.get("target", "kafka-log4j2"))) {
      broker.createTopic("log4j2", 1);
      System.setProperty("kafka.bootstrap", broker.bootstrapServers());
      LoggerContext ctx = LoggerContext.getContext(false);
      int n = 300;
      try {
        ctx.setConfigLocation(Support.resource("kafka.xml"));
        CaptureAppender capture = ctx.getConfiguration().getAppender("capture");
        LogproducerAppender appender = Support.appender(ctx, "kafka");
        Logger log = ctx.getLogger("app.orders");
        for (int i = 0; i < n; i++) {
          log.info("order {} paid", i);
        }
        // The hand-off's worker gives the producer every event; then the flush sends them.
        Support.await(
            "the hand-off to pass every event to the producer",
            () -> appender.getProducer().getMetrics().getRecordsAccepted() >= n,
            10_000,
            () -> "accepted " + appender.getProducer().getMetrics().getRecordsAccepted());
        appender.getProducer().flush();
        assertEquals(n, appender.getProducer().getMetrics().getRecordsSent());
        Support.await(
            "the Kafka client's DEBUG events",
            () ->
                capture.seen().stream()
                    .anyMatch(s -> s.loggerName().startsWith("org.apache.kafka")),
            10_000,
            () -> "captured " + capture.seen().size());
        assertEquals(
            n,
            appender.getProducer().getMetrics().getRecordsAccepted(),
            "only the application's events");
      } finally {
        ctx.setConfigLocation(Support.resource("log4j2-test.xml"));
        System.clearProperty("kafka.bootstrap");
      }
      Support.awaitNoThreads("lp-log4j2-kafka");

      List<String> bodies = new ArrayList<>();
      Properties p = new Properties();
      p.put("bootstrap.servers", broker.bootstrapServers());
      try (KafkaConsumer<byte[], byte[]> c =
          new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
        List<TopicPartition> parts = new ArrayList<>();
        for (PartitionInfo info : c.partitionsFor("log4j2", Duration.ofSeconds(30))) {
          parts.add(new TopicPartition("log4j2", info.partition()));
        }
        c.assign(parts);
        c.seekToBeginning(parts);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (bodies.size() < n && System.nanoTime() < deadline) {
          for (ConsumerRecord<byte[], byte[]> m : c.poll(Duration.ofMillis(200))) {
            String json = new String(m.value(), StandardCharsets.UTF_8);
            assertTrue(
                json.contains(
                    "{\"key\":\"service.name\",\"value\":{\"stringValue\":\"log4j2-kafka\"}}"),
                json);
            Matcher matcher = BODY.matcher(json);
            while (matcher.find()) {
              bodies.add(matcher.group(1));
            }
          }
        }
      }
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        expected.add("order " + i + " paid");
      }
      assertEquals(
          expected, bodies, "every event once, in order (one partition, one shard per topic)");
    }
  }
}
