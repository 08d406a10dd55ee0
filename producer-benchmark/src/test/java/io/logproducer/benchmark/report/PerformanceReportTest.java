package io.logproducer.benchmark.report;

import static io.logproducer.benchmark.report.ReportFixture.block;
import static io.logproducer.benchmark.report.ReportFixture.fixture;
import static io.logproducer.benchmark.report.ReportFixture.meta;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.benchmark.harness.JmhRunner;
import io.logproducer.benchmark.harness.MachineInfo;
import io.logproducer.benchmark.harness.PerformanceSuite;
import io.logproducer.benchmark.harness.Sample;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The performance page: its tables come from its data alone, the committed page is exactly what its
 * data fills in, the prose stays as people wrote it, and the page's honesty rules hold.
 */
class PerformanceReportTest {

  /** Words that mean something only to the project's own developers. */
  private static final List<Pattern> INSIDER =
      List.of(
          Pattern.compile("\\bbrief\\b", Pattern.CASE_INSENSITIVE),
          Pattern.compile("\\blead\\b", Pattern.CASE_INSENSITIVE),
          Pattern.compile("\\bseeds?\\b", Pattern.CASE_INSENSITIVE),
          Pattern.compile("\\bissues?\\b", Pattern.CASE_INSENSITIVE),
          Pattern.compile("\\bround\\b", Pattern.CASE_INSENSITIVE),
          Pattern.compile("shared/", Pattern.CASE_INSENSITIVE),
          Pattern.compile("\\.\\./shared", Pattern.CASE_INSENSITIVE),
          Pattern.compile("workload\\.md", Pattern.CASE_INSENSITIVE));

  private static final Path REPO_DOCS = Path.of("..", "docs");

  @TempDir Path docs;

  @Test
  void committedPageIsExactlyWhatItsDataFillsIn() throws IOException {
    String committed =
        Files.readString(REPO_DOCS.resolve(PerformanceReport.PAGE), StandardCharsets.UTF_8);
    String filled = committedReport().fill(committed);
    assertEquals(
        committed,
        filled,
        "docs/PERFORMANCE.md differs from what docs/perf-data fills in: run "
            + "producer-benchmark/run-suite.sh --report-only");
    assertEquals(PageTest.withoutBlockContents(committed), PageTest.withoutBlockContents(filled));
  }

  @Test
  void committedPageSpeaksToUsersNotInsiders() throws IOException {
    String page =
        Files.readString(REPO_DOCS.resolve(PerformanceReport.PAGE), StandardCharsets.UTF_8);
    for (Pattern p : INSIDER) {
      assertFalse(p.matcher(page).find(), () -> "the page says '" + p.pattern() + "'");
    }
    assertFalse(page.contains("✅") || page.contains("❌"), "judgement marks in the page");
    assertTrue(page.contains("logproducer's own performance goals"), page);
    // the JFR recording is never presented as part of the repository
    for (String line : page.split("\n")) {
      if (line.contains("profile.jfr") && !line.startsWith("java -cp")) {
        assertTrue(line.toLowerCase(Locale.ROOT).contains("not committed"), line);
      }
    }
  }

  @Test
  void everyBlockOfTheCommittedPageHasData() throws IOException {
    String page =
        Files.readString(REPO_DOCS.resolve(PerformanceReport.PAGE), StandardCharsets.UTF_8);
    Map<String, java.util.function.Supplier<String>> blocks = committedReport().blocks();
    Matcher m = Pattern.compile("<!-- data:([^ ]+) -->").matcher(page);
    int n = 0;
    while (m.find()) {
      assertTrue(blocks.containsKey(m.group(1)), m.group(1));
      n++;
    }
    assertEquals(blocks.size(), n, "every block the report can fill is on the page once");
  }

