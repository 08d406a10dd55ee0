package io.logproducer.benchmark.appenders;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The child's result line and its command line read back exactly. */
class ChildResultTest {

  @Test
  void resultLineReadsBack() {
    Map<String, Long> groups = new LinkedHashMap<>();
    groups.put("logging", 1L);
    groups.put("appender", 2L);
    groups.put("gc", 3L);
    groups.put("jit", 4L);
    groups.put("other", 5L);
    ChildResult r = new ChildResult(10, 11, 12, 13, 14, 15, 16, 17, groups, -1, true);
    String line = r.format();
    assertEquals(
        "result events=10 logging_ns=11 window_ns=12 logging_cpu_ns=13 pacing_ns=14"
            + " alloc_bytes=15 process_cpu_ns=16 stop_cpu_ns=17 g_logging=1 g_appender=2 g_gc=3"
            + " g_jit=4 g_other=5 file_lines=-1 queue_size_attribute=1",
        line);
    assertEquals(r, ChildResult.parse(line));
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
    assertEquals(s, ChildSpec.parse(s.toArgs().toArray(new String[0])));
    assertEquals(100_000, s.plannedEvents());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ChildSpec.parse(List.of("--variant", "logback/nope").toArray(new String[0])));
    assertEquals(
        "unknown variant 'logback/nope'; known: [logback/logproducer,"
            + " logback/logproducer-inline, logback/file, logback/otel, logback/aliyun,"
            + " log4j2/logproducer, log4j2/logproducer-inline, log4j2/raf, log4j2/otel]",
        e.getMessage());
  }
}
