package io.logproducer.benchmark.appenders;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The child's result line and its command line read back exactly. */
class ChildResultTest {

  @Test
  void resultLineReadsBack() {
    ChildResult r =
        new ChildResult(10, 11, 12, 13, 14, 15, 16, 17, new long[] {1, 2, 3, 4, 5}, -1, true);
    String line = r.format();
    assertEquals(
        "result events=10 loggingNanos=11 windowNanos=12 loggingCpuNanos=13 pacingNanos=14"
            + " allocatedBytes=15 processCpuNanos=16 stopCpuNanos=17 groups=1,2,3,4,5"
            + " fileLines=-1 queueSizeAttribute=true",
        line);
    ChildResult back = ChildResult.parse(line);
    assertEquals(line, back.format());
    assertArrayEquals(new long[] {1, 2, 3, 4, 5}, back.groups());
    assertEquals(-1, back.fileLines());
    assertThrows(IllegalArgumentException.class, () -> ChildResult.parse("warm"));
  }

  @Test
  void specReadsBack() {
    ChildSpec s =
        new ChildSpec(
            AppenderVariant.LOG4J2_OTEL,
            4,
            Regime.PACED,
            100,
            12500.0,
            2000,
            500,
            "http://127.0.0.1:4318",
            "/tmp/w",
            "");
    assertEquals(
        List.of(
            "variant=LOG4J2_OTEL",
            "threads=4",
            "regime=PACED",
            "eventsPerThread=100",
            "ratePerThread=12500.0",
            "durationMillis=2000",
            "warmupEventsPerThread=500",
            "endpoint=http://127.0.0.1:4318",
            "workDir=/tmp/w",
            "jfrFile="),
        s.toArgs());
    assertEquals(s, ChildSpec.parse(s.toArgs().toArray(new String[0])));
    assertEquals(25_000, s.eventsEach());
    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class,
            () -> ChildSpec.parse(new String[] {"variant=LOG4J2_OTEL"}));
    assertEquals("missing threads in [variant=LOG4J2_OTEL]", missing.getMessage());
    IllegalArgumentException malformed =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ChildSpec.parse(
                    s.toArgs().stream().map(a -> a.replace("=4", "=four")).toArray(String[]::new)));
    assertEquals("malformed threads=four", malformed.getMessage());
  }

  @Test
  void variantsByIdNameTheKnownOnes() {
    assertEquals(AppenderVariant.LOGBACK_OTEL, AppenderVariant.byId("logback/otel"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> AppenderVariant.byId("logback/nope"));
    assertEquals(
        "unknown variant 'logback/nope'; known: [logback/logproducer,"
            + " logback/logproducer-inline, logback/file, logback/otel, logback/aliyun,"
            + " log4j2/logproducer, log4j2/logproducer-inline, log4j2/raf, log4j2/otel]",
        e.getMessage());
  }
}
