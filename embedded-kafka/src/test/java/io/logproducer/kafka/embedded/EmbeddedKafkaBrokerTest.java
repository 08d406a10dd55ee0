package io.logproducer.kafka.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A real broker in a child JVM: round trips, stop and restart with the data kept, and no process
 * left behind.
 */
class EmbeddedKafkaBrokerTest {

  private static final Path ROOT = Paths.get("target", "embedded-kafka-test");
  private static final String TOPIC = "logs";
  private static final int PARTITIONS = 3;

  private EmbeddedKafkaBroker broker;

  @AfterEach
  void tearDown() {
    if (broker != null) {
      broker.close();
    }
    assertEquals(List.of(), brokerChildren(), "no broker JVM is left running");
  }

  @Test
  @Timeout(180)
  void recordsRoundTripAndSurviveARestartOnTheSamePort() throws Exception {
    broker = EmbeddedKafkaBroker.start(ROOT.resolve("lifecycle"));
    String bootstrap = broker.bootstrapServers();
    assertTrue(bootstrap.startsWith("127.0.0.1:"), bootstrap);
    assertTrue(broker.isRunning());
    ProcessHandle first = broker.process().orElseThrow();

    broker.createTopic(TOPIC, PARTITIONS);
    List<String> sent = values(0, 100);
    Set<Integer> partitionsWritten = produce(sent);
    assertEquals(
        Set.of(0, 1, 2), partitionsWritten, "the keys spread the records over every partition");
    assertEquals(sent, sorted(consumeAll(100)));

    broker.stop();
    assertFalse(broker.isRunning());
    assertFalse(first.isAlive(), "stop() waits for the broker's JVM");
    assertTrue(broker.process().isEmpty());
    assertThrows(
        ConnectException.class, () -> connect(broker.port()), "the port refuses connections");
    assertThrows(IllegalStateException.class, () -> broker.createTopic("other", 1));
    assertThrows(IllegalStateException.class, broker::freeze);
    broker.stop(); // a no-op

    broker.restart();
    assertTrue(broker.isRunning());
    assertEquals(bootstrap, broker.bootstrapServers(), "same port");
    assertTrue(broker.process().orElseThrow().pid() != first.pid());
    assertEquals(sent, sorted(consumeAll(100)), "the records survived the restart");

    // Frozen: the port still accepts connections, nothing is answered; thawed, the broker goes on.
    broker.freeze();
    assertTrue(accepts(broker.port()));
    broker.thaw();
    List<String> more = values(100, 150);
    produce(more);
    List<String> all = new ArrayList<>(sent);
    all.addAll(more);
    assertEquals(sorted(all), sorted(consumeAll(150)));

    ProcessHandle second = broker.process().orElseThrow();
    broker.close();
    assertFalse(second.isAlive());
    assertFalse(broker.isRunning());
    broker.close(); // idempotent
    assertThrows(IllegalStateException.class, broker::restart);
    assertTrue(Files.size(broker.logFile()) > 0, "the broker logs to its file");
  }

  @Test
  @Timeout(120)
  void closeKillsABrokerThatDoesNotStopGracefullyWithinTheStopTimeout() throws Exception {
    broker =
        EmbeddedKafkaBroker.builder(ROOT.resolve("frozen"))
            .stopTimeout(Duration.ofSeconds(2))
            .start();
    ProcessHandle child = broker.process().orElseThrow();
    // A frozen JVM ignores the stop command; only SIGKILL ends it.
    broker.freeze();
    assertTrue(child.isAlive());

    long begin = System.nanoTime();
    broker.close();
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
    assertFalse(child.isAlive());
    // The broker's own contract: the stop timeout (2 s) waited, then the kill waits up to 10 s for
    // the JVM to exit (BrokerProcess#kill); the child is gone, so it did not need that long.
    assertTrue(millis >= 1_900 && millis < 2_000 + 10_000, "close() took " + millis + " ms");
  }

