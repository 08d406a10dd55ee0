package io.logproducer.testing.appender;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.logproducer.testing.ChildJvm;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The JVM-exit check both appenders pass: a child JVM ({@code main}) logs {@code events} events
 * with bodies {@code "exit 0"} … {@code "exit N-1"} to an appender whose batches linger longer than
 * the child lives, then returns from main; whoever owns the appender's producer at exit (the
 * framework's shutdown hook or the appender's own) closes it once. Asserts that the child exits 0,
 * prints nothing at WARN or above (nor "was not closed"), and that the receiver got every event
 * once, in order. The child reads the receiver's endpoint from the system property {@code
 * exit.otlp.endpoint} and the event count from its first argument. Bounded at 60 s.
 */
public final class ExitCheck {

  private ExitCheck() {}

  /**
   * Runs the check.
   *
   * @param main the child's main class
   * @param events how many events the child logs
   * @param configOption the JVM option naming the framework's configuration, e.g. {@code
   *     -Dlogback.configurationFile=exit-hook.xml}
   * @throws Exception if the child cannot be started or waited for
   * @throws AssertionError if an expectation above does not hold
   */
  public static void assertEveryEventDeliveredOnceAtExit(
      Class<?> main, int events, String configOption) throws Exception {
    try (OtlpReceiver server = OtlpReceiver.start()) {
      ChildJvm.Result child =
          ChildJvm.builder(main)
              .jvmOptions(configOption, "-Dexit.otlp.endpoint=" + server.endpoint())
              .args(Integer.toString(events))
              .run(60);
      List<String> lines = Arrays.asList(child.output().split("\n"));
      List<String> warnings = new ArrayList<>();
      for (String line : lines) {
        if (line.contains("WARN") || line.contains("ERROR") || line.contains("was not closed")) {
          warnings.add(line);
        }
      }
      System.out.println(
          "exit check " + configOption + ": child output:\n" + String.join("\n", lines));
      assertEquals(0, child.exitCode(), () -> String.join("\n", lines));
      assertEquals(new ArrayList<String>(), warnings, "warnings at exit");
      assertEquals(
          IntStream.range(0, events).mapToObj(i -> "exit " + i).collect(Collectors.toList()),
          server.deliveredBodies(),
          "every event delivered once, in order");
    }
  }
}
