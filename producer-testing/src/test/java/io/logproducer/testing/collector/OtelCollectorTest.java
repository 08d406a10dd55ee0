package io.logproducer.testing.collector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OtelCollector} and {@link CollectorBinary} on a stand-in "Collector": a shell script that
 * prints what the real one prints (its config, the ready line, debug-exporter counts, an error
 * line) and then waits to be stopped. The real Collector runs in producer-otlp's and
 * producer-kafka's interop tests.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OtelCollectorTest {

  @TempDir Path dir;

  private Path script(String name, String body) throws IOException {
    Path script = dir.resolve(name);
    Files.write(script, ("#!/bin/sh\n" + body).getBytes(StandardCharsets.UTF_8));
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return script;
  }

  @Test
  void countsTheDebugExportersRecordsAndCollectsErrorLines() throws Exception {
    Path bin =
        script(
            "otelcol",
            "cat \"$2\"\n"
                + "printf 't\\tinfo\\tservice\\tEverything is ready. Begin running and processing data.\\n'\n"
                + "printf 't\\tinfo\\tLogs\\t{\"log records\": 2}\\n'\n"
                + "printf 't\\terror\\tkafka\\tfailed to unmarshal message\\n'\n"
                + "printf 't\\tinfo\\tLogs\\t{\"log records\": 3}\\n'\n"
                + "exec sleep 60\n");
    try (OtelCollector collector = OtelCollector.launch(bin, "receivers: {}  # the config\n")) {
      assertTrue(collector.awaitReady(10_000), collector.logTail());
      assertEquals(5, collector.awaitRecordCount(5, 10_000), collector.logTail());
      assertEquals(5, collector.recordCount());
      assertEquals(List.of("t\terror\tkafka\tfailed to unmarshal message"), collector.errors());
      assertTrue(
          collector.logText().startsWith("receivers: {}  # the config\n"), collector.logText());
      assertTrue(collector.logTail().endsWith("{\"log records\": 3}"), collector.logTail());
      assertTrue(collector.isAlive());
      collector.close();
      assertFalse(collector.isAlive());
      assertTrue(Files.isRegularFile(collector.logFile()));
    }
  }

  @Test
  void aCollectorThatExitsIsNotReady() throws Exception {
    Path bin = script("exits", "echo 'Error: invalid configuration'\nexit 1\n");
    try (OtelCollector collector = OtelCollector.launch(bin, "x: y\n")) {
      assertFalse(collector.awaitReady(10_000));
      assertFalse(collector.isAlive());
      assertEquals("Error: invalid configuration", collector.logTail());
      assertEquals(0, collector.recordCount());
    }
  }

  @Test
  void theBinaryPropertyWinsAndAMisconfiguredOneFails() throws Exception {
    Path bin = script("otelcol-configured", "exit 0\n");
    String property = "otelcol.test." + System.nanoTime();
    System.setProperty(property, bin.toString());
    try {
      CollectorBinary binary =
          new CollectorBinary(
              "otelcol",
              "otelcol-logs",
              "otelcol-logs-test",
              property,
              "OTELCOL_TEST_UNSET_BIN",
              "OTELCOL_TEST_UNSET_CACHE",
              1);
      assertNull(binary.skipReason());
      assertEquals(bin, binary.binary());
      assertTrue(
          Files.isRegularFile(binary.toolsDir().resolve("build.sh")), binary.toolsDir().toString());
    } finally {
      System.clearProperty(property);
    }
    Path notExecutable = Files.write(dir.resolve("not-executable"), new byte[0]);
    System.setProperty(property, notExecutable.toString());
    try {
      CollectorBinary binary =
          new CollectorBinary(
              "otelcol",
              "otelcol-logs",
              "otelcol-logs-test",
              property,
              "OTELCOL_TEST_UNSET_BIN",
              "OTELCOL_TEST_UNSET_CACHE",
              1);
      IllegalStateException e = assertThrows(IllegalStateException.class, binary::skipReason);
      assertEquals(
          property
              + " / OTELCOL_TEST_UNSET_BIN is set but not an executable file: "
              + notExecutable,
          e.getMessage());
    } finally {
      System.clearProperty(property);
    }
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new CollectorBinary("otelcol", "b", "c", "p", "E", "C", 0));
    assertEquals("buildTimeoutMillis must be > 0 ms: 0", e.getMessage());
  }
}
