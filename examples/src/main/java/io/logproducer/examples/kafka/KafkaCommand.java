package io.logproducer.examples.kafka;

import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.examples.CommonOptions;
import io.logproducer.examples.Main;
import io.logproducer.examples.WorkloadRunner;
import io.logproducer.kafka.KafkaEncoding;
import io.logproducer.kafka.KafkaExporter;
import io.logproducer.kafka.KafkaExporterBuilder;
import io.logproducer.kafka.embedded.EmbeddedKafkaBroker;
import io.logproducer.testing.kafka.TopicReader;
import io.logproducer.testing.otlp.OtlpRequests;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.ToLongFunction;
import java.util.stream.Stream;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.utils.AppInfoParser;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kafka}: the reference workload to Apache Kafka through {@link KafkaExporter}, as OTLP
 * messages ({@code otlp_proto}, {@code otlp_json}: one {@code ExportLogsServiceRequest} per batch)
 * or raw lines (one message per record). With {@code --bootstrap HOST:PORT} to that cluster;
 * without it, to an {@link EmbeddedKafkaBroker} (a single-node KRaft broker in a child JVM, data in
 * a temporary directory deleted afterwards) on which the topic is created with {@value
 * #EMBEDDED_PARTITIONS} partitions. After the run the topic is read back with the test kit's {@link
 * TopicReader} (a {@code KafkaConsumer}) and its log records counted (always with the embedded
 * broker, with {@code --verify} otherwise): the count must equal the records the producer reports
 * delivered.
 */
@Command(
    name = "kafka",
    description =
        "the reference workload to Apache Kafka (OTLP messages for the Collector's Kafka receiver,"
            + " or raw lines).",
    footerHeading = "%n",
    footer = {
      """
      without --bootstrap: an embedded single-node KRaft broker (Kafka 4.3.1 in a child JVM, data in a temporary
      directory deleted afterwards) with the topic created with 3 partitions; after the run the topic is read back
      with a KafkaConsumer and its log records are counted (otlp_*: the records of each message's request; raw:
      one per message). With --bootstrap nothing is read back unless --verify is given. --compression is Kafka's
      compression.type. --request-timeout-ms sets the client's request.timeout.ms, delivery.timeout.ms and
      max.block.ms (defaults 10000, 30000, 10000): one export waits at most max.block.ms + delivery.timeout.ms.""",
      "",
      Main.SUMMARY_USAGE
    })
public final class KafkaCommand implements Callable<Integer> {

  /** Partitions of the topic created on the embedded broker. */
  public static final int EMBEDDED_PARTITIONS = 3;

  /** How long reading the topic back may go on without a message before the count is given up. */
  private static final Duration READ_IDLE_TIMEOUT = Duration.ofSeconds(30);

  /**
   * The broker's own Kafka loggers at INFO in its {@code broker.log}: the examples'
   * simplelogger.properties (which the broker's JVM reads too when it runs on the examples jar)
   * keeps {@code org.apache.kafka} at WARN.
   */
  private static final String BROKER_KAFKA_LOG_LEVEL =
      "-Dorg.slf4j.simpleLogger.log.org.apache.kafka=info";

  @Option(
      names = "--bootstrap",
      paramLabel = "HOST:PORT",
      description =
          "send to that cluster (bootstrap.servers); the topic must exist or the cluster must"
              + " create topics on use (default an embedded broker)")
  String bootstrap;

  @Option(names = "--topic", paramLabel = "T", description = "the topic (default ${DEFAULT-VALUE})")
  String topic = KafkaExporter.DEFAULT_TOPIC;

  @Option(
      names = "--encoding",
      paramLabel = "E",
      description = "otlp_proto|otlp_json|raw (default ${DEFAULT-VALUE})")
  String encoding = KafkaEncoding.OTLP_PROTO.configName();

  @Option(
      names = "--verify",
      description =
          "with --bootstrap: read the topic back after the run, from where its partitions ended"
              + " before it, and check the count")
  boolean verify;

  @Mixin CommonOptions common;

