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
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generated performance page: its vocabulary, its honesty rules, and that it is reproducible from its data. */
class ReportWriterTest {

  /** Words that mean something only to the project's own developers. */
  private static final List<Pattern> INSIDER = List.of(
      Pattern.compile("\\bbrief\\b", Pattern.CASE_INSENSITIVE),
      Pattern.compile("\\blead\\b", Pattern.CASE_INSENSITIVE),
      Pattern.compile("\\bseeds?\\b", Pattern.CASE_INSENSITIVE),
      Pattern.compile("\\bissues?\\b", Pattern.CASE_INSENSITIVE),
      Pattern.compile("\\bround\\b", Pattern.CASE_INSENSITIVE),
      Pattern.compile("shared/", Pattern.CASE_INSENSITIVE),
      Pattern.compile("\\.\\./shared", Pattern.CASE_INSENSITIVE),
      Pattern.compile("workload\\.md", Pattern.CASE_INSENSITIVE));

  @TempDir
  Path docs;

  @Test
  void pageSpeaksToUsersNotInsiders() throws IOException {
    String page = write(fixture(), meta());
    for (Pattern p : INSIDER) {
      assertFalse(p.matcher(page).find(), () -> "the page says '" + p.pattern() + "'");
    }
    assertFalse(page.contains("✅") || page.contains("❌"), "judgement marks in the page");
    String goals = section(page, "## Project goals");
    assertTrue(goals.contains("logproducer's own performance goals"), goals);
    assertTrue(goals.contains("| not yet |") && goals.contains("| met |"), goals);
    // the JFR recording is never presented as part of the repository
    for (String line : page.split("\n")) {
      if (line.contains("profile.jfr") && !line.startsWith("java -cp")) {
        assertTrue(line.toLowerCase(Locale.ROOT).contains("not committed"), line);
      }
    }
  }

  @Test
  void summaryStatesWorkloadMachineMediansAndRanges() throws IOException {
    String page = write(fixture(), meta());
    String summary = section(page, "## Summary");
    assertTrue(summary.contains("10 application threads"), summary);
    assertTrue(summary.contains("OTLP/HTTP (protobuf)"), summary);
    assertTrue(summary.contains("separate JVM on the same machine"), summary);
    assertTrue(summary.contains("**On what.** Test CPU 9000, 2 cores"), summary);
    assertTrue(summary.contains("lower bounds"), summary);
    // lz4: three runs at 600,000, 700,000 and 900,000 records/s
    assertTrue(summary.contains("| logproducer | lz4 | **700,000** | 600,000–900,000 | 3 |"), summary);
    assertTrue(page.startsWith("# logproducer performance\n\nHow many"), page);
    assertTrue(page.contains("(measured 2030-01-02 03:04 UTC)"), page);
    assertTrue(page.contains("\n> A note that comes with the data.\n"), page);
  }

  @Test
  void theMachineIsTheOneRecordedWithTheDataNeverTheCurrentOne() throws IOException {
    Map<String, String> meta = meta();
    meta.keySet().removeIf(k -> k.startsWith(ReportWriter.MACHINE_PREFIX));
    String page = write(fixture(), meta);
    assertTrue(page.contains("| Machine | not recorded with this data |"), page);
    assertFalse(page.contains(MachineInfo.collect().get("OS")), page);
  }

