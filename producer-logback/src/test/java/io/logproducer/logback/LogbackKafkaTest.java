package io.logproducer.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.LoggerContext;
import io.logproducer.kafka.embedded.EmbeddedKafkaBroker;
import io.logproducer.testing.otlp.OtlpRequests;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import io.logproducer.testsupport.SchedulerLag;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The appender configured with {@code <kafka>} in XML, against a real single-node KRaft broker:
 * every event arrives as an OTLP record, and the Kafka client's own DEBUG logging (on its network
 * thread and the send threads) never re-enters the producer, with the broker up or gone.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LogbackKafkaTest {

  /** The global context: the one the Kafka client's SLF4J loggers log to. */
  private final LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();

  @AfterEach
  void restoreDefaultConfiguration() throws Exception {
    ctx.reset();
    LogbackTestSupport.configure(ctx, "logback-test.xml", Collections.emptyMap());
  }

  private static List<ReceivedLogRecord> consume(String bootstrap, String topic, int expected) {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap);
    List<ReceivedLogRecord> records = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts = new ArrayList<>();
      for (PartitionInfo info : c.partitionsFor(topic, Duration.ofSeconds(30))) {
        parts.add(new TopicPartition(topic, info.partition()));
      }
      c.assign(parts);
      c.seekToBeginning(parts);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (records.size() < expected && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> m : c.poll(Duration.ofMillis(200))) {
          List<ReceivedLogRecord> decoded = OtlpRequests.decodeProtobuf(m.value());
          for (ReceivedLogRecord r : decoded) {
            assertEquals(
                "logback-kafka",
                r.resourceAttributes().values().iterator().next(),
                "the first resource attribute: " + r.resourceAttributes());
          }
          records.addAll(decoded);
        }
      }
      c.poll(Duration.ofMillis(300)).forEach(m -> records.add(null)); // anything more is an error
    }
    return records;
  }

  @Test
  void eventsArriveInKafkaAndTheClientsOwnLoggingDoesNotReEnter() throws Exception {
    {
      EmbeddedKafkaBroker broker = SharedKafkaBroker.get();
      broker.createTopic("logback", 2);
      Map<String, String> props = new HashMap<>();
      props.put("kafka.bootstrap", broker.bootstrapServers());
      props.put("kafka.topic", "logback");
      ctx.reset();
      LogbackTestSupport.configure(ctx, "kafka.xml", props);
      RecordingAppender list =
          (RecordingAppender) ctx.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("LIST");
      Logger log = ctx.getLogger("app.orders");
      int n = 500;
      for (int i = 0; i < n; i++) {
        log.info("order {} paid ✓", i);
      }
      LogproducerAppender appender = LogbackTestSupport.appender(ctx, "LP");
      appender.getProducer().flush();
      assertEquals(n, appender.getProducer().getMetrics().getRecordsSent(), "delivered to Kafka");
      // stops the appender; a reset alone would leave its hand-over waiting stopTimeoutMillis for
      // a successor (a reconfiguration), with its thread
      ctx.stop();

      List<ReceivedLogRecord> records = consume(broker.bootstrapServers(), "logback", n);
      assertEquals(n, records.size(), "exactly the application's events");
      List<String> bodies = new ArrayList<>();
      records.forEach(r -> bodies.add(r.bodyString()));
      Collections.sort(bodies);
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        expected.add("order " + i + " paid ✓");
      }
      Collections.sort(expected);
      assertEquals(expected, bodies);
      long kafkaThreadEvents =
          list.seen.stream()
              .filter(s -> s.startsWith("kafka-producer-network-thread | lp-kafka|"))
              .count();
      assertTrue(
          kafkaThreadEvents > 0,
          "the Kafka client logged at DEBUG on its own thread: " + list.seen.size());
      LogbackTestSupport.awaitNoThreads("lp-kafka");
      LogbackTestSupport.awaitNoThreads("kafka-producer-network-thread | lp-");
    }
  }

  @Test
  void withTheBrokerGoneStopReturnsInBoundedTimeAndOnlyApplicationEventsEnter() throws Exception {
    Map<String, String> props = new HashMap<>();
    props.put("kafka.bootstrap", "127.0.0.1:" + LogbackTestSupport.closedPort());
    props.put("kafka.topic", "nowhere");
    ctx.reset();
    LogbackTestSupport.configure(ctx, "kafka.xml", props);
    RecordingAppender list =
        (RecordingAppender) ctx.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("LIST");
    Logger log = ctx.getLogger("app.orders");
    LogproducerAppender appender = LogbackTestSupport.appender(ctx, "LP");
    for (int i = 0; i < 100; i++) {
      log.info("lost {}", i);
    }
    LogbackTestSupport.await(
        "the Kafka client to log its connection failures at DEBUG",
        () ->
            list.seen.stream()
                .anyMatch(s -> s.startsWith("kafka-producer-network-thread | lp-kafka|")),
        30_000,
        list.seen::toString);
    // the appender's worker hands the queued events to the producer as this machine schedules it
    LogbackTestSupport.await(
        "the application's events in the producer",
        () -> appender.getProducer().getMetrics().getRecordsAccepted() >= 100,
        30_000,
        () -> appender.getProducer().getMetrics().toString());
    assertEquals(
        100,
        appender.getProducer().getMetrics().getRecordsAccepted(),
        "only the application's events entered the producer");
    try (SchedulerLag lag = SchedulerLag.start()) {
      long start = System.nanoTime();
      // stops the appender (a reset alone would leave its hand-over waiting stopTimeoutMillis for a
      // successor, with its threads)
      ctx.stop();
      // the appender's contract: stopTimeoutMillis (3 s) + 1 s, plus how late this machine wakes
      lag.assertWithin(start, 3_000 + 1_000, "the context's stop with the broker gone");
    }
    LogbackTestSupport.await(
        "no producer thread left",
        () ->
            LogbackTestSupport.liveThreads("lp-kafka").isEmpty()
                && LogbackTestSupport.liveThreads("kafka-producer-network-thread | lp-").isEmpty(),
        30_000,
        () -> LogbackTestSupport.liveThreads("lp-kafka").toString());
  }
}
