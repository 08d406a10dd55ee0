package io.logproducer.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.logproducer.testing.ChildJvm;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A real JVM exit with events still buffered (lingerMillis 60 s): a child JVM logs and returns from
 * main, and log4j2's own shutdown hook (on by default) stops the LoggerContext. One owner closes
 * the producer: every event arrives at the receiver in this JVM, and nothing is printed at WARN or
 * above (neither the producer's "was not closed before the JVM exits", which its own hook printed
 * when it raced log4j2's, nor any log4j2 status warning).
 */
class ShutdownTest {

  static final int EVENTS = 2_000;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"exit.xml"})
  void oneOwnerClosesTheProducerAtExitWithoutAWarning(String config) throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      ChildJvm.Result child =
          ChildJvm.builder(ExitMain.class)
              .jvmOptions(
                  "-Dlog4j2.configurationFile=" + config,
                  "-Dexit.otlp.endpoint=" + server.endpoint())
              .args(Integer.toString(EVENTS))
              .run(60);
      List<String> lines = Arrays.asList(child.output().split("\n"));
      List<String> warnings = new ArrayList<>();
      for (String line : lines) {
        if (line.contains("WARN") || line.contains("ERROR") || line.contains("was not closed")) {
          warnings.add(line);
        }
      }
      System.out.println("ShutdownTest " + config + ": child output:\n" + String.join("\n", lines));
      assertEquals(0, child.exitCode(), () -> String.join("\n", lines));
      assertEquals(List.of(), warnings, "warnings at exit");
      assertEquals(
          IntStream.range(0, EVENTS).mapToObj(i -> "exit " + i).collect(Collectors.toList()),
          server.deliveredBodies(),
          "every event delivered once, in order");
    }
  }
}