  @Test
  @Timeout(120)
  void aGracefulCloseIsQuick() {
    broker = EmbeddedKafkaBroker.start(ROOT.resolve("graceful"));
    broker.createTopic(TOPIC, 1);
    ProcessHandle child = broker.process().orElseThrow();
    long begin = System.nanoTime();
    broker.close();
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin);
    assertFalse(child.isAlive());
    assertTrue(millis < 10_000, "close() took " + millis + " ms");
    assertTrue(
        logOf(broker).contains("Kafka Server shut down")
            || logOf(broker).contains("shut down completed"),
        "the broker shut down gracefully");
  }

  @Test
  @Timeout(120)
  void theBrokerHaltsWhenItsParentGoesAway() throws Exception {
    // Start then stop, to get a formatted data directory and its server.properties.
    broker = EmbeddedKafkaBroker.start(ROOT.resolve("orphan"));
    int port = broker.port();
    broker.stop();

    // This JVM plays the parent that dies: it closes the broker's standard input.
    Process child =
        new ProcessBuilder(
                Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                BrokerClassPath.resolve(),
                BrokerMain.class.getName(),
                broker.dataDir().resolve("server.properties").toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(broker.logFile().toFile()))
            .start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!accepts(port)) {
        assertTrue(child.isAlive(), "the broker started");
        assertTrue(System.nanoTime() < deadline, "the broker listens within 60 s");
        Thread.sleep(50);
      }
      child.getOutputStream().close();
      // A condition: the test's @Timeout, not a guess at this machine's speed, bounds the wait.
      assertTrue(
          child.waitFor(60, TimeUnit.SECONDS),
          "the broker halts once its standard input is closed");
      assertEquals(1, child.exitValue());
      assertTrue(logOf(broker).contains("standard input closed"));
    } finally {
      child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  @Timeout(120)
  void aBrokerThatCannotStartFailsWithTheEndOfItsLog() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                EmbeddedKafkaBroker.builder(ROOT.resolve("broken"))
                    .brokerProperty("num.io.threads", "many")
                    .start());
    assertTrue(e.getMessage().contains("exited with status"), e.getMessage());
    assertTrue(e.getMessage().contains("num.io.threads"), e.getMessage());
  }

  @Test
  void theBrokerClassPathIsTheOneThisModuleWasBuiltWith() {
    List<String> recorded = BrokerClassPath.recorded();
    assertTrue(
        recorded.stream().anyMatch(entry -> entry.endsWith("kafka_2.13-4.3.1.jar")),
        recorded::toString);
    assertTrue(
        recorded.stream().anyMatch(entry -> entry.endsWith("kafka-clients-4.3.1.jar")),
        recorded::toString);
    assertTrue(recorded.stream().noneMatch(entry -> entry.contains("junit")), recorded::toString);
    String classPath = BrokerClassPath.resolve();
    assertTrue(classPath.startsWith(String.join(java.io.File.pathSeparator, recorded)), classPath);
    assertTrue(
        classPath.length() > String.join(java.io.File.pathSeparator, recorded).length(),
        "followed by this module's classes");
  }

  // ---------------------------------------------------------------------------------------------------------------

  private static List<String> values(int from, int to) {
    return IntStream.range(from, to)
        .mapToObj(i -> String.format("record-%04d", i))
        .collect(Collectors.toList());
  }

  private Set<Integer> produce(List<String> values) throws Exception {
    Map<String, Object> config = new HashMap<>();
    config.put("bootstrap.servers", broker.bootstrapServers());
    config.put("acks", "all");
    config.put("enable.idempotence", "true");
    config.put("linger.ms", 5);
    config.put("max.block.ms", 20_000);
    config.put("request.timeout.ms", 10_000);
    config.put("delivery.timeout.ms", 30_000);
    Set<Integer> partitions = new HashSet<>();
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      List<Future<RecordMetadata>> acks = new ArrayList<>();
      for (String value : values) {
        acks.add(producer.send(new ProducerRecord<>(TOPIC, value, value)));
      }
      for (Future<RecordMetadata> ack : acks) {
        partitions.add(ack.get(40, TimeUnit.SECONDS).partition());
      }
    }
    return partitions;
  }

  /**
   * Reads every partition from the beginning to its end offset, which must hold {@code expected}
   * records.
   */
  private List<String> consumeAll(int expected) {
    Map<String, Object> config = new HashMap<>();
    config.put("bootstrap.servers", broker.bootstrapServers());
    config.put("enable.auto.commit", "false");
    config.put("auto.offset.reset", "earliest");
    config.put("request.timeout.ms", 10_000);
    List<String> values = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
      List<TopicPartition> partitions =
          IntStream.range(0, PARTITIONS)
              .mapToObj(p -> new TopicPartition(TOPIC, p))
              .collect(Collectors.toList());
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(20));
      assertEquals(
          expected, ends.values().stream().mapToLong(Long::longValue).sum(), "end offsets " + ends);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
        assertTrue(
            System.nanoTime() < deadline,
            "consumed " + values.size() + " of " + expected + " in 30 s");
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
          assertEquals(record.key(), record.value());
          values.add(record.value());
        }
      }
    }
    assertEquals(expected, values.size());
    return values;
  }

  private static List<String> sorted(List<String> values) {
    List<String> copy = new ArrayList<>(values);
    copy.sort(null);
    return copy;
  }

  private static void connect(int port) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
    }
  }

  private static boolean accepts(int port) {
    try {
      connect(port);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static String logOf(EmbeddedKafkaBroker broker) {
    try {
      return new String(Files.readAllBytes(broker.logFile()), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static List<Long> brokerChildren() {
    return ProcessHandle.current()
        .descendants()
        .filter(ProcessHandle::isAlive)
        .filter(
            h ->
                h.info()
                    .commandLine()
                    .map(c -> c.contains(BrokerMain.class.getName()))
                    .orElse(false))
        .map(ProcessHandle::pid)
        .collect(Collectors.toList());
  }
}
