package io.logproducer.spool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.ProducerConfig;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.SpoolFullPolicy;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** {@link SpoolConfig}: defaults, and each refusal naming its setting. */
class SpoolConfigTest {

  private static final Path DIR = Paths.get("spool-dir");

  private static void refused(String setting, Executable e) {
    IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
    assertTrue(x.getMessage().contains(setting), x.getMessage());
  }

  @Test
  void defaults() {
    SpoolConfig c = SpoolConfig.builder(DIR).build();
    assertEquals(DIR, c.getDirectory());
    assertEquals(1L << 30, c.getMaxBytes());
    assertEquals(64L << 20, c.getSegmentBytes());
    assertEquals(SpoolDurability.GROUP_COMMIT, c.getDurability());
    assertEquals(200, c.getGroupCommitMillis());
    assertEquals(SpoolFullPolicy.DROP_NEWEST, c.getFullPolicy());
    assertEquals(0, c.getMaxBlockMillis());
    assertEquals(7L * 24 * 3600 * 1000, c.getMaxAgeMillis());
    assertEquals(0.05, c.getMinFreeDiskShare());
    assertNull(ProducerConfig.defaults().getSpool());
    assertSame(c, ProducerConfig.builder().setSpool(c).build().getSpool());
  }

  @Test
  void eachRefusalNamesItsSetting() {
    refused("directory", () -> SpoolConfig.builder(null));
    refused("maxBytes", () -> SpoolConfig.builder(DIR).setMaxBytes(0));
    refused("segmentBytes", () -> SpoolConfig.builder(DIR).setSegmentBytes(4095));
    refused("segmentBytes", () -> SpoolConfig.builder(DIR).setSegmentBytes((1L << 30) + 1));
    refused("durability", () -> SpoolConfig.builder(DIR).setDurability(null));
    refused("groupCommitMillis", () -> SpoolConfig.builder(DIR).setGroupCommitMillis(0));
    refused("fullPolicy", () -> SpoolConfig.builder(DIR).setFullPolicy(null, 0));
    refused(
        "maxBlockMillis", () -> SpoolConfig.builder(DIR).setFullPolicy(SpoolFullPolicy.BLOCK, -1));
    refused("maxAgeMillis", () -> SpoolConfig.builder(DIR).setMaxAgeMillis(0));
    refused("minFreeDiskShare", () -> SpoolConfig.builder(DIR).setMinFreeDiskShare(1));
    refused("replayShare", () -> SpoolConfig.builder(DIR).setReplayShare(0));
    refused("replayShare", () -> SpoolConfig.builder(DIR).setReplayShare(1.01));
    refused("replayShare", () -> SpoolConfig.builder(DIR).setReplayShare(Double.NaN));
    assertEquals(0.5, SpoolConfig.builder(DIR).build().getReplayShare(), "default");
    assertEquals(1.0, SpoolConfig.builder(DIR).setReplayShare(1).build().getReplayShare());
    long floor = 2 * 4096 + SpoolConfig.FIXED_OVERHEAD_BYTES;
    refused(
        "maxBytes",
        () -> SpoolConfig.builder(DIR).setSegmentBytes(4096).setMaxBytes(floor - 1).build());
    assertEquals(
        floor,
        SpoolConfig.builder(DIR).setSegmentBytes(4096).setMaxBytes(floor).build().getMaxBytes());
  }

  /**
   * Issue 32: segments that cannot hold a full batch's request are refused at build(), naming both
   * settings and the minimum (512 KiB batches in 64 KiB segments used to FAIL at run time).
   */
  @Test
  void segmentsSmallerThanAFullRequestAreRefusedAtBuildNamingBothSettingsAndTheMinimum() {
    SpoolConfig small = SpoolConfig.builder(DIR).setSegmentBytes(64 * 1024).build();
    IllegalArgumentException x =
        assertThrows(
            IllegalArgumentException.class,
            () -> ProducerConfig.builder().setBatchSizeInBytes(512 * 1024).setSpool(small).build());
    assertEquals(
        "spool segmentBytes (65536) must be at least 541696 for batchSizeInBytes (524288): a"
            + " segment holds whole request bodies (batchSizeInBytes + 1/32 + 1024 bytes for the"
            + " entry's header, meta, the segment's footer and framing); raise segmentBytes or"
            + " lower batchSizeInBytes to at most 62558",
        x.getMessage());
    // The default 1 MiB batches need 1,082,368-byte segments; the bound is exact both ways.
    assertEquals(1_082_368, SpoolConfig.minSegmentBytesFor(1 << 20));
    refused(
        "batchSizeInBytes (1048576)",
        () ->
            ProducerConfig.builder()
                .setSpool(SpoolConfig.builder(DIR).setSegmentBytes(1_082_367).build())
                .build());
    ProducerConfig.builder()
        .setSpool(SpoolConfig.builder(DIR).setSegmentBytes(1_082_368).build())
        .build();
    ProducerConfig.builder().setBatchSizeInBytes(62_558).setSpool(small).build();
    refused(
        "at most 62558",
        () -> ProducerConfig.builder().setBatchSizeInBytes(62_559).setSpool(small).build());
    // Without a spool, no such bound.
    ProducerConfig.builder().setBatchSizeInBytes(512 * 1024).build();
  }
}
