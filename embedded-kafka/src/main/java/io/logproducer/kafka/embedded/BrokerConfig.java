package io.logproducer.kafka.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a {@link EmbeddedKafkaBrokerBuilder} set, and the files it means in the data directory: the
 * broker's {@code server.properties} (this class's settings for a fast, quiet single node, then the
 * user's overrides), its {@code kafka-logs/}, {@code scram-credentials} (SASL users only, until the
 * storage is formatted) and {@code broker.log}. Immutable, apart from the files it writes and
 * deletes.
 */
final class BrokerConfig {

  static final String PROPERTIES_FILE = "server.properties";
  static final String LOG_DIRS = "kafka-logs";

  /**
   * The SCRAM credentials for the storage format, one {@code --add-scram} argument a line; written
   * before a first start, deleted by the child once it formatted.
   */
  static final String SCRAM_FILE = "scram-credentials";

  /** The name of the SASL client listener (and its security protocol). */
  static final String SASL_LISTENER = "SASL_PLAINTEXT";

  /** The SASL mechanisms the SASL listener accepts. */
  static final List<String> SASL_MECHANISMS =
      Collections.unmodifiableList(Arrays.asList("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"));

  private static final Pattern SASL_TOKEN = Pattern.compile("[A-Za-z0-9._@+~-]+");
  private static final int NODE_ID = 1;

  final Path dataDir;
  final int maxHeapMegabytes;
  final List<String> jvmArguments;
  final Duration startTimeout;
  final Duration stopTimeout;
  final Duration topicTimeout;
  private final Map<String, String> overrides;
  private final Map<String, String> saslUsers;
  private final int defaultPartitions;

  BrokerConfig(
      Path dataDir,
      Map<String, String> overrides,
      Map<String, String> saslUsers,
      int defaultPartitions,
      int maxHeapMegabytes,
      List<String> jvmArguments,
      Duration startTimeout,
      Duration stopTimeout,
      Duration topicTimeout) {
    this.dataDir = dataDir.toAbsolutePath().normalize();
    this.overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
    this.saslUsers = Collections.unmodifiableMap(new LinkedHashMap<>(saslUsers));
    this.defaultPartitions = defaultPartitions;
    this.maxHeapMegabytes = maxHeapMegabytes;
    this.jvmArguments = Collections.unmodifiableList(new ArrayList<>(jvmArguments));
    this.startTimeout = startTimeout;
    this.stopTimeout = stopTimeout;
    this.topicTimeout = topicTimeout;
  }

  /** {@return {@code server.properties} in the data directory} */
  Path propertiesFile() {
    return dataDir.resolve(PROPERTIES_FILE);
  }

  /**
   * {@return whether the broker has the {@code SASL_PLAINTEXT} listener (a SASL user was given)}
   */
  boolean sasl() {
    return !saslUsers.isEmpty();
  }

  /**
   * Whether {@code s} is 1 to {@code max} of the characters the JAAS and SCRAM argument syntaxes
   * take without quoting.
   */
  static boolean isSaslToken(String s, int max) {
    return s.length() <= max && SASL_TOKEN.matcher(s).matches();
  }

  /** {@return the SCRAM credentials file in the data directory} */
  Path scramFile() {
    return dataDir.resolve(SCRAM_FILE);
  }

  /**
   * The storage tool's {@code --add-scram} arguments: each user with each SCRAM mechanism.
   *
   * @return {@code SCRAM-SHA-256=[name=alice,password=...]} and so on; empty without SASL users
   */
  List<String> scramArguments() {
    List<String> out = new ArrayList<>();
    for (String mechanism : SASL_MECHANISMS) {
      if (!mechanism.startsWith("SCRAM-")) {
        continue;
      }
      for (Map.Entry<String, String> u : saslUsers.entrySet()) {
        out.add(mechanism + "=[name=" + u.getKey() + ",password=" + u.getValue() + "]");
      }
    }
    return out;
  }

