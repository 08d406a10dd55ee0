package io.logproducer.appender;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.SpoolFullPolicy;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** The appenders' spool settings: mapped onto {@link SpoolConfig}, bad values named at once. */
class AppenderSpoolSettingsTest {

  @Test
  void everySettingReachesTheSpoolConfigAndTheProducerConfig() {
    AppenderSpoolSettings s = new AppenderSpoolSettings();
    s.setDirectory(" /var/spool/app ");
    s.setMaxBytes(8L << 20);
    s.setSegmentBytes(2L << 20);
    s.setDurability("every-batch");
    s.setGroupCommitMillis(50);
    s.setFullPolicy("BLOCK");
    s.setMaxBlockMillis(250);
    s.setMaxAgeMillis(60_000);
    s.setMinFreeDiskShare(0.2);
    s.setReplayShare(0.25);
    ProducerSettings p = new ProducerSettings();
    p.useSpool(s);
    SpoolConfig c = p.toConfig("app").getSpool();
    assertEquals(Paths.get("/var/spool/app"), c.getDirectory());
    assertEquals(8L << 20, c.getMaxBytes());
    assertEquals(2L << 20, c.getSegmentBytes());
    assertEquals(SpoolDurability.EVERY_BATCH, c.getDurability());
    assertEquals(50, c.getGroupCommitMillis());
    assertEquals(SpoolFullPolicy.BLOCK, c.getFullPolicy());
    assertEquals(250, c.getMaxBlockMillis());
    assertEquals(60_000, c.getMaxAgeMillis());
    assertEquals(0.2, c.getMinFreeDiskShare());
    assertEquals(0.25, c.getReplayShare());

    AppenderSpoolSettings defaults = new AppenderSpoolSettings();
    defaults.setDirectory("spool");
    SpoolConfig d = defaults.toSpoolConfig();
    SpoolConfig library = SpoolConfig.builder(Paths.get("spool")).build();
    assertEquals(library.toString(), d.toString(), "the library's defaults");
    assertNull(new ProducerSettings().toConfig("app").getSpool(), "no spool by default");
  }

  @Test
  void badValuesAreNamed() {
    AppenderSpoolSettings s = new AppenderSpoolSettings();
    assertEquals(
        "durability must be one of none, group_commit, every_batch, was 'sometimes'",
        message(() -> s.setDurability("sometimes")));
    assertEquals(
        "fullPolicy must be one of block, drop_newest, drop_oldest, was 'drop'",
        message(() -> s.setFullPolicy("drop")));
    assertEquals("spool: maxBytes must be positive: 0", message(() -> s.setMaxBytes(0)));
    assertEquals(
        "spool: segmentBytes must be 4 KiB..1 GiB: 10", message(() -> s.setSegmentBytes(10)));
    assertEquals(
        "spool: maxBlockMillis must be 0..60000: -1", message(() -> s.setMaxBlockMillis(-1)));
    assertEquals(
        "spool: groupCommitMillis must be 1..60000: 0", message(() -> s.setGroupCommitMillis(0)));
    assertEquals("spool: maxAgeMillis must be positive: 0", message(() -> s.setMaxAgeMillis(0)));
    assertEquals(
        "spool: minFreeDiskShare must be in [0, 1): 1.0", message(() -> s.setMinFreeDiskShare(1)));
    assertEquals("spool: replayShare must be in (0, 1]: 0.0", message(() -> s.setReplayShare(0)));
    assertEquals("spool: replayShare must be in (0, 1]: 1.5", message(() -> s.setReplayShare(1.5)));
    assertEquals("directory must not be empty", message(() -> s.setDirectory(" ")));
    assertEquals("spool: directory is required", message(s::toSpoolConfig));
    s.setDirectory("spool");
    s.setMaxBytes(1000);
    assertEquals(
        "spool: maxBytes (1000) must be at least 2 x segmentBytes + 1048576 = 135266304",
        message(s::toSpoolConfig));
  }

  private static String message(Executable e) {
    return assertThrows(IllegalArgumentException.class, e).getMessage();
  }
}
