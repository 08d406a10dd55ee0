package io.logproducer.benchmark.report;

import io.logproducer.Compression;
import io.logproducer.benchmark.harness.JfrProfile;
import io.logproducer.benchmark.harness.JmhRunner;
import io.logproducer.benchmark.harness.RunResult;
import io.logproducer.benchmark.harness.Sample;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Fills the data blocks of the hand-written {@code docs/PERFORMANCE.md} (see {@link Page}) and
 * draws its charts under {@code docs/performance/}, from the suite's data in {@code
 * docs/perf-data/} alone ({@code results.tsv}, {@code jmh.tsv}, {@code meta.properties}, {@code
 * profile.tsv}, and when present {@code appenders.tsv}, {@code jmh-send-sweeps.tsv}, {@code
 * history.tsv}, {@code published.tsv}), so {@code --report-only} reproduces the page from a clean
 * clone. People write the page's prose; this class writes only tables and charts. Not thread-safe.
 */
public final class PerformanceReport {

  static final String PAGE = "PERFORMANCE.md";
  static final String CHART_DIR = "performance";

  /** A chart as drawn: kept so that tests can check what went into it. */
  record Chart(
      String file,
      String title,
      String xLabel,
      String yLabel,
      List<String> categories,
      List<Charts.Series> series,
      boolean logY,
      boolean bars) {

    /**
     * One series of medians with a whisker from the slowest to the fastest sample of each category.
     */
    static Chart whiskers(
        String file,
        String title,
        String xLabel,
        String yLabel,
        List<String> categories,
        List<Sample[]> groups,
        String seriesName,
        boolean bars) {
      double[] v = new double[groups.size()];
      double[] lo = new double[groups.size()];
      double[] hi = new double[groups.size()];
      for (int i = 0; i < v.length; i++) {
        List<Sample> l = List.of(groups.get(i));
        v[i] = SuiteData.med(l, RunResult::recordsPerSec);
        lo[i] = SuiteData.min(l, RunResult::recordsPerSec);
        hi[i] = SuiteData.max(l, RunResult::recordsPerSec);
      }
      return new Chart(
          file,
          title,
          xLabel,
          yLabel,
          categories,
          List.of(new Charts.Series(seriesName, v, lo, hi)),
          false,
          bars);
    }

    /** This chart with a logarithmic y axis. */
    Chart withLogY() {
      return new Chart(file, title, xLabel, yLabel, categories, series, true, bars);
    }

    void draw(Path dir) throws IOException {
      Charts.draw(dir.resolve(file), title, xLabel, yLabel, categories, series, logY, bars);
    }
  }

  private final Path docs;
  private final SuiteData data;
  private final List<Chart> charts = new ArrayList<>();

  private PerformanceReport(Path docs, SuiteData data) {
    this.docs = docs;
    this.data = data;
  }

  /**
   * Reads the data of {@code docs/perf-data}; when {@code jfr} (the suite's recording of the
   * profile run) exists, first (re)writes its summary to {@code perf-data/profile.tsv}.
   *
   * @throws IOException when a data file cannot be read or is malformed
   */
  public static PerformanceReport load(
      Path docs, List<Sample> samples, List<JmhRunner.Row> jmh, Path jfr, Map<String, String> meta)
      throws IOException {
    Path dataDir = docs.resolve("perf-data");
    Path summary = dataDir.resolve("profile.tsv");
    List<Sample> profile = samples.stream().filter(s -> s.section().equals("profile")).toList();
    if (jfr != null && Files.exists(jfr) && !profile.isEmpty()) {
      RunResult r = profile.get(0).result();
      JfrProfile prof =
          r.has("jfrFrom")
              ? JfrProfile.analyze(
                  jfr, ProfileSummary::threadGroupOf, r.getLong("jfrFrom"), r.getLong("jfrTo"))
              : JfrProfile.analyze(jfr, ProfileSummary::threadGroupOf);
      ProfileSummary.of(prof).write(summary);
    }
    SuiteData d =
        new SuiteData(
            samples,
            jmh,
            meta,
            AppenderResults.load(dataDir.resolve(AppenderResults.FILE)),
            JmhRunner.loadSweeps(dataDir.resolve(JmhRunner.SWEEPS_FILE)),
            Files.exists(summary) ? ProfileSummary.read(summary) : null,
            History.load(dataDir.resolve(History.FILE)),
            Published.load(dataDir.resolve(Published.FILE)),
            LongRunTables.Data.load(dataDir.resolve(LongRunTables.FILE)));
    return new PerformanceReport(docs, d);
  }

  /**
   * {@return every block the page may hold, by name; a block's value is null when its data is
   * missing}
   */
  Map<String, Supplier<String>> blocks() {
    Map<String, Supplier<String>> blocks = new LinkedHashMap<>();
    new PeerTables(data, charts).register(blocks);
    new SweepTables(data, charts).register(blocks);
    new CpuTables(data, charts).register(blocks);
    new LongRunTables(data.longRuns).register(blocks);
    new AppenderTables(data.appenders).register(blocks);
    new AppenderSuiteTables(docs.resolve("perf-data"), charts).register(blocks);
    return blocks;
  }

  /**
   * {@return {@code page} with its blocks filled from the data}; the charts of its blocks are then
   * in {@link #charts()}
   */
  String fill(String page) {
    charts.clear();
    Map<String, Supplier<String>> blocks = blocks();
    return Page.fill(
        PAGE,
        page,
        name -> {
          Supplier<String> block = blocks.get(name);
          if (block == null) {
            throw new IllegalStateException(
                PAGE + ": unknown block '" + name + "'; known: " + blocks.keySet());
          }
          return block.get();
        });
  }

  /**
   * Fills {@code docs/PERFORMANCE.md} in place and draws the charts of its blocks.
   *
   * @throws IOException when the page cannot be read or written
   * @throws IllegalStateException naming the block when a block of the page has no data
   */
  public void write() throws IOException {
    Path file = docs.resolve(PAGE);
    String filled = fill(Files.readString(file, StandardCharsets.UTF_8));
    Files.createDirectories(docs.resolve(CHART_DIR));
    for (Chart c : charts) {
      c.draw(docs.resolve(CHART_DIR));
    }
    Files.writeString(file, filled, StandardCharsets.UTF_8);
  }

  /** The charts of the last {@link #fill}. */
  List<Chart> charts() {
    return charts;
  }

  /**
   * {@return this data's headline figures as a row of the history} (see {@link History})
   *
   * @param note what changed since the last row, or ""
   */
  public History.Row historyRow(String note) {
    Sample head = data.head();
    int bestIo = data.aliyunBest();
    JmhRunner.Row encoder = data.jmhRow("OtlpEncoderBenchmark", "encoding", "PROTOBUF");
    return new History.Row(
        data.meta.getOrDefault("measured", "?"),
        SuiteData.rate(data.lp(Compression.LZ4)),
        SuiteData.rate(data.lp(Compression.ZSTD)),
        SuiteData.rate(data.lp(Compression.GZIP)),
        SuiteData.rate(data.lp(Compression.NONE)),
        head == null ? Double.NaN : head.result().cpuMicrosPerRecord(),
        data.calibrationCpuMicros(),
        SuiteData.rate(data.otel(true, Compression.NONE)),
        bestIo > 0 ? SuiteData.rate(data.aliyun(bestIo)) : Double.NaN,
        encoder == null ? Double.NaN : encoder.score(),
        note);
  }
}
