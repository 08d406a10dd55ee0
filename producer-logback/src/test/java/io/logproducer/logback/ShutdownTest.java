package io.logproducer.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.logproducer.testing.otlp.OtlpReceiver;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A real JVM exit with events still buffered (lingerMillis 60 s): a child JVM logs and returns from
 * main. With logback's {@code <shutdownHook/>} logback's hook stops the appender; without it the
 * appender's own exit hook does. Either way one owner closes the producer: every event arrives at
 * the receiver in this JVM, and nothing is printed at WARN or above (neither the producer's "was
 * not closed before the JVM exits" nor any logback status warning).
 */
class ShutdownTest {

  static final int EVENTS = 2_000;

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"exit-hook.xml", "exit-nohook.xml"})
  void oneOwnerClosesTheProducerAtExitWithoutAWarning(String config) throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      File out = dir.resolve("child.log").toFile();
      Process child =
          new ProcessBuilder(
                  System.getProperty("java.home")
                      + File.separator
                      + "bin"
                      + File.separator
                      + "java",
                  "-cp",
                  System.getProperty("java.class.path"),
                  "-Dlogback.configurationFile=" + config,
                  "-Dexit.otlp.endpoint=" + server.endpoint(),
                  ExitMain.class.getName(),
                  Integer.toString(EVENTS))
              .redirectErrorStream(true)
              .redirectOutput(out)
              .start();
      if (!child.waitFor(60, TimeUnit.SECONDS)) {
        child.destroyForcibly();
        throw new AssertionError("the child JVM did not exit within 60 s");
      }
      List<String> lines = Files.readAllLines(out.toPath(), StandardCharsets.UTF_8);
      List<String> warnings = new ArrayList<>();
      for (String line : lines) {
        if (line.contains("WARN") || line.contains("ERROR") || line.contains("was not closed")) {
          warnings.add(line);
        }
      }
      System.out.println("ShutdownTest " + config + ": child output:\n" + String.join("\n", lines));
      assertEquals(0, child.exitValue(), () -> String.join("\n", lines));
      assertEquals(List.of(), warnings, "warnings at exit");
      assertEquals(
          IntStream.range(0, EVENTS).mapToObj(i -> "exit " + i).collect(Collectors.toList()),
          server.deliveredBodies(),
          "every event delivered once, in order");
    }
  }
}