  @Test
  void aBlockWithoutItsDataFailsNamingIt() throws IOException {
    PerformanceReport report =
        PerformanceReport.load(docs, fixture(false), List.of(), null, meta());
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                report.fill(
                    "# p\n\n<!-- data:peers -->\n<!-- /data -->\n\n<!-- data:aliyun -->\n<!-- /data -->\n"));
    assertEquals("PERFORMANCE.md: block 'aliyun' has no data", e.getMessage());
    IllegalStateException unknown =
        assertThrows(
            IllegalStateException.class, () -> report.fill("<!-- data:nonsense --><!-- /data -->"));
    assertTrue(
        unknown.getMessage().startsWith("PERFORMANCE.md: unknown block 'nonsense'"),
        unknown.getMessage());
  }

  @Test
  void goalsSayMetOrNotYetOnly() throws IOException {
    String goals = block(docs, fixture(false), meta(), "goals");
    assertTrue(goals.contains("| not yet |") && goals.contains("| met |"), goals);
    assertFalse(goals.contains("✅") || goals.contains("❌"), goals);
  }

  @Test
  void headlineStatesMachineMediansAndRanges() throws IOException {
    List<Sample> data = fixture(false);
    assertTrue(
        block(docs, data, meta(), "headline")
            .contains("| logproducer | lz4 | **700,000** | 600,000–900,000 | 3 |"));
    assertEquals(
        "Test CPU 9000, 2 cores, 8.0 GiB, Test JDK 17", block(docs, data, meta(), "on-what"));
    assertEquals("2030-01-02 03:04 UTC", block(docs, data, meta(), "measured"));
    assertEquals(
        "1 min 01 s (warmup 1.0 s, duration 1.0 s, repeats 3)",
        block(docs, data, meta(), "suite-time"));
  }

  @Test
  void theMachineIsTheOneRecordedWithTheDataNeverTheCurrentOne() throws IOException {
    Map<String, String> meta = meta();
    String machine = block(docs, fixture(false), meta, "machine");
    assertTrue(machine.contains("| CPU | Test CPU 9000 |"), machine);
    assertFalse(machine.contains(MachineInfo.collect().get("OS")), machine);
    meta.keySet().removeIf(k -> k.startsWith(SuiteData.MACHINE_PREFIX));
    assertNull(block(docs, fixture(false), meta, "machine"));
  }

  @Test
  void ratiosOnlyBetweenClientsOfTheSameRun() throws IOException {
    String ratios = block(docs, fixture(false), meta(), "peer-ratios");
    // lz4 700,000/s against the tuned SDK's 100,000/s (median of 90,000 and 110,000)
    assertTrue(
        ratios.contains("| lz4 (700,000/s) | OTel tuned, none (100,000/s) | **7.0×** |"), ratios);
    assertTrue(
        ratios.contains(
            "| lz4 (700,000/s) | OTel defaults (what it delivered) (20,000/s) | **35.0×** |"),
        ratios);
    assertTrue(block(docs, fixture(false), meta(), "peers").contains("(**90.0 % lost**)"));
  }

  @Test
  void publishedFiguresStayInTheirOwnTableAndOutOfCharts() throws IOException {
    Files.createDirectories(docs.resolve("perf-data"));
    Files.copy(
        REPO_DOCS.resolve("perf-data").resolve(Published.FILE),
        docs.resolve("perf-data").resolve(Published.FILE));
    List<Published.Row> rows = Published.load(docs.resolve("perf-data").resolve(Published.FILE));
    assertEquals(14, rows.size());
    assertTrue(rows.stream().allMatch(r -> r.source().contains("JD Cloud")), rows.toString());
    PerformanceReport report =
        PerformanceReport.load(docs, fixture(false), List.of(), null, meta());
    Map<String, java.util.function.Supplier<String>> blocks = report.blocks();
    String published = blocks.get("published").get();
    assertTrue(
        published.contains(
            "| sendThreads (totalSizeInBytes 100 MiB, batchSizeInBytes 2 MiB) | 32 | 298.3 |"),
        published);
    assertFalse(published.contains("×"), "a ratio against published figures: " + published);
    blocks.forEach(
        (name, b) -> {
          if (!name.equals("published")) {
            b.get();
          }
        });
    assertEquals(5, report.charts().size()); // peers, three sweeps, latency
    for (PerformanceReport.Chart c : report.charts()) {
      for (Charts.Series s : c.series()) {
        assertFalse(s.name().toLowerCase(Locale.ROOT).contains("published"), s.name());
        for (double v : s.values()) {
          assertFalse(
              rows.stream().anyMatch(r -> r.rawMbPerSec() == v), () -> c.file() + " plots " + v);
        }
      }
    }
    // on the committed page, the published figures' source is named only in their own section and
    // the workload's
    String page =
        Files.readString(REPO_DOCS.resolve(PerformanceReport.PAGE), StandardCharsets.UTF_8);
    int start = page.indexOf("## Published by others, on their hardware — not comparable\n");
    int end = page.indexOf("\n## ", start + 1);
    assertTrue(start > 0 && page.substring(start, end).contains("cannot be compared"));
    String rest = page.substring(0, start) + page.substring(end);
    assertFalse(rest.contains("8338C"), rest);
  }

  @Test
  void appenderTablesFromTheirFileAlone() throws IOException {
    assertNull(block(docs, fixture(false), meta(), "appenders"), "no appenders.tsv, no data");
    Files.createDirectories(docs.resolve("perf-data"));
    Files.writeString(
        docs.resolve("perf-data").resolve(AppenderResults.FILE), APPENDERS, StandardCharsets.UTF_8);
    List<Sample> data = fixture(false);
    assertEquals(
        "JMH 2030-01-02 03:04 UTC; Test CPU, 2 cores",
        block(docs, data, meta(), "appenders-measured"));
    String jmh = block(docs, data, meta(), "appenders");
    assertTrue(
        jmh.contains(
            "| logproducer | 1 | 600.0 ± 50.0 | 500.0 | 1200.0 | 100.0 % (1,000 of 1,000) | – |"),
        jmh);
    assertTrue(
        jmh.contains("| noop | 4 | 100.0 ± 1.0 | 50.0 | 144.0 | – (sends nothing) | – |"), jmh);
    // AsyncAppender's silent drops: 60 % and 80 % of the events never reached our appender, which
    // counted none
    assertTrue(
        jmh.contains(
            "| logproducer-async | 1 | 200.0 ± 20.0 | 200.0 | 700.0 | 40.0 % (400 of 1,000) | 60.0 % |"),
        jmh);
    assertTrue(jmh.contains("| 20.0 % (200 of 1,000) | 80.0 % |"), jmh);
    // ratios against otel at each thread count, with the project's goal (≤ 0.50×); no
    // logproducer-queue rows here
    String r = block(docs, data, meta(), "appender-ratios");
    assertTrue(r.contains("| ns/op | 1 | **1.50×** | not yet | – | – | **0.50×** | met |"), r);
    assertTrue(r.contains("| ns/op | 4 | **2.00×** | not yet | – | – | **0.40×** | met |"), r);
    assertTrue(
        r.contains(
            "| logging-thread CPU ns/op | 1 | **1.67×** | not yet | – | – | **0.67×** | not yet |"),
        r);
    assertTrue(
        r.contains("| logging-thread CPU ns/op | 4 | **0.50×** | met | – | – | **0.25×** | met |"),
        r);
    // end to end: median and range of the runs; one run short of its records is named
    String e = block(docs, data, meta(), "appenders-e2e");
    assertTrue(
        e.contains(
            "| logback | 3 | 1,000,000 | 200,000 | 100,000–300,000 | 120.0 | all, in every run ✓ |"),
        e);
    assertTrue(
        e.contains(
            "| log4j2 | 2 | 1,000,000 | 150,000 | 100,000–200,000 | 90.0 | ✗ run 2: 999,000 of "
                + "1,000,000 (failed 0, refused 1,000, not sent 0) |"),
        e);
  }

  private PerformanceReport committedReport() throws IOException {
    Path data = REPO_DOCS.resolve("perf-data");
    return PerformanceReport.load(
        REPO_DOCS,
        Sample.readAll(data.resolve("results.tsv")),
        JmhRunner.load(data.resolve("jmh.tsv")),
        null,
        PerformanceSuite.readMeta(data.resolve("meta.properties")));
  }

  private static final String APPENDERS =
      String.join(
              "\n",
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
              e2eRow("log4j2", 2, 999_000, 200_000, 120)
                  .replace("\t999000\t0\t0\t0\t", "\t999000\t0\t1000\t0\t")
                  .replace("\t999000\t999000\t", "\t1000000\t999000\t"))
          + "\n";

  private static String jmhRow(
      String v,
      int threads,
      double ns,
      double err,
      double cpu,
      double bytes,
      long logged,
      long received,
      long dropped) {
    return String.join(
        "\t",
        "jmh",
        v,
        Integer.toString(threads),
        Double.toString(ns),
        Double.toString(err),
        Double.toString(cpu),
        Double.toString(bytes),
        Long.toString(logged),
        received < 0 ? "-" : Long.toString(received),
        dropped < 0 ? "-" : Long.toString(dropped),
        "-",
        "-",
        "-",
        "-",
        "-",
        "-",
        "-",
        "-");
  }

  private static String e2eRow(String fw, int run, long delivered, double perSec, double rawMb) {
    return String.join(
        "\t",
        "e2e",
        fw,
        Integer.toString(run),
        "-",
        "-",
        "-",
        "-",
        "-",
        "-",
        "-",
        Long.toString(delivered),
        Long.toString(delivered),
        "0",
        "0",
        "0",
        Double.toString(perSec),
        Double.toString(rawMb),
        Double.toString(rawMb * 1.2));
  }

  /**
   * A --quick run measures every setting once: the spread block says so instead of failing the page
   * (it did, after 4 minutes of measuring).
   */
  @Test
  void aRunWithEverySettingOnceStillFillsTheSpreadBlock() throws IOException {
    Map<String, Sample> once = new java.util.LinkedHashMap<>();
    for (Sample s : fixture(false)) {
      once.putIfAbsent(io.logproducer.benchmark.harness.Runs.specKey(s.spec()), s);
    }
    assertEquals(
        "*No setting ran more than once in this data (a `--quick` run measures each once).*",
        block(docs, List.copyOf(once.values()), meta(), "spread"));
  }
}
