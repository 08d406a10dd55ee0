package io.logproducer.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.kafka.embedded.EmbeddedKafkaBroker;
import io.logproducer.testing.ChildJvm;
import io.logproducer.testing.kafka.TopicReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code <kafka>} appender started while its bootstrap host does not resolve (a pod up before
 * its Kafka service name is in DNS): it starts, the events logged meanwhile are kept, and once the
 * name resolves they and the later ones are in the topic exactly once. The appender runs in a child
 * JVM ({@link KafkaDnsChild}) whose name resolution is a hosts file the test edits; the broker is a
 * real single-node KRaft broker.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class LogbackKafkaDnsTest {

  private static final String NAME = "kafka-logback.invalid";

  private static Set<String> bodies(List<ConsumerRecord<byte[], byte[]>> messages) {
    Set<String> bodies = new HashSet<>();
    for (ConsumerRecord<byte[], byte[]> m : messages) {
      bodies.addAll(TopicReader.otlpStringBodies(m.value()));
    }
    return bodies;
  }

  @Test
  void eventsLoggedBeforeTheBootstrapResolvesAreDeliveredOnceItDoes() throws Exception {
    int before = 200;
    int after = 100;
    {
      EmbeddedKafkaBroker broker = SharedKafkaBroker.get();
      broker.createTopic("logback-dns", 2);
      String port = broker.bootstrapServers().substring(broker.bootstrapServers().indexOf(':'));
      String result;
      try (ChildJvm child =
          ChildJvm.builder(KafkaDnsChild.class)
              .hostsFile(Paths.get("target", "logback-dns-" + System.nanoTime()))
              .jvmOptions("-Xmx256m")
              .args(NAME + port, "logback-dns", Integer.toString(before), Integer.toString(after))
              .start()) {
        assertEquals("STARTED true", child.awaitLine("STARTED", 60_000), "the appender started");
        child.awaitLine("RETRYING", 60_000);
        child.resolve(NAME);
        child.tell("go");
        result = child.awaitLine("RESULT", 150_000);
        assertEquals("THREADS ", child.awaitLine("THREADS", 30_000), "no thread left after stop");
      }
      Files.write( // one line per run and execution, kept (surefire's reports are per class)
          Paths.get("target", "logback-dns.txt"),
          (result + "\n").getBytes(StandardCharsets.UTF_8),
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
      int total = before + after;
      assertEquals(
          "RESULT started=true accepted="
              + total
              + " sent="
              + total
              + " failed=0 dropped=0 appenderDropped=0 appenderFailed=0",
          result);
      Set<String> expected = new HashSet<>();
      for (int i = 0; i < total; i++) {
        expected.add(Integer.toString(i));
      }
      try (TopicReader reader =
          TopicReader.fromBeginning(broker.bootstrapServers(), "logback-dns")) {
        TopicReader.Count count = reader.count(TopicReader.OTLP_PROTO_RECORDS, 30_000);
        assertEquals(total, count.records(), "exactly once in the topic: " + count);
      }
      try (TopicReader reader =
          TopicReader.fromBeginning(broker.bootstrapServers(), "logback-dns")) {
        assertEquals(
            expected, bodies(reader.awaitUntil(read -> bodies(read).equals(expected), 30_000)));
      }
      assertTrue(result.contains("started=true"));
    }
  }
}
