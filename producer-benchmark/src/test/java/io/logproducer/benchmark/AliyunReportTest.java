package io.logproducer.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.benchmark.PerformanceSuite.Sample;
import io.logproducer.benchmark.RunSpec.Client;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Aliyun Log Java producer on the generated page: its rows, the ratios against it and its goal appear only with
 * its runs in the data, and only against clients of the same run.
 */
class AliyunReportTest {

  @TempDir
  Path docs;

  @Test
  void aliyunRowsRatiosAndGoalWithItsRuns() throws IOException {
    ReportWriter w = new ReportWriter(docs, fixture(true), List.of(), null, meta());
    w.write();
    String page = Files.readString(docs.resolve("PERFORMANCE.md"), StandardCharsets.UTF_8);
    String section = section(page, "## logproducer and the Aliyun Log Java producer");
    // one row per IO-thread count: 2 IO threads ran three times (100,000, 120,000 and 200,000 records/s)
    assertTrue(section.contains("| Aliyun producer, lz4 | 1 | 60,000 |  |"), section);
    assertTrue(section.contains("| Aliyun producer, lz4 | 2 | 120,000 | 100,000–200,000 |"), section);
    assertTrue(section.contains("| Aliyun producer, lz4 | 8 | 110,000 |  |"), section);
    assertTrue(section.contains("| logproducer, lz4 | 4 | 700,000 | 600,000–900,000 |"), section);
    // ours ÷ the Aliyun producer at its fastest setting (2 IO threads), and at as many sending threads (4)
    assertTrue(section.contains("| lz4 (700,000/s) | Aliyun lz4, 2 IO threads, its fastest (120,000/s) | **5.8×** |"),
        section);
    assertTrue(section.contains("| lz4 (700,000/s) | Aliyun lz4, 4 IO threads (as many sending threads) (90,000/s) "
        + "| **7.8×** |"), section);
    assertTrue(section.contains("batches of 3 MiB or 40,960 logs, linger 2000 ms, 100 MiB of buffer"), section);
    assertTrue(section.contains("SLS PutLogs"), section);
    assertTrue(page.contains("| Aliyun Log Java producer, 2 IO threads (its fastest) | lz4 | **120,000** | "
        + "100,000–200,000 | 3 |"), page);
    String goals = section(page, "## Project goals");
    assertTrue(goals.contains("| ≥ 3× the records/s of the Aliyun Log Java producer at its fastest setting | 5.8× "
        + "(logproducer lz4 against the Aliyun producer with lz4 and 2 IO threads, 120,000 records/s) | met |"), goals);
    assertTrue(page.contains("| Aliyun lz4, 2 IO threads | 120,000 |"), "CPU table row: " + page);
    assertTrue(w.charts().stream().anyMatch(c -> c.file().equals("aliyun.png")
        && c.categories().equals(List.of("Aliyun lz4, 1 IO", "Aliyun lz4, 2 IO", "Aliyun lz4, 4 IO",
            "Aliyun lz4, 8 IO", "logproducer lz4", "logproducer zstd-1"))));
    // the OpenTelemetry section is as it was
    String otel = section(page, "## logproducer and the OpenTelemetry Java SDK");
    assertFalse(otel.contains("Aliyun"), otel);
  }

  @Test
  void noAliyunRunsNoAliyunOnThePage() throws IOException {
    new ReportWriter(docs, fixture(false), List.of(), null, meta()).write();
    String page = Files.readString(docs.resolve("PERFORMANCE.md"), StandardCharsets.UTF_8);
    assertFalse(page.contains("Aliyun"), page);
  }

  @Test
  void aliyunSettingsAreItsThroughputSettings() {
    RunSpec a = PerformanceSuite.aliyunBase(RunSpec.reference());
    assertEquals(Client.ALIYUN, a.client());
    assertEquals(Compression.LZ4, a.compression());
    assertEquals(3 * RunSpec.MIB, a.batchSizeInBytes());
    assertEquals(40_960, a.batchCountThreshold());
    assertEquals(2_000, a.lingerMillis());
    assertEquals(100L * RunSpec.MIB, a.totalSizeInBytes());
    assertEquals(10, a.appThreads());
    // the harness's arguments carry it to the child JVM
    assertEquals(a, RunSpec.fromArgs(a.toArgs().toArray(new String[0])));
    assertTrue(a.withSendThreads(8).describe().startsWith("Aliyun producer lz4, ioThreads 8"), a.describe());
  }

  // ---------------------------------------------------------------- fixture (as ReportWriterTest's)

  private static Sample run(String section, RunSpec spec, long perSec, long emitted, long blockedNanos) {
    LatencyHistogram h = new LatencyHistogram();
    for (int i = 1; i <= 100; i++) {
      h.record(1_000 + 10L * i);
    }
    StringBuilder r = new StringBuilder("RESULT");
    r.append(" emitted=").append(emitted).append(" delivered=").append(perSec).append(" seconds=1.0")
        .append(" rawBytes=").append(perSec * 581).append(" encodedBytes=").append(perSec * 633)
        .append(" wireBytes=").append(perSec * 51).append(" cpuNanos=").append(perSec * 2_100)
        .append(" cpu.app=").append(perSec * 1_500).append(" cpu.vm=").append(perSec * 200)
        .append(" alloc.app=").append(perSec * 1_800).append(" gcMillis=40 requests=300")
        .append(" requestLatencyAvgMillis=12.5 sendBlockedNanos=").append(blockedNanos)
        .append(" peakBufferedBytes=").append(spec.totalSizeInBytes() / 2)
        .append(" totalSizeInBytes=").append(spec.client() == Client.LOGPRODUCER ? spec.totalSizeInBytes() : -1)
        .append(" latency=").append(h.encode());
    switch (spec.client()) {
      case LOGPRODUCER -> r.append(" cpu.sender=").append(perSec * 400);
      case OTEL -> r.append(" cpu.otel-worker=").append(perSec * 1_500).append(" cpu.http=").append(perSec * 2_500);
      case ALIYUN -> r.append(" cpu.io=").append(perSec * 5_000).append(" cpu.callback=").append(perSec * 300);
      default -> {
      }
    }
    if (spec.client() != Client.GENERATE) {
      r.append(" sinkRecords=").append(perSec).append(" sinkCpuNanosPerRecord=301.0 sinkCpuPercent=20.0")
          .append(" machineBusyPercent=").append(perSec * 2_100 / 1e7 + 21);
    }
    return new Sample(section, spec, RunResult.parse(r.toString()));
  }

