package io.logproducer.benchmark;

import io.logproducer.Compression;
import io.logproducer.ProducerConfig;
import io.logproducer.benchmark.PerformanceSuite.Sample;
import io.logproducer.benchmark.Report.Table;
import io.logproducer.benchmark.RunSpec.Client;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * Writes {@code docs/PERFORMANCE.md} and its charts from the suite's data ({@code docs/perf-data/}): the samples of
 * {@code results.tsv}, the JMH rows of {@code jmh.tsv}, {@code meta.properties} (when and on what machine the data was
 * measured, the suite's options, an optional note), {@code profile.tsv} (the summary of the JFR recording, which
 * is not committed) and, when present, {@code appenders.tsv} (the logging appenders' numbers, written by
 * {@link AppenderResults} from {@code run-appender-bench.sh}'s output) and {@code jmh-send-sweeps.tsv} (the JMH
 * {@code SendBenchmark} sweeps, {@link JmhRunner#runSendSweeps()}). The page depends on nothing else, so
 * {@code --report-only} reproduces it from a clean clone.
 */
final class ReportWriter {

  /**
   * Raw MB/s published with the JD Cloud Java producer's performance test (4 vCPU Xeon 8338C, JDK 8, lz4, a remote
   * service). Other hardware, other network: shown only in their own table, never in a chart or next to a figure
   * measured here, and never divided by one.
   */
  static final Map<String, Double> PUBLISHED_SEND_THREADS = Map.of("1", 16.4, "2", 33.6, "4", 66.1, "8", 127.4,
      "16", 205.3, "32", 298.3);
  static final Map<String, Double> PUBLISHED_TOTAL = Map.of("25 MiB", 99.7, "50 MiB", 191.8, "100 MiB", 205.3,
      "200 MiB", 170.4);
  static final Map<String, Double> PUBLISHED_BATCH = Map.of("512 KiB", 169.8, "1 MiB", 184.9, "2 MiB", 205.3,
      "4 MiB", 193.8);
  static final String PUBLISHED_HEADING = "## Published by others, on their hardware — not comparable";
  static final String CHART_DIR = "performance";
  /** meta.properties keys: {@code machine.<row>} rows of the machine table, recorded when the data was measured. */
  static final String MACHINE_PREFIX = "machine.";
  static final String CORES_ROW = "Cores (available to the JVM)";

  /** A chart as drawn: kept so that tests can check what went into it. */
  record Chart(String file, String title, String xLabel, String yLabel, List<String> categories,
      List<Charts.Series> series, boolean logY, boolean bars) {
  }

  private final Path docs;
  private final List<Sample> samples;
  private final List<JmhRunner.Row> jmh;
  private final Path jfr;
  private final Map<String, String> meta;
  private final StringBuilder md = new StringBuilder();
  private final List<Chart> charts = new ArrayList<>();
  /** {@code perf-data/appenders.tsv}, or null when there is none. */
  private AppenderResults.Data appenderData;
  /** {@code perf-data/jmh-send-sweeps.tsv}'s rows; empty when there is none. */
  private List<JmhRunner.SweepRow> sendSweeps = List.of();

  /**
   * @param jfr the suite's JFR recording of the profile run, or null; when present its summary is (re)written to
   *     {@code perf-data/profile.tsv}, from which the page is written
   */
  ReportWriter(Path docs, List<Sample> samples, List<JmhRunner.Row> jmh, Path jfr, Map<String, String> meta) {
    this.docs = docs;
    this.samples = samples;
    this.jmh = jmh;
    this.jfr = jfr;
    this.meta = meta;
  }

  void write() throws IOException {
    Files.createDirectories(docs.resolve(CHART_DIR));
    appenderData = AppenderResults.load(docs.resolve("perf-data").resolve(AppenderResults.FILE));
    sendSweeps = JmhRunner.loadSweeps(docs.resolve("perf-data").resolve(JmhRunner.SWEEPS_FILE));
    header();
    summary();
    reproduce();
    setup();
    peers();
    aliyunPeer();
    goals();
    history();
    sweeps();
    costGrowth();
    defaults();
    latency();
    cpu();
    profile();
    jmhSection();
    appenders();
    published();
    method();
    Files.writeString(docs.resolve("PERFORMANCE.md"), md.toString(), StandardCharsets.UTF_8);
    for (Chart c : charts) {
      Path file = docs.resolve(CHART_DIR).resolve(c.file());
      if (c.bars()) {
        Charts.bars(file, c.title(), c.xLabel(), c.yLabel(), c.categories(), c.series(), c.logY());
      } else {
        Charts.line(file, c.title(), c.xLabel(), c.yLabel(), c.categories(), c.series(), c.logY());
      }
    }
  }

  /** The charts of the last {@link #write()}. */
  List<Chart> charts() {
    return charts;
  }

  // ---------------------------------------------------------------- selections

  private List<Sample> section(String name) {
    return samples.stream().filter(s -> s.section().equals(name)).toList();
  }

  private List<Sample> select(Predicate<Sample> p) {
    return samples.stream().filter(p).toList();
  }

  private static double med(List<Sample> list, ToDoubleFunction<RunResult> f) {
    return Report.median(list.stream().mapToDouble(s -> f.applyAsDouble(s.result())).toArray());
  }

  private static double min(List<Sample> list, ToDoubleFunction<RunResult> f) {
    return list.stream().mapToDouble(s -> f.applyAsDouble(s.result())).min().orElse(Double.NaN);
  }

  private static double max(List<Sample> list, ToDoubleFunction<RunResult> f) {
    return list.stream().mapToDouble(s -> f.applyAsDouble(s.result())).max().orElse(Double.NaN);
  }

  /** logproducer samples of the compression section with {@code c}. */
  private List<Sample> lp(Compression c) {
    return select(s -> s.section().equals("compression") && s.spec().compression() == c);
  }

  private List<Sample> otel(boolean tuned, Compression c) {
    return select(s -> s.section().equals("peers") && s.spec().otelTuned() == tuned
        && s.spec().compression() == c);
  }

  /** Samples of the Aliyun Log Java producer with {@code ioThreads} IO threads, or all of them when 0. */
  private List<Sample> aliyun(int ioThreads) {
    return select(s -> s.section().equals("aliyun") && s.spec().client() == Client.ALIYUN
        && (ioThreads == 0 || s.spec().sendThreads() == ioThreads));
  }

  /** The Aliyun producer's IO-thread counts in the data, ascending. */
  private List<Integer> aliyunIoThreads() {
    return aliyun(0).stream().map(s -> s.spec().sendThreads()).distinct().sorted().toList();
  }

  /** The Aliyun producer's fastest IO-thread count (highest median records/s), or 0 without Aliyun data. */
  private int aliyunBest() {
    int best = 0;
    double rate = -1;
    for (int io : aliyunIoThreads()) {
      double r = med(aliyun(io), RunResult::recordsPerSec);
      if (r > rate) {
        rate = r;
        best = io;
      }
    }
    return best;
  }

  /** The sample whose records/s is the median of {@code list} (the lower middle for even counts). */
  private static Sample medianSample(List<Sample> list) {
    if (list.isEmpty()) {
      return null;
    }
    List<Sample> sorted = new ArrayList<>(list);
    sorted.sort(Comparator.comparingDouble(s -> s.result().recordsPerSec()));
    return sorted.get((sorted.size() - 1) / 2);
  }

  /** Samples grouped by a label, in the order first seen. */
  private static Map<String, List<Sample>> groups(List<Sample> list, Function<Sample, String> label) {
    Map<String, List<Sample>> groups = new LinkedHashMap<>();
    for (Sample s : list) {
      groups.computeIfAbsent(label.apply(s), k -> new ArrayList<>()).add(s);
    }
    return groups;
  }

  /** Generation CPU per record, µs: the median of the calibration runs (start and end of the suite). */
  private double calibrationCpuMicros() {
    return Report.median(section("calibration").stream()
        .mapToDouble(s -> s.result().getLong("cpu.app") / 1e3 / Math.max(1, s.result().getLong("emitted")))
        .toArray());
  }

  private double calibrationAllocBytes() {
    return Report.median(section("calibration").stream()
        .mapToDouble(s -> s.result().getLong("alloc.app") / (double) Math.max(1, s.result().getLong("emitted")))
        .toArray());
  }

  private double calibrationRate() {
    return Report.median(section("calibration").stream()
        .mapToDouble(s -> s.result().getLong("emitted") / s.result().seconds()).toArray());
  }

  /** "0.38 µs (5,032,319/s) at the start, 0.39 µs (5,001,322/s) at the end". */
  private String calibrationSpread() {
    StringBuilder sb = new StringBuilder();
    for (Sample s : section("calibration")) {
      sb.append(sb.length() == 0 ? "" : ", ").append(Report.f2(s.result().getLong("cpu.app") / 1e3
          / Math.max(1, s.result().getLong("emitted")))).append(" µs (").append(Report.count(
          s.result().getLong("emitted") / s.result().seconds())).append("/s) ").append(s.spec().label()
          .contains("end") ? "at the end" : "at the start");
    }
    return sb.toString();
  }

  /** The machine table's rows, as recorded with the data (never the machine the page is regenerated on). */
  private Map<String, String> machine() {
    Map<String, String> m = new LinkedHashMap<>();
    meta.forEach((k, v) -> {
      if (k.startsWith(MACHINE_PREFIX)) {
        m.put(k.substring(MACHINE_PREFIX.length()), v);
      }
    });
    return m;
  }

  private int cores() {
    try {
      return Integer.parseInt(machine().getOrDefault(CORES_ROW, "0").trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private String standardSendThreads() {
    return meta.getOrDefault("standardSendThreads", "?");
  }

  private String standardBatch() {
    return meta.containsKey("standardBatchSize") ? Report.bytes(Long.parseLong(meta.get("standardBatchSize"))) : "?";
  }

  /**
   * The widest spread among repeated runs of identical logproducer settings (reused runs counted once):
   * {slowest, fastest, label of the setting, slowest run, fastest run}, or null when nothing was repeated.
   */
  private Object[] widestSpread() {
    Map<String, List<Sample>> g = groups(select(s -> s.spec().client() == Client.LOGPRODUCER
        && s.spec().rateLimit() == 0 && !s.spec().jfr() && !s.result().has("reusedFrom")),
        s -> PerformanceSuite.specKey(s.spec()));
    Object[] best = null;
    double ratio = 0;
    for (List<Sample> l : g.values()) {
      if (l.size() < 2) {
        continue;
      }
      Sample slow = l.stream().min(Comparator.comparingDouble(s -> s.result().recordsPerSec())).orElseThrow();
      Sample fast = l.stream().max(Comparator.comparingDouble(s -> s.result().recordsPerSec())).orElseThrow();
      double lo = slow.result().recordsPerSec();
      double hi = fast.result().recordsPerSec();
      if (lo > 0 && hi / lo > ratio) {
        ratio = hi / lo;
        best = new Object[] {lo, hi, l.get(0).spec().label(), slow, fast};
      }
    }
    return best;
  }

  /** "706,184" or "706,184 (673,099–910,073)". */
  private static String rangeCell(List<Sample> l) {
    return l.size() > 1 ? Report.count(min(l, RunResult::recordsPerSec)) + "–"
        + Report.count(max(l, RunResult::recordsPerSec)) : "";
  }

  private static String deliveredCell(List<Sample> l, RunResult median) {
    if (!l.stream().allMatch(s -> s.result().verified())) {
      return "✗ the sink counted a different number";
    }
    if (median.lossPercent() > 0.005) {
      return String.format(Locale.ROOT, "**%.1f %% dropped by the client**", median.lossPercent());
    }
    return "all, ✓ counted by the sink";
  }

  // ---------------------------------------------------------------- sections

  private void header() {
    md.append("# logproducer performance\n\n");
    md.append("How many log records per second logproducer delivers, how much CPU each record costs and how long "
        + "`send()` takes, measured end to end on one small machine and compared with the OpenTelemetry Java SDK in "
        + "the same runs. This page is generated by the benchmark suite from the raw data in `docs/perf-data/`");
    if (meta.containsKey("measured")) {
      md.append(" (measured ").append(meta.get("measured")).append(')');
    }
    md.append("; *How to reproduce* below shows how to rerun it.\n\n");
    if (meta.containsKey("note")) {
      md.append("> ").append(meta.get("note")).append("\n\n");
    }
  }

  private void summary() {
    md.append("## Summary\n\n");
    md.append("**What was measured.** The reference workload: 10 application threads call `send()` as fast as they "
        + "can with records of about 580 bytes (a message and three attributes). The producer sends them over "
        + "OTLP/HTTP (protobuf) to a sink: a separate JVM on the same machine that decompresses, decodes and counts "
        + "every record, so every delivered record is verified. The OpenTelemetry Java SDK runs the same workload "
        + "against the same sink for comparison.\n\n");
    Map<String, String> m = machine();
    if (!m.isEmpty()) {
      md.append("**On what.** ").append(m.getOrDefault("CPU", "?")).append(", ").append(m.getOrDefault(CORES_ROW, "?"))
          .append(" cores, ").append(m.getOrDefault("Memory", "?")).append(" of memory, ")
          .append(m.getOrDefault("JDK", "?")).append(" (details under *Setup*).\n\n");
    }
    md.append("**Results** (records delivered per second: the median of the runs, with the slowest and the fastest "
        + "run; CPU of the producer's process, which includes building the records):\n\n");
    Table t = new Table("client", "compression", ">records/s", ">slowest–fastest", ">runs",
        ">producer CPU per record", "delivered");
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {"logproducer", lp(Compression.LZ4)});
    rows.add(new Object[] {"logproducer", lp(Compression.ZSTD)});
    rows.add(new Object[] {"OpenTelemetry SDK, tuned to drop nothing", otel(true, Compression.NONE)});
    rows.add(new Object[] {"OpenTelemetry SDK, defaults", otel(false, Compression.NONE)});
    int bestIo = aliyunBest();
    if (bestIo > 0) {
      rows.add(new Object[] {"Aliyun Log Java producer, " + bestIo + " IO thread" + (bestIo == 1 ? "" : "s")
          + " (its fastest)", aliyun(bestIo)});
    }
    for (Object[] row : rows) {
      @SuppressWarnings("unchecked")
      List<Sample> l = (List<Sample>) row[1];
      if (l.isEmpty()) {
        continue;
      }
      Sample s = medianSample(l);
      t.row(row[0], Report.compressionName(s.spec().compression(), s.spec().compressionLevel()),
          "**" + Report.count(med(l, RunResult::recordsPerSec)) + "**", rangeCell(l), runsCell(l),
          Report.f2(med(l, RunResult::cpuMicrosPerRecord)) + " µs", deliveredCell(l, s.result()));
    }
    md.append(t.markdown()).append('\n');
    if (otel(false, Compression.NONE).stream().anyMatch(x -> x.result().lossPercent() > 0.005)) {
      md.append("*CPU is per delivered record: with its defaults the SDK spends CPU on every record it is given, "
          + "including those it then drops, hence its high figure.*\n\n");
    }
    double lz4 = med(lp(Compression.LZ4), RunResult::recordsPerSec);
    double oNone = med(otel(true, Compression.NONE), RunResult::recordsPerSec);
    if (!Double.isNaN(lz4) && oNone > 0) {
      md.append("In the same run, on the same sink, logproducer with lz4 delivered **")
          .append(Report.times(lz4 / oNone)).append("** as many records per second as the tuned OpenTelemetry SDK "
              + "(uncompressed; the SDK's exporter has no lz4). ");
    }
    double aliyunBest = bestIo > 0 ? med(aliyun(bestIo), RunResult::recordsPerSec) : Double.NaN;
    if (!Double.isNaN(lz4) && aliyunBest > 0) {
      md.append("Against the Aliyun Log Java producer at its fastest setting (lz4, ").append(bestIo)
          .append(bestIo == 1 ? " IO thread" : " IO threads").append(", to a sink of the same kind that speaks its "
              + "protocol), logproducer with lz4 delivered **").append(Report.times(lz4 / aliyunBest))
          .append("** as many. ");
    }
    List<Sample> paced = section("latency");
    if (!paced.isEmpty()) {
      Sample p = paced.get(0);
      LatencyHistogram h = p.result().latency();
      md.append("While the producer kept up (paced to ").append(Report.count(p.spec().rateLimit()))
          .append(" records/s), `send()` returned in ").append(Report.nanos(h.percentile(50)))
          .append(" at the median and ").append(Report.nanos(h.percentile(99))).append(" at p99.");
    }
    md.append("\n\n");

    md.append("**What the numbers mean.**\n\n");
    Sample head = medianSample(lp(Compression.LZ4));
    if (head != null) {
      md.append("- **They are lower bounds.** The sink runs on the same ").append(cores() > 0 ? cores() + " " : "")
          .append("cores and used ");
      md.append(head.result().has("sinkCpuNanosPerRecord")
          ? Report.f2(head.result().getDouble("sinkCpuNanosPerRecord") / 1e3) + " µs" : "some");
      md.append(" of CPU per record in the median lz4 run, CPU that a remote receiver would leave to the producer. "
          + "With no network in between, the limit here is CPU, not bandwidth.\n");
    }
    md.append("- **The application's own work is included.** The 10 threads also build every record (")
        .append(Report.f2(calibrationCpuMicros())).append(" µs of CPU per record, measured without any client), and "
            + "that is part of every producer CPU figure.\n");
    Object[] spread = widestSpread();
    int fewest = Integer.MAX_VALUE;
    int most = 0;
    for (List<Sample> l : List.of(lp(Compression.LZ4), lp(Compression.ZSTD), lp(Compression.NONE),
        lp(Compression.GZIP), otel(true, Compression.NONE), otel(true, Compression.GZIP),
        otel(false, Compression.NONE))) {
      if (!l.isEmpty()) {
        fewest = Math.min(fewest, l.size());
        most = Math.max(most, l.size());
      }
    }
    md.append("- **Read medians with their ranges.** ");
    if (most > 0) {
      md.append("Each configuration ran ").append(fewest == most ? Integer.toString(most) : fewest + " to " + most)
          .append(most == 1 ? " time; " : " times; ");
    }
    if (spread != null) {
      md.append("identical settings delivered anywhere from ").append(Report.count((double) spread[0]))
          .append(" to ").append(Report.count((double) spread[1])).append(" records/s in this data (")
          .append(spread[2]).append("; see *Why identical runs differ*). ");
    }
    md.append("A difference smaller than the ranges is not a difference.\n");
    if (head != null) {
      RunSpec h = head.spec();
      md.append("- **Settings.** These runs use the reference workload's settings with ").append(h.sendThreads())
          .append(Integer.toString(h.sendThreads()).equals(standardSendThreads()) ? " send threads (the fewest with "
              + "which `send()` never waited in the sendThreads sweep): batches of " : " send threads, batches of ")
          .append(Report.bytes(h.batchSizeInBytes())).append(", a ").append(Report.bytes(h.totalSizeInBytes()))
          .append(" buffer, linger ").append(h.lingerMillis()).append(" ms. logproducer's defaults differ: ")
          .append(ProducerConfig.DEFAULT_SEND_THREADS).append(" send threads, batches of ")
          .append(Report.bytes(ProducerConfig.DEFAULT_BATCH_SIZE_IN_BYTES)).append(", a ")
          .append(Report.bytes(ProducerConfig.DEFAULT_TOTAL_SIZE_IN_BYTES)).append(" buffer, linger ")
          .append(ProducerConfig.DEFAULT_LINGER_MILLIS).append(" ms and no compression for OTLP (see *Why the "
              + "defaults are what they are*).\n");
    }
    md.append("- **Your numbers will differ** with your records, your machine and your receiver. Rerun the suite "
        + "to measure them.\n\n");
  }

  private void reproduce() {
    md.append("## How to reproduce\n\n");
    md.append("```sh\nproducer-benchmark/run-suite.sh     # builds the reactor and the benchmark module, then runs "
        + "the suite (~22 min on 2 cores)\n```\n\n");
    md.append("The suite writes its raw data to `docs/perf-data/` and then regenerates this page and its charts "
        + "(`docs/performance/`). Options: `--quick` (a smoke run under 5 minutes), `--skip-jmh`, `--warmup S`, "
        + "`--duration S`, `--repeats N`, `--passes N`, `--budget-minutes M`, `--note TEXT` (the row this run adds "
        + "to *History*), `--report-only` (rebuild this page from "
        + "`docs/perf-data/` without measuring anything), `--run 'sendThreads=8 compression=ZSTD …'` (ad-hoc runs, no "
        + "report); `SKIP_BUILD=1` skips the build. The JMH benchmarks alone: `java -jar "
        + "producer-benchmark/target/benchmarks.jar [SendBenchmark|OtlpEncoderBenchmark|Utf8Benchmark|CodecBenchmark] "
        + "[-t N] [-prof gc]`.");
    if (appenderData != null) {
      md.append(" The logging appenders' numbers (*Logging appenders* below) have their own script, "
          + "`producer-benchmark/run-appender-bench.sh`.");
    }
    md.append("\n\n");
    if (meta.containsKey("suiteSeconds")) {
      long s = Long.parseLong(meta.get("suiteSeconds"));
      md.append(String.format(Locale.ROOT, "The data on this page took %d min %02d s to measure", s / 60, s % 60));
      if (meta.containsKey("options")) {
        md.append(" (").append(meta.get("options")).append(')');
      }
      md.append(". ");
    }
    md.append("This page is exactly what `--report-only` produces from the committed `docs/perf-data/`. Measure on "
        + "an otherwise idle machine: the suite waits for one before each run and marks runs that other processes "
        + "or a slowed machine disturbed (⚠).\n\n");
  }

  private void setup() {
    md.append("## Setup\n\n");
    md.append("### Machine\n\n");
    Map<String, String> m = machine();
    Table t = new Table("", "");
    if (m.isEmpty()) {
      t.row("Machine", "not recorded with this data");
    }
    m.forEach(t::row);
    t.row("Producer JVM", "fresh JVM per run, `-Xms4g -Xmx4g -XX:+AlwaysPreTouch`, default GC (G1)");
    t.row("Sink JVM", "one for the whole suite, `-Xms2g -Xmx2g -XX:+AlwaysPreTouch`");
    md.append(t.markdown()).append('\n');
    md.append("The producer, the application threads that feed it and the sink all share these cores: the sink's "
        + "CPU is taken from the producer's budget, so the end-to-end numbers are a lower bound of what the producer "
        + "does against a remote receiver.\n\n");
    md.append("### Workload\n\n");
    md.append("The reference workload published with the JD Cloud Java producer's performance test: 10 application "
        + "threads call `send` as fast as they can; each record has 4 fields (`level`, `thread`, `location` as "
        + "attributes, `message` as the body), every value ending in `_<sequence>` so that the data does not compress "
        + "trivially, about 580 raw bytes (UTF-8 of keys and values); the message contains CJK characters, so it is "
        + "not ASCII. Records go over **OTLP/HTTP (protobuf)** to a **sink in its own JVM** on 127.0.0.1 (the examples "
        + "module's `OtlpReceiverMain`), which decompresses, decodes and counts every record.\n\n");
    md.append("Terms: *delivered* = records the client reports as delivered, checked against the sink's count (✓ = "
        + "equal); *raw* = UTF-8 bytes of keys and values; *wire* or *compressed* = request bodies as sent; MB = 10⁶ "
        + "bytes; CPU 100 % = one core busy; *µs/record* = CPU time per delivered record.\n\n");
  }

  private void peers() {
    md.append("## logproducer and the OpenTelemetry Java SDK\n\n");
    md.append("Same workload, same sink, same run of the suite. The SDK's OTLP exporter offers no lz4 or zstd, so it "
        + "is measured uncompressed and with gzip.\n\n");
    Table t = new Table("client", "compression", ">records/s", ">range", ">raw MB/s", ">wire MB/s", ">producer CPU",
        ">CPU µs/record", ">delivered / emitted", "sink", ">runs");
    List<Object[]> rows = new ArrayList<>();
    rows.add(new Object[] {"logproducer", lp(Compression.LZ4)});
    rows.add(new Object[] {"logproducer", lp(Compression.ZSTD)});
    rows.add(new Object[] {"logproducer", lp(Compression.NONE)});
    rows.add(new Object[] {"logproducer", lp(Compression.GZIP)});
    rows.add(new Object[] {"OTel SDK, tuned", otel(true, Compression.NONE)});
    rows.add(new Object[] {"OTel SDK, tuned", otel(true, Compression.GZIP)});
    rows.add(new Object[] {"OTel SDK, defaults", otel(false, Compression.NONE)});
    List<String> names = new ArrayList<>();
    List<double[]> values = new ArrayList<>();
    for (Object[] row : rows) {
      @SuppressWarnings("unchecked")
      List<Sample> list = (List<Sample>) row[1];
      if (list.isEmpty()) {
        continue;
      }
      Sample m = medianSample(list);
      RunResult r = m.result();
      boolean allVerified = list.stream().allMatch(s -> s.result().verified());
      t.row(row[0], Report.compressionName(m.spec().compression(), m.spec().compressionLevel()),
          Report.count(med(list, RunResult::recordsPerSec)), rangeCell(list),
          Report.f1(med(list, RunResult::rawMbPerSec)), Report.f1(med(list, RunResult::wireMbPerSec)),
          Report.pct(med(list, RunResult::cpuPercent)), Report.f2(med(list, RunResult::cpuMicrosPerRecord)),
          Report.count(r.delivered()) + " / " + Report.count(r.getLong("emitted"))
              + (r.lossPercent() > 0.005 ? String.format(Locale.ROOT, " (**%.1f %% lost**)", r.lossPercent()) : ""),
          allVerified ? "✓" : "✗", runsCell(list));
      names.add(row[0].toString().replace("OTel SDK, ", "OTel ") + " "
          + Report.compressionName(m.spec().compression(), m.spec().compressionLevel()));
      values.add(new double[] {med(list, RunResult::recordsPerSec), min(list, RunResult::recordsPerSec),
          max(list, RunResult::recordsPerSec)});
    }
    md.append(t.markdown()).append('\n');
    md.append("*records/s* is the median where a configuration ran more than once (*runs*; *range* = slowest and "
        + "fastest run; ⚠ = disturbed: other processes on the machine used more than a quarter of a core during "
        + "the run, or the machine ran more than 15 % slower than its fastest). "
        + "*delivered / emitted* is from the median run. Settings: logproducer with sendThreads ")
        .append(standardSendThreads()).append(", batch ").append(standardBatch())
        .append(", totalSizeInBytes 100 MiB, linger 2 s, batchCountThreshold 32768. OTel *tuned*: queue ")
        .append(Report.count(PerformanceSuite.OTEL_TUNED_QUEUE)).append(", export batch ")
        .append(Report.count(PerformanceSuite.OTEL_TUNED_BATCH))
        .append(", schedule delay 200 ms, reusable-data memory mode; the SDK never makes the caller wait, so the "
            + "benchmark makes the application wait for queue space itself (a semaphore the exporter releases), "
            + "without which it would drop records too. OTel *defaults*: queue 2,048, batch 512, schedule delay 1 s: "
            + "it silently drops whatever does not fit the queue (*lost*).\n\n");

    double lz4 = med(lp(Compression.LZ4), RunResult::recordsPerSec);
    double zstd = med(lp(Compression.ZSTD), RunResult::recordsPerSec);
    double none = med(lp(Compression.NONE), RunResult::recordsPerSec);
    double gzip = med(lp(Compression.GZIP), RunResult::recordsPerSec);
    double oNone = med(otel(true, Compression.NONE), RunResult::recordsPerSec);
    double oGzip = med(otel(true, Compression.GZIP), RunResult::recordsPerSec);
    double oDef = med(otel(false, Compression.NONE), RunResult::recordsPerSec);
    md.append("**Ratios** (records/s delivered, both measured in this run on this sink):\n\n");
    Table r = new Table("logproducer", "vs", ">ratio");
    ratioRow(r, "lz4", lz4, "OTel tuned, none", oNone);
    ratioRow(r, "zstd-1", zstd, "OTel tuned, none", oNone);
    ratioRow(r, "lz4", lz4, "OTel tuned, gzip", oGzip);
    ratioRow(r, "none", none, "OTel tuned, none (same compression)", oNone);
    ratioRow(r, "gzip-1", gzip, "OTel tuned, gzip (same compression)", oGzip);
    ratioRow(r, "lz4", lz4, "OTel defaults (what it delivered)", oDef);
    md.append(r.markdown()).append('\n');

    Sample o = medianSample(otel(true, Compression.NONE));
    Sample l = medianSample(lp(Compression.LZ4));
    if (o != null && l != null) {
      long d = Math.max(1, o.result().delivered());
      Map<String, Long> cpu = o.result().cpuByGroup();
      md.append("**Why the SDK is slower here.** Its `BatchLogRecordProcessor` has one worker thread that encodes and "
          + "exports one batch at a time. Per record in the tuned uncompressed run of the CPU table below (")
          .append(Report.count(o.result().recordsPerSec())).append(" records/s): the worker thread used ")
          .append(Report.f2(cpu.getOrDefault("otel-worker", 0L) / 1e3 / d)).append(" µs of CPU, the JDK HttpClient "
              + "threads ").append(Report.f2(cpu.getOrDefault("http", 0L) / 1e3 / d))
          .append(" µs, GC and the JVM ").append(Report.f2(cpu.getOrDefault("vm", 0L) / 1e3 / d))
          .append(" µs (GC: ").append(o.result().getLong("gcMillis")).append(" ms in the run), ")
          .append(Report.f2(o.result().cpuMicrosPerRecord())).append(" µs in all, against ")
          .append(Report.f2(l.result().cpuMicrosPerRecord())).append(" µs for logproducer with lz4 (see *Where the CPU "
              + "goes*). With its defaults the SDK keeps up with a small share of this workload and drops the rest "
              + "without telling the application.\n\n");
    }
    if (!names.isEmpty()) {
      double[] v = new double[values.size()];
      double[] lo = new double[values.size()];
      double[] hi = new double[values.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = values.get(i)[0];
        lo[i] = values.get(i)[1];
        hi[i] = values.get(i)[2];
      }
      charts.add(new Chart("peers.png", "Delivered records/s, same run and same sink", "client and compression",
          "records/s", names, List.of(new Charts.Series("median records/s (whisker: slowest to fastest run, where it "
          + "ran more than once)", v, lo, hi)), false, true));
      md.append("![Delivered records/s by client](" + CHART_DIR + "/peers.png)\n\n");
    }
  }

  /**
   * The Aliyun Log Java producer against logproducer: only with Aliyun runs in the data (the page of data without them
   * is unchanged).
   */
  private void aliyunPeer() {
    List<Integer> ios = aliyunIoThreads();
    if (ios.isEmpty()) {
      return;
    }
    Sample any = aliyun(0).get(0);
    RunSpec a = any.spec();
    md.append("## logproducer and the Aliyun Log Java producer\n\n");
    md.append("The Aliyun Log Java producer (`com.aliyun.openservices:aliyun-log-producer` 0.3.24 on the aliyun-log "
        + "SDK 0.6.117; the JD Cloud Java producer is derived from it) sends the same workload in the same run, in a "
        + "fresh JVM per run like logproducer, with the settings its own performance test uses for throughput: ")
        .append(Report.compressionName(a.compression(), a.compressionLevel())).append(", batches of ")
        .append(Report.bytes(a.batchSizeInBytes())).append(" or ").append(Report.count(a.batchCountThreshold()))
        .append(" logs, linger ").append(a.lingerMillis()).append(" ms, ").append(Report.bytes(a.totalSizeInBytes()))
        .append(" of buffer; its IO threads (`ioThreadCount`) are swept. Each record becomes a `LogItem` (the time, "
            + "and the body and the three attributes as the string contents `message`, `level`, `thread`, "
            + "`location`) passed to `send(project, logStore, topic, source, item, callback)`; *delivered* counts "
            + "the callbacks that reported success. It speaks SLS PutLogs, not OTLP, so its sink is a second sink JVM "
            + "of the same kind, with the same JVM options (`SlsReceiverMain`: the OTLP sink's HTTP server), which "
            + "lz4-decompresses every request to its `x-log-bodyrawsize`, walks every log of its protobuf `LogGroup` "
            + "and counts it (the request signature the client computes is not checked). The producer has no flush: "
            + "each run ends by closing it, which sends what it still holds and waits for every callback.\n\n");
    Table t = new Table("client", ">sending threads", ">records/s", ">range", ">raw MB/s", ">wire MB/s",
        ">producer CPU", ">CPU µs/record", ">delivered / emitted", "sink", ">sink µs/record", ">runs");
    List<String> names = new ArrayList<>();
    List<double[]> values = new ArrayList<>();
    List<Object[]> rows = new ArrayList<>();
    for (int io : ios) {
      rows.add(new Object[] {"Aliyun producer", aliyun(io)});
    }
    rows.add(new Object[] {"logproducer", lp(Compression.LZ4)});
    rows.add(new Object[] {"logproducer", lp(Compression.ZSTD)});
    for (Object[] row : rows) {
      @SuppressWarnings("unchecked")
      List<Sample> list = (List<Sample>) row[1];
      if (list.isEmpty()) {
        continue;
      }
      Sample m = medianSample(list);
      RunResult r = m.result();
      String compression = Report.compressionName(m.spec().compression(), m.spec().compressionLevel());
      t.row(row[0] + ", " + compression, m.spec().sendThreads(), Report.count(med(list, RunResult::recordsPerSec)),
          rangeCell(list), Report.f1(med(list, RunResult::rawMbPerSec)), Report.f1(med(list, RunResult::wireMbPerSec)),
          Report.pct(med(list, RunResult::cpuPercent)), Report.f2(med(list, RunResult::cpuMicrosPerRecord)),
          Report.count(r.delivered()) + " / " + Report.count(r.getLong("emitted"))
              + (r.lossPercent() > 0.005 ? String.format(Locale.ROOT, " (**%.1f %% lost**)", r.lossPercent()) : ""),
          list.stream().allMatch(s -> s.result().verified()) ? "✓" : "✗",
          r.has("sinkCpuNanosPerRecord") ? Report.f2(r.getDouble("sinkCpuNanosPerRecord") / 1e3) : "–",
          runsCell(list));
      names.add((m.spec().client() == Client.ALIYUN ? "Aliyun " + compression + ", " + m.spec().sendThreads() + " IO"
          : "logproducer " + compression));
      values.add(new double[] {med(list, RunResult::recordsPerSec), min(list, RunResult::recordsPerSec),
          max(list, RunResult::recordsPerSec)});
    }
    md.append(t.markdown()).append('\n');
    md.append("*sending threads*: the Aliyun producer's IO threads, logproducer's `sendThreads`. *sink µs/record*: "
        + "the CPU its sink used per record (the two sinks decode different formats; both take it from the same "
        + "cores as the producer). *records/s* is the median where a setting ran more than once (*runs*; *range* = "
        + "slowest and fastest run; ⚠ = disturbed by other processes or a slowed machine).\n\n");

    int best = aliyunBest();
    double aBest = med(aliyun(best), RunResult::recordsPerSec);
    double lz4 = med(lp(Compression.LZ4), RunResult::recordsPerSec);
    double zstd = med(lp(Compression.ZSTD), RunResult::recordsPerSec);
    md.append("**Ratios** (records/s delivered, both measured in this run, each client to the sink of its "
        + "protocol):\n\n");
    Table r = new Table("logproducer", "vs", ">ratio");
    String bestName = "Aliyun lz4, " + best + (best == 1 ? " IO thread" : " IO threads") + ", its fastest";
    ratioRow(r, "lz4", lz4, bestName, aBest);
    ratioRow(r, "zstd-1", zstd, bestName, aBest);
    Sample head = medianSample(lp(Compression.LZ4));
    if (head != null && head.spec().sendThreads() != best && !aliyun(head.spec().sendThreads()).isEmpty()) {
      int n = head.spec().sendThreads();
      ratioRow(r, "lz4", lz4, "Aliyun lz4, " + n + " IO threads (as many sending threads)",
          med(aliyun(n), RunResult::recordsPerSec));
    }
    md.append(r.markdown()).append('\n');

    Sample ab = medianSample(aliyun(best));
    if (ab != null && head != null) {
      RunResult ar = ab.result();
      long d = Math.max(1, ar.delivered());
      Map<String, Long> cpu = ar.cpuByGroup();
      md.append("**Where its CPU goes.** Per record in its median run at ").append(best)
          .append(best == 1 ? " IO thread" : " IO threads").append(" (").append(Report.count(ar.recordsPerSec()))
          .append(" records/s): the application threads ").append(Report.f2(cpu.getOrDefault("app", 0L) / 1e3 / d))
          .append(" µs (building the record, the `LogItem` and `send`), the IO threads ")
          .append(Report.f2(cpu.getOrDefault("io", 0L) / 1e3 / d))
          .append(" µs (the protobuf `LogGroup`, lz4, the request's MD5 and signature, HTTP), the callback threads ")
          .append(Report.f2(cpu.getOrDefault("callback", 0L) / 1e3 / d)).append(" µs, GC and the JVM ")
          .append(Report.f2(cpu.getOrDefault("vm", 0L) / 1e3 / d)).append(" µs (GC: ").append(ar.getLong("gcMillis"))
          .append(" ms in the run): ").append(Report.f2(ar.cpuMicrosPerRecord())).append(" µs in all, against ")
          .append(Report.f2(head.result().cpuMicrosPerRecord())).append(" µs for logproducer with lz4: ")
          .append(Report.times(ar.cpuMicrosPerRecord() / Math.max(1e-9, head.result().cpuMicrosPerRecord())))
          .append(" as much CPU per record.\n\n");
    }
    if (!names.isEmpty()) {
      double[] v = new double[values.size()];
      double[] lo = new double[values.size()];
      double[] hi = new double[values.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = values.get(i)[0];
        lo[i] = values.get(i)[1];
        hi[i] = values.get(i)[2];
      }
      charts.add(new Chart("aliyun.png", "Delivered records/s: the Aliyun Log Java producer and logproducer, same run",
          "client, compression and sending threads", "records/s", names, List.of(new Charts.Series("median "
          + "records/s (whisker: slowest to fastest run, where it ran more than once)", v, lo, hi)), false, true));
      md.append("![Delivered records/s, the Aliyun Log Java producer and logproducer](" + CHART_DIR
          + "/aliyun.png)\n\n");
    }
  }

  private static void ratioRow(Table t, String ours, double a, String peer, double b) {
    if (!Double.isNaN(a) && !Double.isNaN(b) && b > 0) {
      t.row(ours + " (" + Report.count(a) + "/s)", peer + " (" + Report.count(b) + "/s)", "**" + Report.times(a / b)
          + "**");
    }
  }

  private void goals() {
    md.append("## Project goals\n\n");
    md.append("These are logproducer's own performance goals for this machine and workload, set by the project "
        + "before these measurements. They are not an industry standard and not a promise: *met* or *not yet* only "
        + "says whether the measured value reaches the project's own goal.\n\n");
    Table t = new Table("goal", "measured", "status");
    double lz4 = med(lp(Compression.LZ4), RunResult::recordsPerSec);
    double zstd = med(lp(Compression.ZSTD), RunResult::recordsPerSec);
    double lz4Raw = med(lp(Compression.LZ4), RunResult::rawMbPerSec);
    boolean lz4Verified = lp(Compression.LZ4).stream().allMatch(s -> s.result().verified());
    boolean zstdVerified = lp(Compression.ZSTD).stream().allMatch(s -> s.result().verified());
    t.row("Deliver ≥ 1,000,000 records/s (≥ 580 raw MB/s) with lz4, every record counted by the sink",
        "median " + Report.count(lz4) + " records/s (" + Report.f1(lz4Raw) + " raw MB/s) over "
            + lp(Compression.LZ4).size() + " runs, " + (lz4Verified ? "all counted" : "**sink count differs**")
            + fastest(Compression.LZ4), status(lz4 >= 1e6 && lz4Verified));
    t.row("Deliver ≥ 1,000,000 records/s with zstd, every record counted by the sink", "median "
        + Report.count(zstd) + " records/s over " + lp(Compression.ZSTD).size() + " runs, "
        + (zstdVerified ? "all counted" : "**sink count differs**") + fastest(Compression.ZSTD),
        status(zstd >= 1e6 && zstdVerified));
    double gzip = med(lp(Compression.GZIP), RunResult::recordsPerSec);
    boolean gzipVerified = lp(Compression.GZIP).stream().allMatch(s -> s.result().verified());
    if (!lp(Compression.GZIP).isEmpty()) {
      t.row("Deliver ≥ 600,000 records/s with gzip, every record counted by the sink", "median "
          + Report.count(gzip) + " records/s over " + lp(Compression.GZIP).size() + (lp(Compression.GZIP).size() == 1
          ? " run, " : " runs, ") + (gzipVerified ? "all counted" : "**sink count differs**"),
          status(gzip >= 600_000 && gzipVerified));
    }
    double oNone = med(otel(true, Compression.NONE), RunResult::recordsPerSec);
    long oLost = otel(true, Compression.NONE).stream().mapToLong(s -> s.result().getLong("emitted")
        - s.result().delivered()).sum();
    t.row("≥ 10× the records/s of the OpenTelemetry SDK tuned to drop nothing", Report.times(lz4 / oNone)
        + " (logproducer lz4 against the SDK uncompressed; the SDK lost " + Report.count(oLost) + " records)",
        status(lz4 / oNone >= 10 && oLost == 0));
    int bestIo = aliyunBest();
    if (bestIo > 0) {
      double aBest = med(aliyun(bestIo), RunResult::recordsPerSec);
      boolean aVerified = aliyun(0).stream().allMatch(s -> s.result().verified());
      t.row("≥ 3× the records/s of the Aliyun Log Java producer at its fastest setting", Report.times(lz4 / aBest)
          + " (logproducer lz4 against the Aliyun producer with lz4 and " + bestIo + (bestIo == 1 ? " IO thread"
          : " IO threads") + ", " + Report.count(aBest) + " records/s" + (aVerified ? "" : "; **sink count differs**")
          + ")", status(lz4 / aBest >= 3 && aVerified && lz4Verified));
    }
    Sample head = medianSample(lp(Compression.LZ4));
    if (head != null) {
      double cpu = head.result().cpuMicrosPerRecord();
      double gen = calibrationCpuMicros();
      t.row("Producer CPU ≤ 1.0 µs per record, not counting building the record",
          Report.f2(cpu - gen) + " µs (" + Report.f2(cpu) + " µs for the whole process, less " + Report.f2(gen)
              + " µs to build the record)", status(cpu - gen <= 1.0));
    }
    List<Sample> paced = section("latency");
    if (!paced.isEmpty()) {
      StringBuilder sb = new StringBuilder();
      boolean ok = true;
      for (Sample p : paced) {
        LatencyHistogram h = p.result().latency();
        boolean exhausted = p.result().getLong("sendBlockedNanos") > 0;
        ok &= h.percentile(99) <= 5_000 && !exhausted;
        sb.append(sb.length() == 0 ? "" : "; ").append(Report.nanos(h.percentile(99))).append(" paced to ")
            .append(Report.count(p.spec().rateLimit())).append("/s")
            .append(exhausted ? " (the buffer filled up)" : "");
      }
      Sample sat = medianSample(lp(Compression.LZ4));
      if (sat != null && sat.result().getLong("sendBlockedNanos") == 0) {
        sb.append("; ").append(Report.nanos(sat.result().latency().percentile(99)))
            .append(" in the median saturated lz4 run, which never waited for buffer space");
      }
      t.row("`send()` p99 ≤ 5 µs while the buffer has room", sb.toString(), status(ok));
    }
    List<JmhRunner.Row> send = jmh.stream().filter(r -> r.benchmark().startsWith("SendBenchmark")
        && "NONE".equals(r.params().get("compression"))).toList();
    if (!send.isEmpty()) {
      double worst = send.stream().mapToDouble(JmhRunner.Row::allocPerOp).max().orElse(Double.NaN);
      StringBuilder sb = new StringBuilder();
      for (JmhRunner.Row r : send) {
        sb.append(sb.length() == 0 ? "" : ", ").append(Report.f1(r.allocPerOp())).append(" B (").append(r.threads())
            .append(r.threads() == 1 ? " thread)" : " threads)");
      }
      t.row("≤ 16 bytes allocated per `send()` without a callback (JMH, `-prof gc`)", sb.toString(),
          status(worst <= 16));
    }
    JmhRunner.Row encoder = jmhRow("OtlpEncoderBenchmark", "encoding", "PROTOBUF");
    if (encoder != null) {
      t.row("OTLP protobuf encoder ≤ 300 ns per reference record (JMH `OtlpEncoderBenchmark`, one thread)",
          Report.f1(encoder.score()) + " ns (" + Report.f1(encoder.min()) + "–" + Report.f1(encoder.max())
              + " over the measured iterations)", status(encoder.score() <= 300));
    }
    long over = samples.stream().filter(s -> s.result().getLong("totalSizeInBytes") > 0
        && s.result().getLong("peakBufferedBytes") > s.result().getLong("totalSizeInBytes")).count();
    long withBudget = samples.stream().filter(s -> s.result().getLong("totalSizeInBytes") > 0).count();
    t.row("Buffered bytes never above `totalSizeInBytes`", (withBudget - over) + " of " + withBudget
        + " runs stayed within it", status(over == 0));
    md.append(t.markdown()).append('\n');
    tenfoldArithmetic(lz4, oNone);
  }

  /**
   * When the 10× goal is not met: what it would take on this machine, from this data. The CPU of 10× the SDK's
   * records/s, less building the records and the sink's share of the same cores, is what a producer could spend per
   * record; compared with the UTF-8 work of one record alone (JMH).
   */
  private void tenfoldArithmetic(double lz4, double oNone) {
    Sample head = medianSample(lp(Compression.LZ4));
    JmhRunner.Row utf8 = jmhRow("Utf8Benchmark", "method", "onepass");
    if (head == null || cores() <= 0 || Double.isNaN(oNone) || oNone <= 0 || lz4 / oNone >= 10
        || !head.result().has("sinkCpuNanosPerRecord")) {
      return;
    }
    double target = 10 * oNone;
    double perRecord = cores() * 1e6 / target;
    double gen = calibrationCpuMicros();
    double sink = head.result().getDouble("sinkCpuNanosPerRecord") / 1e3;
    double left = perRecord - gen - sink;
    double producer = head.result().cpuMicrosPerRecord() - gen;
    md.append(String.format(Locale.ROOT, "**What 10× the SDK would take here.** 10 × %s = %s records/s. On %d cores "
        + "that is %.2f µs of CPU per record for everything; building the record takes %.2f µs and the sink %.2f µs "
        + "of the same cores, which leaves %.2f µs for the producer: encoding, batching, compressing and sending each "
        + "record. logproducer uses %.2f µs", Report.count(oNone), Report.count(target), cores(), perRecord, gen, sink,
        left, producer));
    if (utf8 != null) {
      md.append(String.format(Locale.ROOT, "; writing one record's four strings as UTF-8, nothing else, takes %.2f µs "
          + "(JMH `Utf8Benchmark`, onepass)", utf8.score() / 1e3));
    }
    md.append(". ");
    if (utf8 != null && left < utf8.score() / 1e3) {
      md.append("So the goal cannot be met on this machine with the sink beside the producer while the SDK delivers "
          + "this many records: the budget is smaller than the UTF-8 work alone. ");
    }
    md.append(String.format(Locale.ROOT, "Against a remote receiver (no sink on the same cores) the budget would be "
        + "%.2f µs.%n%n", perRecord - gen));
  }

  /**
   * {@return this data's headline figures as a row of the history} (see {@link History})
   *
   * @param note what changed since the last row, or ""
   */
  History.Row historyRow(String note) {
    Sample head = medianSample(lp(Compression.LZ4));
    int bestIo = aliyunBest();
    JmhRunner.Row encoder = jmhRow("OtlpEncoderBenchmark", "encoding", "PROTOBUF");
    return new History.Row(meta.getOrDefault("measured", "?"), med(lp(Compression.LZ4), RunResult::recordsPerSec),
        med(lp(Compression.ZSTD), RunResult::recordsPerSec), med(lp(Compression.GZIP), RunResult::recordsPerSec),
        med(lp(Compression.NONE), RunResult::recordsPerSec),
        head == null ? Double.NaN : head.result().cpuMicrosPerRecord(), calibrationCpuMicros(),
        med(otel(true, Compression.NONE), RunResult::recordsPerSec),
        bestIo > 0 ? med(aliyun(bestIo), RunResult::recordsPerSec) : Double.NaN,
        encoder == null ? Double.NaN : encoder.score(), note);
  }

  private void history() throws IOException {
    List<History.Row> rows = History.load(docs.resolve("perf-data").resolve(History.FILE));
    if (rows.isEmpty()) {
      return;
    }
    md.append("## History\n\n");
    md.append("The headline figures of every full suite run on this machine (`docs/perf-data/history.tsv`; the suite "
        + "adds a row each time it runs in full). Records/s are medians of 3 runs except gzip-1 before 2026-11-23 "
        + "(1 run). *building* is the calibration: CPU to build one record with no client. It is the same work every "
        + "time, so when it moves, the machine moved: this is a virtual machine whose host can slow it down for "
        + "minutes at a time. Compare *net* (the producer's own CPU per record) and the encoder between rows with "
        + "that in mind.\n\n");
    Table t = new Table("measured", ">lz4", ">zstd-1", ">gzip-1", ">none", ">CPU µs/record (lz4)", ">net µs",
        ">building µs", ">OTel tuned", ">lz4 ÷ OTel", ">Aliyun (fastest)", ">lz4 ÷ Aliyun", ">encoder ns",
        "what changed");
    for (History.Row r : rows) {
      t.row(r.measured(), countOrDash(r.lz4()), countOrDash(r.zstd1()), countOrDash(r.gzip1()),
          countOrDash(r.none()), f2OrDash(r.cpuLz4Micros()), f2OrDash(r.cpuLz4Micros() - r.buildMicros()),
          f2OrDash(r.buildMicros()), countOrDash(r.otelTuned()), timesOrDash(r.lz4() / r.otelTuned()),
          countOrDash(r.aliyunBest()), timesOrDash(r.lz4() / r.aliyunBest()),
          Double.isNaN(r.encoderNanos()) ? "–" : Report.f1(r.encoderNanos()), r.note());
    }
    md.append(t.markdown()).append('\n');
  }

  private static String countOrDash(double v) {
    return Double.isNaN(v) ? "–" : Report.count(v);
  }

  private static String f2OrDash(double v) {
    return Double.isNaN(v) ? "–" : Report.f2(v);
  }

  private static String timesOrDash(double v) {
    return Double.isNaN(v) || Double.isInfinite(v) ? "–" : Report.times(v);
  }

  /** The JMH row of {@code benchmark} whose parameter {@code param} is {@code value}, or null. */
  private JmhRunner.Row jmhRow(String benchmark, String param, String value) {
    return jmh.stream().filter(r -> r.benchmark().startsWith(benchmark) && value.equals(r.params().get(param)))
        .findFirst().orElse(null);
  }

  /** "; fastest lz4 run in this data: 1,135,823 records/s (sendThreads 2, sendThreads sweep)". */
  private String fastest(Compression c) {
    Sample best = select(s -> s.spec().client() == Client.LOGPRODUCER && s.spec().compression() == c
        && s.spec().rateLimit() == 0 && !s.spec().jfr() && s.result().verified()).stream()
        .max(Comparator.comparingDouble(s -> s.result().recordsPerSec())).orElse(null);
    if (best == null) {
      return "";
    }
    return "; fastest " + Report.compressionName(c, 0) + " run in this data: " + Report.count(best.result()
        .recordsPerSec()) + " records/s (" + best.spec().label() + ", " + best.section() + " sweep)";
  }

  private static String status(boolean met) {
    return met ? "met" : "not yet";
  }

  private void sweeps() throws IOException {
    md.append("## What the settings change\n\n");
    md.append("Each sweep changes one setting of the headline configuration (lz4) and measures every value ")
        .append(passes()).append(", interleaved (all values once, then all again) so that the machine's drift hits "
            + "every value alike. Columns: records/s delivered (median), raw and compressed MB/s, producer CPU, CPU "
            + "per record, `send()` p99 (every 64th call timed, including any wait for buffer space), *blocked* "
            + "(total time the application threads waited in `send()` for buffer space, of ")
        .append(threadSeconds()).append(" thread-seconds per run), *request* (average time of one HTTP request), "
            + "peak buffered bytes, the sink's check, and each run's records/s. The charts show the median and, as a "
            + "whisker, the slowest and the fastest run.\n\n");

    List<Sample> st = section("sendThreads");
    if (!st.isEmpty()) {
      sweepTable("### sendThreads (lz4, totalSizeInBytes 100 MiB, batchSizeInBytes 2 MiB)", "sendThreads", st,
          s -> Integer.toString(s.spec().sendThreads()), "throughput-vs-sendthreads.png",
          "Delivered records/s vs sendThreads");
      md.append("**What to conclude:** ").append(sendThreadsConclusion(st)).append("\n\n");
    }
    List<Sample> bs = section("batchSize");
    if (!bs.isEmpty()) {
      sweepTable("### batchSizeInBytes (lz4, sendThreads " + standardSendThreads() + ", totalSizeInBytes 100 MiB)",
          "batchSizeInBytes", bs, s -> Report.bytes(s.spec().batchSizeInBytes()), "throughput-vs-batchsize.png",
          "Delivered records/s vs batchSizeInBytes");
      md.append("**What to conclude:** ").append(batchConclusion(bs)).append("\n\n");
    }
    List<Sample> ts = section("totalSize");
    if (!ts.isEmpty()) {
      sweepTable("### totalSizeInBytes (lz4, sendThreads " + standardSendThreads() + ", batchSizeInBytes 2 MiB)",
          "totalSizeInBytes", ts, s -> Report.bytes(s.spec().totalSizeInBytes()), "throughput-vs-totalsize.png",
          "Delivered records/s vs totalSizeInBytes");
      md.append("**What to conclude:** ").append(totalConclusion(ts)).append("\n\n");
    }

    md.append("### compression (sendThreads ").append(standardSendThreads()).append(", batch ").append(standardBatch())
        .append(")\n\n");
    Table t = new Table("compression", ">records/s", ">raw MB/s", ">compressed MB/s", ">ratio", ">CPU",
        ">CPU µs/record", ">sink CPU µs/record", ">send p99", "sink", ">runs");
    for (Compression c : PerformanceSuite.COMPRESSIONS) {
      List<Sample> list = lp(c);
      if (list.isEmpty()) {
        continue;
      }
      Sample m = medianSample(list);
      RunResult r = m.result();
      t.row(Report.compressionName(c, 0), Report.count(med(list, RunResult::recordsPerSec)),
          Report.f1(med(list, RunResult::rawMbPerSec)), Report.f1(med(list, RunResult::wireMbPerSec)),
          Report.f1(wireRatio(r)) + "×", Report.pct(med(list, RunResult::cpuPercent)),
          Report.f2(med(list, RunResult::cpuMicrosPerRecord)),
          r.has("sinkCpuNanosPerRecord") ? Report.f2(r.getDouble("sinkCpuNanosPerRecord") / 1e3) : "–",
          Report.nanos(r.latency().percentile(99)), list.stream().allMatch(s -> s.result().verified()) ? "✓" : "✗",
          runsCell(list));
    }
    md.append(t.markdown()).append('\n');
    md.append("*ratio* = encoded (OTLP protobuf) bytes ÷ bytes on the wire.\n\n");
    md.append("**What to conclude:** ").append(compressionConclusion()).append("\n\n");
    jmhSweeps();
  }

  private String passes() {
    int most = groups(section("sendThreads"), s -> Integer.toString(s.spec().sendThreads())).values().stream()
        .mapToInt(List::size).max().orElse(1);
    return most == 1 ? "once" : most == 2 ? "twice" : most + " times";
  }

  /** "60" for 10 application threads × 6 s. */
  private String threadSeconds() {
    Sample s = medianSample(lp(Compression.LZ4));
    return s == null ? "?" : Report.count(s.spec().appThreads() * s.spec().durationSeconds());
  }

  private static double wireRatio(RunResult r) {
    return r.getLong("encodedBytes") / (double) Math.max(1, r.getLong("wireBytes"));
  }

  private static boolean blocked(Sample s) {
    return s.result().getLong("sendBlockedNanos") >= 0.005 * s.spec().appThreads() * s.result().seconds() * 1e9;
  }

  private String sendThreadsConclusion(List<Sample> st) {
    Map<String, List<Sample>> g = groups(st, s -> Integer.toString(s.spec().sendThreads()));
    List<String> waited = new ArrayList<>();
    List<List<Sample>> never = new ArrayList<>();
    List<String> neverNames = new ArrayList<>();
    g.forEach((k, l) -> {
      if (l.stream().anyMatch(ReportWriter::blocked)) {
        waited.add(k);
      } else {
        never.add(l);
        neverNames.add(k);
      }
    });
    StringBuilder sb = new StringBuilder("send threads keep requests in flight while earlier ones wait for the "
        + "receiver. ");
    if (!waited.isEmpty()) {
      sb.append("With ").append(joinAnd(waited)).append(" send thread").append(waited.equals(List.of("1")) ? "" : "s")
          .append(" the pipeline fell behind and `send()` waited for buffer space (*blocked*). ");
    }
    if (!never.isEmpty()) {
      double lo = never.stream().mapToDouble(l -> med(l, RunResult::recordsPerSec)).min().orElse(0);
      double hi = never.stream().mapToDouble(l -> med(l, RunResult::recordsPerSec)).max().orElse(0);
      double widest = never.stream().mapToDouble(l -> max(l, RunResult::recordsPerSec)
          - min(l, RunResult::recordsPerSec)).max().orElse(0);
      sb.append("With ").append(neverNames.size() == 1 ? neverNames.get(0) : neverNames.get(0) + " or more")
          .append(" it never waited");
      if (never.size() > 1 && hi - lo <= widest) {
        sb.append(", and more send threads did not raise throughput: their medians (")
            .append(Report.count(lo)).append("–").append(Report.count(hi))
            .append(" records/s) differ less than the runs of one setting can (")
            .append(Report.count(widest)).append(" records/s apart)");
      } else if (never.size() > 1) {
        sb.append("; their medians ranged from ").append(Report.count(lo)).append(" to ").append(Report.count(hi))
            .append(" records/s");
      }
      sb.append('.');
    }
    return sb.toString();
  }

  private String batchConclusion(List<Sample> bs) {
    Map<String, List<Sample>> g = groups(bs, s -> Report.bytes(s.spec().batchSizeInBytes()));
    String cheapest = null;
    String dearest = null;
    double cheap = Double.MAX_VALUE;
    double dear = 0;
    for (Map.Entry<String, List<Sample>> e : g.entrySet()) {
      double c = med(e.getValue(), RunResult::cpuMicrosPerRecord);
      if (c < cheap) {
        cheap = c;
        cheapest = e.getKey();
      }
      if (c > dear) {
        dear = c;
        dearest = e.getKey();
      }
    }
    List<String> keys = new ArrayList<>(g.keySet());
    String first = keys.get(0);
    String last = keys.get(keys.size() - 1);
    return "every request has a fixed cost on both sides, so fewer, larger requests can save CPU, but each takes "
        + "longer and open batches hold more memory. Here CPU per record ranged from " + Report.f2(cheap) + " µs ("
        + cheapest + ") to " + Report.f2(dear) + " µs (" + dearest + ") and an average request took "
        + Report.nanos(1e6 * med(g.get(first), r -> r.getDouble("requestLatencyAvgMillis"))) + " at " + first + " and "
        + Report.nanos(1e6 * med(g.get(last), r -> r.getDouble("requestLatencyAvgMillis"))) + " at " + last
        + "; compare the differences in records/s with the runs' spread before reading a trend into them.";
  }

  private String totalConclusion(List<Sample> ts) {
    Map<String, List<Sample>> g = groups(ts, s -> Report.bytes(s.spec().totalSizeInBytes()));
    List<String> keys = new ArrayList<>(g.keySet());
    String largest = keys.get(keys.size() - 1);
    double largestMed = med(g.get(largest), RunResult::recordsPerSec);
    String fastestKey = null;
    double fastestMed = 0;
    for (Map.Entry<String, List<Sample>> e : g.entrySet()) {
      double v = med(e.getValue(), RunResult::recordsPerSec);
      if (v > fastestMed) {
        fastestMed = v;
        fastestKey = e.getKey();
      }
    }
    StringBuilder sb = new StringBuilder();
    if (!largest.equals(fastestKey)) {
      sb.append("a larger buffer did not make the producer faster (the highest median, ")
          .append(Report.count(fastestMed)).append(" records/s, was at ").append(fastestKey).append(", against ")
          .append(Report.count(largestMed)).append(" at ").append(largest).append("). ");
    } else {
      sb.append("the largest buffer had the highest median (").append(Report.count(largestMed))
          .append(" records/s); compare it with the runs' spread. ");
    }
    List<String> waits = new ArrayList<>();
    g.forEach((k, l) -> waits.add(k + ": " + Report.nanos(med(l, r -> r.getLong("sendBlockedNanos")))));
    sb.append("What the buffer changes is how long `send()` can keep accepting records while the pipeline or the "
        + "receiver falls behind (median time blocked: ").append(String.join(", ", waits))
        .append("); size it for the receiver outages you want to ride out, not for speed.");
    return sb.toString();
  }

  private String compressionConclusion() {
    StringBuilder sb = new StringBuilder();
    for (Compression c : PerformanceSuite.COMPRESSIONS) {
      List<Sample> l = lp(c);
      if (l.isEmpty()) {
        continue;
      }
      RunResult r = medianSample(l).result();
      sb.append(sb.length() == 0 ? "" : ", ").append(Report.compressionName(c, 0)).append(' ')
          .append(Report.f2(r.cpuByGroup().getOrDefault("sender", 0L) / 1e3 / Math.max(1, r.delivered())))
          .append(" µs (").append(Report.f1(wireRatio(r))).append("×)");
    }
    if (sb.length() == 0) {
      return "";
    }
    StringBuilder out = new StringBuilder("compression runs on the send threads, so compare their CPU per record "
        + "(median runs, with the ratio on the wire): ").append(sb).append(". The whole process's CPU per record also "
        + "includes the application threads, which vary from run to run. On loopback bytes cost little; on a real "
        + "network, or a link billed by the byte, the smaller requests usually matter more.");
    JmhRunner.Row lz4 = codec("lz4");
    JmhRunner.Row zstd = codec("zstd-1");
    JmhRunner.Row gzip = codec("gzip-1");
    if (lz4 != null && zstd != null && gzip != null) {
      out.append(" Compressing the same 2 MiB batch on one thread (JMH, below) took ")
          .append(Report.f2(1e3 / lz4.score())).append(" ms with lz4, ").append(Report.f2(1e3 / zstd.score()))
          .append(" ms with zstd-1 and ").append(Report.f2(1e3 / gzip.score())).append(" ms with gzip-1.");
    }
    return out.toString();
  }

  private JmhRunner.Row codec(String name) {
    return jmh.stream().filter(r -> r.benchmark().startsWith("CodecBenchmark") && name.equals(r.params().get("codec")))
        .findFirst().orElse(null);
  }

  private static String joinAnd(List<String> l) {
    if (l.size() == 1) {
      return l.get(0);
    }
    return String.join(", ", l.subList(0, l.size() - 1)) + " and " + l.get(l.size() - 1);
  }

  private void sweepTable(String title, String column, List<Sample> list, Function<Sample, String> label,
      String chart, String chartTitle) {
    md.append(title).append("\n\n");
    Table t = new Table(column, ">records/s", ">raw MB/s", ">compressed MB/s", ">CPU", ">CPU µs/record",
        ">send p99", ">blocked", ">request", ">peak buffered", "sink", ">runs (records/s each)");
    Map<String, List<Sample>> groups = groups(list, label);
    List<String> cats = new ArrayList<>();
    double[] median = new double[groups.size()];
    double[] lo = new double[groups.size()];
    double[] hi = new double[groups.size()];
    int i = 0;
    for (Map.Entry<String, List<Sample>> g : groups.entrySet()) {
      List<Sample> l = g.getValue();
      Sample m = medianSample(l);
      StringBuilder each = new StringBuilder();
      for (Sample s : l) {
        each.append(each.length() == 0 ? "" : " / ").append(Report.count(s.result().recordsPerSec()))
            .append(disturbedMark(s));
      }
      t.row(g.getKey(), Report.count(med(l, RunResult::recordsPerSec)), Report.f1(med(l, RunResult::rawMbPerSec)),
          Report.f1(med(l, RunResult::wireMbPerSec)), Report.pct(med(l, RunResult::cpuPercent)),
          Report.f2(med(l, RunResult::cpuMicrosPerRecord)), Report.nanos(m.result().latency().percentile(99)),
          Report.nanos(med(l, r -> r.getLong("sendBlockedNanos"))),
          Report.nanos(1e6 * med(l, r -> r.getDouble("requestLatencyAvgMillis"))),
          Report.mb(maxOf(l, "peakBufferedBytes")), l.stream().allMatch(s -> s.result().verified()) ? "✓" : "✗",
          l.size() + " (" + each + ")");
      cats.add(g.getKey());
      lo[i] = min(l, RunResult::recordsPerSec);
      hi[i] = max(l, RunResult::recordsPerSec);
      median[i++] = med(l, RunResult::recordsPerSec);
    }
    md.append(t.markdown()).append('\n');
    charts.add(new Chart(chart, chartTitle, column, "records/s delivered", cats,
        List.of(new Charts.Series("median records/s (whisker: slowest to fastest run)", median, lo, hi)), false,
        false));
    md.append("![").append(chartTitle).append("](").append(CHART_DIR).append('/').append(chart).append(")\n\n");
  }

  /** "3" or "3 (1 ⚠)": runs, and how many were disturbed by other processes. */
  static String runsCell(List<Sample> l) {
    long disturbed = l.stream().filter(s -> !disturbedMark(s).isEmpty()).count();
    return l.size() + (disturbed > 0 ? " (" + disturbed + " ⚠)" : "");
  }

  private static long maxOf(List<Sample> l, String key) {
    return l.stream().mapToLong(s -> s.result().getLong(key)).max().orElse(0);
  }

  /**
   * " ⚠" when other processes took more than a quarter core during the run, or the machine ran more than 15 %
   * slower than its fastest (the suite's speed probe).
   */
  static String disturbedMark(Sample s) {
    return PerformanceSuite.disturbance(s.result()) > 1 ? " ⚠" : "";
  }

  // ---------------------------------------------------------------- JMH sweeps and how cost grows

  /** The SendBenchmark sweeps ({@code perf-data/jmh-send-sweeps.tsv}), when present: a table and a chart each. */
  private void jmhSweeps() {
    if (sendSweeps.isEmpty()) {
      return;
    }
    int threads = sendSweeps.get(0).threads();
    md.append("### The same settings in JMH (`SendBenchmark`)\n\n");
    md.append("The end-to-end sweeps above include the workload generator, the HTTP requests and a sink sharing "
        + "the machine. `SendBenchmark` isolates the producer: ").append(threads).append(" threads call `send()` with "
        + "records built in advance, the send threads seal, frame and compress batches as usual, and the transport "
        + "answers at once, so neither the network nor a receiver limits it. Each setting is varied alone; the others "
        + "keep the benchmark's defaults (2 send threads, 2 MiB batches, 100 MiB budget, lz4). Scores are sends/s of "
        + "all threads: the mean of the measured iterations, with the slowest and fastest iteration in brackets; "
        + "*B/op* is the allocation per send (`-prof gc`, the send threads' share included). Each sweep is one "
        + "line:\n\n");
    for (String[] sweep : JmhRunner.SWEEPS) {
      String param = sweep[0];
      List<JmhRunner.SweepRow> rows = sendSweeps.stream().filter(r -> r.param().equals(param)).toList();
      if (rows.isEmpty()) {
        continue;
      }
      md.append("**").append(param).append("**\n\n```sh\n").append(JmhRunner.sweepCommand(param))
          .append("\n```\n\n");
      Table t = new Table(param, ">sends/s (all threads)", ">± error (99.9 %)", ">ns per send per thread",
          ">B/op");
      List<String> cats = new ArrayList<>();
      double[] v = new double[rows.size()];
      double[] lo = new double[rows.size()];
      double[] hi = new double[rows.size()];
      int i = 0;
      for (JmhRunner.SweepRow r : rows) {
        String label = sweepValue(param, r.value());
        t.row(label, Report.count(r.opsPerSec()) + (Double.isNaN(r.min()) ? ""
            : " (" + Report.count(r.min()) + "–" + Report.count(r.max()) + ")"),
            Double.isNaN(r.error()) ? "–" : Report.count(r.error()), Report.f1(1e9 * r.threads() / r.opsPerSec()),
            Double.isNaN(r.bytesPerOp()) ? "–" : Report.f1(r.bytesPerOp()));
        cats.add(label);
        v[i] = r.opsPerSec();
        lo[i] = Double.isNaN(r.min()) ? r.opsPerSec() : r.min();
        hi[i++] = Double.isNaN(r.max()) ? r.opsPerSec() : r.max();
      }
      md.append(t.markdown()).append('\n');
      String file = "jmh-send-" + param.toLowerCase(Locale.ROOT) + ".png";
      String title = "JMH SendBenchmark: sends/s vs " + param;
      charts.add(new Chart(file, title, param, "sends/s (" + threads + " threads)", cats,
          List.of(new Charts.Series("mean sends/s (whisker: slowest to fastest iteration)", v, lo, hi)), false,
          param.equals("compression")));
      md.append("![").append(title).append("](").append(CHART_DIR).append('/').append(file).append(")\n\n");
    }
    md.append("With more benchmark threads than cores, *ns per send per thread* includes time descheduled. Where "
        + "the end-to-end sweep and this one disagree, the difference is the part this benchmark leaves out: "
        + "requests, the receiver and the generator.\n\n");
  }

  private static String sweepValue(String param, String value) {
    return switch (param) {
      case "batchSizeInBytes", "totalSizeInBytes" -> Report.bytes(Long.parseLong(value));
      case "compression" -> value.toLowerCase(Locale.ROOT);
      default -> value;
    };
  }

  /** Producer CPU per MB of raw data delivered, ms. */
  private static double cpuMsPerMb(RunResult r) {
    double mb = r.rawMbPerSec() * r.seconds();
    return mb <= 0 ? Double.NaN : r.getLong("cpuNanos") / 1e6 / mb;
  }

  /** Raw bytes per record generated. */
  private static double rawPerRecord(RunResult r) {
    return r.getLong("rawBytes") / (double) Math.max(1, r.getLong("emitted"));
  }

  private void costGrowth() {
    List<Sample> sizes = section("recordSize");
    List<Sample> apps = section("appThreads");
    if (sizes.isEmpty() && apps.isEmpty()) {
      return;
    }
    Sample any = !sizes.isEmpty() ? sizes.get(0) : apps.get(0);
    md.append("## How cost grows\n\n");
    md.append("The headline configuration (").append(Report.compressionName(any.spec().compression(), 0))
        .append(", sendThreads ").append(any.spec().sendThreads()).append(", batch ")
        .append(Report.bytes(any.spec().batchSizeInBytes())).append(", total ")
        .append(Report.bytes(any.spec().totalSizeInBytes()))
        .append(") with bigger records, then with more application threads, so that you can see where the producer "
            + "stops scaling on this machine")
        .append(cores() > 0 ? " (" + cores() + " cores)" : "")
        .append(" and why. The reference point of each sweep (the reference records, 10 threads) is the headline "
            + "lz4 run. The sink shares the machine, as everywhere on this page.\n\n");
    if (!sizes.isEmpty()) {
      md.append("### Record size\n\n");
      md.append("Records other than the reference have one attribute (`level`) and a `message` body of the "
          + "reference's text cut to length, each ending in its sequence number; *raw B/record* counts UTF-8 keys "
          + "and values as the reference does. *CPU ms/MB* is the producer JVM's CPU time (generator included) "
          + "per MB of raw data delivered.\n\n");
      Table t = new Table("records", ">raw B/record", ">records/s", ">raw MB/s", ">compressed MB/s", ">CPU",
          ">CPU µs/record", ">CPU ms/MB", ">send p99", "sink", ">runs");
      Map<String, List<Sample>> g = groups(sizes, s -> s.spec().recordBytes() == 0 ? "reference"
          : Report.bytes(s.spec().recordBytes()));
      List<String> cats = new ArrayList<>();
      List<double[]> stats = new ArrayList<>(); // raw B, records/s, lo, hi, µs/record, ms/MB, MB/s
      for (Map.Entry<String, List<Sample>> e : g.entrySet()) {
        List<Sample> l = e.getValue();
        Sample m = medianSample(l);
        double raw = med(l, ReportWriter::rawPerRecord);
        t.row(e.getKey(), Report.count(raw), Report.count(med(l, RunResult::recordsPerSec)),
            Report.f1(med(l, RunResult::rawMbPerSec)), Report.f1(med(l, RunResult::wireMbPerSec)),
            Report.pct(med(l, RunResult::cpuPercent)), Report.f2(med(l, RunResult::cpuMicrosPerRecord)),
            Report.f2(med(l, ReportWriter::cpuMsPerMb)), Report.nanos(m.result().latency().percentile(99)),
            l.stream().allMatch(s -> s.result().verified()) ? "✓" : "✗", runsCell(l));
        cats.add(e.getKey().equals("reference") ? "reference, " + Report.count(raw) + " B" : e.getKey());
        stats.add(new double[] {raw, med(l, RunResult::recordsPerSec), min(l, RunResult::recordsPerSec),
            max(l, RunResult::recordsPerSec), med(l, RunResult::cpuMicrosPerRecord),
            med(l, ReportWriter::cpuMsPerMb), med(l, RunResult::rawMbPerSec)});
      }
      md.append(t.markdown()).append('\n');
      charts.add(new Chart("throughput-vs-recordsize.png", "Delivered records/s vs record size", "record size",
          "records/s delivered (log)", cats, List.of(new Charts.Series(
              "median records/s (whisker: slowest to fastest run)", column(stats, 1), column(stats, 2),
              column(stats, 3))), true, false));
      charts.add(new Chart("cpu-vs-recordsize.png", "Producer CPU per MB of raw data vs record size",
          "record size", "CPU ms per raw MB", cats, List.of(new Charts.Series("median CPU ms/MB",
              column(stats, 5))), false, false));
      md.append("![Delivered records/s vs record size](" + CHART_DIR + "/throughput-vs-recordsize.png)\n\n");
      md.append("![Producer CPU per MB of raw data vs record size](" + CHART_DIR + "/cpu-vs-recordsize.png)\n\n");
      md.append("**What to conclude:** ").append(recordSizeConclusion(stats)).append("\n\n");
    }
    if (!apps.isEmpty()) {
      md.append("### Application threads\n\n");
      md.append("Reference records, more or fewer threads calling `send()` as fast as they can. *machine* is the "
          + "whole machine's CPU use during the measured phase (producer, sink and anything else) out of ")
          .append(cores() > 0 ? Report.pct(100.0 * cores()) : "100 % per core").append(".\n\n");
      Table t = new Table(">app threads", ">records/s", ">raw MB/s", ">CPU", ">sink CPU", ">machine",
          ">CPU µs/record", ">send p50", ">send p99", ">blocked", "sink", ">runs");
      Map<String, List<Sample>> g = groups(apps, s -> Integer.toString(s.spec().appThreads()));
      List<String> cats = new ArrayList<>();
      List<double[]> stats = new ArrayList<>(); // threads, records/s, lo, hi, p99 µs, cpu %, sink %, machine %
      for (Map.Entry<String, List<Sample>> e : g.entrySet()) {
        List<Sample> l = e.getValue();
        RunResult r = medianSample(l).result();
        double machine = med(l, x -> x.has("machineBusyPercent") ? x.getDouble("machineBusyPercent") : Double.NaN);
        double sinkCpu = med(l, x -> x.has("sinkCpuPercent") ? x.getDouble("sinkCpuPercent") : Double.NaN);
        t.row(e.getKey(), Report.count(med(l, RunResult::recordsPerSec)), Report.f1(med(l, RunResult::rawMbPerSec)),
            Report.pct(med(l, RunResult::cpuPercent)), Double.isNaN(sinkCpu) ? "–" : Report.pct(sinkCpu),
            Double.isNaN(machine) ? "–" : Report.pct(machine), Report.f2(med(l, RunResult::cpuMicrosPerRecord)),
            Report.nanos(r.latency().percentile(50)), Report.nanos(r.latency().percentile(99)),
            Report.nanos(med(l, x -> x.getLong("sendBlockedNanos"))),
            l.stream().allMatch(s -> s.result().verified()) ? "✓" : "✗", runsCell(l));
        cats.add(e.getKey());
        stats.add(new double[] {Integer.parseInt(e.getKey()), med(l, RunResult::recordsPerSec),
            min(l, RunResult::recordsPerSec), max(l, RunResult::recordsPerSec), r.latency().percentile(99) / 1e3,
            med(l, RunResult::cpuPercent), sinkCpu, machine});
      }
      md.append(t.markdown()).append('\n');
      charts.add(new Chart("throughput-vs-appthreads.png", "Delivered records/s vs application threads",
          "application threads", "records/s delivered", cats, List.of(new Charts.Series(
              "median records/s (whisker: slowest to fastest run)", column(stats, 1), column(stats, 2),
              column(stats, 3))), false, false));
      charts.add(new Chart("p99-vs-appthreads.png", "send() p99 vs application threads", "application threads",
          "send() p99, µs (log)", cats, List.of(new Charts.Series("p99 of the median run", column(stats, 4))),
          true, false));
      md.append("![Delivered records/s vs application threads](" + CHART_DIR + "/throughput-vs-appthreads.png)\n\n");
      md.append("![send() p99 vs application threads](" + CHART_DIR + "/p99-vs-appthreads.png)\n\n");
      md.append("**What to conclude:** ").append(appThreadsConclusion(stats)).append("\n\n");
    }
  }

  private static double[] column(List<double[]> rows, int k) {
    double[] c = new double[rows.size()];
    for (int i = 0; i < c.length; i++) {
      c[i] = rows.get(i)[k];
    }
    return c;
  }

  /** stats rows: raw B, records/s, lo, hi, µs/record, ms/MB, MB/s. */
  private static String recordSizeConclusion(List<double[]> stats) {
    List<double[]> s = new ArrayList<>(stats);
    s.sort(Comparator.comparingDouble(r -> r[0]));
    double[] a = s.get(0);
    double[] z = s.get(s.size() - 1);
    if (s.size() < 2) {
      return "one record size only; nothing to compare.";
    }
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "from %s B to %s B records (%s the bytes), the CPU per record grows %s "
        + "(%s → %s µs) while records/s fall from %s to %s and raw MB/s go from %s to %s. ",
        Report.count(a[0]), Report.count(z[0]), Report.times(z[0] / a[0]), Report.times(z[4] / a[4]),
        Report.f2(a[4]), Report.f2(z[4]), Report.count(a[1]), Report.count(z[1]), Report.f1(a[6]),
        Report.f1(z[6])));
    sb.append(String.format(Locale.ROOT, "Per MB the cost falls from %s to %s ms: ", Report.f2(a[5]),
        Report.f2(z[5])));
    if (a[5] > 1.5 * z[5]) {
      sb.append("small records pay mostly a fixed cost per record (the `send()` call, the record's framing, "
          + "batch bookkeeping, a timestamp), large ones mostly the bytes themselves (encoding, copying, "
          + "compressing)");
    } else {
      sb.append("the cost is mostly proportional to the bytes, not to the number of records");
    }
    if (s.size() >= 3) {
      double[] y = s.get(s.size() - 2);
      double change = z[5] / y[5] - 1;
      sb.append(String.format(Locale.ROOT, "; from %s B to %s B records the cost per MB changes by %+.0f %%",
          Report.count(y[0]), Report.count(z[0]), 100 * change));
      sb.append(Math.abs(change) < 0.25 ? ", so it has flattened: beyond that size, expect throughput in MB/s, "
          + "not in records/s, to stay about constant." : ".");
    } else {
      sb.append('.');
    }
    return sb.toString();
  }

  /** stats rows: threads, records/s, lo, hi, p99 µs, producer CPU %, sink CPU %, machine %. */
  private String appThreadsConclusion(List<double[]> stats) {
    List<double[]> s = new ArrayList<>(stats);
    s.sort(Comparator.comparingDouble(r -> r[0]));
    if (s.size() < 2) {
      return "one thread count only; nothing to compare.";
    }
    double[] first = s.get(0);
    double[] peak = s.stream().max(Comparator.comparingDouble(r -> r[1])).orElseThrow();
    double[] knee = s.stream().filter(r -> r[1] >= 0.9 * peak[1]).findFirst().orElse(peak);
    double[] last = s.get(s.size() - 1);
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "%s records/s with %s thread%s; %s with %s (%s)",
        Report.count(first[1]), Report.count(first[0]), first[0] == 1 ? "" : "s", Report.count(knee[1]),
        Report.count(knee[0]), Report.times(knee[1] / first[1])));
    boolean collapse = last != peak && last[1] < 0.5 * peak[1];
    if (knee != last && !collapse) {
      sb.append(String.format(Locale.ROOT, ", and from there on within 10 %% of the best (%s records/s, %s "
          + "threads): more threads add no throughput (%s records/s with %s)", Report.count(peak[1]),
          Report.count(peak[0]), Report.count(last[1]), Report.count(last[0])));
    } else if (collapse) {
      sb.append(String.format(Locale.ROOT, ", the best; with %s threads throughput collapses to %s records/s "
          + "(%s less) while the producer JVM still uses %s of CPU: the extra threads spend it on contention "
          + "(see *CPU µs/record*), not on sending", Report.count(last[0]), Report.count(last[1]),
          Report.times(peak[1] / last[1]), Report.pct(last[5])));
    }
    sb.append(". ");
    int cores = cores();
    double machine = knee[7];
    if (cores > 0 && !Double.isNaN(machine)) {
      double capacity = 100.0 * cores;
      sb.append(String.format(Locale.ROOT, "At %s threads the machine is busy at %s of %s (the producer JVM %s%s)",
          Report.count(knee[0]), Report.pct(machine), Report.pct(capacity), Report.pct(knee[5]),
          Double.isNaN(knee[6]) ? "" : ", the sink " + Report.pct(knee[6])));
      double ours = knee[5] + (Double.isNaN(knee[6]) ? 0 : knee[6]);
      if (ours < 0.85 * capacity && machine >= 0.85 * capacity) {
        sb.append(String.format(Locale.ROOT, ": other processes took %s of it, so this sweep was disturbed; "
            + "measure it again on an idle machine before drawing a conclusion.", Report.pct(machine - ours)));
      } else if (machine >= 0.85 * capacity) {
        sb.append(": it is CPU-bound. The application threads, the send threads and the sink compete for the same ")
            .append(cores).append(" cores");
        if (knee != last) {
          sb.append(", so further threads only wait for a core");
        } else {
          sb.append(", so threads beyond the most measured here would only wait for a core");
        }
        sb.append(String.format(Locale.ROOT, "; send() p99 is %s with %s thread%s and %s with %s. On a machine with "
            + "more cores the knee moves right; the sink's share would move to another host in production.",
            Report.nanos(first[4] * 1e3), Report.count(first[0]), first[0] == 1 ? "" : "s",
            Report.nanos(last[4] * 1e3), Report.count(last[0])));
      } else {
        sb.append(": CPU is not exhausted, so the limit is elsewhere (the send threads' requests, the sink, or "
            + "contention inside the producer; see *blocked*).");
      }
    }
    return sb.toString();
  }

  private void defaults() {
    md.append("## Why the defaults are what they are\n\n");
    md.append("logproducer's defaults are meant for a typical application sending to an OpenTelemetry Collector or "
        + "a similar receiver over a network. The sweeps above measured the settings on this machine; this table "
        + "puts the data next to the reasoning.\n\n");
    Table t = new Table("setting", "default", "in the headline runs", "what this data shows", "why this default");
    Sample head = medianSample(lp(Compression.LZ4));

    List<Sample> sts = section("sendThreads");
    String inFlight = "";
    if (head != null && head.result().getLong("requests") > 0) {
      RunResult r = head.result();
      double flight = r.getLong("requests") / r.seconds() * r.getDouble("requestLatencyAvgMillis") / 1e3;
      inFlight = String.format(Locale.ROOT, " In the median lz4 run %s requests in %.1f s took %s each on average: "
          + "about %.1f in flight at any time on loopback, more against a receiver farther away.",
          Report.count(r.getLong("requests")), r.seconds(), Report.nanos(r.getDouble("requestLatencyAvgMillis") * 1e6),
          flight);
    }
    t.row("`sendThreads`", ProducerConfig.DEFAULT_SEND_THREADS,
        head == null ? "–" : head.spec().sendThreads() + " (the fewest that never waited)",
        sts.isEmpty() ? "–" : "time `send()` callers waited for buffer space, per run: " + blockedSummary(sts),
        "Send threads keep requests in flight while earlier ones wait for the receiver; too few and `send()` "
            + "waits." + inFlight + " " + ProducerConfig.DEFAULT_SEND_THREADS + " leaves room for that; on a small "
            + "machine every extra runnable thread takes CPU from the application.");

    List<Sample> bss = section("batchSize");
    t.row("`batchSizeInBytes`", Report.bytes(ProducerConfig.DEFAULT_BATCH_SIZE_IN_BYTES),
        head == null ? "–" : Report.bytes(head.spec().batchSizeInBytes()),
        bss.isEmpty() ? "–" : "CPU per record and request time by batch size: " + perSetting(bss,
            s -> Report.bytes(s.spec().batchSizeInBytes()), l -> Report.f2(med(l, RunResult::cpuMicrosPerRecord))
                + " µs, " + Report.nanos(1e6 * med(l, r -> r.getDouble("requestLatencyAvgMillis")))),
        "Every request has a fixed cost; from about 1 MiB up it is spread over enough records that the "
            + "differences in CPU per record are no larger than between identical runs (see *Why identical runs "
            + "differ*), while larger batches make each request slower and hold more memory in open batches. The "
            + "OpenTelemetry Collector refuses request bodies above 20 MiB (decompressed) by default.");

    String fill = "";
    if (head != null && head.result().delivered() > 0 && head.result().getLong("encodedBytes") > 0) {
      double perRecord = head.result().getLong("encodedBytes") / (double) head.result().delivered();
      double records = ProducerConfig.DEFAULT_BATCH_SIZE_IN_BYTES / perRecord;
      fill = String.format(Locale.ROOT, "a %s batch holds about %s records (%.0f encoded bytes each), filled in %s at "
          + "the median lz4 rate", Report.bytes(ProducerConfig.DEFAULT_BATCH_SIZE_IN_BYTES), Report.count(records),
          perRecord, Report.nanos(records / head.result().recordsPerSec() * 1e9));
    }
    t.row("`lingerMillis`", ProducerConfig.DEFAULT_LINGER_MILLIS + " ms",
        head == null ? "–" : head.spec().lingerMillis() + " ms (not swept)", fill.isEmpty() ? "–" : fill,
        "Under load a batch fills on size long before linger expires; linger only matters for light traffic, "
            + "where it bounds how long a record waits before it is sent. The OpenTelemetry SDK's default schedule "
            + "delay is also 1 s.");

    List<Sample> tss = section("totalSize");
    t.row("`totalSizeInBytes`", Report.bytes(ProducerConfig.DEFAULT_TOTAL_SIZE_IN_BYTES),
        head == null ? "–" : Report.bytes(head.spec().totalSizeInBytes()),
        tss.isEmpty() ? "–" : "records/s (median) by size: " + perSetting(tss,
            s -> Report.bytes(s.spec().totalSizeInBytes()), l -> Report.count(med(l, RunResult::recordsPerSec))),
        "More memory did not buy speed; it buys time to ride out a slow or unavailable receiver before `send()` "
            + "waits (or drops, with `BufferFullPolicy.DROP`).");

    StringBuilder cw = new StringBuilder();
    for (Compression c : PerformanceSuite.COMPRESSIONS) {
      List<Sample> l = lp(c);
      if (!l.isEmpty()) {
        cw.append(cw.length() == 0 ? "" : ", ").append(Report.compressionName(c, 0)).append(' ')
            .append(Report.count(med(l, RunResult::recordsPerSec))).append("/s at ")
            .append(Report.f1(wireRatio(medianSample(l).result()))).append("×");
      }
    }
    t.row("`compression`", "the exporter's (OTLP: none)", head == null ? "–"
        : Report.compressionName(head.spec().compression(), head.spec().compressionLevel()),
        cw.length() == 0 ? "–" : "records/s (median) and wire ratio: " + cw,
        "OTLP's default is no compression and not every receiver accepts lz4 or zstd (some accept only gzip), so "
            + "the default stays `none`. Turn on lz4 (cheapest to compress) or zstd (smallest requests) when your "
            + "receiver accepts it, e.g. the OpenTelemetry Collector from v0.112.0; gzip-1 only for receivers that "
            + "accept nothing else.");
    md.append(t.markdown()).append('\n');
  }

  /** "512 KiB: 2.88 µs, 5.0 ms; 1 MiB: …" with {@code value} of each setting's runs, in sweep order. */
  private static String perSetting(List<Sample> list, Function<Sample, String> label,
      Function<List<Sample>, String> value) {
    StringBuilder sb = new StringBuilder();
    groups(list, label).forEach((k, l) -> sb.append(sb.length() == 0 ? "" : "; ").append(k).append(": ")
        .append(value.apply(l)));
    return sb.toString();
  }

  /** "1: 33.1 s / 38.7 s, 2: …": time send() callers spent blocked, per run. */
  private static String blockedSummary(List<Sample> list) {
    StringBuilder sb = new StringBuilder();
    groups(list, s -> Integer.toString(s.spec().sendThreads())).forEach((k, l) -> {
      sb.append(sb.length() == 0 ? "" : "; ").append(k).append(": ");
      for (int i = 0; i < l.size(); i++) {
        sb.append(i == 0 ? "" : " / ").append(Report.nanos(l.get(i).result().getLong("sendBlockedNanos")));
      }
    });
    return sb.toString();
  }

  private void latency() {
    md.append("## send() latency\n\n");
    md.append("`send()` runs on your thread. It encodes the record to OTLP protobuf and appends it to a batch; "
        + "compression and the HTTP requests happen later on the producer's send threads. *p50* is a typical call; "
        + "*p99* means 1 call in 100 took longer, *p99.9* 1 in 1,000. On this machine, with more busy threads than "
        + "cores, the rare slow calls include time the thread was descheduled and GC pauses.\n\n");
    md.append("*Paced* runs hold the application threads to a fixed total rate that the producer keeps up with: "
        + "that is the latency an application sees in normal operation. In *saturated* runs the threads produce "
        + "faster than records can be delivered, on purpose; the buffer (`totalSizeInBytes`) then fills and `send()` "
        + "waits for space (the default `BufferFullPolicy.BLOCK`, for at most `maxBlockMillis`; "
        + "`BufferFullPolicy.DROP` drops the record instead), so their percentiles include that wait (*blocked* = total "
        + "time the callers waited). The OpenTelemetry SDK's `emit()` only puts the record in a queue and encodes it "
        + "later on its worker thread, so a typical call is shorter; in the tuned setup its slow calls are the "
        + "application waiting for queue space.\n\n");
    md.append("Every 64th call is timed with `System.nanoTime()` into a log-linear histogram (≤ 1.6 % error).\n\n");
    Table t = new Table("run", ">records/s", ">samples", ">p50", ">p99", ">p99.9", ">max", ">blocked");
    List<String> cats = new ArrayList<>();
    List<double[]> vals = new ArrayList<>();
    List<Sample> list = new ArrayList<>(section("latency"));
    Sample lz4 = medianSample(lp(Compression.LZ4));
    Sample zstd = medianSample(lp(Compression.ZSTD));
    Sample oNone = medianSample(otel(true, Compression.NONE));
    for (Sample s : new Sample[] {lz4, zstd, oNone}) {
      if (s != null) {
        list.add(s);
      }
    }
    for (Sample s : list) {
      RunResult r = s.result();
      LatencyHistogram h = r.latency();
      String name = s.spec().rateLimit() > 0 ? s.spec().label() : s.spec().label() + " (saturated)";
      t.row(name, Report.count(r.recordsPerSec()), Report.count(h.count()), Report.nanos(h.percentile(50)),
          Report.nanos(h.percentile(99)), Report.nanos(h.percentile(99.9)), Report.nanos(h.max()),
          Report.nanos(r.getLong("sendBlockedNanos")));
      cats.add(name.replace("logproducer ", "").replace("OTel SDK tuned, ", "OTel tuned ")
          .replace(" (saturated)", ", saturated").replace(" paced to ", ", paced "));
      vals.add(new double[] {h.percentile(50) / 1e3, h.percentile(99) / 1e3, h.percentile(99.9) / 1e3});
    }
    md.append(t.markdown()).append('\n');
    if (!cats.isEmpty()) {
      List<Charts.Series> series = new ArrayList<>();
      String[] names = {"p50", "p99", "p99.9"};
      for (int k = 0; k < 3; k++) {
        double[] v = new double[cats.size()];
        for (int i = 0; i < v.length; i++) {
          v[i] = vals.get(i)[k];
        }
        series.add(new Charts.Series(names[k], v));
      }
      charts.add(new Chart("latency.png", "send() latency percentiles", "run", "µs", cats, series, true, true));
      md.append("![send() latency percentiles](" + CHART_DIR + "/latency.png)\n\n");
    }
  }

  private void cpu() {
    md.append("## Where the CPU goes\n\n");
    double gen = calibrationCpuMicros();
    md.append(String.format(Locale.ROOT, "**Building the records alone** (calibration runs, no client): %s "
        + "records/s on all cores, %.2f µs of CPU and %.0f bytes allocated per record. That is the application's "
        + "own cost (`Workload.next`: `Long.toString`, string concatenation, a `LogRecord`), and it is inside every "
        + "producer-process figure below. The same run at the start and at the end of the suite (%s) shows how "
        + "steady the machine's CPU was.%n%n", Report.count(calibrationRate()), gen, calibrationAllocBytes(),
        calibrationSpread()));
    md.append("Producer-process CPU per delivered record by thread group (JVM thread CPU time of the measured "
        + "phase; *app* = the 10 application threads, i.e. building the record **and** `send`; *vm* = process "
        + "CPU not on Java threads: GC, JIT compiler, VM threads):\n\n");
    List<Sample> rows = new ArrayList<>();
    for (Compression c : PerformanceSuite.COMPRESSIONS) {
      Sample m = medianSample(lp(c));
      if (m != null) {
        rows.add(m);
      }
    }
    Sample o = medianSample(otel(true, Compression.NONE));
    if (o != null) {
      rows.add(o);
    }
    Sample og = medianSample(otel(true, Compression.GZIP));
    if (og != null) {
      rows.add(og);
    }
    Sample al = aliyunBest() > 0 ? medianSample(aliyun(aliyunBest())) : null;
    if (al != null) {
      rows.add(al);
    }
    List<String> groups = new ArrayList<>();
    for (Sample s : rows) {
      for (String g : s.result().cpuByGroup().keySet()) {
        if (!groups.contains(g) && !g.equals("warmup")) {
          groups.add(g);
        }
      }
    }
    groups.sort(Comparator.comparingInt(ReportWriter::groupOrder));
    List<String> cols = new ArrayList<>(List.of("run", ">records/s"));
    for (String g : groups) {
      cols.add(">" + g + " µs");
    }
    cols.addAll(List.of(">total µs", ">without building µs", ">app alloc B/record", ">GC ms", ">sink µs/record"));
    Table t = new Table(cols.toArray(new String[0]));
    for (Sample s : rows) {
      RunResult r = s.result();
      long d = Math.max(1, r.delivered());
      List<Object> cells = new ArrayList<>();
      String compression = Report.compressionName(s.spec().compression(), s.spec().compressionLevel());
      cells.add(switch (s.spec().client()) {
        case OTEL -> "OTel tuned " + compression;
        case ALIYUN -> "Aliyun " + compression + ", " + s.spec().sendThreads() + " IO threads";
        default -> "logproducer " + compression;
      });
      cells.add(Report.count(r.recordsPerSec()));
      Map<String, Long> cpu = r.cpuByGroup();
      for (String g : groups) {
        cells.add(cpu.containsKey(g) ? Report.f2(cpu.get(g) / 1e3 / d) : "–");
      }
      cells.add(Report.f2(r.cpuMicrosPerRecord()));
      cells.add(Report.f2(r.cpuMicrosPerRecord() - gen));
      cells.add(Report.count(r.allocByGroup().getOrDefault("app", 0L) / (double) d));
      cells.add(Long.toString(r.getLong("gcMillis")));
      cells.add(r.has("sinkCpuNanosPerRecord") ? Report.f2(r.getDouble("sinkCpuNanosPerRecord") / 1e3) : "–");
      t.row(cells.toArray());
    }
    md.append(t.markdown()).append('\n');
    md.append(String.format(Locale.ROOT, "*app alloc* includes the ~%.0f bytes per record that building it "
        + "allocates; the producer's own allocation per `send` is measured by JMH below. *sink* = the sink process's "
        + "CPU per record (HTTP, decompress, decode, count) over the same window.%n%n", calibrationAllocBytes()));

    Sample head = medianSample(lp(Compression.LZ4));
    if (head != null && cores() > 0 && head.result().has("sinkCpuNanosPerRecord")) {
      RunResult r = head.result();
      double sink = r.getDouble("sinkCpuNanosPerRecord") / 1e3;
      double all = r.cpuMicrosPerRecord() + sink;
      md.append(String.format(Locale.ROOT, "**The CPU budget.** In the median lz4 run the producer's process used "
          + "%.2f µs of CPU per record (building the record included) and the sink %.2f µs: %.2f µs in all. %d cores "
          + "÷ %.2f µs = %s records/s at most, against %s measured: the end-to-end figure is bound by CPU, not by "
          + "I/O. `send()` itself is mostly the OTLP encoder (see *Profile* below).%n%n", r.cpuMicrosPerRecord(), sink,
          all, cores(), all, Report.count(cores() * 1e6 / all), Report.count(r.recordsPerSec())));
    }
    Object[] spread = widestSpread();
    if (spread != null) {
      md.append("**Why identical runs differ.** Identical settings delivered ")
          .append(Report.count((double) spread[0])).append(" and ").append(Report.count((double) spread[1]))
          .append(" records/s (").append(spread[2]).append(") in this data. The slow run used ")
          .append(Report.f2(((Sample) spread[3]).result().cpuMicrosPerRecord()))
          .append(" µs of producer CPU per record, the fast one ")
          .append(Report.f2(((Sample) spread[4]).result().cpuMicrosPerRecord()))
          .append(" µs: the same work took more CPU time. This machine is a virtual machine, whose speed can vary "
              + "with load elsewhere on its host. So read records/s as medians with their range, compare settings "
              + "by their CPU per record within one suite run, and compare suite runs by their calibration line "
              + "(building the records alone, above).\n\n");
    }
  }

  private static int groupOrder(String g) {
    return switch (g) {
      case "app" -> 0;
      case "sender" -> 1;
      case "linger" -> 2;
      case "otel-worker" -> 3;
      case "http" -> 4;
      case "io" -> 5;
      case "mover" -> 6;
      case "callback" -> 7;
      case "timeout" -> 8;
      case "other" -> 9;
      case "vm" -> 10;
      default -> 11;
    };
  }

  private void profile() throws IOException {
    List<Sample> p = section("profile");
    if (p.isEmpty()) {
      return;
    }
    Path summaryFile = docs.resolve("perf-data").resolve("profile.tsv");
    RunResult r = p.get(0).result();
    if (jfr != null && Files.exists(jfr)) {
      JfrProfile prof = r.has("jfrFrom")
          ? JfrProfile.analyze(jfr, ReportWriter::threadGroupOf, r.getLong("jfrFrom"), r.getLong("jfrTo"))
          : JfrProfile.analyze(jfr, ReportWriter::threadGroupOf);
      ProfileSummary.of(prof).write(summaryFile);
    }
    md.append("## Profile\n\n");
    md.append("The suite runs the headline configuration (lz4) once more with Java Flight Recorder on (")
        .append(Report.count(r.recordsPerSec())).append(" records/s with the recording running). The recording is "
            + "written to `docs/perf-data/profile.jfr` and is not committed (git ignores it); the suite keeps its "
            + "summary in `docs/perf-data/profile.tsv`, from which the tables below are made. After running the "
            + "suite, look at the recording in JDK Mission Control or summarize it with\n\n");
    md.append("```sh\njava -cp producer-benchmark/target/benchmarks.jar io.logproducer.benchmark.JfrProfile "
        + "docs/perf-data/profile.jfr");
    if (r.has("jfrFrom")) {
      md.append(' ').append(r.getLong("jfrFrom")).append(' ').append(r.getLong("jfrTo"));
    }
    md.append("\n```\n\n");
    if (r.has("jfrFrom")) {
      md.append("(the two numbers, the run's `jfrFrom` and `jfrTo` in `results.tsv`, select the measured phase). ");
    }
    md.append("To profile other settings: `producer-benchmark/run-suite.sh --run 'jfr=true sendThreads=8'` writes "
        + "`docs/perf-data/adhoc-N.jfr`.\n\n");
    ProfileSummary s = Files.exists(summaryFile) ? ProfileSummary.read(summaryFile) : null;
    if (s == null) {
      md.append("No summary of the recording was kept with this data.\n\n");
      return;
    }
    double send = s.componentShare("Producer.send");
    double encode = s.componentShare("OTLP encode");
    double build = s.componentShare("workload generation");
    md.append(String.format(Locale.ROOT, "**What it shows.** Of %d execution samples, %.1f %% are inside `send()` "
        + "and %.1f %% inside the OTLP encoder; building the record is %.1f %%. The top frames are the encoder's "
        + "UTF-8 handling of string values: the message is not ASCII and is encoded char by char. JFR samples only "
        + "threads running Java code, so the send threads, mostly in native code (socket writes, compressors), are "
        + "under-represented (see *Busy native frames*); the thread-group CPU table above is the accurate split "
        + "between threads.%n%n", s.executionSamples(), send, encode, build));
    md.append("**Share of execution samples by component** (a sample counts for every component on its stack):\n\n");
    Table c = new Table("component", ">samples", ">share");
    for (String[] row : s.rows("component")) {
      c.row(row[0].replace("  ", "  ↳ "), Report.count(Long.parseLong(row[1])), Report.f1(s.share(row, s.executionSamples())) + " %");
    }
    md.append(c.markdown()).append('\n');
    md.append("**Top frames (self time):**\n\n");
    Table f = new Table("method", ">samples", ">share");
    List<String[]> frames = s.rows("frame");
    for (String[] row : frames.subList(0, Math.min(10, frames.size()))) {
      f.row("`" + row[0] + "`", Report.count(Long.parseLong(row[1])), Report.f1(s.share(row, s.executionSamples())) + " %");
    }
    md.append(f.markdown()).append('\n');
    if (!s.rows("native").isEmpty()) {
      md.append("**Busy native frames** (JNI: codecs, socket writes; JFR samples these separately, ")
          .append(s.nativeSamples()).append(" samples, idle waits excluded):\n\n");
      Table n = new Table("method", ">samples", ">share");
      for (String[] row : s.rows("native")) {
        n.row("`" + row[0] + "`", Report.count(Long.parseLong(row[1])), Report.f1(s.share(row, s.nativeSamples())) + " %");
      }
      md.append(n.markdown()).append('\n');
    }
  }

  /**
   * What the page shows of a JFR recording, kept in {@code perf-data/profile.tsv} (the recording is not committed):
   * lines {@code executionSamples N}, {@code nativeSamples N} and {@code kind name count} for kind {@code component}
   * (inclusive), {@code thread}, {@code frame} (self) and {@code native}; tab-separated, {@code #} starts a comment.
   */
  record ProfileSummary(int executionSamples, int nativeSamples, List<String[]> all) {

    static final String HEADER = "# Summary of the JFR recording of the \"profile\" run in results.tsv (the "
        + "recording, profile.jfr, is not committed). Written by the suite; columns: kind, name, samples.";

    static ProfileSummary of(JfrProfile p) {
      List<String[]> rows = new ArrayList<>();
      for (JfrProfile.Share s : p.components()) {
        if (s.value() > 0) {
          rows.add(new String[] {"component", s.name(), Long.toString(Math.round(s.value()))});
        }
      }
      p.threads().forEach(s -> rows.add(new String[] {"thread", s.name(), Long.toString(Math.round(s.value()))}));
      p.topFrames().forEach(s -> rows.add(new String[] {"frame", s.name(), Long.toString(Math.round(s.value()))}));
      p.nativeTopFrames().forEach(s -> rows.add(new String[] {"native", s.name(),
          Long.toString(Math.round(s.value()))}));
      return new ProfileSummary(p.executionSamples(), p.nativeSamples(), rows);
    }

    void write(Path file) throws IOException {
      List<String> lines = new ArrayList<>();
      lines.add(HEADER);
      lines.add("executionSamples\t" + executionSamples);
      lines.add("nativeSamples\t" + nativeSamples);
      for (String[] r : all) {
        lines.add(String.join("\t", r));
      }
      Files.write(file, lines, StandardCharsets.UTF_8);
    }

    static ProfileSummary read(Path file) throws IOException {
      int exec = 0;
      int nat = 0;
      List<String[]> rows = new ArrayList<>();
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t");
        switch (f[0]) {
          case "executionSamples" -> exec = Integer.parseInt(f[1]);
          case "nativeSamples" -> nat = Integer.parseInt(f[1]);
          default -> rows.add(f);
        }
      }
      return new ProfileSummary(exec, nat, rows);
    }

    /** {name, count} rows of one kind, in file order. */
    List<String[]> rows(String kind) {
      return all.stream().filter(r -> r[0].equals(kind)).map(r -> new String[] {r[1], r[2]}).toList();
    }

    double share(String[] row, int total) {
      return total == 0 ? 0 : 100.0 * Long.parseLong(row[1]) / total;
    }

    /** Share of execution samples of the first component whose name contains {@code part}; 0 when absent. */
    double componentShare(String part) {
      return rows("component").stream().filter(r -> r[0].contains(part)).findFirst()
          .map(r -> share(r, executionSamples)).orElse(0.0);
    }
  }

  static String threadGroupOf(String name) {
    if (name == null) {
      return "?";
    }
    if (name.startsWith("app-")) {
      return "app (generate + send)";
    }
    if (name.contains("-sender-")) {
      return "sender";
    }
    if (name.contains("-linger")) {
      return "linger";
    }
    if (name.startsWith("BatchLogRecordProcessor")) {
      return "otel-worker";
    }
    if (name.startsWith("HttpClient")) {
      return "http";
    }
    return name.replaceAll("[-#]?\\d+$", "");
  }

  private void jmhSection() {
    if (jmh.isEmpty()) {
      return;
    }
    md.append("## Micro-benchmarks (JMH)\n\n");
    md.append("`java -jar producer-benchmark/target/benchmarks.jar <Benchmark> [-t N] [-prof gc]`; the suite runs "
        + "them with 1 fork and short iterations: each score is the mean of the measured iterations, with the "
        + "slowest and fastest iteration in brackets (on a busy 2-core machine the spread is the honest error "
        + "bar). `B/op` is JMH's `gc.alloc.rate.norm`: all allocation in the JVM divided by operations, the "
        + "producer's own threads included.\n\n");
    List<JmhRunner.Row> send = jmh.stream().filter(r -> r.benchmark().startsWith("SendBenchmark")).toList();
    if (!send.isEmpty()) {
      md.append("**`Producer.send(record)`** (no callback; OTLP encoder, real batching, framing and compression on 2 "
          + "send threads; a transport that answers at once; records built in advance):\n\n");
      Table t = new Table(">threads", "compression", ">sends/s (all threads)", ">ns per send per thread",
          ">B/op");
      for (JmhRunner.Row r : send) {
        t.row(r.threads(), r.params().get("compression"), Report.count(r.score()) + range(r, Report::count),
            Report.f1(1e9 * r.threads() / r.score()), Report.f1(r.allocPerOp()));
      }
      md.append(t.markdown()).append('\n');
      md.append("With more threads than the machine's cores, *ns per send per thread* includes time descheduled; "
          + "the CPU cost of one send is at most cores ÷ throughput.\n\n");
    }
    List<JmhRunner.Row> enc = jmh.stream().filter(r -> r.benchmark().startsWith("OtlpEncoderBenchmark")).toList();
    if (!enc.isEmpty()) {
      md.append("**OTLP record encoder** (`exporter.encoder().encode(record, EncodeBuffer)`, one thread):\n\n");
      Table t = new Table("encoding", ">ns/record", ">records/s (one core)", ">B/op");
      for (JmhRunner.Row r : enc) {
        t.row(r.params().get("encoding"), Report.f1(r.score()) + range(r, Report::f1),
            Report.count(1e9 / r.score()), Report.f1(r.allocPerOp()));
      }
      md.append(t.markdown()).append('\n');
    }
    List<JmhRunner.Row> utf8 = jmh.stream().filter(r -> r.benchmark().startsWith("Utf8Benchmark")).toList();
    if (!utf8.isEmpty()) {
      md.append("**UTF-8 work inside the encoder** (the four values of one record, ~600 chars; one thread):\n\n");
      Table t = new Table("method", ">ns per record", ">B/op");
      for (JmhRunner.Row r : utf8) {
        t.row(r.params().get("method"), Report.f1(r.score()) + range(r, Report::f1),
            Double.isNaN(r.allocPerOp()) ? "–" : Report.f1(r.allocPerOp()));
      }
      md.append(t.markdown()).append('\n');
      md.append("*onepass* is what the encoder (`ProtobufRecordEncoder`) does: each value written once with its "
          + "length filled in after (`writeUtf8LengthDelimited`), ASCII runs in a tight loop; *marked* the earlier "
          + "length pass and write pass, copying pure-ASCII values in bulk (`utf8LengthMarked` / "
          + "`writeUtf8Marked`); *encodebuffer* is the same "
          + "two passes char by char, without the ASCII shortcut; *asciifast* a variant of the shortcut with "
          + "`String.getBytes(int, int, byte[], int)`; *getbytes* is `String.getBytes(UTF_8)` (allocates); "
          + "*charsetencoder* a reused `CharsetEncoder`.\n\n");
    }
    List<JmhRunner.Row> codec = jmh.stream().filter(r -> r.benchmark().startsWith("CodecBenchmark")).toList();
    if (!codec.isEmpty()) {
      md.append("**Codecs on a 2 MiB batch** of reference-workload records in OTLP protobuf form (one thread, "
          + "written in 64 KiB slices as the send threads do; lz4 is the producer's own frame writer on top "
          + "of lz4-java's block compressor):\n\n");
      Table t = new Table("codec", ">batches/s", ">MB/s (input)", ">ratio", ">ms per 2 MiB batch");
      double mbPerOp = JmhRunner.codecBatchBytes() / 1e6;
      for (JmhRunner.Row r : codec) {
        double raw = r.secondary().getOrDefault("rawBytes", Double.NaN);
        double comp = r.secondary().getOrDefault("compressedBytes", Double.NaN);
        t.row(r.params().get("codec"), Report.f1(r.score()) + range(r, Report::f1),
            Report.count(r.score() * mbPerOp),
            Double.isNaN(raw) || comp <= 0 ? "–" : Report.f1(raw / comp) + "×", Report.f2(1e3 / r.score()));
      }
      md.append(t.markdown()).append('\n');
    }
  }

  /** " (min–max)" of a JMH score's iterations, or "" when unknown. */
  private static String range(JmhRunner.Row r, java.util.function.DoubleFunction<String> f) {
    return Double.isNaN(r.min()) ? "" : " (" + f.apply(r.min()) + "–" + f.apply(r.max()) + ")";
  }

  // ---------------------------------------------------------------- logging appenders

  /** The OpenTelemetry versions {@code AppenderBenchmark} is built with (producer-benchmark/pom.xml). */
  static final String OTEL_LOGBACK_APPENDER_VERSION = "2.29.0-alpha";
  static final String OTEL_SDK_VERSION = "1.63.0";
  static final String APPENDERS_HEADING = "## Logging appenders";
  /** The project's goal for the logback appender: our cost per event on the logging thread ÷ OpenTelemetry's. */
  static final double APPENDER_GOAL_RATIO = 0.5;
  static final String APPENDER_WHERE_TIME_GOES = "Where our appender's time goes: on the logging thread it builds "
      + "the record from the logback event (the formatted message, every MDC entry, thread name and id) and encodes "
      + "it to OTLP protobuf into the producer's buffer, whereas OpenTelemetry's appender builds its record there "
      + "and leaves the protobuf encoding to its exporter thread. With `queueSize` (and inside the AsyncAppender) "
      + "both steps move to a worker thread; what stays on the logging thread is logback's own work, formatting the "
      + "message and copying the MDC (`prepareForDeferredProcessing()`), and the queue's offer. When the queue is "
      + "full, `queueSize` counts the event as dropped before formatting it or copying its MDC (the logging thread "
      + "spends nothing more on an event the queue cannot take); the AsyncAppender formats every event first, and "
      + "OpenTelemetry's appender builds every record before its processor drops it. In this tight loop all three "
      + "drop most events (see *received*): at one thread the queue variant and OpenTelemetry kept about the same "
      + "share. The default path ships every event, which is why it costs more per call here.";
  private static final List<String> APPENDER_VARIANTS = List.of("logproducer", "logproducer-queue",
      "logproducer-async", "otel", "noop");
  /** Our variants, compared with {@code otel} in the ratio table. */
  private static final List<String> APPENDER_OURS = List.of("logproducer", "logproducer-queue", "logproducer-async");

  private AppenderResults.Jmh appenderRow(String variant, int threads) {
    return appenderData.jmh().stream().filter(j -> j.variant().equals(variant) && j.threads() == threads)
        .findFirst().orElse(null);
  }

  private List<Integer> appenderThreads() {
    return appenderData.jmh().stream().map(AppenderResults.Jmh::threads).distinct().sorted().toList();
  }

  /** "100.0 % (1 thread) and 100.0 % (4 threads)" of one variant's received share. */
  private String receivedShares(String variant) {
    List<String> parts = new ArrayList<>();
    for (int t : appenderThreads()) {
      AppenderResults.Jmh j = appenderRow(variant, t);
      if (j != null && !Double.isNaN(j.receivedShare())) {
        parts.add(share(j.receivedShare()) + " (" + t + (t == 1 ? " thread)" : " threads)"));
      }
    }
    return String.join(" and ", parts);
  }

  private static String share(double s) {
    return String.format(Locale.ROOT, "%.1f %%", 100 * s);
  }

  private static String ratio(double v) {
    return String.format(Locale.ROOT, "%.2f×", v);
  }

  private void appenders() {
    if (appenderData == null || appenderData.jmh().isEmpty()) {
      return;
    }
    md.append(APPENDERS_HEADING).append("\n\n");
    md.append("What a logging call costs the application's thread when logback sends it over OTLP/HTTP: "
        + "logproducer's logback appender against OpenTelemetry's, measured with JMH (`AppenderBenchmark`), and then "
        + "the reference workload end to end through logback and log4j2 into logproducer's appenders. This data was "
        + "measured separately from the rest of this page, by `producer-benchmark/run-appender-bench.sh`");
    if (appenderData.measured() != null) {
      md.append(" (measured: ").append(appenderData.measured()).append(')');
    }
    md.append(".\n\n");
    if (appenderData.note() != null) {
      md.append("> ").append(appenderData.note()).append("\n\n");
    }
    md.append("**One op** is one `logger.info(\"Order {} paid by {}: payment captured, receipt sent\", id, user)` "
        + "call with two MDC entries on the calling thread, through a logback `LoggerContext` (level INFO) into one "
        + "appender:\n\n");
    md.append("- `logproducer`: logproducer's `LogproducerAppender`, OTLP/HTTP protobuf, `bufferFullPolicy=DROP`, "
        + "otherwise the appender's defaults (100 MiB buffer, 1 MiB batches, linger 1 s, no compression); every MDC "
        + "entry, thread name and id. It builds the record and encodes it to protobuf **on the logging thread**. "
        + "When its buffer is full it drops the event, counts it (`droppedCount()`) and reports it.\n");
    md.append("- `logproducer-queue`: the same appender with `<queueSize>2048</queueSize>`: its own hand-off queue "
        + "and worker thread, so building and encoding move off the logging thread. When the queue is full it drops "
        + "the event, counts it and reports it, like its buffer drops.\n");
    md.append("- `logproducer-async`: the same appender inside logback's `AsyncAppender` (queue 2048, `neverBlock`, "
        + "`discardingThreshold` 0): building and encoding move to the AsyncAppender's worker thread. When the queue "
        + "is full the AsyncAppender drops the event.\n");
    md.append("- `otel`: OpenTelemetry's logback appender (`opentelemetry-logback-appender-1.0` ")
        .append(OTEL_LOGBACK_APPENDER_VERSION).append(") on the OpenTelemetry SDK ").append(OTEL_SDK_VERSION)
        .append(" with a `BatchLogRecordProcessor` (queue 2048, batch 512, delay 1 s: the SDK's defaults) and the "
            + "OTLP/HTTP protobuf exporter (JDK HttpClient, no compression); every MDC entry and the thread name. It "
            + "builds its record on the logging thread and encodes it **on its exporter thread**. When its queue is "
            + "full it drops the record.\n");
    md.append("- `noop`: an appender that does nothing: logback's own cost, for reference.\n\n");
    md.append("Both real appenders send to the same OTLP receiver on 127.0.0.1 inside the benchmark's JVM, and both "
        + "drop when their queue or buffer is full (a logging loop this tight can outrun an exporter), so the share of the logged events that the receiver counted (warm-up included) is part of the result: ");
    List<String> shares = new ArrayList<>();
    for (String v : APPENDER_VARIANTS) {
      String s = receivedShares(v);
      if (!s.isEmpty()) {
        shares.add("`" + v + "` " + s);
      }
    }
    md.append(String.join("; ", shares)).append(".\n\n");

    Table t = new Table("variant", ">threads", ">ns/op (± error)", ">logging-thread CPU ns/op", ">B/op",
        ">received");
    for (int threads : appenderThreads()) {
      for (String v : APPENDER_VARIANTS) {
        AppenderResults.Jmh j = appenderRow(v, threads);
        if (j == null) {
          continue;
        }
        t.row(v, threads, Report.f1(j.nsPerOp()) + (Double.isNaN(j.nsPerOpError()) ? "" : " ± "
            + Report.f1(j.nsPerOpError())), Double.isNaN(j.cpuNsPerOp()) ? "–" : Report.f1(j.cpuNsPerOp()),
            Double.isNaN(j.bytesPerOp()) ? "–" : Report.f1(j.bytesPerOp()),
            Double.isNaN(j.receivedShare()) ? "– (sends nothing)" : share(j.receivedShare()) + " ("
                + Report.count(j.received()) + " of " + Report.count(j.logged()) + ")");
      }
    }
    md.append(t.markdown()).append('\n');
    md.append("*ns/op* is JMH's score, wall time per call (mean of 5 iterations of 2 s, 1 fork; ± is JMH's 99.9 % "
        + "error). It includes the time the logging thread waited for a core while the export threads and the "
        + "in-JVM receiver ran, so on 2 cores a variant that ships every event pays for more of that than one that "
        + "drops most. *Logging-thread CPU ns/op* is the benchmark threads' own CPU time (`ThreadMXBean`) per call "
        + "in the measured iterations: the cost on the logging thread itself. *B/op* is JMH's "
        + "`gc.alloc.rate.norm`: all allocation in the JVM per call, the export threads and the receiver "
        + "included.\n\n");

    md.append("**Against OpenTelemetry's appender**, and the project's goal for this: logproducer's own goal is **at "
        + "most half of OpenTelemetry's logback appender's cost per event on the logging thread** (ratio ≤ ")
        .append(ratio(APPENDER_GOAL_RATIO)).append("). It is not an industry standard; *met* or *not yet* only says "
            + "whether the measured ratio reaches the project's own goal. The ratios compare costs measured while the "
            + "variants kept very different shares of the events (see *received* above).\n\n");
    List<String> headers = new ArrayList<>(List.of("measure", ">threads"));
    for (String v : APPENDER_OURS) {
      headers.add(">" + v + " ÷ otel");
      headers.add("goal");
    }
    Table r = new Table(headers.toArray(new String[0]));
    for (boolean cpu : new boolean[] {false, true}) {
      for (int threads : appenderThreads()) {
        AppenderResults.Jmh o = appenderRow("otel", threads);
        if (o == null) {
          continue;
        }
        Object[] row = new Object[2 + 2 * APPENDER_OURS.size()];
        row[0] = cpu ? "logging-thread CPU ns/op" : "ns/op";
        row[1] = threads;
        int i = 2;
        for (String v : APPENDER_OURS) {
          AppenderResults.Jmh j = appenderRow(v, threads);
          double q = j == null ? Double.NaN : cpu ? j.cpuNsPerOp() / o.cpuNsPerOp() : j.nsPerOp() / o.nsPerOp();
          row[i++] = Double.isNaN(q) ? "–" : "**" + ratio(q) + "**";
          row[i++] = Double.isNaN(q) ? "–" : status(q <= APPENDER_GOAL_RATIO);
        }
        r.row(row);
      }
    }
    md.append(r.markdown()).append('\n');
    md.append(APPENDER_WHERE_TIME_GOES).append("\n\n");

    md.append("**Drops you can see.** logback's `AsyncAppender` with `neverBlock` drops silently: its drops are not "
        + "counted or reported anywhere");
    List<String> silent = new ArrayList<>();
    for (int threads : appenderThreads()) {
      AppenderResults.Jmh a = appenderRow("logproducer-async", threads);
      if (a != null && a.appenderDropped() == 0 && a.received() >= 0 && a.received() < a.logged()) {
        silent.add(share(1 - a.receivedShare()) + " (" + threads + (threads == 1 ? " thread)" : " threads)"));
      }
    }
    if (!silent.isEmpty()) {
      md.append(" (here our appender's `droppedCount()` stayed 0 behind it while ").append(String.join(" and ",
          silent)).append(" of the events never reached it)");
    }
    md.append(". logproducer's appender counts the events it drops (`droppedCount()`) and reports them itself.\n\n");

    List<AppenderResults.E2e> e2e = appenderData.e2e();
    if (!e2e.isEmpty()) {
      md.append("**End to end through each framework.** The examples jar's `logback` and `log4j2` commands "
          + "configure the framework from `examples/src/main/resources/logback-example.xml` or "
          + "`log4j2-example.xml` and log the reference workload (10 application threads, one logging call per "
          + "record) through logproducer's appender, over OTLP/HTTP without compression, to an OTLP receiver "
          + "embedded in the same JVM that decodes and counts every record. The command's final line accounts for "
          + "every record: delivered + failed + refused (dropped because the appender's buffer was full) + not "
          + "sent = records.\n\n");
      Map<String, List<AppenderResults.E2e>> byFramework = new LinkedHashMap<>();
      for (AppenderResults.E2e e : e2e) {
        byFramework.computeIfAbsent(e.framework(), k -> new ArrayList<>()).add(e);
      }
      Table e = new Table("framework", ">runs", ">records per run", ">median records/s", ">range",
          ">median raw MB/s", "delivered");
      byFramework.forEach((fw, runs) -> {
        double[] rate = runs.stream().mapToDouble(AppenderResults.E2e::recordsPerSec).toArray();
        double[] raw = runs.stream().mapToDouble(AppenderResults.E2e::rawMbPerSec).toArray();
        List<Long> records = runs.stream().map(AppenderResults.E2e::records).distinct().toList();
        String delivered;
        if (runs.stream().allMatch(AppenderResults.E2e::allDelivered)) {
          delivered = "all, in every run ✓";
        } else {
          StringBuilder sb = new StringBuilder("✗");
          for (AppenderResults.E2e x : runs) {
            if (!x.allDelivered()) {
              sb.append(" run ").append(x.run()).append(": ").append(Report.count(x.delivered())).append(" of ")
                  .append(Report.count(x.records())).append(" (failed ").append(Report.count(x.failed()))
                  .append(", refused ").append(Report.count(x.refused())).append(", not sent ")
                  .append(Report.count(x.notSent())).append(");");
            }
          }
          delivered = sb.substring(0, sb.length() - 1);
        }
        e.row(fw, runs.size(), records.size() == 1 ? Report.count(records.get(0)) : "varies",
            Report.count(Report.median(rate)), runs.size() > 1 ? Report.count(Arrays.stream(rate).min().orElseThrow())
                + "–" + Report.count(Arrays.stream(rate).max().orElseThrow()) : "",
            Report.f1(Report.median(raw)), delivered);
      });
      md.append(e.markdown()).append('\n');
      md.append("The application threads, the producer and the receiver share the machine's cores here, as in the "
          + "rest of this page: these rates are lower bounds of what the appenders do against a remote "
          + "receiver.\n\n");
    }

    md.append("To rerun all of this section (~3 min of JMH on 2 cores, then the end-to-end runs; it rewrites "
        + "`docs/perf-data/appenders.tsv` and regenerates this page):\n\n");
    md.append("```sh\nproducer-benchmark/run-appender-bench.sh\n```\n\n");
    md.append("or its parts:\n\n```sh\n");
    for (int threads : appenderThreads()) {
      md.append("java -jar producer-benchmark/target/benchmarks.jar AppenderBenchmark -t ").append(threads)
          .append(" -prof gc -f 1 -wi 3 -w 2s -i 5 -r 2s\n");
    }
    for (String fw : e2e.isEmpty() ? List.of("logback", "log4j2")
        : e2e.stream().map(AppenderResults.E2e::framework).distinct().toList()) {
      md.append("java -jar examples/target/logproducer-examples.jar ").append(fw).append(" --records ")
          .append(e2e.isEmpty() ? 1_000_000 : e2e.get(0).records()).append(" --quiet\n");
    }
    md.append("```\n\n");
  }

  /** Other producers' published figures: in their own table, never charted, never divided by ours. */
  private void published() {
    md.append(PUBLISHED_HEADING).append("\n\n");
    md.append("The reference workload comes from the performance test published with the JD Cloud Java producer. "
        + "Its published throughput is listed here only to credit the source. It was measured on other hardware "
        + "(4 vCPU Xeon 8338C, JDK 8, lz4), sending to a remote service over a network, with partly different "
        + "settings; nothing on this page was measured that way, so these figures cannot be compared with ours.\n\n");
    Table t = new Table("published sweep", "setting", ">raw MB/s");
    published(t, "sendThreads (totalSizeInBytes 100 MiB, batchSizeInBytes 2 MiB)", PUBLISHED_SEND_THREADS,
        List.of("1", "2", "4", "8", "16", "32"));
    published(t, "totalSizeInBytes (16 send threads, batchSizeInBytes 2 MiB)", PUBLISHED_TOTAL,
        List.of("25 MiB", "50 MiB", "100 MiB", "200 MiB"));
    published(t, "batchSizeInBytes (16 send threads, totalSizeInBytes 100 MiB)", PUBLISHED_BATCH,
        List.of("512 KiB", "1 MiB", "2 MiB", "4 MiB"));
    md.append(t.markdown()).append('\n');
  }

  private static void published(Table t, String sweep, Map<String, Double> values, List<String> order) {
    for (String k : order) {
      t.row(sweep, k, Report.f1(values.get(k)));
    }
  }

  private void method() {
    md.append("## Method\n\n");
    Map<String, String> m = new LinkedHashMap<>();
    m.put("Processes", "the suite (orchestrator), one sink JVM for the whole suite, and one fresh producer JVM per "
        + "run (`HarnessMain`): CPU, GC and allocation figures are per run. Within a run a first client instance "
        + "warms the JIT up, then a second one is measured.");
    m.put("Measured phase", "10 application threads, each with its own `Workload` generator, call `send` "
        + "(logproducer) or `logRecordBuilder()…emit()` (OTel) until the phase's time is up; then the client is "
        + "flushed. Rates are over first send → end of flush.");
    m.put("Delivered", "logproducer: `ProducerMetrics.recordsSent`; OTel: records in exports that completed "
        + "successfully. Checked against the sink's count (records it decoded while the run's JVM lived, minus the "
        + "warm-up's). *emitted − delivered* = lost (dropped by the client).");
    m.put("CPU", "`OperatingSystemMXBean.getProcessCpuTime` delta over the measured phase (all threads: app, "
        + "producer, GC, JIT); per-thread-group from `ThreadMXBean`. The sink's CPU comes from its own per-second "
        + "reports over the same window.");
    m.put("Repeats", "sweeps run in passes (every value once, then again); a run whose settings were already "
        + "measured by an earlier sweep is reused rather than repeated (the lz4 headline includes the sendThreads "
        + "sweep's runs with the same settings).");
    m.put("Noise", "before each run the suite waits (≤ 30 s) until the machine is idle, then (≤ 30 s) until its "
        + "speed probe (below) reads full speed; *machineBusyPercent* in "
        + "`docs/perf-data/results.tsv` records whole-machine CPU during each run, and a run during which other "
        + "processes used more than a quarter of a core is marked ⚠ and, time permitting, repeated once (the less "
        + "disturbed of the two is kept). The same for a run on a slowed machine: the suite times a fixed piece of "
        + "single-threaded work (OTLP-encoding 10,000 reference records, the median of 5 rounds; `java -cp "
        + "producer-benchmark/target/benchmarks.jar io.logproducer.benchmark.SpeedProbe` runs it every second) before "
        + "and after each run, and a run whose slower probe took more than 1.15× the suite's fastest probe ran on a "
        + "machine its host had slowed down (*machineSlowdown* in `results.tsv`).");
    m.put("Heap", "the producer JVMs run with `-XX:+AlwaysPreTouch`: in runs this short, first-touch page faults of "
        + "a fresh 4 GiB heap would otherwise show up as system CPU per record.");
    m.put("Raw data", "`docs/perf-data/`: `results.tsv` (every run's settings and results), `jmh.tsv`, "
        + "`meta.properties` (when and on what machine the data was measured, the suite's options) and `profile.tsv` "
        + "(the summary of the JFR recording)" + (appenderData == null ? "" : "; `appenders.tsv` holds the logging "
        + "appenders' numbers (written by `run-appender-bench.sh`)") + ". Not committed: the recording itself "
        + "(`profile.jfr`) and the per-run logs (`logs/`). `run-suite.sh --report-only` regenerates this page from the "
        + "committed files.");
    Table t = new Table("", "");
    m.forEach(t::row);
    md.append(t.markdown()).append('\n');
  }
}
