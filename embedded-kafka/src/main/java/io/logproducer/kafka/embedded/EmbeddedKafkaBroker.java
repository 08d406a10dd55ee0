package io.logproducer.kafka.embedded;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.security.CodeSource;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node Apache Kafka broker (KRaft, combined broker and controller, Kafka 4.x) in a child JVM on
 * 127.0.0.1, for tests and demos.
 *
 * <p>The broker runs in a JVM of its own because a Kafka 4.x broker cannot share a JVM with a 3.x client (it needs
 * kafka-clients of its own release). This class, in the caller's JVM, only uses the Kafka Admin API that
 * kafka-clients 3.x and 4.x both have ({@code Admin.create}, {@code describeCluster}, {@code createTopics},
 * {@code listOffsets}, {@code close(Duration)}), so the caller can hold either client; the caller brings it (this
 * module's own Kafka dependencies are optional, not transitive).
 *
 * <p><b>Child JVM.</b> {@code <java.home>/bin/java} with a small heap and the serial collector runs {@link BrokerMain}
 * on the broker's class path: the one this module was built with (a {@code broker.classpath} resource next to this
 * class, written by the build) when all of its entries exist on this machine, followed by this module's own jar or
 * classes directory; otherwise the caller's {@code java.class.path} (a shaded jar that holds the broker itself).
 * The child's standard output and error are appended to {@link #logFile()}, never to the caller's console. The
 * parent holds the child's standard input open: when the parent JVM dies, the child sees the end of input and
 * halts; a JVM shutdown hook also kills the child when the parent exits without {@link #close()}.
 *
 * <p><b>Files</b> in the data directory: {@code server.properties}, {@code kafka-logs/} (the partitions and the
 * KRaft metadata log) and {@code broker.log}. {@link #start(Path)} deletes those three (only those) if an earlier
 * broker left them there, and begins a new cluster; {@link #restart()} keeps them.
 *
 * <p><b>Broker settings</b> for a fast, quiet single node: replication factors of 1 for the internal topics, one
 * offsets partition, no initial rebalance delay, a 0.5 s broker heartbeat (quicker unfencing and controlled
 * shutdown), few threads, small cleaner buffers and {@code auto.create.topics.enable=false}: create
 * topics with {@link #createTopic(String, int)}, which also waits until the broker leads every new partition
 * (KAFKA-15591: {@code createTopics} can return before that, and an idempotent producer that writes at once can
 * then hang for its delivery timeout and lose records). {@link Builder#brokerProperty(String, String)} overrides
 * any of them.
 *
 * <p>Typical use:
 *
 * <pre>{@code
 * try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(Paths.get("target/kafka"))) {
 *   broker.createTopic("logs", 3);
 *   // produce to and consume from broker.bootstrapServers()
 *   broker.stop();     // the port now refuses connections; the data stays
 *   broker.restart();  // same port, same data
 * }
 * }</pre>
 *
 * <p>Thread-safe: the lifecycle methods are serialized.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

  /** The resource, next to this class, that lists the broker's class path (written by this module's build). */
  static final String CLASSPATH_RESOURCE = "broker.classpath";

  /** The name of the broker's log file in the data directory. */
  public static final String LOG_FILE = "broker.log";

  private static final String PROPERTIES_FILE = "server.properties";
  private static final String LOG_DIRS = "kafka-logs";
  private static final String HOST = "127.0.0.1";
  private static final int NODE_ID = 1;
  /** How many times a first start picks new ports when another process took one in the meantime. */
  private static final int PORT_ATTEMPTS = 3;
  private static final int LOG_TAIL_LINES = 60;
  private static final AtomicInteger ADMIN_IDS = new AtomicInteger();
  private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

  private final Path dataDir;
  private final Map<String, String> overrides;
  private final int defaultPartitions;
  private final int maxHeapMegabytes;
  private final List<String> jvmArguments;
  private final Duration startTimeout;
  private final Duration stopTimeout;
  private final Duration topicTimeout;
  private final Thread shutdownHook;

  private int port;
  private int controllerPort;
  /** Volatile for the shutdown hook, which must not wait for the lock (the exiting thread may hold it). */
  private volatile Process process;
  private OutputStream lifeline;
  private Admin admin;
  private boolean closed;

  private EmbeddedKafkaBroker(Builder builder) {
    this.dataDir = builder.dataDir.toAbsolutePath().normalize();
    this.overrides = new LinkedHashMap<>(builder.overrides);
    this.defaultPartitions = builder.defaultPartitions;
    this.maxHeapMegabytes = builder.maxHeapMegabytes;
    this.jvmArguments = new ArrayList<>(builder.jvmArguments);
    this.startTimeout = builder.startTimeout;
    this.stopTimeout = builder.stopTimeout;
    this.topicTimeout = builder.topicTimeout;
    this.shutdownHook = new Thread(this::killOnExit, "embedded-kafka-shutdown");
  }

  /**
   * Starts a new broker with the default settings in {@code dataDir} (created if needed) and waits until it
   * accepts requests.
   *
   * @param dataDir the directory for the broker's files, for example under {@code target/}
   * @return the running broker
   * @throws IllegalStateException when the broker does not start within 60 s or its JVM exits (a port taken
   *     meanwhile is retried with other ports); the message holds the end of its log
   * @throws UncheckedIOException when the data directory cannot be written
   */
  public static EmbeddedKafkaBroker start(Path dataDir) {
    return builder(dataDir).start();
  }

  /**
   * A builder for a broker with other settings.
   *
   * @param dataDir the directory for the broker's files, for example under {@code target/}
   * @return a new builder
   */
  public static Builder builder(Path dataDir) {
    return new Builder(dataDir);
  }

  /**
   * The address for {@code bootstrap.servers}.
   *
   * @return {@code 127.0.0.1:PORT}; the same after {@link #restart()}
   */
  public String bootstrapServers() {
    return HOST + ":" + port;
  }

  /**
   * The broker's (PLAINTEXT) port on 127.0.0.1.
   *
   * @return the port, the same after {@link #restart()}
   */
  public int port() {
    return port;
  }

  /**
   * The KRaft controller's port on 127.0.0.1 (not for clients).
   *
   * @return the port, the same after {@link #restart()}
   */
  public int controllerPort() {
    return controllerPort;
  }

  /**
   * The data directory.
   *
   * @return the absolute data directory
   */
  public Path dataDir() {
    return dataDir;
  }

  /**
   * The broker's log: its standard output and error (its SLF4J output at INFO and above), over all its starts.
   *
   * @return {@code broker.log} in the data directory
   */
  public Path logFile() {
    return dataDir.resolve(LOG_FILE);
  }

  /**
   * Whether the broker's JVM is running (it may still be starting or stopping).
   *
   * @return true while the child JVM is alive
   */
  public boolean isRunning() {
    Process child = process;
    return child != null && child.isAlive();
  }

  /**
   * The broker's JVM, for example to check that it is gone.
   *
   * @return the child process while started (alive or not), empty after {@link #stop()}
   */
  public Optional<ProcessHandle> process() {
    Process child = process;
    return child == null ? Optional.empty() : Optional.of(child.toHandle());
  }

  /**
   * Creates a topic with a replication factor of 1 and waits until the broker leads every one of its partitions
   * (it lists the latest offset of each, retrying until that works). Producers may write to it at once.
   *
   * @param name the topic
   * @param partitions its number of partitions, at least 1
   * @throws IllegalStateException when the broker is not running, the topic exists or cannot be created, or the
   *     partitions do not get a leader within the topic timeout (60 s by default)
   */
  public void createTopic(String name, int partitions) {
    createTopic(name, partitions, Collections.emptyMap());
  }

  /**
   * Creates a topic with a replication factor of 1 and the given topic configuration, and waits until the broker
   * leads every one of its partitions (see {@link #createTopic(String, int)}).
   *
   * @param name the topic
   * @param partitions its number of partitions, at least 1
   * @param configs topic configuration, for example {@code max.message.bytes}; may be empty
   * @throws IllegalStateException when the broker is not running, the topic exists or cannot be created, or the
   *     partitions do not get a leader within the topic timeout (60 s by default)
   */
  public void createTopic(String name, int partitions, Map<String, String> configs) {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1: " + partitions);
    }
    Admin client = runningAdmin();
    long deadline = System.nanoTime() + topicTimeout.toNanos();
    NewTopic topic = new NewTopic(name, partitions, (short) 1).configs(new HashMap<>(configs));
    try {
      client.createTopics(Collections.singletonList(topic)).all().get(remainingMillis(deadline),
          TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("Cannot create topic " + name + ": " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("Topic " + name + " was not created within " + topicTimeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while creating topic " + name, e);
    }
    awaitLeaders(client, name, partitions, deadline);
  }

  /**
   * The leader barrier: {@code listOffsets} is answered only by a partition's leader.
   */
  private void awaitLeaders(Admin client, String name, int partitions, long deadline) {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (int p = 0; p < partitions; p++) {
      latest.put(new TopicPartition(name, p), OffsetSpec.latest());
    }
    Throwable last = null;
    int attempts = 0;
    while (true) {
      long remaining = remainingMillis(deadline);
      if (remaining <= 0) {
        throw new IllegalStateException("The partitions of topic " + name + " got no leader within "
            + topicTimeout + " (" + attempts + " attempts); last error: " + last, last);
      }
      attempts++;
      int callMillis = (int) Math.min(remaining, 5_000);
      try {
        client.listOffsets(latest, new ListOffsetsOptions().timeoutMs(callMillis)).all()
            .get(callMillis + 1_000L, TimeUnit.MILLISECONDS);
        if (attempts > 1) {
          log.debug("Topic {}: every partition has a leader after {} attempts", name, attempts);
        }
        return;
      } catch (ExecutionException e) {
        last = e.getCause();
      } catch (TimeoutException e) {
        last = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while waiting for the leaders of topic " + name, e);
      }
      if (!isRunning()) {
        throw new IllegalStateException("The broker stopped while topic " + name + " was being created"
            + logTail(), last);
      }
      sleep(100);
    }
  }

  /**
   * Stops the broker: asks its JVM to shut down gracefully, kills it when that takes longer than the stop timeout
   * (10 s by default), and waits for it to exit. The ports and the data directory are kept for {@link #restart()}.
   * Does nothing when the broker is not running.
   */
  public synchronized void stop() {
    closeAdmin();
    if (process == null) {
      return;
    }
    Process child = process;
    long begin = System.nanoTime();
    try {
      if (child.isAlive()) {
        try {
          lifeline.write((BrokerMain.STOP_COMMAND + "\n").getBytes(StandardCharsets.UTF_8));
          lifeline.flush();
        } catch (IOException e) {
          // The child is exiting already.
        }
        if (!child.waitFor(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
          log.warn("The embedded Kafka broker at {} did not stop within {}: killing it", bootstrapServers(),
              stopTimeout);
          kill(child);
        }
      }
    } catch (InterruptedException e) {
      kill(child);
      Thread.currentThread().interrupt();
    } finally {
      closeQuietly(lifeline);
      lifeline = null;
      process = null;
    }
    log.debug("Stopped the embedded Kafka broker at {} in {} ms", bootstrapServers(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
  }

  /**
   * Starts the broker again on the same ports and data directory (stopping it first if it is running), and waits
   * until it accepts requests. Topics and records written before survive.
   *
   * @throws IllegalStateException when the broker was closed, does not start within the start timeout (for example
   *     because another process took its port meanwhile) or its JVM exits; the message holds the end of its log
   */
  public synchronized void restart() {
    if (closed) {
      throw new IllegalStateException("The embedded Kafka broker is closed");
    }
    stop();
    launch(false);
  }

  /** Stops the broker (see {@link #stop()}) for good. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      stop();
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException e) {
        // The JVM is shutting down: the hook runs (and finds nothing to do).
      }
    }
  }

  @Override
  public String toString() {
    return "EmbeddedKafkaBroker[" + bootstrapServers() + ", " + dataDir + "]";
  }

  // ---------------------------------------------------------------------------------------------------------------

  /** The first start: new files, new ports (again when a port was taken before the broker could bind it). */
  private synchronized void startNew() {
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    try {
      for (int attempt = 1; ; attempt++) {
        deleteOwnFiles();
        pickPorts();
        try {
          launch(true);
          return;
        } catch (PortTakenException e) {
          if (attempt == PORT_ATTEMPTS) {
            throw new IllegalStateException(e.getMessage(), e);
          }
          log.debug("Port {} or {} was taken meanwhile; picking others", port, controllerPort);
        }
      }
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
  }

  private void launch(boolean format) {
    writeServerProperties();
    List<String> command = new ArrayList<>();
    command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xms32m");
    command.add("-Xmx" + maxHeapMegabytes + "m");
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:-UsePerfData");
    command.add("-Djava.awt.headless=true");
    command.addAll(jvmArguments);
    command.add("-cp");
    command.add(brokerClassPath());
    command.add(BrokerMain.class.getName());
    if (format) {
      command.add("--format");
      command.add(newClusterId());
    }
    command.add(dataDir.resolve(PROPERTIES_FILE).toString());

    ProcessBuilder builder = new ProcessBuilder(command).directory(dataDir.toFile()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile().toFile()));
    // Options for the caller's JVM (agents, heap) are not meant for the broker's.
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    builder.environment().remove("JDK_JAVA_OPTIONS");
    long logStart = logSize();
    long begin = System.nanoTime();
    try {
      appendToLog("---- embedded-kafka: " + (format ? "starting" : "restarting") + " the broker at "
          + bootstrapServers() + " ----");
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start the broker's JVM: " + command.get(0), e);
    }
    lifeline = process.getOutputStream();
    awaitReady(begin, logStart);
    log.info("Embedded Kafka broker {} at {} in {} ms (log: {})", format ? "started" : "restarted",
        bootstrapServers(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin), logFile());
  }

  /**
   * Waits until the port accepts connections and the broker lists itself as an alive node (it is unfenced). On
   * any failure the child is killed and forgotten.
   */
  private void awaitReady(long begin, long logStart) {
    try {
      pollReady(begin + startTimeout.toNanos(), logStart);
    } catch (RuntimeException | Error e) {
      Process child = process;
      if (child != null) {
        kill(child);
      }
      forget();
      throw e;
    }
  }

  private void pollReady(long deadline, long logStart) {
    boolean listening = false;
    Throwable last = null;
    while (true) {
      if (!process.isAlive()) {
        String message = "The embedded Kafka broker's JVM exited with status " + process.exitValue()
            + " while starting" + logTail();
        if (bindFailed(logStart)) {
          throw new PortTakenException(message);
        }
        throw new IllegalStateException(message);
      }
      if (remainingMillis(deadline) <= 0) {
        kill(process);
        throw new IllegalStateException("The embedded Kafka broker at " + bootstrapServers()
            + " did not start within " + startTimeout + "; last error: " + last + logTail(), last);
      }
      if (!listening) {
        listening = accepts(port);
        if (!listening) {
          sleep(50);
          continue;
        }
      }
      if (admin == null) {
        admin = newAdmin();
      }
      int callMillis = (int) Math.max(1, Math.min(remainingMillis(deadline), 2_000));
      try {
        Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(callMillis)).nodes()
            .get(callMillis + 1_000L, TimeUnit.MILLISECONDS);
        if (!nodes.isEmpty()) {
          return;
        }
      } catch (ExecutionException e) {
        last = e.getCause();
      } catch (TimeoutException e) {
        last = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("Interrupted while starting the embedded Kafka broker", e);
      }
      sleep(50);
    }
  }

  /** After a failed start: no child, no admin. */
  private void forget() {
    closeAdmin();
    closeQuietly(lifeline);
    lifeline = null;
    process = null;
  }

  private Admin newAdmin() {
    Map<String, Object> config = new HashMap<>();
    config.put("bootstrap.servers", bootstrapServers());
    config.put("client.id", "embedded-kafka-admin-" + ADMIN_IDS.incrementAndGet());
    config.put("request.timeout.ms", 10_000);
    config.put("default.api.timeout.ms", 15_000);
    config.put("retry.backoff.ms", 50);
    config.put("reconnect.backoff.ms", 50);
    config.put("reconnect.backoff.max.ms", 500);
    return Admin.create(config);
  }

  private synchronized Admin runningAdmin() {
    if (!isRunning()) {
      throw new IllegalStateException("The embedded Kafka broker is not running");
    }
    if (admin == null) {
      admin = newAdmin();
    }
    return admin;
  }

  private void closeAdmin() {
    if (admin != null) {
      try {
        admin.close(Duration.ofSeconds(5));
      } catch (RuntimeException e) {
        log.debug("Closing the admin client failed", e);
      }
      admin = null;
    }
  }

  private void killOnExit() {
    Process child = process;
    if (child != null) {
      kill(child);
    }
  }

  private static void kill(Process child) {
    child.destroyForcibly();
    try {
      if (!child.waitFor(10, TimeUnit.SECONDS)) {
        log.warn("The embedded Kafka broker's JVM (pid {}) did not exit within 10 s of being killed", child.pid());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---------------------------------------------------------------------------------------------------------------

  private void writeServerProperties() {
    Map<String, String> props = new LinkedHashMap<>();
    props.put("process.roles", "broker,controller");
    props.put("node.id", Integer.toString(NODE_ID));
    props.put("controller.quorum.voters", NODE_ID + "@" + HOST + ":" + controllerPort);
    props.put("listeners", "PLAINTEXT://" + HOST + ":" + port + ",CONTROLLER://" + HOST + ":" + controllerPort);
    props.put("advertised.listeners", "PLAINTEXT://" + HOST + ":" + port);
    props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    props.put("controller.listener.names", "CONTROLLER");
    props.put("inter.broker.listener.name", "PLAINTEXT");
    props.put("log.dirs", dataDir.resolve(LOG_DIRS).toString());
    props.put("num.partitions", Integer.toString(defaultPartitions));
    props.put("default.replication.factor", "1");
    props.put("min.insync.replicas", "1");
    props.put("auto.create.topics.enable", "false");
    props.put("group.initial.rebalance.delay.ms", "0");
    props.put("offsets.topic.num.partitions", "1");
    props.put("offsets.topic.replication.factor", "1");
    props.put("transaction.state.log.num.partitions", "1");
    props.put("transaction.state.log.replication.factor", "1");
    props.put("transaction.state.log.min.isr", "1");
    props.put("share.coordinator.state.topic.num.partitions", "1");
    props.put("share.coordinator.state.topic.replication.factor", "1");
    props.put("share.coordinator.state.topic.min.isr", "1");
    // Few threads and small buffers: two cores, a 256 MiB heap, one client or two.
    props.put("num.network.threads", "2");
    props.put("num.io.threads", "2");
    props.put("background.threads", "2");
    props.put("num.recovery.threads.per.data.dir", "1");
    props.put("num.replica.fetchers", "1");
    props.put("log.cleaner.threads", "1");
    props.put("log.cleaner.dedupe.buffer.size", Integer.toString(4 * 1024 * 1024));
    props.put("log.cleaner.io.buffer.size", Integer.toString(256 * 1024));
    props.put("log.segment.bytes", Integer.toString(64 * 1024 * 1024));
    props.put("log.index.size.max.bytes", Integer.toString(1024 * 1024));
    // A faster unfencing and controlled shutdown (the broker heartbeat carries both).
    props.put("broker.heartbeat.interval.ms", "500");
    props.put("broker.session.timeout.ms", "9000");
    props.putAll(overrides);

    StringBuilder text = new StringBuilder("# Written by io.logproducer.kafka.embedded.EmbeddedKafkaBroker\n");
    for (Map.Entry<String, String> e : props.entrySet()) {
      text.append(escape(e.getKey(), true)).append('=').append(escape(e.getValue(), false)).append('\n');
    }
    try {
      Files.createDirectories(dataDir);
      Files.write(dataDir.resolve(PROPERTIES_FILE), text.toString().getBytes(StandardCharsets.ISO_8859_1));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + dataDir.resolve(PROPERTIES_FILE), e);
    }
  }

  /** Escapes a key or value for a properties file (backslashes first; ISO 8859-1 with Unicode escapes). */
  private static String escape(String s, boolean key) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' || c == '#' || c == '!' || c == '=' || c == ':' || (c == ' ' && (key || i == 0))) {
        out.append('\\').append(c);
      } else if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (c == '\t') {
        out.append("\\t");
      } else if (c < 0x20 || c > 0x7e) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** Deletes what an earlier broker left in the data directory: only the files this class writes. */
  private void deleteOwnFiles() {
    try {
      Files.createDirectories(dataDir);
      deleteRecursively(dataDir.resolve(LOG_DIRS));
      Files.deleteIfExists(dataDir.resolve(PROPERTIES_FILE));
      Files.deleteIfExists(logFile());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot clear " + dataDir, e);
    }
  }

  private static void deleteRecursively(Path path) throws IOException {
    if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      try (DirectoryStream<Path> children = Files.newDirectoryStream(path)) {
        for (Path child : children) {
          deleteRecursively(child);
        }
      }
    }
    Files.deleteIfExists(path);
  }

  /** Two free ports on 127.0.0.1 (held open together, so they differ). */
  private void pickPorts() {
    try (ServerSocket a = new ServerSocket(0, 1, InetAddress.getByName(HOST));
         ServerSocket b = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
      port = a.getLocalPort();
      controllerPort = b.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot find free ports on " + HOST, e);
    }
  }

  /** A random cluster id: 16 bytes in URL-safe Base64 (22 characters), not starting with '-' (an option). */
  private static String newClusterId() {
    SecureRandom random = new SecureRandom();
    byte[] bytes = new byte[16];
    while (true) {
      random.nextBytes(bytes);
      String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      if (id.charAt(0) != '-') {
        return id;
      }
    }
  }

  /**
   * The class path of the broker's JVM: the recorded one (this module's runtime dependencies) and the location
   * of {@link BrokerMain} when every recorded entry exists, else this JVM's class path (made absolute).
   */
  static String brokerClassPath() {
    List<String> recorded = recordedClassPath();
    if (recorded.isEmpty()) {
      // Absolute: the broker's JVM runs in the data directory.
      List<String> entries = new ArrayList<>();
      for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
        if (!entry.isEmpty()) {
          entries.add(new File(entry).getAbsolutePath());
        }
      }
      return String.join(File.pathSeparator, entries);
    }
    List<String> entries = new ArrayList<>(recorded);
    ownLocation().ifPresent(entries::add);
    return String.join(File.pathSeparator, entries);
  }

  /** The entries of the {@code broker.classpath} resource, or none when it is missing or names a missing file. */
  static List<String> recordedClassPath() {
    String text;
    try (InputStream in = EmbeddedKafkaBroker.class.getResourceAsStream(CLASSPATH_RESOURCE)) {
      if (in == null) {
        return Collections.emptyList();
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    } catch (IOException e) {
      return Collections.emptyList();
    }
    List<String> entries = new ArrayList<>();
    for (String entry : text.split(File.pathSeparator)) {
      String trimmed = entry.trim();
      if (trimmed.isEmpty()) {
        continue;
      }
      if (!Files.exists(Paths.get(trimmed))) {
        log.debug("{} names {}, which does not exist here: the broker runs on java.class.path",
            CLASSPATH_RESOURCE, trimmed);
        return Collections.emptyList();
      }
      entries.add(trimmed);
    }
    return entries;
  }

  /** The jar or classes directory this class was loaded from. */
  private static Optional<String> ownLocation() {
    try {
      CodeSource source = BrokerMain.class.getProtectionDomain().getCodeSource();
      if (source == null || source.getLocation() == null) {
        return Optional.empty();
      }
      Path path = Paths.get(source.getLocation().toURI());
      return Files.exists(path) ? Optional.of(path.toString()) : Optional.empty();
    } catch (URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }

  // ---------------------------------------------------------------------------------------------------------------

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(HOST, port), 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private long logSize() {
    try {
      return Files.exists(logFile()) ? Files.size(logFile()) : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  private void appendToLog(String line) {
    try (Writer out = Files.newBufferedWriter(logFile(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND)) {
      out.write(line);
      out.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + logFile(), e);
    }
  }

  /** Whether the log written since {@code from} says that a listener could not bind its port. */
  private boolean bindFailed(long from) {
    try (Stream<String> lines = Files.lines(logFile(), StandardCharsets.UTF_8)) {
      long[] read = {0};
      return lines.anyMatch(line -> {
        read[0] += line.length() + 1;
        return read[0] > from && (line.contains("Address already in use") || line.contains("BindException"));
      });
    } catch (IOException | UncheckedIOException e) {
      return false;
    }
  }

  /** The last lines of the broker's log, for an exception message. */
  private String logTail() {
    Deque<String> tail = new ArrayDeque<>();
    try (Stream<String> lines = Files.lines(logFile(), StandardCharsets.UTF_8)) {
      lines.forEach(line -> {
        tail.addLast(line);
        if (tail.size() > LOG_TAIL_LINES) {
          tail.removeFirst();
        }
      });
    } catch (IOException | UncheckedIOException e) {
      return "\n(no broker log: " + e + ")";
    }
    return "\n---- the last " + tail.size() + " lines of " + logFile() + " ----\n" + String.join("\n", tail);
  }

  private static long remainingMillis(long deadline) {
    return TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted", e);
    }
  }

  private static void closeQuietly(OutputStream out) {
    if (out != null) {
      try {
        out.close();
      } catch (IOException e) {
        // The child is gone.
      }
    }
  }

  /** A first start failed because a listener's port was taken after it was picked. */
  private static final class PortTakenException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PortTakenException(String message) {
      super(message);
    }
  }

  /**
   * Settings for a new {@link EmbeddedKafkaBroker}; {@link #start()} starts it.
   */
  public static final class Builder {
    private final Path dataDir;
    private final Map<String, String> overrides = new LinkedHashMap<>();
    private final List<String> jvmArguments = new ArrayList<>();
    private int defaultPartitions = 1;
    private int maxHeapMegabytes = 256;
    private Duration startTimeout = Duration.ofSeconds(60);
    private Duration stopTimeout = Duration.ofSeconds(10);
    private Duration topicTimeout = Duration.ofSeconds(60);

    private Builder(Path dataDir) {
      if (dataDir == null) {
        throw new NullPointerException("dataDir");
      }
      this.dataDir = dataDir;
    }

    /**
     * Sets a broker property ({@code server.properties}), overriding this class's setting for it. Changing the
     * listeners, ports, node id or directories breaks this class's assumptions.
     *
     * @param key the property, for example {@code message.max.bytes}
     * @param value its value
     * @return this builder
     */
    public Builder brokerProperty(String key, String value) {
      if (key == null || value == null) {
        throw new NullPointerException(key == null ? "key" : "value");
      }
      overrides.put(key, value);
      return this;
    }

    /**
     * Sets broker properties (see {@link #brokerProperty(String, String)}).
     *
     * @param properties the properties and their values
     * @return this builder
     */
    public Builder brokerProperties(Map<String, String> properties) {
      properties.forEach(this::brokerProperty);
      return this;
    }

    /**
     * The number of partitions of a topic created without one ({@code num.partitions}). Default 1.
     *
     * @param partitions at least 1
     * @return this builder
     */
    public Builder defaultPartitions(int partitions) {
      if (partitions < 1) {
        throw new IllegalArgumentException("partitions must be at least 1: " + partitions);
      }
      this.defaultPartitions = partitions;
      return this;
    }

    /**
     * The broker JVM's maximum heap ({@code -Xmx}). Default 256 MiB.
     *
     * @param megabytes at least 64
     * @return this builder
     */
    public Builder maxHeapMegabytes(int megabytes) {
      if (megabytes < 64) {
        throw new IllegalArgumentException("at least 64 MiB: " + megabytes);
      }
      this.maxHeapMegabytes = megabytes;
      return this;
    }

    /**
     * Adds an option for the broker's JVM, for example a system property ({@code -Dname=value}); given after this
     * class's own, so it wins over them.
     *
     * @param argument a {@code java} option
     * @return this builder
     */
    public Builder jvmArgument(String argument) {
      if (argument == null) {
        throw new NullPointerException("argument");
      }
      jvmArguments.add(argument);
      return this;
    }

    /**
     * How long {@link #start()} and {@link EmbeddedKafkaBroker#restart()} wait for the broker. Default 60 s.
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public Builder startTimeout(Duration timeout) {
      this.startTimeout = positive(timeout);
      return this;
    }

    /**
     * How long {@link EmbeddedKafkaBroker#stop()} waits for a graceful shutdown before it kills the broker's JVM.
     * Default 10 s.
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public Builder stopTimeout(Duration timeout) {
      this.stopTimeout = positive(timeout);
      return this;
    }

    /**
     * How long {@link EmbeddedKafkaBroker#createTopic(String, int)} waits for the topic and its leaders. Default
     * 60 s.
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public Builder topicTimeout(Duration timeout) {
      this.topicTimeout = positive(timeout);
      return this;
    }

    /**
     * Starts the broker: deletes an earlier broker's files in the data directory, picks free ports on 127.0.0.1,
     * writes {@code server.properties}, formats the storage and runs the broker in a child JVM, and waits until it
     * accepts requests.
     *
     * @return the running broker
     * @throws IllegalStateException when the broker does not start within the start timeout or its JVM exits; the
     *     message holds the end of its log
     * @throws UncheckedIOException when the data directory cannot be written
     */
    public EmbeddedKafkaBroker start() {
      EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(this);
      broker.startNew();
      return broker;
    }

    private static Duration positive(Duration timeout) {
      if (timeout == null || timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("a positive duration: " + timeout);
      }
      return timeout;
    }
  }
}