  /**
   * Writes {@link #scramArguments()} to {@link #scramFile()}, one a line (none without SASL users).
   *
   * @return the file, or null when there are no SASL users
   * @throws UncheckedIOException when the file cannot be written
   */
  Path writeScramFile() {
    if (!sasl()) {
      return null;
    }
    try {
      Files.createDirectories(dataDir);
      return Files.write(scramFile(), scramArguments(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + scramFile(), e);
    }
  }

  /** {@return {@code broker.log} in the data directory} */
  Path logFile() {
    return dataDir.resolve(EmbeddedKafkaBroker.LOG_FILE);
  }

  /**
   * Creates the data directory if needed and deletes what an earlier broker left there: only the
   * files this module writes ({@code server.properties}, {@code kafka-logs/}, {@code
   * scram-credentials}, {@code broker.log}).
   *
   * @throws UncheckedIOException when the directory cannot be created or cleared
   */
  void clearDataDir() {
    try {
      Files.createDirectories(dataDir);
      deleteRecursively(dataDir.resolve(LOG_DIRS));
      Files.deleteIfExists(propertiesFile());
      Files.deleteIfExists(scramFile());
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

  /**
   * Writes {@code server.properties} for the given ports (ISO 8859-1, escaped as {@link
   * java.util.Properties} reads it).
   *
   * @param ports the listeners' ports
   * @throws UncheckedIOException when the file cannot be written
   */
  void writeServerProperties(Ports ports) {
    StringBuilder text =
        new StringBuilder("# Written by io.logproducer.kafka.embedded.EmbeddedKafkaBroker\n");
    for (Map.Entry<String, String> e : serverProperties(ports).entrySet()) {
      text.append(escape(e.getKey(), true))
          .append('=')
          .append(escape(e.getValue(), false))
          .append('\n');
    }
    try {
      Files.createDirectories(dataDir);
      Files.write(propertiesFile(), text.toString().getBytes(StandardCharsets.ISO_8859_1));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + propertiesFile(), e);
    }
  }

  /**
   * The broker's properties: KRaft combined mode on 127.0.0.1, replication factors of 1, few
   * threads and small buffers, a 0.5 s heartbeat, no topic auto-creation, the SASL listener when
   * there are SASL users; then the overrides.
   */
  Map<String, String> serverProperties(Ports ports) {
    String host = Ports.HOST;
    Map<String, String> props = new LinkedHashMap<>();
    props.put("process.roles", "broker,controller");
    props.put("node.id", Integer.toString(NODE_ID));
    props.put("controller.quorum.voters", NODE_ID + "@" + host + ":" + ports.controller);
    String listeners = "PLAINTEXT://" + host + ":" + ports.broker;
    String advertised = listeners;
    String protocols = "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT";
    if (sasl()) {
      String saslListener = SASL_LISTENER + "://" + host + ":" + ports.sasl;
      listeners += "," + saslListener;
      advertised += "," + saslListener;
      protocols += "," + SASL_LISTENER + ":" + SASL_LISTENER;
    }
    props.put("listeners", listeners + ",CONTROLLER://" + host + ":" + ports.controller);
    props.put("advertised.listeners", advertised);
    props.put("listener.security.protocol.map", protocols);
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
    if (sasl()) {
      putSasl(props);
    }
    props.putAll(overrides);
    return props;
  }

  /**
   * The SASL listener's mechanisms and their server-side JAAS configurations: PLAIN with every
   * user's password, SCRAM with the credentials the storage format added.
   */
  private void putSasl(Map<String, String> props) {
    String prefix = "listener.name." + SASL_LISTENER.toLowerCase(Locale.ROOT) + ".";
    props.put("sasl.enabled.mechanisms", String.join(",", SASL_MECHANISMS));
    props.put(prefix + "sasl.enabled.mechanisms", String.join(",", SASL_MECHANISMS));
    StringBuilder plain =
        new StringBuilder("org.apache.kafka.common.security.plain.PlainLoginModule required");
    for (Map.Entry<String, String> u : saslUsers.entrySet()) {
      plain.append(" user_").append(u.getKey()).append("=\"").append(u.getValue()).append('"');
    }
    props.put(prefix + "plain.sasl.jaas.config", plain.append(';').toString());
    for (String mechanism : SASL_MECHANISMS) {
      if (mechanism.startsWith("SCRAM-")) {
        props.put(
            prefix + mechanism.toLowerCase(Locale.ROOT) + ".sasl.jaas.config",
            "org.apache.kafka.common.security.scram.ScramLoginModule required;");
      }
    }
  }

  /**
   * Escapes a key or value for a properties file (backslashes first; ISO 8859-1 with Unicode
   * escapes).
   */
  static String escape(String s, boolean key) {
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\'
          || c == '#'
          || c == '!'
          || c == '='
          || c == ':'
          || (c == ' ' && (key || i == 0))) {
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
}