  @Test
  void publishedFiguresStayInTheirOwnTableAndOutOfCharts() throws IOException {
    ReportWriter w = new ReportWriter(docs, fixture(), List.of(), null, meta());
    w.write();
    String page = Files.readString(docs.resolve("PERFORMANCE.md"), StandardCharsets.UTF_8);
    List<Double> published = new ArrayList<>();
    Stream.of(ReportWriter.PUBLISHED_SEND_THREADS, ReportWriter.PUBLISHED_TOTAL, ReportWriter.PUBLISHED_BATCH)
        .forEach(m -> published.addAll(m.values()));

    assertEquals(5, w.charts().size());
    for (ReportWriter.Chart c : w.charts()) {
      assertTrue(Files.size(docs.resolve(ReportWriter.CHART_DIR).resolve(c.file())) > 0, c.file());
      for (Charts.Series s : c.series()) {
        assertFalse(s.name().toLowerCase(Locale.ROOT).contains("published"), s.name());
        assertFalse(s.name().contains("JD Cloud"), s.name());
        for (double[] values : new double[][] {s.values(), s.low(), s.high()}) {
          for (double v : values == null ? new double[0] : values) {
            assertFalse(published.contains(v), () -> c.file() + " plots the published figure " + v);
          }
        }
      }
    }

    int start = page.indexOf(ReportWriter.PUBLISHED_HEADING);
    assertTrue(start > 0);
    int end = page.indexOf("\n## ", start + 1);
    String own = page.substring(start, end);
    assertTrue(own.contains("cannot be compared"), own);
    assertFalse(own.contains("×"), "a ratio against published figures: " + own);
    for (double v : published) {
      Matcher m = Pattern.compile("(?<![\\d.,])" + Pattern.quote(Report.f1(v)) + "(?![\\d])").matcher(page);
      while (m.find()) {
        assertTrue(m.start() > start && m.start() < end, () -> "published " + v + " outside its table");
      }
    }
    // no other vendor or its hardware anywhere else
    String rest = page.substring(0, start) + page.substring(end);
    assertFalse(rest.contains("8338C") || rest.contains("Aliyun") || rest.contains("Tencent"), rest);
    assertFalse(rest.replace("the performance test published with the JD Cloud Java producer", "")
        .replace("published with the JD Cloud Java producer's performance test", "").contains("JD Cloud"), rest);
  }

  @Test
  void ratiosOnlyBetweenClientsOfTheSameRun() throws IOException {
    String page = write(fixture(), meta());
    String ratios = page.substring(page.indexOf("**Ratios**"), page.indexOf("**Why the SDK is slower here.**"));
    // lz4 700,000/s against the tuned SDK's 100,000/s (median of 90,000 and 110,000)
    assertTrue(ratios.contains("| lz4 (700,000/s) | OTel tuned, none (100,000/s) | **7.0×** |"), ratios);
    assertTrue(ratios.contains("| lz4 (700,000/s) | OTel defaults (what it delivered) (20,000/s) | **35.0×** |"),
        ratios);
    assertTrue(page.contains("(**90.0 % lost**)"), page);
  }

  @Test
  void committedPageIsExactlyWhatItsDataProduces() throws IOException {
    Path repoDocs = Path.of("..", "docs");
    Path data = repoDocs.resolve("perf-data");
    if (!Files.exists(data.resolve("results.tsv"))) {
      return; // not run from the repository
    }
    Files.createDirectories(docs.resolve("perf-data"));
    for (String f : List.of("results.tsv", "jmh.tsv", "meta.properties", "profile.tsv", AppenderResults.FILE,
        JmhRunner.SWEEPS_FILE, History.FILE)) {
      if (Files.exists(data.resolve(f))) {
        Files.copy(data.resolve(f), docs.resolve("perf-data").resolve(f));
      }
    }
    new ReportWriter(docs, PerformanceSuite.readSamples(data.resolve("results.tsv")),
        JmhRunner.load(data.resolve("jmh.tsv")), null, PerformanceSuite.readMeta(data.resolve("meta.properties")))
        .write();
    String generated = Files.readString(docs.resolve("PERFORMANCE.md"), StandardCharsets.UTF_8);
    assertEquals(Files.readString(repoDocs.resolve("PERFORMANCE.md"), StandardCharsets.UTF_8), generated,
        "docs/PERFORMANCE.md differs from what docs/perf-data produces: run producer-benchmark/run-suite.sh "
            + "--report-only");
    for (Pattern p : INSIDER) {
      assertFalse(p.matcher(generated).find(), () -> "the page says '" + p.pattern() + "'");
    }
  }

