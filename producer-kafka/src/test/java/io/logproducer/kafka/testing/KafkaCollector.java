package io.logproducer.kafka.testing;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * A real OpenTelemetry Collector (contrib Kafka receiver v0.155.0 + debug exporter) that consumes OTLP logs from
 * one Kafka topic, for producer-kafka's tests: it counts the log records it decodes and collects the messages it
 * could not decode.
 *
 * <p>The binary comes from {@code -Dotelcol.kafka.bin}, else {@code $OTELCOL_KAFKA_BIN}, else the cache of the
 * project's {@code tools/otelcol-kafka/build.sh} ({@code $OTELCOL_KAFKA_CACHE}, by default
 * {@code ~/.cache/otelcol-kafka-0.155.0}), else that script is run once per JVM when Go is installed (a few minutes
 * the first time, from the Go module proxy). Without a binary, {@link #skipReason()} says why and
 * {@link #assumeAvailable(Class)} skips the test with one line on the build's console.
 *
 * <p>Each instance runs the project's {@code tools/otelcol-kafka/config.yaml} (the file {@code run.sh} uses too)
 * with the brokers, topic and encoding filled in and a consumer group of its own, so it reads the topic from its
 * earliest offset, whatever was produced before it started. Typical use:
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
 * <p>The Collector reports ready before its Kafka consumer has joined the group, so the first records are counted
 * only after the broker's {@code group.initial.rebalance.delay.ms} (default 3 s; tests' brokers should set 0, which
 * brings it to tens of milliseconds): give {@link #awaitRecordCount} a generous timeout.
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
  private static final String BINARY_NAME = "otelcol-kafka";
  private static final String HOW_TO_RUN = "install Go 1.24+ (" + TOOLS + "/build.sh builds the Collector from the "
      + "Go module proxy, a few minutes once, cached in ~/.cache/otelcol-kafka-" + VERSION + "), or point -D"
      + BIN_PROPERTY + " / " + BIN_ENV + " at an otelcol with the kafka receiver and the debug exporter";
  private static final long READY_MILLIS = 30_000;
  private static final long BUILD_MINUTES = 15;
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(25);
  private static final int TAIL_LINES = 60;
  private static final int MAX_LINE_BYTES = 1 << 20;

  private static final Pattern LOG_RECORDS = Pattern.compile("\"log records\": (\\d+)");
  /** The Collector's console log: {@code <time> TAB <level> TAB ...}; these levels are errors. */
  private static final Pattern ERROR_LINE = Pattern.compile("^[^\\t]*\\t(error|dpanic|panic|fatal)\\t");
  private static final Pattern TOPIC_NAME = Pattern.compile("[A-Za-z0-9._-]+");
  private static final Pattern ENCODING_NAME = Pattern.compile("[A-Za-z0-9_]+");
  private static final Pattern BROKER = Pattern.compile("[A-Za-z0-9.:\\[\\]_-]+");

  /** Whether the binary has been looked for; {@link #binary} or {@link #skipReason} is then set. */
  private static boolean located;
  private static Path binary;
  private static String skipReason;
  /** Test classes the skip line was printed for (once each). */
  private static final Set<String> announced = new HashSet<>();

  private final Process process;
  private final Path dir;
  private final Path log;
  private final String groupId;

  // What the log has shown so far; read incrementally by scan(), guarded by this.
  private long readOffset;
  private String partialLine = "";
  private boolean ready;
  private long records;
  private final List<String> errorLines = new ArrayList<>();
  private final Deque<String> tail = new ArrayDeque<>();

  private KafkaCollector(Process process, Path dir, Path log, String groupId) {
    this.process = process;
    this.dir = dir;
    this.log = log;
    this.groupId = groupId;
  }

  // ---------------------------------------------------------------------------------------------- the binary

  /**
   * Why Collector tests cannot run here (no binary, and why), or null when they can. The first call locates the
   * binary and may build it (minutes, once per JVM); later calls answer at once.
   *
   * @return the reason, or null when the Collector can be started
   * @throws IllegalStateException when {@code -Dotelcol.kafka.bin} / {@code OTELCOL_KAFKA_BIN} names something
   *     that is not executable: a misconfiguration fails rather than skips
   */
  public static synchronized String skipReason() {
    locate();
    return skipReason;
  }

  /**
   * The Collector binary, located (or built) as described in the class comment.
   *
   * @return the executable
   * @throws IllegalStateException when there is none; the message is {@link #skipReason()}
   */
  public static synchronized Path binary() {
    locate();
    if (binary == null) {
      throw new IllegalStateException("no Kafka-consuming OpenTelemetry Collector: " + skipReason);
    }
    return binary;
  }

  /**
   * Skips the calling test (a JUnit assumption) when there is no Collector, after printing one line per test class
   * to the build's console, the process's real stderr (surefire sends {@code System.err} to a file). Call it from
   * {@code @BeforeEach} (or each test) so that the build's summary counts the tests as skipped; from
   * {@code @BeforeAll} the class is skipped as a whole and surefire reports 0 tests run, 0 skipped.
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
      printToConsole("[WARNING] SKIPPED " + testClass.getSimpleName() + " (the real OpenTelemetry Collector's Kafka "
          + "receiver): " + reason + ". To run it: " + HOW_TO_RUN + ".");
    }
    Assumptions.assumeTrue(false, "Kafka Collector interop skipped: " + reason + "; " + HOW_TO_RUN);
  }

  private static void locate() {
    if (located) {
      return;
    }
    String configured = System.getProperty(BIN_PROPERTY);
    if (configured == null || configured.isEmpty()) {
      configured = System.getenv(BIN_ENV);
    }
    if (configured != null && !configured.isEmpty()) {
      Path p = Paths.get(configured);
      if (!Files.isRegularFile(p) || !Files.isExecutable(p)) {
        throw new IllegalStateException(BIN_PROPERTY + " / " + BIN_ENV + " is set but not an executable file: " + p);
      }
      binary = p;
      located = true;
      return;
    }
    Path cached = cacheDir().resolve(BINARY_NAME);
    if (Files.isExecutable(cached)) {
      binary = cached;
    } else {
      build();
    }
    located = true;
  }

  /** build.sh's cache directory, by the same rule build.sh uses. */
  private static Path cacheDir() {
    String cache = System.getenv(CACHE_ENV);
    if (cache != null && !cache.isEmpty()) {
      return Paths.get(cache);
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    String home = System.getenv("HOME") != null ? System.getenv("HOME") : System.getProperty("user.home");
    Path base = xdg != null && !xdg.isEmpty() ? Paths.get(xdg) : Paths.get(home, ".cache");
    return base.resolve("otelcol-kafka-" + VERSION);
  }

  /** Runs build.sh; sets {@link #binary} from its last line, or {@link #skipReason}. */
  private static void build() {
    if (!goInstalled()) {
      skipReason = "Go is not installed (no 'go' on the PATH), so the Collector cannot be built";
      return;
    }
    Path script = toolsDir().resolve("build.sh");
    Path buildLog = null;
    try {
      buildLog = Files.createTempFile("otelcol-kafka-build-", ".log");
      Path out = Files.createTempFile("otelcol-kafka-build-", ".out");
      Process build = new ProcessBuilder("bash", script.toString()).redirectOutput(out.toFile())
          .redirectError(buildLog.toFile()).start();
      if (!build.waitFor(BUILD_MINUTES, TimeUnit.MINUTES)) {
        stop(build);
        skipReason = "building the Collector took over " + BUILD_MINUTES + " minutes (log: " + buildLog + ")";
        return;
      }
      List<String> printed = Files.readAllLines(out, StandardCharsets.UTF_8);
      Files.deleteIfExists(out);
      Path built = printed.isEmpty() ? null : Paths.get(printed.get(printed.size() - 1).trim());
      if (build.exitValue() != 0 || built == null || !Files.isExecutable(built)) {
        skipReason = "building the Collector failed (exit " + build.exitValue() + "; log: " + buildLog
            + "; last line: " + lastLine(buildLog) + ")";
        return;
      }
      binary = built;
    } catch (IOException e) {
      skipReason = "building the Collector failed: " + e + (buildLog != null ? " (log: " + buildLog + ")" : "");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      skipReason = "interrupted while building the Collector";
    }
  }

  private static boolean goInstalled() {
    try {
      Process p = new ProcessBuilder("go", "version").redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        stop(p);
        return false;
      }
      return p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * The project's {@code tools/otelcol-kafka} directory, found by walking up from the working directory (a module
   * directory under surefire) to the repository root.
   *
   * @return the directory holding build.sh and config.yaml
   * @throws IllegalStateException when no parent directory has it
   */
  public static Path toolsDir() {
    Path start = Paths.get("").toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve(TOOLS);
      if (Files.isRegularFile(candidate.resolve("config.yaml"))) {
        return candidate;
      }
    }
    throw new IllegalStateException(TOOLS + "/config.yaml not found in " + start + " or any parent directory");
  }

  // ---------------------------------------------------------------------------------------------- an instance

  /**
   * Starts a Collector that reads {@code topic} from its earliest offset and waits (up to 30 s) until it reports
   * ready. The topic may be created before or after; the Kafka receiver keeps asking for it.
   *
   * @param bootstrapServers {@code host:port[,host:port...]}
   * @param topic the topic to consume
   * @param encoding the receiver's encoding: {@code otlp_proto} (one message = one serialized
   *     {@code ExportLogsServiceRequest}), {@code otlp_json}, {@code raw} or {@code text}
   * @return the running Collector; close it
   * @throws IOException when the process or its files cannot be created
   * @throws IllegalStateException without a binary (see {@link #assumeAvailable}), or when the Collector exits
   *     or is not ready in time; the message ends with the tail of its log
   */
  public static KafkaCollector start(String bootstrapServers, String topic, String encoding) throws IOException {
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

    String template = new String(Files.readAllBytes(toolsDir().resolve("config.yaml")), StandardCharsets.UTF_8);
    String config = fill(template, "brokers", "[" + String.join(", ", brokers) + "]");
    config = fill(config, "group_id", groupId);
    config = fill(config, "topics", "[\"" + topic + "\"]");
    config = fill(config, "encoding", encoding);

    Path dir = Files.createTempDirectory("otelcol-kafka-");
    Path configFile = dir.resolve("config.yaml");
    Files.write(configFile, config.getBytes(StandardCharsets.UTF_8));
    Path log = dir.resolve("collector.log");
    Process process = new ProcessBuilder(bin.toString(), "--config", configFile.toString()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    KafkaCollector collector = new KafkaCollector(process, dir, log, groupId);
    boolean started = collector.poll(READY_MILLIS, c -> !c.process.isAlive() || c.reportedReady());
    if (!started || !process.isAlive()) {
      String why = process.isAlive() ? "was not ready in " + READY_MILLIS + " ms" : "exited";
      collector.close();
      List<String> errors = collector.errors();
      throw new IllegalStateException("the Kafka Collector " + why + " (topic " + topic + ", " + encoding + ")"
          + (errors.isEmpty() ? "" : "; its errors:\n" + String.join("\n", errors)) + "\nits log ends:\n"
          + collector.logTail());
    }
    return collector;
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
      throw new IllegalStateException(TOOLS + "/config.yaml has no line '" + key + ": ... # filled in'");
    }
    String filled = m.replaceFirst(Matcher.quoteReplacement(m.group(1) + value));
    if (line.matcher(filled).find()) {
      throw new IllegalStateException(TOOLS + "/config.yaml has several lines '" + key + ": ... # filled in'");
    }
    return filled;
  }

  /**
   * The number of log records the Collector has decoded so far: the sum of the debug exporter's per-batch
   * {@code "log records": N} lines.
   *
   * @return the count so far
   */
  public synchronized long recordCount() {
    scan();
    return records;
  }

  /**
   * Waits until the Collector has decoded at least {@code expected} log records or {@code timeoutMillis} pass,
   * reading its log every 25 ms. Compare the result with {@code expected}: more means records were counted twice
   * (or the topic had others), less that they did not arrive in time.
   *
   * @param expected the count to wait for
   * @param timeoutMillis the longest wait
   * @return {@link #recordCount()} when it reached {@code expected}, or at the deadline
   */
  public long awaitRecordCount(long expected, long timeoutMillis) {
    poll(timeoutMillis, c -> c.recordCount() >= expected || !c.process.isAlive());
    return recordCount();
  }

  /**
   * The Collector's log lines at error level so far (the first line of each entry, without the stack trace that
   * follows it). In v0.155.0 a message the encoding cannot decode gives two: {@code failed to unmarshal message}
   * and {@code failed to consume message, skipping ...}; it is not counted and the receiver goes on.
   *
   * @return a copy, oldest first
   */
  public synchronized List<String> errors() {
    scan();
    return new ArrayList<>(errorLines);
  }

  /**
   * The last lines of the Collector's log, for assertion messages.
   *
   * @return up to 60 lines, joined by newlines
   */
  public synchronized String logTail() {
    scan();
    String partial = partialLine.isEmpty() ? "" : "\n" + partialLine;
    return String.join("\n", tail) + partial;
  }

  /**
   * The file the Collector writes its output to (kept after {@link #close()} for inspection).
   *
   * @return the log file
   */
  public Path logFile() {
    return log;
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
    return process.isAlive();
  }

  /**
   * Stops the Collector: SIGTERM, up to 10 s to exit, then SIGKILL and up to 10 s more. The log file stays; the
   * generated config is deleted.
   */
  @Override
  public void close() {
    stop(process);
    try {
      Files.deleteIfExists(dir.resolve("config.yaml"));
    } catch (IOException e) {
      // only a temp file left behind
    }
  }

  private static void stop(Process p) {
    List<ProcessHandle> children = new ArrayList<>();
    p.descendants().forEach(children::add);
    p.destroy();
    boolean interrupted = false;
    try {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
          throw new IllegalStateException("process " + p.pid() + " did not exit after SIGKILL");
        }
      }
    } catch (InterruptedException e) {
      interrupted = true;
      p.destroyForcibly();
    }
    children.forEach(ProcessHandle::destroyForcibly);
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  // ---------------------------------------------------------------------------------------------- the log

  private interface Condition {
    boolean holds(KafkaCollector c);
  }

  /** Evaluates {@code condition} until it holds or the deadline passes, parking 25 ms in between. */
  private boolean poll(long timeoutMillis, Condition condition) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (true) {
      if (condition.holds(this)) {
        return true;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0 || Thread.currentThread().isInterrupted()) {
        return false;
      }
      LockSupport.parkNanos(Math.min(left, POLL_NANOS));
    }
  }

  private synchronized boolean reportedReady() {
    scan();
    return ready;
  }

  /**
   * Accounts the complete lines the log gained since the last call. A line still being written is read again
   * next time; meanwhile it is only shown by {@link #logTail()}.
   */
  private void scan() {
    try (RandomAccessFile in = new RandomAccessFile(log.toFile(), "r")) {
      while (true) {
        long length = in.length();
        if (length <= readOffset) {
          return;
        }
        byte[] fresh = new byte[(int) Math.min(length - readOffset, MAX_LINE_BYTES)];
        in.seek(readOffset);
        in.readFully(fresh);
        // '\n' never occurs inside a UTF-8 encoded character: cut after the last one.
        int end = fresh.length;
        while (end > 0 && fresh[end - 1] != '\n') {
          end--;
        }
        if (end == 0 && fresh.length == MAX_LINE_BYTES) {
          end = fresh.length; // a line longer than that: accounted in pieces
        }
        partialLine = new String(fresh, end, fresh.length - end, StandardCharsets.UTF_8);
        if (end == 0) {
          return; // no complete line yet
        }
        readOffset += end;
        for (String line : new String(fresh, 0, end, StandardCharsets.UTF_8).split("\n")) {
          if (!line.isEmpty()) {
            account(line);
          }
        }
      }
    } catch (IOException e) {
      // not created yet
    }
  }

  private void account(String line) {
    Matcher m = LOG_RECORDS.matcher(line);
    while (m.find()) {
      records += Long.parseLong(m.group(1));
    }
    if (!ready && line.contains("Everything is ready")) {
      ready = true;
    }
    if (ERROR_LINE.matcher(line).find()) {
      errorLines.add(line);
    }
    tail.addLast(line);
    if (tail.size() > TAIL_LINES) {
      tail.removeFirst();
    }
  }

  private static String lastLine(Path file) {
    try {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      return lines.isEmpty() ? "(empty)" : lines.get(lines.size() - 1);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  private static void printToConsole(String line) {
    @SuppressWarnings("resource") // the process's stderr stays open
    PrintStream console = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    console.println(line);
  }
}