  @Override
  public Integer call() throws Exception {
    String bootstrap = this.bootstrap;
    KafkaEncoding encoding;
    try {
      encoding = KafkaEncoding.fromName(this.encoding);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "--encoding must be otlp_proto, otlp_json or raw, was '" + this.encoding + "'");
    }
    boolean verify = bootstrap == null || this.verify;
    ProducerConfig config = common.producerConfig().setClientId("kafka-example").build();
    // Built here (no connection yet) so that a bad topic name is a usage error before a broker
    // starts.
    KafkaExporterBuilder exporter =
        KafkaExporter.builder()
            .setTopic(topic)
            .setEncoding(encoding)
            .setServiceName("logproducer-kafka-example");
    common
        .requestTimeoutMillis()
        .ifPresent(
            millis ->
                exporter
                    .setProperty("request.timeout.ms", Long.toString(millis))
                    .setProperty("delivery.timeout.ms", Long.toString(millis))
                    .setProperty("max.block.ms", Long.toString(millis)));
    Path dataDir = null;
    EmbeddedKafkaBroker broker = null;
    TopicReader counter = null;
    try {
      if (bootstrap == null) {
        dataDir = Files.createTempDirectory("kafka-example");
        System.err.printf(
            Locale.ROOT, "starting an embedded Kafka broker (KRaft, child JVM) in %s%n", dataDir);
        try {
          broker = EmbeddedKafkaBroker.builder(dataDir).jvmArgument(BROKER_KAFKA_LOG_LEVEL).start();
          broker.createTopic(topic, EMBEDDED_PARTITIONS);
        } catch (IllegalStateException e) {
          System.err.println("error: the embedded Kafka broker did not start: " + e.getMessage());
          return 1;
        }
        bootstrap = broker.bootstrapServers();
      }
      KafkaExporter built = exporter.setBootstrapServers(bootstrap).build();
      if (verify) {
        try {
          counter = TopicReader.atEnd(bootstrap, topic);
        } catch (KafkaException e) {
          System.err.printf(
              Locale.ROOT,
              "error: cannot read the end offsets of topic %s at %s: %s%n",
              topic,
              bootstrap,
              e);
          return 1;
        }
      }
      Producer producer = WorkloadRunner.newProducer(config, built);
      System.err.printf(
          Locale.ROOT,
          "sending %,d records from %d threads to %s%s with kafka-clients %s (%s)%n",
          common.records(),
          common.threads(),
          built.describe(),
          broker != null ? " (embedded broker, " + EMBEDDED_PARTITIONS + " partitions)" : "",
          AppInfoParser.getVersion(),
          producer.getConfig());
      WorkloadRunner.Result result = new WorkloadRunner(common).run(producer, null);
      System.err.printf(
          Locale.ROOT,
          "%s%npeak buffered %,d bytes of %,d%n",
          producer.getMetrics(),
          result.peakBufferedBytes(),
          producer.getConfig().getTotalSizeInBytes());
      boolean verified = counter == null || readBack(counter, encoding, topic, result.delivered());
      System.out.println(result.summary());
      return result.report(
          common.records(),
          built.describe(),
          config.getDeliveryTimeoutMillis(),
          verified,
          System.err);
    } finally {
      if (counter != null) {
        counter.close();
      }
      if (broker != null) {
        broker.close();
      }
      if (dataDir != null) {
        deleteRecursively(dataDir);
      }
    }
  }

  /**
   * Reads the topic back from the offsets taken before the run and compares its log records with
   * what the producer reports delivered; prints the outcome.
   *
   * @return whether the topic holds exactly the delivered records, all well-formed
   */
  private static boolean readBack(
      TopicReader counter, KafkaEncoding encoding, String topic, long delivered) {
    boolean verified = true;
    long begin = System.nanoTime();
    TopicReader.Count c;
    try {
      c = counter.count(recordsPerMessage(encoding), READ_IDLE_TIMEOUT.toMillis());
    } catch (KafkaException e) {
      c = null;
      verified = false;
      System.err.printf(
          Locale.ROOT,
          "MISMATCH: producer reports %d delivered, topic %s could not be read back: " + "%s%n",
          delivered,
          topic,
          e);
    }
    if (c != null) {
      System.err.printf(
          Locale.ROOT,
          "read back topic %s (%d partitions): %,d records in %,d messages in %.1f " + "s%n",
          topic,
          c.partitions(),
          c.records(),
          c.messages(),
          (System.nanoTime() - begin) / 1e9);
      verified = c.complete() && c.malformed() == 0 && c.records() == delivered;
    }
    if (c != null && !verified) {
      System.err.printf(
          Locale.ROOT,
          "MISMATCH: producer reports %d delivered, topic %s holds %d records in %d "
              + "messages, %d malformed message(s)%s%s%n",
          delivered,
          topic,
          c.records(),
          c.messages(),
          c.malformed(),
          c.firstProblem() == null ? "" : " (first: " + c.firstProblem() + ")",
          c.complete()
              ? ""
              : "; no message arrived for "
                  + READ_IDLE_TIMEOUT.toSeconds()
                  + " s before the "
                  + "end of every partition was reached");
    }
    return verified;
  }

  /**
   * The log records in one message's value, per encoding: the records of the {@code
   * ExportLogsServiceRequest} for the OTLP encodings (a malformed one is refused), one for {@code
   * raw}.
   *
   * @param encoding what the messages hold
   * @return the counter; it throws {@link IllegalArgumentException} for a value that is not of the
   *     encoding
   */
  static ToLongFunction<byte[]> recordsPerMessage(KafkaEncoding encoding) {
    switch (encoding) {
      case OTLP_PROTO:
        return TopicReader.OTLP_PROTO_RECORDS;
      case OTLP_JSON:
        return value -> {
          if (value == null) {
            throw new IllegalArgumentException("a message without a value");
          }
          return OtlpRequests.countJson(new String(value, StandardCharsets.UTF_8));
        };
      default:
        return TopicReader.RAW_RECORDS;
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    } catch (IOException | UncheckedIOException e) {
      System.err.println("warning: could not delete " + dir + ": " + e);
    }
  }
}
