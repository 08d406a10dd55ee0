package io.logproducer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.ChildJvm;
import java.io.File;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An application without an SLF4J provider still sees why delivery fails: the producer's warnings
 * go to stderr (after one line naming what to add), the outcome's text names the cause, and so do
 * the metrics. With {@code -Dio.logproducer.stderrFallback=false} it is silent again.
 */
@Timeout(120)
class NoSlf4jProviderTest {

  /** This test JVM's class path without any SLF4J provider (slf4j-simple). */
  private static String classPathWithoutProvider() {
    String cp =
        Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
            .filter(e -> !e.contains("slf4j-simple"))
            .collect(Collectors.joining(File.pathSeparator));
    assertTrue(cp.contains("slf4j-api"), "the facade stays: " + cp);
    return cp;
  }

  /**
   * Runs {@link NoSlf4jProviderMain} without a provider and checks that it exits 0.
   *
   * @param options {@code -D} options for the child JVM; any other word is an argument of the main
   * @return its output
   */
  private static String runChild(String... options) throws Exception {
    ChildJvm.Builder child =
        ChildJvm.builder(NoSlf4jProviderMain.class).classPath(classPathWithoutProvider());
    for (String o : options) {
      if (o.startsWith("-D")) {
        child.jvmOptions(o);
      } else {
        child.args(o);
      }
    }
    ChildJvm.Result r = child.run(60);
    assertEquals(0, r.exitCode(), r.output());
    return r.output();
  }

  private static int count(String text, String needle) {
    return text.split(Pattern.quote(needle), -1).length - 1;
  }

  @Test
  void warningsGoToStderrWhenNoProviderIsBound() throws Exception {
    String out = runChild();
    assertEquals(
        1,
        count(
            out,
            "logproducer: no SLF4J provider found, so its warnings and errors are printed here."
                + " Add one (e.g. org.slf4j:slf4j-simple or ch.qos.logback:logback-classic) to route them to your logs, or"
                + " set -Dio.logproducer.stderrFallback=false to silence them."),
        out);
    // the first failed attempt is reported at once (later ones are rate-limited to one per 5 s)
    Matcher first =
        Pattern.compile(
                "\\S+Z WARN \\[silence-sender-\\d] io\\.logproducer\\.internal\\.Sender -"
                    + " failed to send 1 records \\(\\d+ bytes\\) to memory://in-memory: Connection refused, retry 1 in \\d+ ms")
            .matcher(out);
    assertTrue(first.find(), out);
    // and so is the final failure (an I/O cause is in the message: no stack trace): the send
    // thread's, when the next backoff would pass the deadline, or the linger timer's, when a busy
    // machine woke it for the retry after the deadline
    Matcher failed =
        Pattern.compile(
                "\\S+Z WARN \\[silence-(sender-\\d|linger)] io\\.logproducer\\.internal\\.(Sender|DeliveryDeadline) -"
                    + " failed to send 1 records \\(\\d+ bytes\\) to memory://in-memory: ("
                    + "Connection refused; next retry in \\d+ ms would pass deliveryTimeoutMillis"
                    + "|deliveryTimeoutMillis \\(1500 ms\\) expired while waiting to retry, after \\d+"
                    + " attempt\\(s\\); last error: Connection refused)\n")
            .matcher(out);
    assertTrue(failed.find(), out);
    assertEquals(0, count(out, "\tat "), "no stack traces for warnings: " + out);
    assertTrue(out.contains("outcome: SendResult{FAILED, attempts="), out);
    assertTrue(out.contains("Connection refused"), out);
    Matcher last =
        Pattern.compile(
                "lastError: \\S+Z memory://in-memory: (Connection refused;"
                    + " deliveryTimeoutMillis would expire before the next retry"
                    + "|deliveryTimeoutMillis \\(1500 ms\\) expired while waiting to retry, after \\d+"
                    + " attempt\\(s\\); last error: Connection refused)\n")
            .matcher(out);
    assertTrue(last.find(), out);
  }

  /**
   * A batch whose request never answers fails at its deadline on the linger timer: that failure is
   * logged, and is the last error, as the send thread's own are.
   */
  @Test
  void aDeadlinePassedInFlightIsLoggedAndIsTheLastError() throws Exception {
    String out = runChild("hang");
    String failure =
        "deliveryTimeoutMillis (1500 ms) expired while its request was in flight (attempt 1)";
    assertTrue(
        Pattern.compile(
                "\\S+Z WARN \\[silence-linger] io\\.logproducer\\.internal\\.DeliveryDeadline -"
                    + " failed to send 1 records \\(\\d+ bytes\\) to memory://in-memory: "
                    + Pattern.quote(failure)
                    + "\n")
            .matcher(out)
            .find(),
        out);
    assertEquals(1, count(out, " WARN "), out);
    assertTrue(
        out.contains("outcome: SendResult{FAILED, attempts=1, batchRecords=1, message=" + failure),
        out);
    assertTrue(
        Pattern.compile("lastError: \\S+Z memory://in-memory: " + Pattern.quote(failure) + "\n")
            .matcher(out)
            .find(),
        out);
  }

  @Test
  void theFallbackCanBeTurnedOff() throws Exception {
    String out = runChild("-Dio.logproducer.stderrFallback=false");
    assertEquals(0, count(out, "logproducer: no SLF4J provider found"), out);
    assertEquals(0, count(out, " WARN "), out);
    assertTrue(out.contains("outcome: SendResult{FAILED"), out);
  }
}
