package io.logproducer.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.kafka.embedded.EmbeddedKafkaBroker;
import io.logproducer.kafka.testing.CapturedLogs;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.kafka.TopicReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The exporter over {@code SASL_PLAINTEXT} against a real broker of its own (4.3.1, a child JVM,
 * its SASL listener on 127.0.0.1 with PLAIN and SCRAM users): the right password delivers every
 * record (read back over the PLAINTEXT listener, exact count and bodies), a wrong one fails every
 * record once, as an authentication failure, within a bounded time; and the password (a marker
 * string, the wrong password holding it as well) is printed nowhere: not by the exporter's {@code
 * toString} and {@code describe}, the outcomes' messages and errors, a refused configuration's
 * exception, or the test JVM's log output (this package at DEBUG, Kafka's configuration dump at
 * INFO), which the last test checks.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class KafkaSaslTest {

  private static final String USER = "alice";
  private static final String MARKER = "S3cr3t-MARKER-kafka";
  private static final String PASSWORD = MARKER;
  private static final String WRONG_PASSWORD = "Wr0ng-" + MARKER;
  private static final int RECORDS = 20;
  private static final int BATCH = 10;

  private CapturedLogs logs;
  private EmbeddedKafkaBroker broker;

  @BeforeAll
  void startBroker() {
    Map<String, Integer> levels = new LinkedHashMap<>();
    levels.put("io.logproducer", CapturedLogs.DEBUG);
    levels.put("org.apache.kafka.clients.producer.ProducerConfig", CapturedLogs.INFO);
    levels.put("org.apache.kafka.common.config.AbstractConfig", CapturedLogs.INFO);
    logs = new CapturedLogs(levels);
    broker =
        EmbeddedKafkaBroker.builder(Paths.get("target", "kafka-sasl-" + System.nanoTime()))
            .saslUser(USER, PASSWORD)
            .start();
  }

  @AfterAll
  void stopBroker() {
    try {
      if (broker != null) {
        broker.close();
      }
    } finally {
      if (logs != null) {
        logs.close();
      }
    }
  }

  private static String jaas(String mechanism, String password) {
    String module =
        mechanism.equals("PLAIN")
            ? "org.apache.kafka.common.security.plain.PlainLoginModule"
            : "org.apache.kafka.common.security.scram.ScramLoginModule";
    return module + " required username=\"" + USER + "\" password=\"" + password + "\";";
  }

  private KafkaExporterBuilder exporter(String topic, String mechanism, String password) {
    return KafkaExporter.builder()
        .setBootstrapServers(broker.saslBootstrapServers())
        .setTopic(topic)
        .setProperty("security.protocol", "SASL_PLAINTEXT")
        .setProperty("sasl.mechanism", mechanism)
        .setProperty("sasl.jaas.config", jaas(mechanism, password));
  }

  /**
   * Batches of exactly {@link #BATCH} records, one send thread: one message per batch, in order.
   */
  private static ProducerConfig config(String clientId) {
    return ProducerConfig.builder()
        .setClientId(clientId)
        .setBatchCountThreshold(BATCH)
        .setLingerMillis(5_000)
        .setSendThreads(1)
        .build();
  }

  private static List<String> bodies(String prefix) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < RECORDS; i++) {
      out.add(prefix + " record " + i);
    }
    return out;
  }

  private static void send(Producer producer, List<String> bodies, Outcomes outcomes) {
    for (int i = 0; i < bodies.size(); i++) {
      producer.send(LogRecord.builder().setBody(bodies.get(i)).build(), outcomes.callback(i));
    }
    producer.flush();
  }

  private static String stackTrace(Throwable t) {
    StringWriter out = new StringWriter();
    t.printStackTrace(new PrintWriter(out));
    return out.toString();
  }

  private static void assertNoMarker(String what, String text) {
    assertFalse(text != null && text.contains(MARKER), what + " holds the password: " + text);
  }

  private static void assertNoMarker(KafkaExporter exporter) {
    assertNoMarker("toString()", exporter.toString());
    assertNoMarker("describe()", exporter.describe());
  }

  private static void assertNoMarker(Outcomes outcomes) {
    for (SendResult r : outcomes.all()) {
      assertNoMarker("an outcome's message", r.getMessage());
      assertNoMarker("an outcome", r.toString());
      if (r.getError() != null) {
        assertNoMarker("an outcome's error", stackTrace(r.getError()));
      }
    }
  }

  @Order(1)
  @ParameterizedTest
  @ValueSource(strings = {"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"})
  void theRightPasswordDeliversEveryRecord(String mechanism) {
    String topic = "sasl-ok-" + mechanism.toLowerCase(Locale.ROOT);
    broker.createTopic(topic, 1);
    List<String> bodies = bodies(mechanism);
    Outcomes outcomes = new Outcomes();
    KafkaExporter exporter = exporter(topic, mechanism, PASSWORD).build();
    assertNoMarker(exporter);
    try (Producer producer = new Producer(config("sasl-ok-" + mechanism), exporter)) {
      send(producer, bodies, outcomes);
      assertTrue(outcomes.await(RECORDS, 60_000), "outcomes: " + outcomes.statusCounts());
      assertEquals(
          Collections.singletonMap(SendResult.Status.DELIVERED, RECORDS), outcomes.statusCounts());
      assertEquals(RECORDS, outcomes.distinctIds());
      assertEquals(0, outcomes.duplicates());
    }
    assertNoMarker(exporter);
    assertNoMarker(outcomes);

    // Read back over the PLAINTEXT listener: two messages of ten records, in order.
    List<ConsumerRecord<byte[], byte[]>> messages =
        TopicReader.readAll(broker.bootstrapServers(), topic, RECORDS / BATCH, 30_000);
    assertEquals(RECORDS / BATCH, messages.size());
    List<String> got = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> m : messages) {
      assertEquals(BATCH, TopicReader.otlpRecordCount(m.value()));
      got.addAll(TopicReader.otlpStringBodies(m.value()));
    }
    assertEquals(bodies, got);
  }

  @Order(2)
  @ParameterizedTest
  @ValueSource(strings = {"PLAIN", "SCRAM-SHA-256"})
  void aWrongPasswordFailsEveryRecordOnceAsAnAuthenticationFailure(String mechanism)
      throws InterruptedException {
    String topic = "sasl-wrong-" + mechanism.toLowerCase(Locale.ROOT);
    broker.createTopic(topic, 1);
    Outcomes outcomes = new Outcomes();
    KafkaExporter exporter = exporter(topic, mechanism, WRONG_PASSWORD).build();
    long begin = System.nanoTime();
    long millis;
    try (Producer producer = new Producer(config("sasl-wrong-" + mechanism), exporter)) {
      send(producer, bodies(mechanism), outcomes);
      // Not retried: far sooner than the client's max.block.ms + delivery.timeout.ms (40 s).
      assertTrue(outcomes.await(RECORDS, 90_000), "outcomes: " + outcomes.statusCounts());
      millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
      Thread.sleep(500); // no second outcome arrives late
    }
    System.out.println(
        "KafkaSaslTest: " + mechanism + ", wrong password: every outcome in " + millis + " ms");
    assertEquals(RECORDS, outcomes.total(), "one outcome per record");
    assertEquals(RECORDS, outcomes.distinctIds());
    assertEquals(0, outcomes.duplicates());
    assertEquals(
        Collections.singletonMap(SendResult.Status.REJECTED, RECORDS), outcomes.statusCounts());
    String expected =
        "Kafka topic "
            + topic
            + ": authentication failed (SASL): "
            + (mechanism.equals("PLAIN")
                ? "Authentication failed: Invalid username or password"
                : "Authentication failed during authentication due to invalid credentials with"
                    + " SASL mechanism "
                    + mechanism)
            + " (SaslAuthenticationException)";
    for (SendResult r : outcomes.all()) {
      assertEquals(expected, r.getMessage());
      assertEquals(1, r.getAttempts(), r.toString());
    }
    assertNoMarker(exporter);
    assertNoMarker(outcomes);
    assertEquals(0, TopicReader.readAll(broker.bootstrapServers(), topic, 0, 1_000).size());
  }

  @Order(3)
  @Test
  void aRefusedConfigurationDoesNotPrintTheSecret() {
    // Kafka's refusal quotes the value ("Invalid value [S3cr3t...] for configuration ...").
    KafkaExporter badType =
        exporter("sasl-refused", "PLAIN", PASSWORD)
            .setProperty("ssl.key.password", Collections.singletonList(MARKER))
            .build();
    assertNoMarker(badType);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Producer(config("sasl-refused-type"), badType).close());
    assertTrue(
        e.getMessage().startsWith("the Kafka producer configuration was refused: "),
        e.getMessage());
    assertTrue(e.getMessage().contains("****"), "the value is masked: " + e.getMessage());
    System.out.println("KafkaSaslTest: refused: " + e.getMessage());
    assertNoMarker("the refusal", stackTrace(e));

    // A JAAS configuration Kafka cannot parse (no closing semicolon).
    KafkaExporter badJaas =
        exporter("sasl-refused", "SCRAM-SHA-256", PASSWORD)
            .setProperty(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
                    + USER
                    + "\" password=\""
                    + MARKER
                    + "\"")
            .build();
    assertNoMarker(badJaas);
    IllegalArgumentException jaas =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Producer(config("sasl-refused-jaas"), badJaas).close());
    assertTrue(
        jaas.getMessage().startsWith("the Kafka producer configuration was refused: "),
        jaas.getMessage());
    assertNoMarker("the refusal", stackTrace(jaas));
    System.out.println("KafkaSaslTest: refused: " + jaas.getMessage());
  }

  @Order(99)
  @Test
  void theLogOutputHoldsNoSecret() {
    String text = logs.text();
    assertNoMarker("the log output", text);
    assertTrue(
        text.contains("sasl.jaas.config = [hidden]"),
        "Kafka's configuration dump was captured (its secrets hidden)");
    assertTrue(text.contains(" DEBUG io.logproducer."), "DEBUG lines of io.logproducer were on");
  }
}
