package io.logproducer.kafka.embedded;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node Apache Kafka broker (KRaft, combined broker and controller, Kafka 4.x) in a child
 * JVM on 127.0.0.1, for tests and demos.
 *
 * <p>The broker runs in a JVM of its own because a Kafka 4.x broker cannot share a JVM with a 3.x
 * client (it needs kafka-clients of its own release). This class, in the caller's JVM, only uses
 * the Kafka Admin API that kafka-clients 3.x and 4.x both have ({@code Admin.create}, {@code
 * describeCluster}, {@code createTopics}, {@code listOffsets}, {@code close(Duration)}), so the
 * caller can hold either client; the caller brings it (this module's own Kafka dependencies are
 * optional, not transitive).
 *
 * <p><b>Child JVM.</b> {@code <java.home>/bin/java} (the Kafka 4.x broker needs Java 17+: a caller
 * on an older Java sets the system property {@code logproducer.kafka.broker.java.home} to a Java
 * 17+ home, which is then used instead) with a small heap and the serial collector runs {@link
 * BrokerMain} on the broker's class path: the one this module was built with (a {@code
 * broker.classpath} resource next to this class, written by the build) when all of its entries
 * exist on this machine, followed by this module's own jar or classes directory; otherwise the
 * caller's {@code java.class.path} (a shaded jar that holds the broker itself). The child's
 * standard output and error are appended to {@link #logFile()}, never to the caller's console. The
 * parent holds the child's standard input open: when the parent JVM dies, the child sees the end of
 * input and halts; a JVM shutdown hook also kills the child when the parent exits without {@link
 * #close()}.
 *
 * <p><b>Files</b> in the data directory: {@code server.properties}, {@code kafka-logs/} (the
 * partitions and the KRaft metadata log) and {@code broker.log}. {@link #start(Path)} deletes those
 * three (only those) if an earlier broker left them there, and begins a new cluster; {@link
 * #restart()} keeps them.
 *
 * <p><b>SASL.</b> With {@linkplain EmbeddedKafkaBrokerBuilder#saslUser(String, String) SASL users},
 * the broker has a second client listener, {@code SASL_PLAINTEXT} on a port of its own ({@link
 * #saslBootstrapServers()}), for {@code PLAIN}, {@code SCRAM-SHA-256} and {@code SCRAM-SHA-512};
 * the PLAINTEXT listener (and this class's own admin client on it) stays.
 *
 * <p><b>Broker settings</b> for a fast, quiet single node: replication factors of 1 for the
 * internal topics, one offsets partition, no initial rebalance delay, a 0.5 s broker heartbeat
 * (quicker unfencing and controlled shutdown), few threads, small cleaner buffers and {@code
 * auto.create.topics.enable=false}: create topics with {@link #createTopic(String, int)}, which
 * also waits until the broker leads every new partition (KAFKA-15591: {@code createTopics} can
 * return before that, and an idempotent producer that writes at once can then hang for its delivery
 * timeout and lose records). {@link EmbeddedKafkaBrokerBuilder#brokerProperty(String, String)}
 * overrides any of them.
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
 * <p><b>Inside</b> (package-private, one job each): {@link BrokerConfig} (settings, {@code
 * server.properties}, the data directory's files), {@link Ports} (picking and probing the two
 * ports), {@link BrokerClassPath} (the child's class path), {@link BrokerProcess} (one run of the
 * child JVM and its lifeline), {@link BrokerStartup} (waiting until it is ready), {@link
 * BrokerAdmin} (the Admin client: readiness, topics) and {@link BrokerLog} (the log file and its
 * tail). This class holds the lifecycle: first start with port retries, stop, restart, close, the
 * hook.
 *
 * <p>Thread-safe: the lifecycle methods are serialized.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

  /** The name of the broker's log file in the data directory. */
  public static final String LOG_FILE = "broker.log";

  /** How many times a first start picks new ports when another process took one in the meantime. */
  private static final int PORT_ATTEMPTS = 3;

  private static final Logger log = LoggerFactory.getLogger(EmbeddedKafkaBroker.class);

  private final BrokerConfig config;
  private final BrokerLog brokerLog;
  private final Thread shutdownHook;

  // Written under this (the lifecycle lock). Volatile so the accessors answer without waiting for
  // the lock while a
  // restart runs; Ports is immutable, and the same after restart().
  private volatile Ports ports;

  /**
   * Volatile for the shutdown hook, which must not wait for the lock (the exiting thread may hold
   * it).
   */
  private volatile BrokerProcess process;

  private BrokerAdmin admin; // guarded by this
  private boolean closed; // guarded by this

  private EmbeddedKafkaBroker(BrokerConfig config) {
    this.config = config;
    this.brokerLog = new BrokerLog(config.logFile());
    this.shutdownHook = new Thread(this::killOnExit, "embedded-kafka-shutdown");
  }

  /**
   * Starts a new broker with the default settings in {@code dataDir} (created if needed) and waits
   * until it accepts requests.
   *
   * @param dataDir the directory for the broker's files, for example under {@code target/}
   * @return the running broker
   * @throws IllegalStateException when the broker does not start within 60 s or its JVM exits (a
   *     port taken meanwhile is retried with other ports); the message holds the end of its log
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
  public static EmbeddedKafkaBrokerBuilder builder(Path dataDir) {
    return new EmbeddedKafkaBrokerBuilder(dataDir);
  }

  /** Starts a broker with these settings (see {@link EmbeddedKafkaBrokerBuilder#start()}). */
  static EmbeddedKafkaBroker start(BrokerConfig config) {
    EmbeddedKafkaBroker broker = new EmbeddedKafkaBroker(config);
    broker.startNew();
    return broker;
  }

  /**
   * The address for {@code bootstrap.servers}.
   *
   * @return {@code 127.0.0.1:PORT}; the same after {@link #restart()}
   */
  public String bootstrapServers() {
    return ports.bootstrapServers();
  }

  /**
   * The address of the {@code SASL_PLAINTEXT} listener for {@code bootstrap.servers}, which the
   * broker has when {@linkplain EmbeddedKafkaBrokerBuilder#saslUser(String, String) SASL users}
   * were given: mechanisms {@code PLAIN}, {@code SCRAM-SHA-256} and {@code SCRAM-SHA-512}, each
   * with every user. Clients set {@code security.protocol=SASL_PLAINTEXT}, {@code sasl.mechanism}
   * and {@code sasl.jaas.config}.
   *
   * @return {@code 127.0.0.1:PORT}; the same after {@link #restart()}
   * @throws IllegalStateException when the broker has no SASL listener
   */
  public String saslBootstrapServers() {
    return ports.saslBootstrapServers();
  }

  /**
   * The broker's (PLAINTEXT) port on 127.0.0.1.
   *
   * @return the port, the same after {@link #restart()}
   */
  public int port() {
    return ports.broker;
  }

  /**
   * The KRaft controller's port on 127.0.0.1 (not for clients).
   *
   * @return the port, the same after {@link #restart()}
   */
  public int controllerPort() {
    return ports.controller;
  }

  /**
   * The data directory.
   *
   * @return the absolute data directory
   */
  public Path dataDir() {
    return config.dataDir;
  }

  /**
   * The broker's log: its standard output and error (its SLF4J output at INFO and above), over all
   * its starts.
   *
   * @return {@code broker.log} in the data directory
   */
  public Path logFile() {
    return brokerLog.file();
  }

  /**
   * Whether the broker's JVM is running (it may still be starting or stopping).
   *
   * @return true while the child JVM is alive
   */
  public boolean isRunning() {
    BrokerProcess child = process;
    return child != null && child.isAlive();
  }

  /**
   * The broker's JVM, for example to check that it is gone.
   *
   * @return the child process while started (alive or not), empty after {@link #stop()}
   */
  public Optional<ProcessHandle> process() {
    BrokerProcess child = process;
    return child == null ? Optional.empty() : Optional.of(child.handle());
  }

  /**
   * Creates a topic with a replication factor of 1 and waits until the broker leads every one of
   * its partitions (it lists the latest offset of each, retrying until that works). Producers may
   * write to it at once.
   *
   * @param name the topic
   * @param partitions its number of partitions, at least 1
   * @throws IllegalArgumentException when {@code partitions} is below 1
   * @throws IllegalStateException when the broker is not running, the topic exists or cannot be
   *     created, or the partitions do not get a leader within the topic timeout (60 s by default)
   */
  public void createTopic(String name, int partitions) {
    createTopic(name, partitions, Collections.emptyMap());
  }

  /**
   * Creates a topic with a replication factor of 1 and the given topic configuration, and waits
   * until the broker leads every one of its partitions (see {@link #createTopic(String, int)}).
   *
   * @param name the topic
   * @param partitions its number of partitions, at least 1
   * @param configs topic configuration, for example {@code max.message.bytes}; may be empty
   * @throws IllegalArgumentException when {@code partitions} is below 1
   * @throws IllegalStateException when the broker is not running, the topic exists or cannot be
   *     created, or the partitions do not get a leader within the topic timeout (60 s by default)
   */
  public synchronized void createTopic(String name, int partitions, Map<String, String> configs) {
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be at least 1: " + partitions);
    }
    if (!isRunning()) {
      throw new IllegalStateException("The embedded Kafka broker is not running");
    }
    if (admin == null) {
      admin = new BrokerAdmin(bootstrapServers());
    }
    admin.createTopic(
        name, partitions, configs, config.topicTimeout, this::isRunning, brokerLog::tail);
  }

  /**
   * Stops the broker: asks its JVM to shut down gracefully, kills it when that takes longer than
   * the stop timeout (10 s by default), and waits for it to exit. The ports and the data directory
   * are kept for {@link #restart()}. Does nothing when the broker is not running.
   */
  public synchronized void stop() {
    closeAdmin();
    BrokerProcess child = process;
    if (child == null) {
      return;
    }
    long begin = System.nanoTime();
    try {
      if (!child.stop(config.stopTimeout) && !Thread.currentThread().isInterrupted()) {
        log.warn(
            "The embedded Kafka broker at {} did not stop within {}: killed it",
            bootstrapServers(),
            config.stopTimeout);
      }
    } finally {
      process = null;
    }
    log.debug(
        "Stopped the embedded Kafka broker at {} in {} ms",
        bootstrapServers(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
  }

  /**
   * Freezes the broker's JVM ({@code SIGSTOP}) without ending it, to simulate a broker that hangs:
   * its port still accepts connections, but no request is answered until {@link #thaw()}. {@link
   * #stop()} and {@link #close()} kill a frozen broker after the stop timeout. POSIX systems only
   * (it runs the shell's {@code kill}).
   *
   * @throws IllegalStateException when the broker is not running or cannot be signalled
   */
  public synchronized void freeze() {
    runningProcess().signal("STOP");
  }

  /**
   * Lets a {@linkplain #freeze() frozen} broker run again ({@code SIGCONT}); it answers the
   * requests that waited (those whose clients have not given up). Harmless on a broker that is not
   * frozen.
   *
   * @throws IllegalStateException when the broker is not running or cannot be signalled
   */
  public synchronized void thaw() {
    runningProcess().signal("CONT");
  }

  private BrokerProcess runningProcess() {
    BrokerProcess child = process;
    if (child == null || !child.isAlive()) {
      throw new IllegalStateException("The embedded Kafka broker is not running");
    }
    return child;
  }

  /**
   * Starts the broker again on the same ports and data directory (stopping it first if it is
   * running), and waits until it accepts requests. Topics and records written before survive.
   *
   * @throws IllegalStateException when the broker was closed, does not start within the start
   *     timeout (for example because another process took its port meanwhile) or its JVM exits; the
   *     message holds the end of its log
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
    Ports p = ports;
    return "EmbeddedKafkaBroker["
        + (p == null ? "no ports" : p.bootstrapServers())
        + ", "
        + config.dataDir
        + "]";
  }

  // ---------------------------------------------------------------------------------------------------------------

  /**
   * The first start: new files, new ports (again when a port was taken before the broker could bind
   * it).
   */
  private synchronized void startNew() {
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    try {
      for (int attempt = 1; ; attempt++) {
        config.clearDataDir();
        ports = Ports.pickFree(config.sasl());
        try {
          launch(true);
          return;
        } catch (BrokerStartup.PortTakenException e) {
          if (attempt == PORT_ATTEMPTS) {
            throw new IllegalStateException(e.getMessage(), e);
          }
          log.debug("{} were partly taken meanwhile; picking others", ports);
        }
      }
    } catch (RuntimeException | Error e) {
      close();
      throw e;
    }
  }

  /**
   * Writes the properties, starts the child JVM and waits until the broker is ready (or forgets the
   * child).
   */
  private void launch(boolean format) {
    config.writeServerProperties(ports);
    long logStart = brokerLog.size();
    long begin = System.nanoTime();
    brokerLog.append(
        "---- embedded-kafka: "
            + (format ? "starting" : "restarting")
            + " the broker at "
            + bootstrapServers()
            + " ----");
    BrokerProcess child = BrokerProcess.start(config, format);
    process = child;
    try {
      admin =
          BrokerStartup.awaitReady(child, ports, brokerLog, config.startTimeout, begin, logStart);
    } catch (RuntimeException | Error e) {
      process = null;
      throw e;
    }
    log.info(
        "Embedded Kafka broker {} at {} in {} ms (log: {})",
        format ? "started" : "restarted",
        bootstrapServers(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin),
        logFile());
  }

  private void closeAdmin() {
    if (admin != null) {
      admin.close();
      admin = null;
    }
  }

  /** The shutdown hook: kills a child left running when the JVM exits without {@link #close()}. */
  private void killOnExit() {
    BrokerProcess child = process;
    if (child != null) {
      child.kill();
    }
  }
}
