package io.logproducer.examples.log4j2;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
class Log4j2CommandTest {

  private static final Pattern SUMMARY =
      Pattern.compile(
          "delivered=(\\d+) failed=(\\d+) spooled=0 refused=(\\d+) not_sent=(\\d+) records_per_sec=(\\d+) "
              + "raw_mb_per_sec=([\\d.]+) wire_mb_per_sec=([\\d.]+)");

  @Test
  void theWorkloadThroughLog4j2ReachesTheEmbeddedReceiver() throws Exception {
    Log4j2Command command =
        Main.parse(
            new Log4j2Command(),
            "--records",
            "20000",
            "--threads",
            "4",
            "--compression",
            "lz4",
            "--quiet");
    PrintStream out = System.out;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    int code;
    try {
      System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
      code = command.call();
    } finally {
      System.setOut(out);
    }
    String text = captured.toString(StandardCharsets.UTF_8).trim();
    assertEquals(0, code, text);
    Matcher m = SUMMARY.matcher(text);
    assertTrue(m.matches(), text);
    assertEquals("20000", m.group(1), "delivered = what the embedded receiver counted");
    assertEquals("0", m.group(2));
    assertEquals("0", m.group(3));
    assertEquals("0", m.group(4));
  }
}
