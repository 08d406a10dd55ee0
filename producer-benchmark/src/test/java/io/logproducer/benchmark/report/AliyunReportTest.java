package io.logproducer.benchmark.report;

import static io.logproducer.benchmark.report.ReportFixture.block;
import static io.logproducer.benchmark.report.ReportFixture.fixture;
import static io.logproducer.benchmark.report.ReportFixture.meta;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.benchmark.harness.PerformanceSuite;
import io.logproducer.benchmark.harness.RunSpec;
import io.logproducer.benchmark.harness.RunSpec.Client;
import io.logproducer.benchmark.harness.Sample;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Aliyun Log Java producer in the page's tables: its rows, the ratios against it and its goal
 * appear only with its runs in the data, and only against clients of the same run.
 */
class AliyunReportTest {

  @TempDir Path docs;

  @Test
  void aliyunRowsRatiosAndGoalWithItsRuns() throws IOException {
    List<Sample> data = fixture(true);
    PerformanceReport report = PerformanceReport.load(docs, data, List.of(), null, meta());
    String table = report.blocks().get("aliyun").get();
    // one row per IO-thread count: 2 IO threads ran three times (100,000, 120,000 and 200,000
    // records/s)
    assertTrue(table.contains("| Aliyun producer, lz4 | 1 | 60,000 |  |"), table);
    assertTrue(table.contains("| Aliyun producer, lz4 | 2 | 120,000 | 100,000–200,000 |"), table);
    assertTrue(table.contains("| Aliyun producer, lz4 | 8 | 110,000 |  |"), table);
    assertTrue(table.contains("| logproducer, lz4 | 4 | 700,000 | 600,000–900,000 |"), table);
    // ours ÷ the Aliyun producer at its fastest setting (2 IO threads), and at as many sending
    // threads (4)
    String ratios = block(docs, data, meta(), "aliyun-ratios");
    assertTrue(
        ratios.contains(
            "| lz4 (700,000/s) | Aliyun lz4, 2 IO threads, its fastest (120,000/s) | **5.8×** |"),
        ratios);
    assertTrue(
        ratios.contains(
            "| lz4 (700,000/s) | Aliyun lz4, 4 IO threads (as many sending threads) (90,000/s) "
                + "| **7.8×** |"),
        ratios);
    String headline = block(docs, data, meta(), "headline");
    assertTrue(
        headline.contains(
            "| Aliyun Log Java producer, 2 IO threads (its fastest) | lz4 | **120,000** | "
                + "100,000–200,000 | 3 |"),
        headline);
    String goals = block(docs, data, meta(), "goals");
    assertTrue(
        goals.contains(
            "| ≥ 3× the records/s of the Aliyun Log Java producer at its fastest setting | 5.8× "
                + "(logproducer lz4 against the Aliyun producer with lz4 and 2 IO threads, 120,000 records/s) | met |"),
        goals);
    String cpu = block(docs, data, meta(), "cpu");
    assertTrue(cpu.contains("| Aliyun lz4, 2 IO threads | 120,000 |"), "CPU table row: " + cpu);
    assertTrue(
        report.charts().stream()
            .anyMatch(
                c ->
                    c.file().equals("aliyun.png")
                        && c.categories()
                            .equals(
                                List.of(
                                    "Aliyun lz4, 1 IO",
                                    "Aliyun lz4, 2 IO",
                                    "Aliyun lz4, 4 IO",
                                    "Aliyun lz4, 8 IO",
                                    "logproducer lz4",
                                    "logproducer zstd-1"))));
    // the OpenTelemetry table is as it was
    String otel = block(docs, data, meta(), "peers");
    assertFalse(otel.contains("Aliyun"), otel);
  }

  @Test
  void noAliyunRunsNoAliyunData() throws IOException {
    List<Sample> data = fixture(false);
    assertNull(block(docs, data, meta(), "aliyun"));
    assertNull(block(docs, data, meta(), "aliyun-ratios"));
    for (String name : List.of("headline", "peers", "goals", "cpu")) {
      String b = block(docs, data, meta(), name);
      assertFalse(b.contains("Aliyun"), b);
    }
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
    assertTrue(
        a.withSendThreads(8).describe().startsWith("Aliyun producer lz4, ioThreads 8"),
        a.describe());
  }
}
