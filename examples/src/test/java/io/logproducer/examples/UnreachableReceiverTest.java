package io.logproducer.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CLI against a receiver that is not there (a closed port on 127.0.0.1): it ends promptly,
 * accounts for every record in its final line, exits non-zero, and says in one sentence why nothing
 * was delivered.
 */
class UnreachableReceiverTest {

  private static final Pattern SUMMARY =
      Pattern.compile(
          "delivered=(\\d+) failed=(\\d+) spooled=0 refused=(\\d+) "
              + "not_sent=(\\d+) records_per_sec=0 raw_mb_per_sec=0\\.0 wire_mb_per_sec=0\\.0");

  @ParameterizedTest
  @ValueSource(strings = {"otlp", "gse"})
  @Timeout(60)
  void nothingDeliveredIsAccountedForAndExplainedInOneSentence(String command) throws Exception {
    int port = closedPort();
    String destination =
        command.equals("otlp")
            ? "http://127.0.0.1:" + port + "/v1/logs"
            : "the GSE agent at tcp:127.0.0.1:" + port;
    List<String> args =
        List.of(
            command,
            command.equals("otlp") ? "--endpoint" : "--tcp",
            command.equals("otlp") ? "http://127.0.0.1:" + port : "127.0.0.1:" + port,
            "--records",
            "20000",
            "--threads",
            "2",
            "--delivery-timeout-ms",
            "1500",
            "--request-timeout-ms",
            "500",
            "--linger-ms",
            "100",
            "--max-block-ms",
            "500",
            "--total-size-bytes",
            "1048576",
            "--quiet");

    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    int code;
    long start = System.nanoTime();
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      code = Main.run(args.toArray(new String[0]));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    String stdout = outBytes.toString(StandardCharsets.UTF_8);
    String stderr = errBytes.toString(StandardCharsets.UTF_8);
    String all = stdout + "\n---- stderr:\n" + stderr;

    // The run ends by the producer's own bounds (max-block 500 ms, deliveryTimeoutMillis 1,500):
    // the method's @Timeout catches one that does not; how long it took here proves nothing more.
    System.out.printf("the unreachable run took %.1f s%n", seconds);
    assertEquals(1, code, all);
    Matcher m = SUMMARY.matcher(stdout.trim());
    assertTrue(m.matches(), all);
    assertEquals(0, Long.parseLong(m.group(1)), all);
    long failed = Long.parseLong(m.group(2));
    long refused = Long.parseLong(m.group(3));
    long notSent = Long.parseLong(m.group(4));
    assertEquals(20000, failed + refused + notSent, all);
    assertTrue(failed > 0, "the records that fit in the buffer were accepted, then failed\n" + all);

    List<String> errors =
        Arrays.stream(stderr.split("\n")).filter(l -> l.startsWith("error: ")).toList();
    assertEquals(1, errors.size(), all);
    String prefix =
        "error: no record could be delivered to "
            + destination
            + " within deliveryTimeoutMillis=1500: ";
    assertTrue(errors.get(0).startsWith(prefix), all);
    assertTrue(errors.get(0).endsWith("Connection refused"), all);
  }

  /** A port on 127.0.0.1 that nothing listens on: bound, read, closed. */
  private static int closedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
