package io.logproducer.benchmark.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.testing.ReferenceWorkload;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The harness's spool settings: their round trip and a logproducer run through a real spool. */
@Timeout(60)
class SpoolRunTest {

  @TempDir Path parent;

  @Test
  void spoolSettingsRoundTripAndAreAbsentForMemoryOnlyRuns() {
    RunSpec spooled =
        RunSpec.reference().with("spoolDir", "/var/tmp/x", "spoolDurability", "EVERY_BATCH");
    RunSpec back = RunSpec.fromArgs(spooled.toArgs().toArray(new String[0]));
    assertEquals("/var/tmp/x", back.spoolDir());
    assertEquals("EVERY_BATCH", back.spoolDurability());
    assertTrue(spooled.describe().endsWith(", spool EVERY_BATCH in /var/tmp/x"));
    assertFalse(RunSpec.reference().toMap().containsKey("spoolDir"));
    assertEquals("", RunSpec.reference().spoolDir());
  }

  @Test
  void aSpooledRunDeliversEverythingAndRemovesItsSpoolDirectory() throws Exception {
    RunSpec spec =
        RunSpec.reference()
            .with(
                "lingerMillis",
                50L,
                "spoolDir",
                parent.toString(),
                "spoolDurability",
                "GROUP_COMMIT");
    int n = 2_000;
    try (OtlpReceiver receiver = OtlpReceiver.startCounting()) {
      LogproducerDriver driver = new LogproducerDriver(spec, receiver.logsUrl(), "spool-run");
      try (Stream<Path> dirs = Files.list(parent)) {
        assertEquals(1, dirs.count(), "one fresh spool directory");
      }
      ReferenceWorkload workload = new ReferenceWorkload();
      for (int i = 0; i < n; i++) {
        driver.send(workload.next(i));
      }
      driver.flush();
      assertEquals(n, driver.counters().delivered());
      driver.close();
      assertEquals(n, receiver.acceptedRecords());
    }
    try (Stream<Path> left = Files.list(parent)) {
      assertEquals(0, left.count(), "the spool directory is deleted after close");
    }
  }
}
