package io.logproducer.kafka.testing;

import io.logproducer.testing.collector.CollectorBinary;
import io.logproducer.testing.collector.OtelCollector;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * A real OpenTelemetry Collector (contrib Kafka receiver v0.155.0 + debug exporter) that consumes
 * OTLP logs from one Kafka topic, for producer-kafka's tests: it counts the log records it decodes
 * and collects the messages it could not decode.
 *
 * <p>The process is the test kit's {@link OtelCollector}, the binary the kit's {@link
 * CollectorBinary}: it comes from {@code -Dotelcol.kafka.bin}, else {@code $OTELCOL_KAFKA_BIN},
 * else the cache of the project's {@code tools/otelcol-kafka/build.sh} ({@code
 * $OTELCOL_KAFKA_CACHE}, by default {@code ~/.cache/otelcol-kafka-0.155.0}), else that script is
 * run once per JVM when Go is installed (a few minutes the first time, from the Go module proxy).
 * Without a binary, {@link #skipReason()} says why and {@link #assumeAvailable(Class)} skips the
 * test with one line on the build's console.
 *
 * <p>Each instance runs the project's {@code tools/otelcol-kafka/config.yaml} (the file {@code
 * run.sh} uses too) with the brokers, topic and encoding filled in and a consumer group of its own,
 * so it reads the topic from its earliest offset, whatever was produced before it started. Typical
 * use:
 *
 * <pre>{@code
 * @BeforeEach void collector() { KafkaCollector.assumeAvailable(MyTest.class); }
 *
 * try (KafkaCollector collector = KafkaCollector.start(bootstrap, topic, "otlp_proto")) {
 *   ... produce 100 records ...
 *   assertEquals(100, collector.awaitRecordCount(100, 30_000), collector.logTail());
 *   assertEquals(List.of(), collector.errors());
 * }
 * }</pre>
 *
 * <p>The Collector reports ready before its Kafka consumer has joined the group, so the first
 * records are counted only after the broker's {@code group.initial.rebalance.delay.ms} (default 3
 * s; tests' brokers should set 0, which brings it to tens of milliseconds): give {@link
 * #awaitRecordCount} a generous timeout.
 */
public final class KafkaCollector implements AutoCloseable {

  /** The contrib release the project's build.sh builds. */
  public static final String VERSION = "0.155.0";

  /** System property naming a binary to use instead of the project's build. */
  public static final String BIN_PROPERTY = "otelcol.kafka.bin";

  /** Environment variable naming a binary to use instead of the project's build. */
  public static final String BIN_ENV = "OTELCOL_KAFKA_BIN";

  /** Environment variable naming build.sh's cache directory (the same variable build.sh reads). */
  public static final String CACHE_ENV = "OTELCOL_KAFKA_CACHE";

  private static final String TOOLS = "tools/otelcol-kafka";
  private static final String HOW_TO_RUN =
      "install Go 1.24+ ("
          + TOOLS
          + "/build.sh builds the Collector from the "
          + "Go module proxy, a few minutes once, cached in ~/.cache/otelcol-kafka-"
          + VERSION
          + "), or point -D"
          + BIN_PROPERTY
          + " / "
          + BIN_ENV
          + " at an otelcol with the kafka receiver and the debug exporter";
  private static final long READY_MILLIS = 30_000;
  private static final long BUILD_MINUTES = 15;

  /** Located (or built) once per JVM. */
  private static final CollectorBinary BINARY =
      new CollectorBinary(
          "otelcol-kafka",
          "otelcol-kafka",
          "otelcol-kafka-" + VERSION,
          BIN_PROPERTY,
          BIN_ENV,
          CACHE_ENV,
          TimeUnit.MINUTES.toMillis(BUILD_MINUTES));

  private static final Pattern TOPIC_NAME = Pattern.compile("[A-Za-z0-9._-]+");
  private static final Pattern ENCODING_NAME = Pattern.compile("[A-Za-z0-9_]+");
  private static final Pattern BROKER = Pattern.compile("[A-Za-z0-9.:\\[\\]_-]+");

