package io.logproducer.kafka.embedded;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Settings for a new {@link EmbeddedKafkaBroker}; {@link #start()} starts it. Not thread-safe: one
 * thread sets and starts.
 */
public final class EmbeddedKafkaBrokerBuilder {
  private final Path dataDir;
  private final Map<String, String> overrides = new LinkedHashMap<>();
  private final List<String> jvmArguments = new ArrayList<>();
  private final Map<String, String> saslUsers = new LinkedHashMap<>();
  private int defaultPartitions = 1;
  private int maxHeapMegabytes = 256;
  private Duration startTimeout = Duration.ofSeconds(60);
  private Duration stopTimeout = Duration.ofSeconds(10);
  private Duration topicTimeout = Duration.ofSeconds(60);

  EmbeddedKafkaBrokerBuilder(Path dataDir) {
    if (dataDir == null) {
      throw new NullPointerException("dataDir");
    }
    this.dataDir = dataDir;
  }

  /**
   * Sets a broker property ({@code server.properties}), overriding this class's setting for it.
   * Changing the listeners, ports, node id or directories breaks this class's assumptions.
   *
   * @param key the property, for example {@code message.max.bytes}
   * @param value its value
   * @return this builder
   */
  public EmbeddedKafkaBrokerBuilder brokerProperty(String key, String value) {
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
  public EmbeddedKafkaBrokerBuilder brokerProperties(Map<String, String> properties) {
    properties.forEach(this::brokerProperty);
    return this;
  }

  /**
   * Adds a user of a second client listener, {@code SASL_PLAINTEXT} on a port of its own on
   * 127.0.0.1 ({@link EmbeddedKafkaBroker#saslBootstrapServers()}), which the first user given
   * enables. The listener accepts the mechanisms {@code PLAIN}, {@code SCRAM-SHA-256} and {@code
   * SCRAM-SHA-512}, each with every user given: PLAIN users are the listener's {@code
   * plain.sasl.jaas.config} ({@code user_<name>="<password>"}), SCRAM credentials are added when
   * the storage is formatted (as {@code kafka-storage format --add-scram} does), so they are there
   * before the broker accepts a client. The PLAINTEXT listener, the controller listener and the
   * inter-broker traffic stay unauthenticated. For tests only: the passwords are written in clear
   * into {@code server.properties} in the data directory. A user given twice keeps its last
   * password.
   *
   * @param name the user: 1 to 64 of ASCII letters, digits, {@code .}, {@code _}, {@code -},
   *     {@code @}, {@code +}, {@code ~}
   * @param password the password: 1 to 128 of those characters (no quotes, commas, equal signs or
   *     backslashes, which the JAAS and SCRAM argument syntaxes would need escaped)
   * @return this builder
   * @throws NullPointerException when either is null
   * @throws IllegalArgumentException when either has other characters or is empty or too long (the
   *     message never holds the password)
   */
  public EmbeddedKafkaBrokerBuilder saslUser(String name, String password) {
    if (name == null || password == null) {
      throw new NullPointerException(name == null ? "name" : "password");
    }
    if (!BrokerConfig.isSaslToken(name, 64)) {
      throw new IllegalArgumentException(
          "a SASL user name is 1 to 64 of [A-Za-z0-9._@+~-]: " + name);
    }
    if (!BrokerConfig.isSaslToken(password, 128)) {
      throw new IllegalArgumentException(
          "the password of SASL user " + name + " is not 1 to 128 of [A-Za-z0-9._@+~-]");
    }
    saslUsers.put(name, password);
    return this;
  }

  /**
   * Adds users of the {@code SASL_PLAINTEXT} listener (see {@link #saslUser(String, String)}), in
   * the map's order.
   *
   * @param userToPassword user names and their passwords
   * @return this builder
   * @throws NullPointerException when the map, a name or a password is null
   * @throws IllegalArgumentException as {@link #saslUser(String, String)}
   */
  public EmbeddedKafkaBrokerBuilder saslUsers(Map<String, String> userToPassword) {
    userToPassword.forEach(this::saslUser);
    return this;
  }

  /**
   * The number of partitions of a topic created without one ({@code num.partitions}). Default 1.
   *
   * @param partitions at least 1
   * @return this builder
   */
  public EmbeddedKafkaBrokerBuilder defaultPartitions(int partitions) {
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
  public EmbeddedKafkaBrokerBuilder maxHeapMegabytes(int megabytes) {
    if (megabytes < 64) {
      throw new IllegalArgumentException("at least 64 MiB: " + megabytes);
    }
    this.maxHeapMegabytes = megabytes;
    return this;
  }

  /**
   * Adds an option for the broker's JVM, for example a system property ({@code -Dname=value});
   * given after this class's own, so it wins over them.
   *
   * @param argument a {@code java} option
   * @return this builder
   */
  public EmbeddedKafkaBrokerBuilder jvmArgument(String argument) {
    if (argument == null) {
      throw new NullPointerException("argument");
    }
    jvmArguments.add(argument);
    return this;
  }

  /**
   * How long {@link #start()} and {@link EmbeddedKafkaBroker#restart()} wait for the broker.
   * Default 60 s.
   *
   * @param timeout a positive duration
   * @return this builder
   */
  public EmbeddedKafkaBrokerBuilder startTimeout(Duration timeout) {
    this.startTimeout = positive(timeout);
    return this;
  }

  /**
   * How long {@link EmbeddedKafkaBroker#stop()} waits for a graceful shutdown before it kills the
   * broker's JVM. Default 10 s.
   *
   * @param timeout a positive duration
   * @return this builder
   */
  public EmbeddedKafkaBrokerBuilder stopTimeout(Duration timeout) {
    this.stopTimeout = positive(timeout);
    return this;
  }

  /**
   * How long {@link EmbeddedKafkaBroker#createTopic(String, int)} waits for the topic and its
   * leaders. Default 60 s.
   *
   * @param timeout a positive duration
   * @return this builder
   */
  public EmbeddedKafkaBrokerBuilder topicTimeout(Duration timeout) {
    this.topicTimeout = positive(timeout);
    return this;
  }

  /**
   * Starts the broker: deletes an earlier broker's files in the data directory, picks free ports on
   * 127.0.0.1 (a third one for the {@code SASL_PLAINTEXT} listener when {@linkplain #saslUser SASL
   * users} were given), writes {@code server.properties}, formats the storage and runs the broker
   * in a child JVM, and waits until it accepts requests.
   *
   * @return the running broker
   * @throws IllegalStateException when the broker does not start within the start timeout or its
   *     JVM exits; the message holds the end of its log
   * @throws UncheckedIOException when the data directory cannot be written
   */
  public EmbeddedKafkaBroker start() {
    return EmbeddedKafkaBroker.start(
        new BrokerConfig(
            dataDir,
            overrides,
            saslUsers,
            defaultPartitions,
            maxHeapMegabytes,
            jvmArguments,
            startTimeout,
            stopTimeout,
            topicTimeout));
  }

  private static Duration positive(Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("a positive duration: " + timeout);
    }
    return timeout;
  }
}