  @Test
  void appenderSectionOnlyWithItsDataAndFromItAlone() throws IOException {
    String without = write(fixture(), meta());
    assertFalse(without.contains(ReportWriter.APPENDERS_HEADING), "no appenders.tsv, no section");
    assertFalse(without.contains("appenders.tsv"), without);

    Files.createDirectories(docs.resolve("perf-data"));
    Files.writeString(docs.resolve("perf-data").resolve(AppenderResults.FILE), APPENDERS, StandardCharsets.UTF_8);
    String page = write(fixture(), meta());
    String s = section(page, ReportWriter.APPENDERS_HEADING);
    // after the JMH section, before the published figures
    assertTrue(page.indexOf(ReportWriter.APPENDERS_HEADING) > page.indexOf("## Profile"), page);
    assertTrue(page.indexOf(ReportWriter.APPENDERS_HEADING) < page.indexOf(ReportWriter.PUBLISHED_HEADING), page);
    assertTrue(s.contains("(measured: JMH 2030-01-02 03:04 UTC; Test CPU, 2 cores)"), s);
    assertTrue(s.contains("\n> The machine was busy.\n"), s);
    assertTrue(s.contains("encodes it to protobuf **on the logging thread**"), s);
    assertTrue(s.contains("encodes it **on its exporter thread**"), s);
    assertTrue(s.contains("`logproducer` 100.0 % (1 thread) and 100.0 % (4 threads); `logproducer-async` 40.0 % "
        + "(1 thread) and 20.0 % (4 threads); `otel` 10.0 % (1 thread) and 5.0 % (4 threads)."), s);
    assertTrue(s.contains("| logproducer | 1 | 600.0 ± 50.0 | 500.0 | 1200.0 | 100.0 % (1,000 of 1,000) |"), s);
    assertTrue(s.contains("| noop | 4 | 100.0 ± 1.0 | 50.0 | 144.0 | – (sends nothing) |"), s);
    // ratios against otel at each thread count, with the project's goal (≤ 0.50×); no logproducer-queue rows here
    assertTrue(s.contains("| ns/op | 1 | **1.50×** | not yet | – | – | **0.50×** | met |"), s);
    assertTrue(s.contains("| ns/op | 4 | **2.00×** | not yet | – | – | **0.40×** | met |"), s);
    assertTrue(s.contains("| logging-thread CPU ns/op | 1 | **1.67×** | not yet | – | – | **0.67×** | not yet |"), s);
    assertTrue(s.contains("| logging-thread CPU ns/op | 4 | **0.50×** | met | – | – | **0.25×** | met |"), s);
    assertTrue(s.contains("logproducer's own goal is **at most half of OpenTelemetry's logback appender's cost per "
        + "event on the logging thread**"), s);
    assertTrue(s.contains(ReportWriter.APPENDER_WHERE_TIME_GOES), s);
    assertTrue(s.contains("while 60.0 % (1 thread) and 80.0 % (4 threads) of the events never reached it"), s);
    // end to end: median and range of the runs; one run short of its records is named
    assertTrue(s.contains("| logback | 3 | 1,000,000 | 200,000 | 100,000–300,000 | 120.0 | all, in every run ✓ |"), s);
    assertTrue(s.contains("| log4j2 | 2 | 1,000,000 | 150,000 | 100,000–200,000 | 90.0 | ✗ run 2: 999,000 of "
        + "1,000,000 (failed 0, refused 1,000, not sent 0) |"), s);
    assertTrue(s.contains("\nproducer-benchmark/run-appender-bench.sh\n"), s);
    assertTrue(s.contains("\njava -jar examples/target/logproducer-examples.jar log4j2 --records 1000000 --quiet\n"),
        s);
    assertTrue(s.contains("java -jar producer-benchmark/target/benchmarks.jar AppenderBenchmark -t 4 -prof gc"), s);
    for (Pattern p : INSIDER) {
      assertFalse(p.matcher(page).find(), () -> "the page says '" + p.pattern() + "'");
    }
    assertFalse(page.contains("✅") || page.contains("❌"), "judgement marks in the page");
    // the file alone makes the section: the same file, the same page
    assertEquals(page, write(fixture(), meta()));
  }

