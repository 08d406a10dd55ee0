package io.logproducer.examples.gse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.examples.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code gse} sub-command in process, against its embedded agent (the test kit's GseAgent,
 * counting mode).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GseCommandTest {

  @Test
  void theEmbeddedAgentCountsEveryDeliveredRecord() throws Exception {
    GseCommand command = Main.parse(new GseCommand(), "--records", "3000", "--quiet");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    int exit;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      exit = command.call();
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
    String stdout = out.toString(StandardCharsets.UTF_8);
    String stderr = err.toString(StandardCharsets.UTF_8);
    assertEquals(0, exit, stdout + stderr);
    assertTrue(stdout.contains("delivered=3000 failed=0 spooled=0 refused=0 not_sent=0 "), stdout);
    assertTrue(stderr.contains("agent counted 3,000 records in "), stderr);
    assertFalse(stderr.contains("MISMATCH"), stderr);
  }
}
