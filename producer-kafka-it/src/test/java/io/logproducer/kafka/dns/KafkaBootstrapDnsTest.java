package io.logproducer.kafka.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.kafka.embedded.EmbeddedKafkaBroker;
import io.logproducer.kafka.testing.SharedKafkaBroker;
import io.logproducer.testing.ChildJvm;
import io.logproducer.testing.kafka.TopicReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A bootstrap host that does not resolve when the producer starts (a pod up before its Kafka
 * service name is in DNS): the producer starts anyway, keeps the records, and ships them once the
 * name resolves; records whose delivery timeout passes first fail with the cause; settings that can
 * never work still refuse to start. Each case runs in a child JVM whose name resolution is a hosts
 * file the test edits ({@link ChildJvm}), so the machine's resolver is never touched.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
@ExtendWith(SharedKafkaBroker.class)
class KafkaBootstrapDnsTest {

  private static final String NAME = "kafka-test.invalid";

  private static Path dir(String name) {
    return Paths.get("target", "dns-" + name + "-" + System.nanoTime());
  }

  /** Parses {@code RESULT a=1 b=2 ... message=...} (the message last, with spaces). */
  private static Map<String, String> result(String line) {
    Map<String, String> m = new HashMap<>();
    int msg = line.indexOf(" message=");
    m.put("message", line.substring(msg + " message=".length()));
    for (String kv : line.substring("RESULT ".length(), msg).split(" ")) {
      int eq = kv.indexOf('=');
      m.put(kv.substring(0, eq), kv.substring(eq + 1));
    }
    return m;
  }

  private static Set<String> bodies(List<ConsumerRecord<byte[], byte[]>> messages) {
    Set<String> bodies = new HashSet<>();
    for (ConsumerRecord<byte[], byte[]> m : messages) {
      bodies.addAll(TopicReader.otlpStringBodies(m.value()));
    }
    return bodies;
  }

  @Test
  void recordsSentBeforeTheBootstrapResolvesAreDeliveredOnceItDoesExactlyOnce(
      EmbeddedKafkaBroker broker) throws Exception {
    int before = 300;
    int after = 200;
    String topic = SharedKafkaBroker.topic("dns"); // the module's shared broker, a topic of its own
    broker.createTopic(topic, 2);
    String port = broker.bootstrapServers().substring(broker.bootstrapServers().indexOf(':'));
    Map<String, String> r;
    long resolvedAt;
    try (ChildJvm child =
        ChildJvm.builder(DnsChild.class)
            .hostsFile(dir("resolves"))
            .jvmOptions("-Xmx256m")
            .args(
                NAME + port,
                topic,
                Integer.toString(before),
                Integer.toString(after),
                "60000",
                "wait")
            .start()) {
      child.awaitLine("STARTED", 60_000);
      child.awaitLine("RETRYING", 60_000); // the first attempts failed: the name is unknown
      child.resolve(NAME);
      resolvedAt = System.currentTimeMillis();
      child.tell("go");
      r = result(child.awaitLine("RESULT", 150_000));
      assertEquals("THREADS ", child.awaitLine("THREADS", 30_000), "no client thread left");
    }
    String measured =
        "kafka-clients "
            + AppInfoParser.getVersion()
            + ": bootstrap resolvable -> first delivery: "
            + (Long.parseLong(r.get("firstDeliveredAt")) - resolvedAt)
            + " ms; "
            + r
            + "\n";
    System.out.print(measured);
    Files.write( // one line per run, kept across runs and the two client versions' executions
        Paths.get("target", "dns-first-delivery.txt"),
        measured.getBytes(StandardCharsets.UTF_8),
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    assertEquals(Integer.toString(before + after), r.get("total"), r.toString());
    assertEquals(Integer.toString(before + after), r.get("distinct"), r.toString());
    assertEquals("0", r.get("duplicates"), r.toString());
    assertEquals(Integer.toString(before + after), r.get("delivered"), r.toString());
    assertTrue(Long.parseLong(r.get("retries")) > 0, "failed attempts first: " + r);
    try (TopicReader reader = TopicReader.fromBeginning(broker.bootstrapServers(), topic)) {
      // Read to the end offsets; 30 s is how long it may go without a message before giving up
      // (2 s was a guess at how soon a loaded machine's first fetch answers).
      TopicReader.Count count = reader.count(TopicReader.OTLP_PROTO_RECORDS, 30_000);
      assertTrue(count.complete(), "read to the end: " + count);
      assertEquals(before + after, count.records(), "exactly once in the topic: " + count);
    }
    Set<String> expected = new HashSet<>();
    for (int i = 0; i < before + after; i++) {
      expected.add(Integer.toString(i));
    }
    try (TopicReader reader = TopicReader.fromBeginning(broker.bootstrapServers(), topic)) {
      assertEquals(
          expected, bodies(reader.awaitUntil(read -> bodies(read).equals(expected), 30_000)));
    }
  }

  @Test
  void aBootstrapThatNeverResolvesFailsEveryRecordWithTheCauseAtItsDeliveryTimeout()
      throws Exception {
    int n = 120;
    Map<String, String> r;
    try (ChildJvm child =
        ChildJvm.builder(DnsChild.class)
            .hostsFile(dir("never"))
            .jvmOptions("-Xmx256m")
            .args(NAME + ":9092", "dns", Integer.toString(n), "0", "8000", "nowait")
            .start()) {
      child.awaitLine("STARTED", 60_000);
      r = result(child.awaitLine("RESULT", 90_000));
      assertEquals("THREADS ", child.awaitLine("THREADS", 30_000), "no client thread left");
    }
    assertEquals(Integer.toString(n), r.get("total"), r.toString());
    assertEquals(Integer.toString(n), r.get("distinct"), r.toString());
    assertEquals("0", r.get("delivered"), r.toString());
    assertEquals(Integer.toString(n), r.get("failed"), r.toString());
    assertEquals(Integer.toString(n), r.get("notBuilt"), "each with the cause: " + r);
    assertTrue(
        r.get("message").contains("No resolvable bootstrap urls given in bootstrap.servers"),
        r.get("message"));
  }

  /** Starts a child with an unresolvable bootstrap and {@code props}; returns its REFUSED line. */
  private static String refusal(String bootstrap, String props) throws Exception {
    try (ChildJvm child =
        ChildJvm.builder(DnsChild.class)
            .hostsFile(dir("refused"))
            .jvmOptions("-Xmx256m")
            .args(bootstrap, "dns", "1", "0", "8000", "nowait", props)
            .start()) {
      return child.awaitLine("REFUSED", 60_000);
    }
  }

  @Test
  void settingsThatCanNeverWorkStillRefuseToStartWhateverTheBootstrapResolvesTo() throws Exception {
    String unknownValue = refusal(NAME + ":9092", "acks=most");
    assertTrue(unknownValue.contains("Invalid value most for configuration acks"), unknownValue);
    String badSasl =
        refusal(NAME + ":9092", "security.protocol=SASL_PLAINTEXT|sasl.mechanism=PLAIN");
    assertTrue(badSasl.contains("JAAS"), badSasl);
    String badClass = refusal(NAME + ":9092", "partitioner.class=no.such.Partitioner");
    assertTrue(badClass.contains("no.such.Partitioner"), badClass);
    String noPort = refusal(NAME, "acks=all");
    assertTrue(noPort.contains("Invalid url in bootstrap.servers: " + NAME), noPort);
    String badPort = refusal(NAME + ":99999", "acks=all");
    assertTrue(badPort.contains("bootstrap.servers"), badPort);
  }
}
