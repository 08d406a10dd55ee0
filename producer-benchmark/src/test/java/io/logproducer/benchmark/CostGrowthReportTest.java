package io.logproducer.benchmark;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.benchmark.PerformanceSuite.Sample;
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

/** "How cost grows" and the JMH SendBenchmark sweeps: rendered when, and only when, their data exists. */
class CostGrowthReportTest {

  @TempDir
  Path docs;

  private static Sample run(String section, RunSpec spec, long perSec, double rawPerRecord, double machine) {
    LatencyHistogram h = new LatencyHistogram();
    for (int i = 1; i <= 100; i++) {
      h.record(1_000 + 10L * i * spec.appThreads());
    }
    String r = "RESULT emitted=" + perSec + " delivered=" + perSec + " seconds=1.0 rawBytes="
        + Math.round(perSec * rawPerRecord) + " encodedBytes=" + Math.round(perSec * rawPerRecord * 1.1)
        + " wireBytes=" + perSec * 50 + " cpuNanos=" + Math.round(perSec * (1_500 + rawPerRecord)) + " cpu.app="
        + perSec * 1_000 + " sendBlockedNanos=0 peakBufferedBytes=1000 totalSizeInBytes=" + spec.totalSizeInBytes()
        + " requestLatencyAvgMillis=10 latency=" + h.encode() + " sinkRecords=" + perSec
        + " sinkCpuPercent=45.0 machineBusyPercent=" + machine;
    return new Sample(section, spec, RunResult.parse(r));
  }

  private static Map<String, String> meta() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(ReportWriter.MACHINE_PREFIX + ReportWriter.CORES_ROW, "2");
    return m;
  }

  private List<Sample> fixture() {
    RunSpec lz4 = RunSpec.reference().withTiming(1, 1).withCompression(Compression.LZ4, 0);
    List<Sample> l = new ArrayList<>();
    l.add(run("compression", lz4.withLabel("logproducer lz4"), 700_000, 581, 195));
    l.add(run("recordSize", lz4.withRecordBytes(100).withLabel("records of 100 B"), 1_200_000, 100, 195));
    l.add(run("recordSize", lz4.withLabel("reference records (~580 B)"), 700_000, 581, 195));
    l.add(run("recordSize", lz4.withRecordBytes(4096).withLabel("records of 4 KiB"), 150_000, 4096, 195));
    l.add(run("recordSize", lz4.withRecordBytes(65536).withLabel("records of 64 KiB"), 10_000, 65536, 195));
    int[] threads = {1, 2, 4, 10, 32, 64};
    long[] rates = {250_000, 450_000, 680_000, 700_000, 690_000, 660_000};
    double[] busy = {90, 150, 192, 195, 197, 198};
    for (int i = 0; i < threads.length; i++) {
      l.add(run("appThreads", lz4.withAppThreads(threads[i]).withLabel(threads[i] + " threads"), rates[i], 581,
          busy[i]));
    }
    return l;
  }

  @Test
  void newSectionsAppearWithTheirData() throws IOException {
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
    ReportWriter w = new ReportWriter(docs, fixture(), List.of(), null, meta());
    w.write();
    String page = Files.readString(docs.resolve("PERFORMANCE.md"), StandardCharsets.UTF_8);
    assertTrue(page.contains("## How cost grows\n"), page);
    assertTrue(page.contains("### Record size\n") && page.contains("### Application threads\n"), page);
    assertTrue(page.contains("it is CPU-bound"), page);
    assertTrue(page.contains("### The same settings in JMH (`SendBenchmark`)\n"), page);
    for (String[] s : JmhRunner.SWEEPS) {
      assertTrue(page.contains(JmhRunner.sweepCommand(s[0])), s[0]);
      assertTrue(Files.size(docs.resolve(ReportWriter.CHART_DIR).resolve("jmh-send-" + s[0].toLowerCase() + ".png"))
          > 0, s[0]);
    }
    assertTrue(page.contains("| 256 KiB | 1,000,000 (900,000–1,100,000) |"), page);
    for (String chart : new String[] {"throughput-vs-recordsize.png", "cpu-vs-recordsize.png",
        "throughput-vs-appthreads.png", "p99-vs-appthreads.png"}) {
      assertTrue(Files.size(docs.resolve(ReportWriter.CHART_DIR).resolve(chart)) > 0, chart);
    }
    // the reloaded file gives the same rows
    assertTrue(JmhRunner.loadSweeps(docs.resolve("perf-data").resolve(JmhRunner.SWEEPS_FILE)).equals(rows));
  }

  @Test
  void withoutTheirDataTheyAreAbsent() throws IOException {
    RunSpec lz4 = RunSpec.reference().withTiming(1, 1).withCompression(Compression.LZ4, 0);
    new ReportWriter(docs, List.of(run("compression", lz4.withLabel("logproducer lz4"), 700_000, 581, 195)),
        List.of(), null, meta()).write();
    String page = Files.readString(docs.resolve("PERFORMANCE.md"), StandardCharsets.UTF_8);
    assertFalse(page.contains("How cost grows"), page);
    assertFalse(page.contains("SendBenchmark`)"), page);
  }
}