  private static Sample run(String section, RunSpec spec, long perSec) {
    return run(section, spec, perSec, perSec, 0);
  }

  private static List<Sample> fixture(boolean withAliyun) {
    RunSpec base = RunSpec.reference().withTiming(1, 1);
    RunSpec lz4 = base.withCompression(Compression.LZ4, 0);
    RunSpec otel = base.withClient(Client.OTEL).withCompression(Compression.NONE, 0);
    List<Sample> l = new ArrayList<>();
    l.add(run("calibration", base.withClient(Client.GENERATE).withLabel("generate only"), 5_000_000));
    for (int pass = 0; pass < 2; pass++) {
      l.add(run("sendThreads", lz4.withSendThreads(1).withLabel("sendThreads 1"), 500_000 + pass * 20_000,
          500_000 + pass * 20_000, 5_000_000_000L));
      l.add(run("sendThreads", lz4.withSendThreads(4).withLabel("sendThreads 4"), 650_000 + pass * 20_000));
      l.add(run("batchSize", lz4.withBatchSize(RunSpec.MIB).withLabel("batch 1 MiB"), 640_000 + pass * 20_000));
      l.add(run("batchSize", lz4.withLabel("batch 2 MiB"), 660_000 + pass * 20_000));
      l.add(run("totalSize", lz4.withTotalSize(50L * RunSpec.MIB).withLabel("total 50 MiB"),
          630_000 + pass * 20_000));
      l.add(run("totalSize", lz4.withLabel("total 100 MiB"), 670_000 + pass * 20_000));
    }
    l.add(run("compression", base.withCompression(Compression.NONE, 0).withLabel("logproducer none"), 800_000));
    l.add(run("compression", base.withCompression(Compression.GZIP, 0).withLabel("logproducer gzip-1"), 400_000));
    for (long v : new long[] {600_000, 700_000, 900_000}) {
      l.add(run("compression", lz4.withLabel("logproducer lz4"), v));
      l.add(run("compression", base.withCompression(Compression.ZSTD, 0).withLabel("logproducer zstd-1"), v + 10));
    }
    l.add(run("peers", otel.withOtel(false, 0, 0).withLabel("OTel SDK defaults"), 20_000, 200_000, 0));
    l.add(run("peers", otel.withOtel(true, 65_536, 8_192).withLabel("OTel SDK tuned, none"), 90_000));
    l.add(run("peers", otel.withOtel(true, 65_536, 8_192).withLabel("OTel SDK tuned, none"), 110_000));
    l.add(run("peers", otel.withCompression(Compression.GZIP, 0).withOtel(true, 65_536, 8_192)
        .withLabel("OTel SDK tuned, gzip"), 70_000));
    if (withAliyun) {
      RunSpec a = PerformanceSuite.aliyunBase(base);
      l.add(run("aliyun", a.withSendThreads(1).withLabel("Aliyun lz4, ioThreads 1"), 60_000));
      l.add(run("aliyun", a.withSendThreads(2).withLabel("Aliyun lz4, ioThreads 2"), 100_000));
      l.add(run("aliyun", a.withSendThreads(4).withLabel("Aliyun lz4, ioThreads 4"), 90_000));
      l.add(run("aliyun", a.withSendThreads(8).withLabel("Aliyun lz4, ioThreads 8"), 110_000));
      l.add(run("aliyun", a.withSendThreads(2).withLabel("Aliyun lz4, ioThreads 2"), 120_000));
      l.add(run("aliyun", a.withSendThreads(2).withLabel("Aliyun lz4, ioThreads 2"), 200_000));
    }
    l.add(run("latency", lz4.withRateLimit(300_000).withLabel("lz4 paced to 300,000/s"), 300_000));
    l.add(run("profile", lz4.withJfr(true).withLabel("lz4, JFR profile"), 610_000));
    l.add(run("calibration", base.withClient(Client.GENERATE).withLabel("generate only (end)"), 4_900_000));
    return l;
  }

  private static Map<String, String> meta() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("standardSendThreads", "4");
    m.put("standardBatchSize", Integer.toString(2 * RunSpec.MIB));
    m.put("suiteSeconds", "61");
    m.put("options", "warmup 1.0 s, duration 1.0 s, repeats 3");
    m.put("measured", "2030-01-02 03:04 UTC");
    m.put(ReportWriter.MACHINE_PREFIX + "CPU", "Test CPU 9000");
    m.put(ReportWriter.MACHINE_PREFIX + ReportWriter.CORES_ROW, "2");
    return m;
  }

  private static String section(String page, String heading) {
    int start = page.indexOf(heading + "\n");
    assertTrue(start >= 0, heading);
    int end = page.indexOf("\n## ", start + 1);
    return page.substring(start, end < 0 ? page.length() : end);
  }
}
