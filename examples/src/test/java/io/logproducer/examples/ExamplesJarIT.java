package io.logproducer.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shaded examples jar run as users run it, {@code java -jar} on this JDK (failsafe, in {@code
 * verify}, after {@code package}): every sub-command delivers a small workload to its embedded
 * receiver, and {@code kafka} starts its broker from the jar itself (the jar holds Kafka 4.3.1 and
 * no {@code broker.classpath} naming the build machine's Maven repository).
 */
@Timeout(180)
class ExamplesJarIT {

  private static final String ALL_DELIVERED =
      "delivered=20000 failed=0 spooled=0 refused=0 not_sent=0 ";

  private static Path jar() {
    Path jar = Path.of(System.getProperty("examples.jar", "target/logproducer-examples.jar"));
    assertTrue(Files.isRegularFile(jar), "no " + jar.toAbsolutePath() + " (run after package)");
    return jar;
  }

  /**
   * Runs {@code java -jar <the jar> args} with a small heap, at most 150 s; returns its stdout and
   * stderr.
   */
  private static String runJar(String... args) throws Exception {
    Path output = Files.createTempFile("examples-jar-it", ".log");
    try {
      List<String> command =
          new ArrayList<>(
              List.of(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Xmx512m",
                  "-XX:+UseSerialGC",
                  "-jar",
                  jar().toAbsolutePath().toString()));
      command.addAll(List.of(args));
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
      builder.environment().remove("JAVA_TOOL_OPTIONS");
      Process p = builder.start();
      boolean ended = p.waitFor(150, TimeUnit.SECONDS);
      if (!ended) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      String text = Files.readString(output, StandardCharsets.UTF_8);
      assertTrue(ended, "still running after 150 s: " + command + "\n" + text);
      assertEquals(0, p.exitValue(), command + "\n" + text);
      return text;
    } finally {
      Files.deleteIfExists(output);
    }
  }

  private static String lastLine(String text) {
    List<String> lines = text.lines().toList();
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
  }

  @Test
  void kafkaRunsTheEmbeddedBrokerFromTheJarAndCountsEveryRecordBack() throws Exception {
    try (JarFile j = new JarFile(jar().toFile())) {
      assertNull(
          j.getEntry("io/logproducer/kafka/embedded/broker.classpath"),
          "broker.classpath is left out");
      assertTrue(j.getEntry("kafka/Kafka.class") != null, "the jar holds the broker");
    }
    String text = runJar("kafka", "--records", "20000", "--quiet");
    assertTrue(lastLine(text).startsWith(ALL_DELIVERED), text);
    assertTrue(text.contains(" with kafka-clients 4.3.1 "), text);
    assertTrue(text.contains("read back topic otlp_logs (3 partitions): 20,000 records in "), text);
    assertFalse(
        text.contains("INFO org.apache.kafka"),
        "the Kafka clients' INFO lines are silenced:\n" + text);
    assertFalse(text.contains("SLF4J("), "SLF4J finds one provider, slf4j-simple:\n" + text);
  }

  @ParameterizedTest
  @ValueSource(strings = {"otlp", "gse", "logback", "log4j2"})
  void theOtherSubCommandsStillDeliverEveryRecord(String command) throws Exception {
    String text = runJar(command, "--records", "20000", "--quiet");
    assertTrue(lastLine(text).startsWith(ALL_DELIVERED), text);
    assertFalse(text.contains("SLF4J("), "SLF4J finds one provider, slf4j-simple:\n" + text);
  }
}
