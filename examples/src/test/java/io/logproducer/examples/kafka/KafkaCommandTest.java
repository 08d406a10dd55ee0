package io.logproducer.examples.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.examples.Main;
import io.logproducer.kafka.KafkaEncoding;
import io.logproducer.kafka.embedded.EmbeddedKafkaBroker;
import io.logproducer.testing.kafka.TopicReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@code kafka} sub-command in this JVM, against a real broker (Kafka 4.3.1 in a child JVM on
 * 127.0.0.1): the embedded default, which reads the topic back and counts its records, and {@code
 * --bootstrap} with {@code --verify}.
 */
@Timeout(120)
class KafkaCommandTest {

  private static final Pattern SUMMARY =
      Pattern.compile(
          "delivered=(\\d+) failed=(\\d+) spooled=0 refused=(\\d+) not_sent=(\\d+) records_per_sec=(\\d+) "
              + "raw_mb_per_sec=([\\d.]+) wire_mb_per_sec=([\\d.]+)");

  private static final Pattern STARTED =
      Pattern.compile("starting an embedded Kafka broker \\(KRaft, child JVM\\) in (\\S+)");

  /** One broker for the class's {@code --bootstrap} runs, a topic per test. */
  private static EmbeddedKafkaBroker broker;

  @BeforeAll
  static void startBroker(@TempDir Path dir) {
    broker = EmbeddedKafkaBroker.start(dir.resolve("kafka"));
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  /** Runs the sub-command; returns its exit code and what it printed on stdout and stderr. */
  private static Run run(String... args) throws Exception {
    KafkaCommand command = Main.parse(new KafkaCommand(), args);
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    ByteArrayOutputStream capturedErr = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(capturedErr, true, StandardCharsets.UTF_8));
      code = command.call();
    } finally {
      System.setOut(out);
      System.setErr(err);
      err.print(capturedErr.toString(StandardCharsets.UTF_8));
    }
    return new Run(
        code,
        captured.toString(StandardCharsets.UTF_8).trim(),
        capturedErr.toString(StandardCharsets.UTF_8));
  }

  record Run(int code, String out, String err) {
    void assertEveryRecordDelivered(int records) {
      assertEquals(0, code, out + "\n" + err);
      Matcher m = SUMMARY.matcher(out);
      assertTrue(m.matches(), out);
      assertEquals(records + "", m.group(1), out);
      assertEquals("0", m.group(2), out);
      assertEquals("0", m.group(3), out);
      assertEquals("0", m.group(4), out);
      assertTrue(Double.parseDouble(m.group(6)) > 0, out);
    }
  }

  /**
   * The embedded default: the command starts its own broker (the one run that does; the others use
   * this class's broker), reads the topic back, deletes the broker's data and silences the Kafka
   * clients' INFO lines.
   */
  @Test
  void everyRecordReachesTheEmbeddedBrokerAndIsCountedBack() throws Exception {
    Run run = run("--records", "20000", "--threads", "4", "--linger-ms", "100", "--quiet");
    run.assertEveryRecordDelivered(20000);
    assertTrue(
        run.err().contains("read back topic otlp_logs (3 partitions): 20,000 records in "),
        run.err());
    Matcher started = STARTED.matcher(run.err());
    assertTrue(started.find(), run.err());
    assertFalse(
        Files.exists(Path.of(started.group(1))),
        "the broker's data directory is deleted: " + started.group(1));
    assertFalse(
        run.err().contains("INFO org.apache.kafka"),
        "the Kafka clients' INFO lines are silenced:\n" + run.err());
  }

  /**
   * Each encoding (and a compression) counted back: {@code --bootstrap} to this class's broker and
   * {@code --verify}, a topic of the run's own (the embedded default is otlp_proto, none, above).
   */
  @ParameterizedTest
  @CsvSource({"otlp_proto,gzip", "otlp_json,zstd", "raw,lz4"})
  void everyEncodingIsCountedBack(String encoding, String compression) throws Exception {
    String topic = "encoding-" + encoding.replace('_', '-') + "-" + compression;
    broker.createTopic(topic, 3);
    Run run =
        run(
            "--bootstrap",
            broker.bootstrapServers(),
            "--topic",
            topic,
            "--verify",
            "--records",
            "20000",
            "--threads",
            "4",
            "--encoding",
            encoding,
            "--compression",
            compression,
            "--linger-ms",
            "100",
            "--quiet");
    run.assertEveryRecordDelivered(20000);
    assertTrue(
        run.err().contains("read back topic " + topic + " (3 partitions): 20,000 records in "),
        run.err());
  }

  @Test
  void verifyWithBootstrapCountsOnlyWhatTheRunWrote() throws Exception {
    broker.createTopic("shared", 2);
    for (int i = 0; i < 2; i++) { // the second run finds the first run's records in the topic
      run(
              "--bootstrap",
              broker.bootstrapServers(),
              "--topic",
              "shared",
              "--verify",
              "--records",
              "5000",
              "--threads",
              "2",
              "--linger-ms",
              "50",
              "--quiet")
          .assertEveryRecordDelivered(5000);
    }
    try (TopicReader all = TopicReader.fromBeginning(broker.bootstrapServers(), "shared")) {
      TopicReader.Count c = all.count(TopicReader.OTLP_PROTO_RECORDS, 30_000);
      assertEquals(10_000, c.records(), c.toString());
      assertEquals(2, c.partitions(), c.toString());
      assertTrue(c.complete() && c.malformed() == 0, c.toString());
    }
  }

  @Test
  void recordsAreCountedPerEncodingAndMalformedMessagesRefused() {
    assertEquals(1, KafkaCommand.recordsPerMessage(KafkaEncoding.RAW).applyAsLong(new byte[0]));
    assertThrows(
        IllegalArgumentException.class,
        () -> KafkaCommand.recordsPerMessage(KafkaEncoding.RAW).applyAsLong(null));
    assertEquals(
        2,
        KafkaCommand.recordsPerMessage(KafkaEncoding.OTLP_JSON)
            .applyAsLong(
                "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"stringValue\":\"}\"}},{}]}]}]}"
                    .getBytes(StandardCharsets.UTF_8)));
    // resource_logs { scope_logs { log_records {} log_records {} } }
    byte[] proto = {0x0a, 0x06, 0x12, 0x04, 0x12, 0x00, 0x12, 0x00};
    assertEquals(2, KafkaCommand.recordsPerMessage(KafkaEncoding.OTLP_PROTO).applyAsLong(proto));
    byte[] truncated = {0x0a, 0x06, 0x12, 0x04, 0x12};
    assertThrows(
        IllegalArgumentException.class,
        () -> KafkaCommand.recordsPerMessage(KafkaEncoding.OTLP_PROTO).applyAsLong(truncated));
    assertThrows(
        IllegalArgumentException.class,
        () -> KafkaCommand.recordsPerMessage(KafkaEncoding.OTLP_JSON).applyAsLong(null));
  }

  @Test
  void usageErrorsComeBeforeAnyBrokerStarts() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> run("--records", "1", "--encoding", "avro"));
    assertEquals("--encoding must be otlp_proto, otlp_json or raw, was 'avro'", e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> run("--records", "1", "--topic", "no spaces"));
    assertTrue(e.getMessage().contains("illegal character"), e.getMessage());
  }
}
