package com.example.logproducer.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The sample's command-line run, in this JVM: the real application on a random port, 2,000 lines
 * through its endpoint, the starter shipping them; exact exit status and summary numbers.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoadRunTest {

  private static final long RECORDS = 2_000;

  @Test
  void embeddedReceiverCountsEveryLineOnceAndTheSummarySaysSo() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    String[] args = {"--records=" + RECORDS};

    int status = LoadRun.run(LoadRun.records(args), args, print(out), print(err));

    String stderr = err.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, stderr);
    Map<String, String> summary = summary(out.toString(StandardCharsets.UTF_8));
    assertEquals("2000", summary.get("records"));
    assertEquals("2000", summary.get("received_app"));
    assertEquals("0", summary.get("duplicates"));
    assertEquals("0", summary.get("failed"));
    assertEquals("0", summary.get("dropped"));
    assertEquals("0", summary.get("rejected"));
    assertEquals("UP", summary.get("health"));
    long delivered = Long.parseLong(summary.get("delivered"));
    assertTrue(delivered > RECORDS, "the sample's lines and Spring's own: " + delivered);
    assertEquals(summary.get("delivered"), summary.get("received"), "one count, two witnesses");
    assertTrue(Double.parseDouble(summary.get("records_per_sec")) > 0);
    assertTrue(stderr.contains("embedded OTLP/HTTP receiver at http://127.0.0.1:"), stderr);
  }

  @Test
  void givenAnEndpointTheRunShipsThereWithTheTraceContext() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      String[] args = {"--records=12", "--logproducer.otlp.endpoint=" + receiver.endpoint()};

      int status = LoadRun.run(LoadRun.records(args), args, print(out), print(err));

      assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
      Map<String, String> summary = summary(out.toString(StandardCharsets.UTF_8));
      assertEquals("12", summary.get("records"));
      assertEquals("0", summary.get("failed"));
      assertEquals("UP", summary.get("health"));
      assertFalse(summary.containsKey("received"), "no embedded receiver");

      Set<Long> seqs = new HashSet<>();
      for (ReceivedLogRecord r : receiver.deliveredRecords()) {
        if (!LogController.class.getName().equals(r.scopeName())) {
          continue;
        }
        long seq = (Long) r.attribute(LogController.SEQ_KEY);
        long first = seq - seq % LoadRun.LINES_PER_REQUEST;
        assertTrue(seqs.add(seq), "once: " + r);
        assertEquals("sample line " + seq + " of request " + first, r.bodyString());
        assertEquals(LogController.traceId(first), r.traceId());
        assertEquals(LogController.spanId(first), r.spanId());
        assertEquals(Long.toString(first), r.attribute("request.id"));
        assertEquals("spring-boot-sample", r.resourceAttributes().get("service.name"));
      }
      assertEquals(12, seqs.size(), "requests of 5, 5 and 2 lines");
    }
  }

  @Test
  void recordsOptionIsParsedAndChecked() {
    assertEquals(LoadRun.DEFAULT_RECORDS, LoadRun.records(new String[] {"--server.port=9"}));
    assertEquals(100_000, LoadRun.records(new String[] {"--records=100_000"}));
    assertEquals(0, LoadRun.records(new String[] {"--records=0"}));
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> LoadRun.records(new String[] {"--records=-1"}));
    assertEquals("--records must be an integer in [0, 2147483647], was '-1'", e.getMessage());
    assertTrue(LoadRun.destinationGiven(new String[] {"--logproducer.exporter=gse"}));
    assertFalse(LoadRun.destinationGiven(new String[] {"--records=5"}));
  }

  private static PrintStream print(ByteArrayOutputStream sink) {
    return new PrintStream(sink, true, StandardCharsets.UTF_8);
  }

  /** The key=value pairs of the one summary line. */
  private static Map<String, String> summary(String stdout) {
    String[] lines = stdout.strip().split("\n");
    assertEquals(1, lines.length, stdout);
    Map<String, String> pairs = new LinkedHashMap<>();
    for (String pair : lines[0].split(" ")) {
      int eq = pair.indexOf('=');
      pairs.put(pair.substring(0, eq), pair.substring(eq + 1));
    }
    return pairs;
  }
}
