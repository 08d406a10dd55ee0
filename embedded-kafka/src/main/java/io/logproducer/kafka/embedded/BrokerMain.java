package io.logproducer.kafka.embedded;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The main class of the broker's child JVM, started by {@link EmbeddedKafkaBroker}: formats the
 * storage when asked, then runs the broker ({@code kafka.Kafka}, the entry point of {@code
 * kafka-server-start.sh}) until the JVM exits.
 *
 * <p>Usage: {@code BrokerMain [--format CLUSTER_ID [--scram-file FILE]] SERVER_PROPERTIES}. {@code
 * --format} runs Kafka's storage tool ({@code format -t CLUSTER_ID -c SERVER_PROPERTIES
 * --ignore-formatted}) in this JVM first, which saves starting one more JVM. {@code --scram-file}
 * names a file of SCRAM credentials, one {@code --add-scram} argument of the storage tool a line
 * ({@code SCRAM-SHA-256=[name=alice,password=...]}), which this JVM deletes once it read it.
 *
 * <p>Standard input is the parent's lifeline. A line {@value #STOP_COMMAND} asks for a graceful
 * shutdown (the JVM exits and Kafka's shutdown hook stops the broker, as on SIGTERM; this works on
 * every platform). End of input means that the parent is gone or gave up on us: the JVM halts at
 * once, without shutdown hooks, so that a broker never outlives the test run or application that
 * started it. Do not start it with standard input closed or redirected from an empty file.
 *
 * <p>Logging: SLF4J (slf4j-simple on the class path that {@link EmbeddedKafkaBroker} builds) is set
 * to write INFO and above to standard error, which the parent sends to {@code broker.log}; any
 * {@code org.slf4j.simpleLogger.*} system property given on the command line wins.
 */
public final class BrokerMain {

  /** The line on standard input that asks for a graceful shutdown. */
  public static final String STOP_COMMAND = "stop";

  /** The exit status after a failed storage format. */
  static final int FORMAT_FAILED = 3;

  private BrokerMain() {}

  /**
   * Runs the broker.
   *
   * @param args {@code [--format CLUSTER_ID] SERVER_PROPERTIES}
   * @throws Exception when the storage tool fails unexpectedly (the broker itself handles its own
   *     failures: it logs them and exits with status 1)
   */
  public static void main(String[] args) throws Exception {
    List<String> rest = new ArrayList<>(List.of(args));
    String clusterId = null;
    String scramFile = null;
    if (rest.size() >= 2 && rest.get(0).equals("--format")) {
      clusterId = rest.get(1);
      rest = rest.subList(2, rest.size());
      if (rest.size() >= 2 && rest.get(0).equals("--scram-file")) {
        scramFile = rest.get(1);
        rest = rest.subList(2, rest.size());
      }
    }
    if (rest.size() != 1) {
      System.err.println(
          "usage: BrokerMain [--format CLUSTER_ID [--scram-file FILE]] SERVER_PROPERTIES");
      System.exit(2);
    }
    String serverProperties = rest.get(0);
    configureLogging();
    startWatchdog();
    if (clusterId != null) {
      // The static quorum (controller.quorum.voters) is in the properties: no --standalone.
      List<String> format =
          new ArrayList<>(
              List.of(
                  "format",
                  "--cluster-id",
                  clusterId,
                  "--config",
                  serverProperties,
                  "--ignore-formatted"));
      if (scramFile != null) {
        Path file = Paths.get(scramFile);
        for (String credential : Files.readAllLines(file, StandardCharsets.UTF_8)) {
          if (!credential.isEmpty()) {
            format.add("--add-scram");
            format.add(credential);
          }
        }
        Files.delete(file);
      }
      int status = kafka.tools.StorageTool.execute(format.toArray(new String[0]), System.err);
      if (status != 0) {
        System.err.println("BrokerMain: the storage format failed with status " + status);
        System.exit(FORMAT_FAILED);
      }
    }
    // Blocks until the broker shuts down, then exits the JVM.
    kafka.Kafka.main(new String[] {serverProperties});
  }

  private static void configureLogging() {
    setDefault("org.slf4j.simpleLogger.logFile", "System.err");
    setDefault("org.slf4j.simpleLogger.defaultLogLevel", "info");
    setDefault("org.slf4j.simpleLogger.showDateTime", "true");
    setDefault("org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd HH:mm:ss.SSS");
    setDefault("org.slf4j.simpleLogger.showShortLogName", "true");
    // The configuration dumps of every client and server config: one INFO line each, hundreds of
    // lines long.
    setDefault("org.slf4j.simpleLogger.log.org.apache.kafka.common.config.AbstractConfig", "warn");
  }

  private static void setDefault(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }

  private static void startWatchdog() {
    Thread watchdog = new Thread(BrokerMain::watchStandardInput, "embedded-kafka-parent-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
  }

  private static void watchStandardInput() {
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.trim().equals(STOP_COMMAND)) {
          // System.exit blocks until the shutdown hooks are done: not on this thread, which must
          // still see the
          // end of input if the parent goes away in the meantime.
          Thread exit = new Thread(() -> System.exit(0), "embedded-kafka-stop");
          exit.start();
        }
      }
    } catch (IOException e) {
      // Treated as the end of input.
    }
    System.err.println("BrokerMain: standard input closed (the parent JVM is gone): halting");
    System.err.flush();
    Runtime.getRuntime().halt(1);
  }
}