  /** Test classes the skip line was printed for (once each). */
  private static final Set<String> announced = new HashSet<>();

  private final OtelCollector collector;
  private final String groupId;

  private KafkaCollector(OtelCollector collector, String groupId) {
    this.collector = collector;
    this.groupId = groupId;
  }

  // ----------------------------------------------------------------------------------------------
  // the binary

  /**
   * Why Collector tests cannot run here (no binary, and why), or null when they can. The first call
   * locates the binary and may build it (minutes, once per JVM); later calls answer at once.
   *
   * @return the reason, or null when the Collector can be started
   * @throws IllegalStateException when {@code -Dotelcol.kafka.bin} / {@code OTELCOL_KAFKA_BIN}
   *     names something that is not executable: a misconfiguration fails rather than skips
   */
  public static String skipReason() {
    return BINARY.skipReason();
  }

  /**
   * The Collector binary, located (or built) as described in the class comment.
   *
   * @return the executable
   * @throws IllegalStateException when there is none; the message holds {@link #skipReason()}
   */
  public static Path binary() {
    return BINARY.binary();
  }

  /**
   * Skips the calling test (a JUnit assumption) when there is no Collector, after printing one line
   * per test class to the build's console, the process's real stderr (surefire sends {@code
   * System.err} to a file). Call it from {@code @BeforeEach} (or each test) so that the build's
   * summary counts the tests as skipped; from {@code @BeforeAll} the class is skipped as a whole
   * and surefire reports 0 tests run, 0 skipped.
   *
   * @param testClass the test class, named in the console line
   */
  public static void assumeAvailable(Class<?> testClass) {
    String reason = skipReason();
    if (reason == null) {
      return;
    }
    boolean first;
    synchronized (KafkaCollector.class) {
      first = announced.add(testClass.getName());
    }
    if (first) {
      CollectorBinary.printToConsole(
          "[WARNING] SKIPPED "
              + testClass.getSimpleName()
              + " (the real OpenTelemetry "
              + "Collector's Kafka receiver): "
              + reason
              + ". To run it: "
              + HOW_TO_RUN
              + ".");
    }
    Assumptions.assumeTrue(false, "Kafka Collector interop skipped: " + reason + "; " + HOW_TO_RUN);
  }

  /**
   * The project's {@code tools/otelcol-kafka} directory, found by walking up from the working
   * directory (a module directory under surefire) to the repository root.
   *
   * @return the directory holding build.sh and config.yaml
   * @throws IllegalStateException when no parent directory has it
   */
  public static Path toolsDir() {
    return BINARY.toolsDir();
  }

  // ----------------------------------------------------------------------------------------------
  // an instance

  /**
   * Starts a Collector that reads {@code topic} from its earliest offset and waits (up to 30 s)
   * until it reports ready. The topic may be created before or after; the Kafka receiver keeps
   * asking for it.
   *
   * @param bootstrapServers {@code host:port[,host:port...]}
   * @param topic the topic to consume
   * @param encoding the receiver's encoding: {@code otlp_proto} (one message = one serialized
   *     {@code ExportLogsServiceRequest}), {@code otlp_json}, {@code raw} or {@code text}
   * @return the running Collector; close it
   * @throws IOException when the process or its files cannot be created
   * @throws IllegalStateException without a binary (see {@link #assumeAvailable}), or when the
   *     Collector exits or is not ready in time; the message ends with the tail of its log
   */
  public static KafkaCollector start(String bootstrapServers, String topic, String encoding)
      throws IOException {
    Path bin = binary();
    List<String> brokers = new ArrayList<>();
    for (String b : bootstrapServers.split(",")) {
      String broker = b.trim();
      requireMatch(BROKER, broker, "broker");
      brokers.add('"' + broker + '"');
    }
    requireMatch(TOPIC_NAME, topic, "topic name");
    requireMatch(ENCODING_NAME, encoding, "encoding");
    String groupId = "logproducer-test-" + UUID.randomUUID();

    String template =
        new String(Files.readAllBytes(toolsDir().resolve("config.yaml")), StandardCharsets.UTF_8);
    String config = fill(template, "brokers", "[" + String.join(", ", brokers) + "]");
    config = fill(config, "group_id", groupId);
    config = fill(config, "topics", "[\"" + topic + "\"]");
    config = fill(config, "encoding", encoding);

    OtelCollector collector = OtelCollector.launch(bin, config);
    if (!collector.awaitReady(READY_MILLIS)) {
      String why = collector.isAlive() ? "was not ready in " + READY_MILLIS + " ms" : "exited";
      collector.close();
      List<String> errors = collector.errors();
      throw new IllegalStateException(
          "the Kafka Collector "
              + why
              + " (topic "
              + topic
              + ", "
              + encoding
              + ")"
              + (errors.isEmpty() ? "" : "; its errors:\n" + String.join("\n", errors))
              + "\nits log ends:\n"
              + collector.logTail());
    }
    return new KafkaCollector(collector, groupId);
  }

