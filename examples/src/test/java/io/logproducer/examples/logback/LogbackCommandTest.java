package io.logproducer.examples.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.examples.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class LogbackCommandTest {

  private static final Pattern SUMMARY =
      Pattern.compile(
          "delivered=(\\d+) failed=(\\d+) spooled=0 refused=(\\d+) not_sent=(\\d+) records_per_sec=(\\d+) "
              + "raw_mb_per_sec=([\\d.]+) wire_mb_per_sec=([\\d.]+)");

  private static int run(ByteArrayOutputStream captured, String... args) throws Exception {
    LogbackCommand command = Main.parse(new LogbackCommand(), args);
    PrintStream out = System.out;
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      return command.call();
    } finally {
      System.setOut(out);
    }
  }

  @Test
  void everyEventLoggedThroughLogbackReachesTheEmbeddedReceiver() throws Exception {
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int code =
        run(captured, "--records", "20000", "--threads", "4", "--linger-ms", "50", "--quiet");
    String text = captured.toString(StandardCharsets.UTF_8).trim();
    assertEquals(0, code, text);
    Matcher m = SUMMARY.matcher(text);
    assertTrue(m.matches(), text);
    assertEquals("20000", m.group(1));
    assertEquals("0", m.group(2));
    assertEquals("0", m.group(3));
    assertEquals("0", m.group(4));
  }

  @Test
  void badPolicyIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                run(
                    new ByteArrayOutputStream(),
                    "--records",
                    "1",
                    "--buffer-full-policy",
                    "sometimes"));
    assertTrue(e.getMessage().contains("--buffer-full-policy"), e.getMessage());
  }
}
