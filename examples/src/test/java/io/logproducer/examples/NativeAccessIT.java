package io.logproducer.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The shaded examples jar (run by failsafe in {@code verify}, after {@code package}): its manifest
 * enables native access, so that on JDK 24+ {@code java -jar} prints no "restricted method" warning
 * when zstd-jni or lz4-java load their JNI libraries. The warning check needs a JDK 24+: {@code
 * -Dit.jdk24.home=...}, this JVM if it is one, or the newest in {@code /usr/lib/jvm}; without one
 * it is skipped with a line on stderr.
 */
class NativeAccessIT {

  private static final Pattern JAVA_VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)");

  private static Path jar() {
    Path jar = Path.of(System.getProperty("examples.jar", "target/logproducer-examples.jar"));
    assertTrue(Files.isRegularFile(jar), "no " + jar.toAbsolutePath() + " (run after package)");
    return jar;
  }

  @Test
  void manifestEnablesNativeAccessAndNamesTheMainClass() throws IOException {
    try (JarFile jar = new JarFile(jar().toFile())) {
      Attributes main = jar.getManifest().getMainAttributes();
      assertEquals("ALL-UNNAMED", main.getValue("Enable-Native-Access"));
      assertEquals(Main.class.getName(), main.getValue(Attributes.Name.MAIN_CLASS));
    }
  }

  @Test
  void jdk24PrintsNoNativeAccessWarningForZstdOrLz4() throws Exception {
    Optional<Path> jdk = jdk24();
    if (jdk.isEmpty()) {
      System.err.println("NativeAccessIT: no JDK 24+ found, skipping the warning check");
      Assumptions.abort("no JDK 24+ found (set -Dit.jdk24.home=...)");
    }
    for (String compression : List.of("zstd", "lz4")) {
      String text =
          runJar(jdk.get(), "--records", "20000", "--compression", compression, "--quiet");
      assertTrue(
          text.lines().noneMatch(l -> l.contains("WARNING: A restricted method")),
          compression + ":\n" + text);
      assertTrue(
          text.lines()
              .anyMatch(
                  l -> l.startsWith("delivered=20000 failed=0 spooled=0 refused=0 not_sent=0 ")),
          compression + ":\n" + text);
    }
  }

  /**
   * Runs {@code java -jar <the jar> args} on {@code jdk}, at most 60 s; returns its stdout and
   * stderr.
   */
  private static String runJar(Path jdk, String... args) throws Exception {
    Path output = Files.createTempFile("native-access-it", ".log");
    try {
      List<String> command =
          new ArrayList<>(
              List.of(
                  jdk.resolve("bin").resolve("java").toString(),
                  "-jar",
                  jar().toAbsolutePath().toString()));
      command.addAll(List.of(args));
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      boolean ended = p.waitFor(60, TimeUnit.SECONDS);
      if (!ended) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      String text = Files.readString(output, StandardCharsets.UTF_8);
      assertTrue(ended, "still running after 60 s: " + command + "\n" + text);
      assertEquals(0, p.exitValue(), command + "\n" + text);
      return text;
    } finally {
      Files.deleteIfExists(output);
    }
  }

  /** A JDK whose feature version is 24 or more, if one is known. */
  private static Optional<Path> jdk24() throws IOException {
    String given = System.getProperty("it.jdk24.home", "").trim();
    if (!given.isEmpty()) {
      Path home = Path.of(given);
      assertTrue(featureVersion(home) >= 24, "it.jdk24.home=" + given + " is not a JDK 24+");
      return Optional.of(home);
    }
    if (Runtime.version().feature() >= 24) {
      return Optional.of(Path.of(System.getProperty("java.home")));
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (!Files.isDirectory(jvms)) {
      return Optional.empty();
    }
    List<Path> candidates = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(jvms)) {
      dirs.filter(d -> Files.isExecutable(d.resolve("bin").resolve("java")))
          .forEach(candidates::add);
    }
    return candidates.stream()
        .filter(d -> featureVersion(d) >= 24)
        .max(Comparator.comparingInt(NativeAccessIT::featureVersion).thenComparing(Path::toString));
  }

  /** The feature version in {@code home/release}, or 0 when it cannot be read. */
  private static int featureVersion(Path home) {
    try {
      Matcher m =
          JAVA_VERSION.matcher(Files.readString(home.resolve("release"), StandardCharsets.UTF_8));
      return m.find() ? Integer.parseInt(m.group(1)) : 0;
    } catch (IOException e) {
      return 0;
    }
  }
}