  private static void requireMatch(Pattern pattern, String value, String what) {
    if (!pattern.matcher(value).matches()) {
      throw new IllegalArgumentException("not a " + what + ": '" + value + "'");
    }
  }

  /** Replaces the value on config.yaml's one line {@code <key>: ... # filled in}. */
  private static String fill(String config, String key, String value) {
    Pattern line = Pattern.compile("(?m)^(\\s*" + Pattern.quote(key) + ": ).*# filled in$");
    Matcher m = line.matcher(config);
    if (!m.find()) {
      throw new IllegalStateException(
          TOOLS + "/config.yaml has no line '" + key + ": ... # filled in'");
    }
    String filled = m.replaceFirst(Matcher.quoteReplacement(m.group(1) + value));
    if (line.matcher(filled).find()) {
      throw new IllegalStateException(
          TOOLS + "/config.yaml has several lines '" + key + ": ... # filled in'");
    }
    return filled;
  }

  /**
   * The number of log records the Collector has decoded so far: the sum of the debug exporter's
   * per-batch {@code "log records": N} lines.
   *
   * @return the count so far
   */
  public long recordCount() {
    return collector.recordCount();
  }

  /**
   * Waits until the Collector has decoded at least {@code expected} log records or {@code
   * timeoutMillis} pass, reading its log every 25 ms. Compare the result with {@code expected}:
   * more means records were counted twice (or the topic had others), less that they did not arrive
   * in time.
   *
   * @param expected the count to wait for
   * @param timeoutMillis the longest wait
   * @return {@link #recordCount()} when it reached {@code expected}, or at the deadline
   */
  public long awaitRecordCount(long expected, long timeoutMillis) {
    return collector.awaitRecordCount(expected, timeoutMillis);
  }

  /**
   * The Collector's log lines at error level so far (the first line of each entry, without the
   * stack trace that follows it). In v0.155.0 a message the encoding cannot decode gives two:
   * {@code failed to unmarshal message} and {@code failed to consume message, skipping ...}; it is
   * not counted and the receiver goes on.
   *
   * @return a copy, oldest first
   */
  public List<String> errors() {
    return collector.errors();
  }

  /**
   * The last lines of the Collector's log, for assertion messages.
   *
   * @return up to 60 lines, joined by newlines
   */
  public String logTail() {
    return collector.logTail();
  }

  /**
   * The file the Collector writes its output to (kept after {@link #close()} for inspection).
   *
   * @return the log file
   */
  public Path logFile() {
    return collector.logFile();
  }

  /**
   * The consumer group this Collector uses, unique to it.
   *
   * @return the group id
   */
  public String groupId() {
    return groupId;
  }

  /**
   * Whether the Collector process is still running.
   *
   * @return true until it exits or is closed
   */
  public boolean isAlive() {
    return collector.isAlive();
  }

  /**
   * Stops the Collector: SIGTERM, up to 10 s to exit, then SIGKILL and up to 10 s more. The log
   * file stays; the generated config is deleted.
   */
  @Override
  public void close() {
    collector.close();
  }
}
