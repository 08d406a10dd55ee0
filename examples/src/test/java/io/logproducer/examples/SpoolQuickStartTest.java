package io.logproducer.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.otlp.OtlpReceiver;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The quick start with {@code --spool-dir}, as a user watches it work: against a receiver that
 * refuses connections every record ends SPOOLED (the final line accounts for them), a drain while
 * it still refuses gives up at {@code --drain-timeout-ms}, and {@code --records 0} against the
 * receiver once it is up delivers exactly those records and empties the spool.
 */
@Timeout(120)
class SpoolQuickStartTest {

  private static final Pattern SUMMARY =
      Pattern.compile(
          "delivered=(\\d+) failed=(\\d+) spooled=(\\d+) refused=(\\d+) not_sent=(\\d+) "
              + "records_per_sec=\\d+ raw_mb_per_sec=[\\d.]+ wire_mb_per_sec=[\\d.]+");

  private static final int RECORDS = 3000;

  @TempDir Path dir;

  private record Run(int code, String out, String err) {
    String lastLine() {
      List<String> lines = out.lines().toList();
      return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    String all() {
      return out + "\n---- stderr:\n" + err;
    }
  }

  private static Run run(List<String> args) throws Exception {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
      code = Main.run(args.toArray(new String[0]));
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return new Run(
        code, outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8));
  }

  private List<String> args(OtlpReceiver receiver, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "otlp",
                "--endpoint",
                receiver.endpoint(),
                "--spool-dir",
                dir.toString(),
                "--spool-segment-bytes",
                "2097152", // holds a whole request of the default 1 MiB batches
                "--spool-max-bytes",
                "16777216",
                "--quiet"));
    args.addAll(Arrays.asList(more));
    return args;
  }

  @Test
  void recordsSpooledWhileTheReceiverIsDownAreDrainedExactlyOnceItIsUp() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      receiver.refuse();
      Run outage =
          run(
              args(
                  receiver,
                  "--records",
                  Integer.toString(RECORDS),
                  "--threads",
                  "2",
                  "--delivery-timeout-ms",
                  "1500",
                  "--request-timeout-ms",
                  "500",
                  "--linger-ms",
                  "100"));
      assertEquals(1, outage.code, outage.all());
      Matcher m = SUMMARY.matcher(outage.lastLine());
      assertTrue(m.matches(), outage.all());
      assertEquals(0, Long.parseLong(m.group(1)), outage.all());
      assertEquals(0, Long.parseLong(m.group(2)), outage.all());
      assertEquals(RECORDS, Long.parseLong(m.group(3)), "spooled: " + outage.all());
      assertEquals(0, Long.parseLong(m.group(4)) + Long.parseLong(m.group(5)), outage.all());
      assertTrue(
          outage.err.contains("are stored in the spool (spooled=" + RECORDS + ")"), outage.all());

      Run stillDown = run(args(receiver, "--records", "0", "--drain-timeout-ms", "1000"));
      assertEquals(1, stillDown.code, stillDown.all());
      assertTrue(
          stillDown.lastLine().startsWith("drained=0 refused=0 expired=0 dropped=0 "),
          stillDown.all());
      assertTrue(!stillDown.lastLine().endsWith(" left_batches=0"), stillDown.all());
      assertTrue(
          stillDown.err.contains("error: spool " + dir + " did not drain to "), stillDown.all());
      assertTrue(
          stillDown.err.contains("; last failure: ")
              && stillDown.err.contains("spool replay of batch #"),
          "the cause replay reported: " + stillDown.all());

      receiver.resume();
      Run drain = run(args(receiver, "--records", "0"));
      assertEquals(0, drain.code, drain.all());
      assertEquals(
          "drained=" + RECORDS + " refused=0 expired=0 dropped=0 corrupt_batches=0 left_batches=0",
          drain.lastLine(),
          drain.all());
      assertEquals(RECORDS, receiver.acceptedRecords(), drain.all());
      assertEquals(0, receiver.invalidRequestCount(), receiver.invalidRequests().toString());

      Run again = run(args(receiver, "--records", "0"));
      assertEquals(0, again.code, again.all());
      assertEquals(
          "drained=0 refused=0 expired=0 dropped=0 corrupt_batches=0 left_batches=0",
          again.lastLine(),
          again.all());
      assertEquals(RECORDS, receiver.acceptedRecords(), "nothing delivered twice");
    }
  }

  @Test
  void drainingNeedsAnEndpoint() throws Exception {
    Run run = run(List.of("otlp", "--records", "0", "--spool-dir", dir.toString()));
    assertEquals(2, run.code, run.all());
    assertTrue(
        run.err.startsWith(
            "error: --records 0 drains the --spool-dir spool to --endpoint URL: give --endpoint"),
        run.all());
  }
}
