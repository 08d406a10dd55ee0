package io.logproducer.kafka.embedded;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the broker's child JVM: {@code <java.home>/bin/java} (or that of {@value
 * #JAVA_HOME_PROPERTY}, see {@link #java()}) with a small heap and the serial collector runs {@link
 * BrokerMain} on the {@linkplain BrokerClassPath broker's class path}, in the data directory, its
 * output appended to the {@linkplain BrokerLog log}. The parent holds the child's standard input
 * open (the lifeline): {@link BrokerMain#STOP_COMMAND} on it asks for a graceful shutdown, and its
 * end (the parent died) halts the child.
 *
 * <p>{@link #isAlive()}, {@link #handle()} and {@link #kill()} may be called from any thread (the
 * shutdown hook); {@link #stop(Duration)} by one thread at a time (the broker's lifecycle lock).
 */
final class BrokerProcess {

  private static final Logger log = LoggerFactory.getLogger(BrokerProcess.class);
  private static final long KILL_WAIT_SECONDS = 10;

  private final Process child;

  /** The child's standard input; closed by {@link #stop} and {@link #abandon}. */
  private final OutputStream lifeline;

  private BrokerProcess(Process child) {
    this.child = child;
    this.lifeline = child.getOutputStream();
  }

  /**
   * Starts the broker's JVM. It returns at once: the broker is not ready yet.
   *
   * @param config the settings (heap, JVM options, data directory, {@code server.properties},
   *     already written)
   * @param format true for a new cluster: the child formats the storage with a new random cluster
   *     id first (and the SCRAM credentials of the SASL users, passed in a file rather than on the
   *     command line, which other users of the machine can read)
   * @return the running child
   * @throws UncheckedIOException when the JVM cannot be started
   */
  static BrokerProcess start(BrokerConfig config, boolean format) {
    List<String> command = new ArrayList<>();
    command.add(java());
    command.add("-Xms32m");
    command.add("-Xmx" + config.maxHeapMegabytes + "m");
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:-UsePerfData");
    command.add("-Djava.awt.headless=true");
    command.addAll(config.jvmArguments);
    command.add("-cp");
    command.add(BrokerClassPath.resolve());
    command.add(BrokerMain.class.getName());
    if (format) {
      command.add("--format");
      command.add(newClusterId());
      if (config.writeScramFile() != null) {
        command.add("--scram-file");
        command.add(config.scramFile().toString());
      }
    }
    command.add(config.propertiesFile().toString());

    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(config.dataDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(config.logFile().toFile()));
    // Options for the caller's JVM (agents, heap) are not meant for the broker's.
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    builder.environment().remove("JDK_JAVA_OPTIONS");
    try {
      return new BrokerProcess(builder.start());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot start the broker's JVM: " + command.get(0), e);
    }
  }

  /**
   * The system property naming the Java home the broker's JVM runs on instead of {@code java.home}:
   * the Kafka 4.x broker needs Java 17+, while the caller (a client under test) may run on Java 11.
   */
  static final String JAVA_HOME_PROPERTY = "logproducer.kafka.broker.java.home";

  /**
   * {@return the broker JVM's {@code bin/java}: that of {@value #JAVA_HOME_PROPERTY} when it is
   * set, else this JVM's}
   *
   * @throws IllegalStateException when the property is not set and this JVM is older than Java 17
   */
  static String java() {
    String home = System.getProperty(JAVA_HOME_PROPERTY, "").trim();
    if (home.isEmpty()) {
      if (Runtime.version().feature() < 17) {
        throw new IllegalStateException(
            "The embedded Kafka broker needs Java 17 or later and this JVM is Java "
                + Runtime.version().feature()
                + ": set the system property "
                + JAVA_HOME_PROPERTY
                + " to the home of a Java 17+ runtime");
      }
      home = System.getProperty("java.home");
    }
    return Paths.get(home, "bin", "java").toString();
  }

  /**
   * A random cluster id: 16 bytes in URL-safe Base64 (22 characters), not starting with '-' (an
   * option).
   */
  static String newClusterId() {
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

  /** {@return whether the child JVM is running} */
  boolean isAlive() {
    return child.isAlive();
  }

  /** {@return the child's exit status; only once it is no longer {@linkplain #isAlive() alive}} */
  int exitValue() {
    return child.exitValue();
  }

  /** {@return the child process} */
  ProcessHandle handle() {
    return child.toHandle();
  }

  /**
   * Asks the child to shut down gracefully (the stop command on its lifeline) and waits for it;
   * kills it when that takes longer than {@code timeout} or the caller is interrupted (the
   * interrupt status is then set again). Closes the lifeline in every case.
   *
   * @param timeout the longest graceful wait
   * @return true when the child exited by itself, false when it had to be killed
   */
  boolean stop(Duration timeout) {
    try {
      if (!child.isAlive()) {
        return true;
      }
      try {
        lifeline.write((BrokerMain.STOP_COMMAND + "\n").getBytes(StandardCharsets.UTF_8));
        lifeline.flush();
      } catch (IOException e) {
        // The child is exiting already.
      }
      if (child.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        return true;
      }
      kill();
      return false;
    } catch (InterruptedException e) {
      kill();
      Thread.currentThread().interrupt();
      return false;
    } finally {
      closeLifeline();
    }
  }

  /** Kills the child (SIGKILL) and waits up to 10 s for it to exit; the lifeline stays open. */
  void kill() {
    child.destroyForcibly();
    try {
      if (!child.waitFor(KILL_WAIT_SECONDS, TimeUnit.SECONDS)) {
        log.warn(
            "The embedded Kafka broker's JVM (pid {}) did not exit within {} s of being killed",
            child.pid(),
            KILL_WAIT_SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Sends the child a POSIX signal through the shell's own {@code kill} (present wherever a shell
   * is; no {@code /bin/kill} needed).
   *
   * @param name the signal's name without {@code SIG}, for example {@code STOP} or {@code CONT}
   * @throws IllegalStateException when the shell cannot run or {@code kill} fails, or the caller is
   *     interrupted
   */
  void signal(String name) {
    String command = "kill -" + name + " " + child.pid();
    try {
      Process kill =
          new ProcessBuilder("sh", "-c", command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!kill.waitFor(KILL_WAIT_SECONDS, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        kill.destroyForcibly();
        throw new IllegalStateException(
            "'"
                + command
                + "' failed"
                + (kill.isAlive() ? " to finish" : " with status " + kill.exitValue()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot run '" + command + "' in sh", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while running '" + command + "'", e);
    }
  }

  /** After a failed start: kills the child and closes its lifeline. */
  void abandon() {
    kill();
    closeLifeline();
  }

  private void closeLifeline() {
    try {
      lifeline.close();
    } catch (IOException e) {
      // The child is gone.
    }
  }
}