  private static final String APPENDERS = String.join("\n",
      "# measured JMH 2030-01-02 03:04 UTC; Test CPU, 2 cores",
      "# note The machine was busy.",
      String.join("\t", AppenderResults.COLUMNS),
      jmhRow("logproducer", 1, 600, 50, 500, 1200, 1000, 1000, 0),
      jmhRow("logproducer-async", 1, 200, 20, 200, 700, 1000, 400, 0),
      jmhRow("otel", 1, 400, 40, 300, 1100, 1000, 100, -1),
      jmhRow("noop", 1, 50, 1, 45, 48, 1000, -1, -1),
      jmhRow("logproducer", 4, 2000, 500, 400, 1200, 1000, 1000, 0),
      jmhRow("logproducer-async", 4, 400, 40, 200, 600, 1000, 200, 0),
      jmhRow("otel", 4, 1000, 100, 800, 900, 1000, 50, -1),
      jmhRow("noop", 4, 100, 1, 50, 144, 1000, -1, -1),
      e2eRow("logback", 1, 1_000_000, 100_000, 60),
      e2eRow("logback", 2, 1_000_000, 300_000, 180),
      e2eRow("logback", 3, 1_000_000, 200_000, 120),
      e2eRow("log4j2", 1, 1_000_000, 100_000, 60),
      e2eRow("log4j2", 2, 999_000, 200_000, 120).replace("\t999000\t0\t0\t0\t", "\t999000\t0\t1000\t0\t")
          .replace("\t999000\t999000\t", "\t1000000\t999000\t")) + "\n";

  private static String jmhRow(String v, int threads, double ns, double err, double cpu, double bytes, long logged,
      long received, long dropped) {
    return String.join("\t", "jmh", v, Integer.toString(threads), Double.toString(ns), Double.toString(err),
        Double.toString(cpu), Double.toString(bytes), Long.toString(logged), received < 0 ? "-" : Long.toString(received),
        dropped < 0 ? "-" : Long.toString(dropped), "-", "-", "-", "-", "-", "-", "-", "-");
  }

  private static String e2eRow(String fw, int run, long delivered, double perSec, double rawMb) {
    return String.join("\t", "e2e", fw, Integer.toString(run), "-", "-", "-", "-", "-", "-", "-",
        Long.toString(delivered), Long.toString(delivered), "0", "0", "0", Double.toString(perSec),
        Double.toString(rawMb), Double.toString(rawMb * 1.2));
  }

  // ---------------------------------------------------------------- fixture

  private String write(List<Sample> samples, Map<String, String> meta) throws IOException {
    new ReportWriter(docs, samples, List.of(), null, meta).write();
    return Files.readString(docs.resolve("PERFORMANCE.md"), StandardCharsets.UTF_8);
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
    m.put(ReportWriter.MACHINE_PREFIX + "Memory", "8.0 GiB");
    m.put(ReportWriter.MACHINE_PREFIX + "JDK", "Test JDK 17");
    m.put("note", "A note that comes with the data.");
    return m;
  }

  /** One run of one second: {@code perSec} records delivered (of {@code emitted}), verified by the sink. */
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
    if (spec.client() == Client.LOGPRODUCER) {
      r.append(" cpu.sender=").append(perSec * 400);
    } else if (spec.client() == Client.OTEL) {
      r.append(" cpu.otel-worker=").append(perSec * 1_500).append(" cpu.http=").append(perSec * 2_500);
    }
    if (spec.client() != Client.GENERATE) {
      // the machine was busy with this run and the sink only: no run is marked as disturbed
      r.append(" sinkRecords=").append(perSec).append(" sinkCpuNanosPerRecord=301.0 sinkCpuPercent=20.0")
          .append(" machineBusyPercent=").append(perSec * 2_100 / 1e7 + 21);
    }
    if (spec.jfr()) {
      r.append(" jfrFrom=1000 jfrTo=2000");
    }
    return new Sample(section, spec, RunResult.parse(r.toString()));
  }

  private static Sample run(String section, RunSpec spec, long perSec) {
    return run(section, spec, perSec, perSec, 0);
  }

  private static List<Sample> fixture() {
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
    l.add(run("latency", lz4.withRateLimit(300_000).withLabel("lz4 paced to 300,000/s"), 300_000));
    l.add(run("profile", lz4.withJfr(true).withLabel("lz4, JFR profile"), 610_000));
    l.add(run("calibration", base.withClient(Client.GENERATE).withLabel("generate only (end)"), 4_900_000));
    return l;
  }

  /** From {@code heading} to the next heading of the same level. */
  private static String section(String page, String heading) {
    int start = page.indexOf(heading + "\n");
    assertTrue(start >= 0, heading);
    int end = page.indexOf("\n## ", start + 1);
    return page.substring(start, end < 0 ? page.length() : end);
  }
}
