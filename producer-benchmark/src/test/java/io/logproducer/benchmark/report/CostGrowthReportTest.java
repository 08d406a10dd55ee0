package io.logproducer.benchmark.report;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.benchmark.harness.JmhRunner;
import io.logproducer.benchmark.harness.LatencyHistogram;
import io.logproducer.benchmark.harness.RunResult;
import io.logproducer.benchmark.harness.RunSpec;
import io.logproducer.benchmark.harness.Sample;
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
 * "How cost grows" and the JMH SendBenchmark sweeps: filled when, and only when, their data exists.
 */
class CostGrowthReportTest {

  @TempDir Path docs;

  private static Sample run(
      String section, RunSpec spec, long perSec, double rawPerRecord, double machine) {
    LatencyHistogram h = new LatencyHistogram();
    for (int i = 1; i <= 100; i++) {
      h.record(1_000 + 10L * i * spec.appThreads());
    }
    String r =
        "RESULT emitted="
            + perSec
            + " delivered="
            + perSec
            + " seconds=1.0 rawBytes="
            + Math.round(perSec * rawPerRecord)
            + " encodedBytes="
            + Math.round(perSec * rawPerRecord * 1.1)
            + " wireBytes="
            + perSec * 50
            + " cpuNanos="
            + Math.round(perSec * (1_500 + rawPerRecord))
            + " cpu.app="
            + perSec * 1_000
            + " sendBlockedNanos=0 peakBufferedBytes=1000 totalSizeInBytes="
            + spec.totalSizeInBytes()
            + " requestLatencyAvgMillis=10 latency="
            + h.encode()
            + " sinkRecords="
            + perSec
            + " sinkCpuPercent=45.0 machineBusyPercent="
            + machine;
    return new Sample(section, spec, RunResult.parse(r));
  }

  private static Map<String, String> meta() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(SuiteData.MACHINE_PREFIX + SuiteData.CORES_ROW, "2");
    return m;
  }

  private List<Sample> fixture() {
    RunSpec lz4 = RunSpec.reference().withTiming(1, 1).withCompression(Compression.LZ4, 0);
    List<Sample> l = new ArrayList<>();
    l.add(run("compression", lz4.withLabel("logproducer lz4"), 700_000, 581, 195));
    l.add(
        run(
            "recordSize",
            lz4.withRecordBytes(100).withLabel("records of 100 B"),
            1_200_000,
            100,
            195));
    l.add(run("recordSize", lz4.withLabel("reference records (~580 B)"), 700_000, 581, 195));
    l.add(
        run(
            "recordSize",
            lz4.withRecordBytes(4096).withLabel("records of 4 KiB"),
            150_000,
            4096,
            195));
    l.add(
        run(
            "recordSize",
            lz4.withRecordBytes(65536).withLabel("records of 64 KiB"),
            10_000,
            65536,
            195));
    int[] threads = {1, 2, 4, 10, 32, 64};
    long[] rates = {250_000, 450_000, 680_000, 700_000, 690_000, 660_000};
    double[] busy = {90, 150, 192, 195, 197, 198};
    for (int i = 0; i < threads.length; i++) {
      l.add(
          run(
              "appThreads",
              lz4.withAppThreads(threads[i]).withLabel(threads[i] + " threads"),
              rates[i],
              581,
              busy[i]));
    }
    return l;
  }

  @Test
  void costAndJmhSweepTablesAndChartsWithTheirData() throws IOException {
    Files.createDirectories(docs.resolve("perf-data"));
    List<JmhRunner.SweepRow> rows = new ArrayList<>();
    for (String[] s : JmhRunner.SWEEPS) {
      double score = 1_000_000;
      for (String v : s[1].split(",")) {
        rows.add(new JmhRunner.SweepRow(s[0], v, 4, score, 1_000, 120.5, score * 0.9, score * 1.1));
        score += 100_000;
      }
    }
    JmhRunner.saveSweeps(rows, docs.resolve("perf-data").resolve(JmhRunner.SWEEPS_FILE));
    StringBuilder page = new StringBuilder("# cost\n\n");
    for (String name :
        List.of(
            "record-size",
            "app-threads",
            "jmh-sweep-sendThreads",
            "jmh-sweep-batchSizeInBytes",
            "jmh-sweep-totalSizeInBytes",
            "jmh-sweep-compression")) {
      page.append("### ")
          .append(name)
          .append("\n\n<!-- data:")
          .append(name)
          .append(" -->\n<!-- /data -->\n\n");
    }
    Files.writeString(docs.resolve(PerformanceReport.PAGE), page, StandardCharsets.UTF_8);
    PerformanceReport.load(docs, fixture(), List.of(), null, meta()).write();
    String filled = Files.readString(docs.resolve(PerformanceReport.PAGE), StandardCharsets.UTF_8);
    assertTrue(filled.contains("| 100 B | 100 | 1,200,000 |"), filled);
    assertTrue(filled.contains("| reference | 581 | 700,000 |"), filled);
    assertTrue(filled.contains("| 64 | 660,000 |"), filled);
    for (String[] s : JmhRunner.SWEEPS) {
      assertTrue(
          Files.size(
                  docs.resolve(PerformanceReport.CHART_DIR)
                      .resolve("jmh-send-" + s[0].toLowerCase() + ".png"))
              > 0,
          s[0]);
    }
    assertTrue(filled.contains("| 256 KiB | 1,000,000 (900,000–1,100,000) |"), filled);
    for (String chart :
        new String[] {
          "throughput-vs-recordsize.png",
          "cpu-vs-recordsize.png",
          "throughput-vs-appthreads.png",
          "p99-vs-appthreads.png"
        }) {
      assertTrue(Files.size(docs.resolve(PerformanceReport.CHART_DIR).resolve(chart)) > 0, chart);
    }
    // the reloaded file gives the same rows
    assertTrue(
        JmhRunner.loadSweeps(docs.resolve("perf-data").resolve(JmhRunner.SWEEPS_FILE))
            .equals(rows));
  }

  @Test
  void withoutTheirDataTheirBlocksHaveNone() throws IOException {
    RunSpec lz4 = RunSpec.reference().withTiming(1, 1).withCompression(Compression.LZ4, 0);
    PerformanceReport report =
        PerformanceReport.load(
            docs,
            List.of(run("compression", lz4.withLabel("logproducer lz4"), 700_000, 581, 195)),
            List.of(),
            null,
            meta());
    for (String name :
        List.of("record-size", "app-threads", "jmh-sweep-sendThreads", "jmh-sweep-compression")) {
      assertNull(report.blocks().get(name).get(), name);
    }
    assertTrue(report.charts().isEmpty(), report.charts().toString());
  }
}
