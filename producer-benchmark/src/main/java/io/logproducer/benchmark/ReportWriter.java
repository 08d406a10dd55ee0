package io.logproducer.benchmark;

import io.logproducer.Compression;
import io.logproducer.ProducerConfig;
import io.logproducer.benchmark.PerformanceSuite.Sample;
import io.logproducer.benchmark.Report.Table;
import io.logproducer.benchmark.RunSpec.Client;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/** Writes {@code docs/PERFORMANCE.md} and its charts from the suite's samples. */
final class ReportWriter {

  /** The JD Cloud Java producer's published figures (workload.md; 4 vCPU, lz4), raw MB/s. */
  static final Map<String, Double> PUBLISHED_SEND_THREADS = Map.of("1", 16.4, "2", 33.6, "4", 66.1, "8", 127.4,
      "16", 205.3, "32", 298.3);
  static final Map<String, Double> PUBLISHED_TOTAL = Map.of("25 MiB", 99.7, "50 MiB", 191.8, "100 MiB", 205.3,
      "200 MiB", 170.4);
  static final Map<String, Double> PUBLISHED_BATCH = Map.of("512 KiB", 169.8, "1 MiB", 184.9, "2 MiB", 205.3,
      "4 MiB", 193.8);
  static final String CHART_DIR = "performance";

  private final Path docs;
  private final Map<String, String> machine;
  private final List<Sample> samples;
  private final List<JmhRunner.Row> jmh;
  private final Path jfr;
  private final Map<String, String> meta;
  private final StringBuilder md = new StringBuilder();

  ReportWriter(Path docs, Map<String, String> machine, List<Sample> samples, List<JmhRunner.Row> jmh, Path jfr,
      Map<String, String> meta) {
    this.docs = docs;
    this.machine = machine;
    this.samples = samples;
    this.jmh = jmh;
    this.jfr = jfr;
    this.meta = meta;
  }

  void write() throws IOException {
    Files.createDirectories(docs.resolve(CHART_DIR));
    header();
    headline();
    targets();
    sweeps();
    latency();
    cpu();
    profile();
    jmhSection();
    recommendations();
    notes();
    method();
    Files.writeString(docs.resolve("PERFORMANCE.md"), md.toString(), StandardCharsets.UTF_8);
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

  /** logproducer samples of the compression section with {@code c}. */
  private List<Sample> lp(Compression c) {
    return select(s -> s.section().equals("compression") && s.spec().compression() == c);
  }

  private List<Sample> otel(boolean tuned, Compression c) {
    return select(s -> s.section().equals("peers") && s.spec().otelTuned() == tuned
        && s.spec().compression() == c);
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

  /** "0.35 µs at the start, 0.37 µs at the end". */
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

  /** When the measurements ended: the suite's results file's last change (the page may be regenerated later). */
  private ZonedDateTime measuredAt() {
    try {
      Path results = docs.resolve("perf-data").resolve("results.tsv");
      if (Files.exists(results)) {
        return ZonedDateTime.ofInstant(Files.getLastModifiedTime(results).toInstant(), java.time.ZoneId.systemDefault());
      }
    } catch (IOException ignored) {
      // fall through
    }
    return ZonedDateTime.now();
  }

  // ---------------------------------------------------------------- sections

  private void header() {
    md.append("# logproducer performance\n\n");
    md.append("Generated by the performance suite (`producer-benchmark/run-suite.sh`); measured ")
        .append(measuredAt().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z", Locale.ROOT)));
    if (meta.containsKey("suiteSeconds")) {
      long s = Long.parseLong(meta.get("suiteSeconds"));
      md.append(String.format(Locale.ROOT, "; the suite took %d min %02d s", s / 60, s % 60));
    }
    if (meta.containsKey("options")) {
      md.append(" (").append(meta.get("options")).append(')');
    }
    md.append(". Every number on this page comes from that one run; rerun the command to reproduce it on your "
        + "machine.\n\n");
    md.append("```sh\nproducer-benchmark/run-suite.sh     # builds the reactor and the benchmark module, then runs "
        + "the suite (~13 min on 2 cores)\n```\n\n");
    md.append("Options: `--quick` (a ~3-minute smoke run), `--skip-jmh`, `--warmup S`, `--duration S`, `--repeats N`, "
        + "`--passes N`, `--budget-minutes M`, `--report-only` (rebuild this page from `docs/perf-data/`), "
        + "`--run 'sendThreads=8 compression=ZSTD …'` (ad-hoc runs, no report); `SKIP_BUILD=1` skips the build. The "
        + "JMH benchmarks alone: `java -jar producer-benchmark/target/benchmarks.jar [SendBenchmark|OtlpEncoderBenchmark"
        + "|Utf8Benchmark|CodecBenchmark] [-t N] [-prof gc]`.\n\n");
    md.append("The **reference workload** (from the JD Cloud Java producer's published test, see "
        + "`shared/reference/workload.md`): 10 application threads call `send` as fast as they can; each record has "
        + "4 fields (`level`, `thread`, `location` as attributes, `message` as the body), every value ending in "
        + "`_<sequence>`, about 580 raw bytes (UTF-8 of keys and values). Records go over **OTLP/HTTP (protobuf)** "
        + "to a **sink in its own JVM** on 127.0.0.1 (the examples module's `OtlpReceiverMain`), which decompresses, "
        + "decodes and counts every record. *Delivered* is the producer's count and is checked against the sink's "
        + "(✓ = equal). MB = 10⁶ bytes; CPU 100 % = one core.\n\n");
    md.append("### Machine\n\n");
    Table t = new Table("", "");
    machine.forEach(t::row);
    t.row("Producer JVM", "fresh JVM per run, `-Xms4g -Xmx4g -XX:+AlwaysPreTouch`, default GC (G1)");
    t.row("Sink JVM", "one for the whole suite, `-Xms2g -Xmx2g -XX:+AlwaysPreTouch`");
    md.append(t.markdown()).append('\n');
    md.append("Both processes share the same cores, so the sink's CPU is taken from the producer's budget: the "
        + "end-to-end numbers are a lower bound of what the producer does against a remote receiver.\n\n");
  }

  private void headline() throws IOException {
    md.append("## Headline: logproducer vs the OpenTelemetry Java SDK\n\n");
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
    List<Double> rates = new ArrayList<>();
    for (Object[] row : rows) {
      @SuppressWarnings("unchecked")
      List<Sample> list = (List<Sample>) row[1];
      if (list.isEmpty()) {
        continue;
      }
      Sample m = medianSample(list);
      RunResult r = m.result();
      boolean allVerified = list.stream().allMatch(s -> s.result().verified());
      double lo = list.stream().mapToDouble(s -> s.result().recordsPerSec()).min().orElse(0);
      double hi = list.stream().mapToDouble(s -> s.result().recordsPerSec()).max().orElse(0);
      t.row(row[0], Report.compressionName(m.spec().compression(), m.spec().compressionLevel()),
          Report.count(med(list, RunResult::recordsPerSec)),
          list.size() > 1 ? Report.count(lo) + "–" + Report.count(hi) : "", Report.f1(med(list, RunResult::rawMbPerSec)),
          Report.f1(med(list, RunResult::wireMbPerSec)), Report.pct(med(list, RunResult::cpuPercent)),
          Report.f2(med(list, RunResult::cpuMicrosPerRecord)),
          Report.count(r.delivered()) + " / " + Report.count(r.getLong("emitted"))
              + (r.lossPercent() > 0.005 ? String.format(Locale.ROOT, " (**%.1f %% lost**)", r.lossPercent()) : ""),
          allVerified ? "✓" : "✗", runsCell(list));
      names.add(row[0].toString().replace("OTel SDK, ", "OTel ") + " "
          + Report.compressionName(m.spec().compression(), m.spec().compressionLevel()));
      rates.add(med(list, RunResult::recordsPerSec));
    }
    md.append(t.markdown()).append('\n');
    md.append("Medians where a configuration ran more than once (*runs*; *range* = slowest and fastest run; ⚠ = other "
        + "processes on the machine used more than a quarter of a core during the run, see Method). Settings: logproducer with sendThreads ")
        .append(meta.getOrDefault("standardSendThreads", "?")).append(", batch ")
        .append(meta.containsKey("standardBatchSize") ? Report.bytes(Long.parseLong(meta.get("standardBatchSize")))
            : "?")
        .append(", totalSizeInBytes 100 MiB, linger 2 s, batchCountThreshold 32768; OTel *tuned*: queue ")
        .append(Report.count(PerformanceSuite.OTEL_TUNED_QUEUE)).append(", export batch ")
        .append(Report.count(PerformanceSuite.OTEL_TUNED_BATCH))
        .append(", schedule delay 200 ms, reusable-data memory mode, and the application waits for queue space (a "
            + "semaphore the exporter releases), because the SDK itself never blocks; OTel *defaults*: queue 2048, "
            + "batch 512, 1 s — it drops whatever does not fit the queue.\n\n");

    double lz4 = med(lp(Compression.LZ4), RunResult::recordsPerSec);
    double zstd = med(lp(Compression.ZSTD), RunResult::recordsPerSec);
    double none = med(lp(Compression.NONE), RunResult::recordsPerSec);
    double gzip = med(lp(Compression.GZIP), RunResult::recordsPerSec);
    double oNone = med(otel(true, Compression.NONE), RunResult::recordsPerSec);
    double oGzip = med(otel(true, Compression.GZIP), RunResult::recordsPerSec);
    double oDef = med(otel(false, Compression.NONE), RunResult::recordsPerSec);
    md.append("**Ratios** (records/s delivered, same run, same sink):\n\n");
    Table r = new Table("logproducer", "vs", ">ratio");
    ratioRow(r, "lz4", lz4, "OTel tuned, none", oNone);
    ratioRow(r, "zstd-1", zstd, "OTel tuned, none", oNone);
    ratioRow(r, "lz4", lz4, "OTel tuned, gzip", oGzip);
    ratioRow(r, "none", none, "OTel tuned, none (same compression)", oNone);
    ratioRow(r, "gzip-1", gzip, "OTel tuned, gzip (same compression)", oGzip);
    ratioRow(r, "lz4", lz4, "OTel defaults (what it delivered)", oDef);
    md.append(r.markdown()).append('\n');
    if (!names.isEmpty()) {
      double[] v = rates.stream().mapToDouble(Double::doubleValue).toArray();
      Charts.bars(docs.resolve(CHART_DIR).resolve("peers.png"), "Delivered records/s, reference workload",
          "client and compression", "records/s", names, List.of(new Charts.Series("records/s delivered", v)), true);
      md.append("![Delivered records/s by client](" + CHART_DIR + "/peers.png)\n\n");
    }
  }

  private static void ratioRow(Table t, String ours, double a, String peer, double b) {
    if (!Double.isNaN(a) && !Double.isNaN(b) && b > 0) {
      t.row(ours + " (" + Report.count(a) + "/s)", peer + " (" + Report.count(b) + "/s)", "**" + Report.times(a / b)
          + "**");
    }
  }

  private void targets() {
    md.append("## Targets\n\n");
    Table t = new Table("target", "measured", "met");
    double lz4 = med(lp(Compression.LZ4), RunResult::recordsPerSec);
    double zstd = med(lp(Compression.ZSTD), RunResult::recordsPerSec);
    double lz4Raw = med(lp(Compression.LZ4), RunResult::rawMbPerSec);
    boolean lz4Verified = lp(Compression.LZ4).stream().allMatch(s -> s.result().verified());
    boolean zstdVerified = lp(Compression.ZSTD).stream().allMatch(s -> s.result().verified());
    t.row("≥ 1,000,000 records/s (≥ 580 raw MB/s) with lz4, sink-verified",
        "median " + Report.count(lz4) + " records/s, " + Report.f1(lz4Raw) + " raw MB/s" + (lz4Verified ? ", ✓" : ", ✗")
            + fastest(Compression.LZ4), mark(lz4 >= 1e6 && lz4Verified));
    t.row("≥ 1,000,000 records/s with zstd, sink-verified", "median " + Report.count(zstd) + " records/s"
        + (zstdVerified ? ", ✓" : ", ✗") + fastest(Compression.ZSTD), mark(zstd >= 1e6 && zstdVerified));
    double oNone = med(otel(true, Compression.NONE), RunResult::recordsPerSec);
    long oLost = otel(true, Compression.NONE).stream().mapToLong(s -> s.result().getLong("emitted")
        - s.result().delivered()).sum();
    t.row("≥ 10× the tuned OTel SDK, nothing dropped", Report.times(lz4 / oNone) + " (OTel tuned lost "
        + Report.count(oLost) + ")", mark(lz4 / oNone >= 10 && oLost == 0));
    Sample head = medianSample(lp(Compression.LZ4));
    if (head != null) {
      double cpu = head.result().cpuMicrosPerRecord();
      double gen = calibrationCpuMicros();
      t.row("producer CPU ≤ 1.0 µs per record at that rate (net of generating the record)",
          Report.f2(cpu - gen) + " µs (whole process " + Report.f2(cpu) + " µs, of which " + Report.f2(gen)
              + " µs generating the record)", mark(cpu - gen <= 1.0));
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
            .append(Report.count(p.spec().rateLimit())).append("/s").append(exhausted ? " (budget exhausted!)" : "");
      }
      Sample sat = medianSample(lp(Compression.LZ4));
      if (sat != null && sat.result().getLong("sendBlockedNanos") == 0) {
        sb.append("; ").append(Report.nanos(sat.result().latency().percentile(99)))
            .append(" in the saturated lz4 run, which never blocked");
      }
      t.row("send() p99 ≤ 5 µs when the budget is not exhausted (paced runs)", sb.toString(), mark(ok));
    }
    List<JmhRunner.Row> send = jmh.stream().filter(r -> r.benchmark().startsWith("SendBenchmark")
        && "NONE".equals(r.params().get("compression"))).toList();
    if (!send.isEmpty()) {
      double worst = send.stream().mapToDouble(JmhRunner.Row::allocPerOp).max().orElse(Double.NaN);
      StringBuilder sb = new StringBuilder();
      for (JmhRunner.Row r : send) {
        sb.append(sb.length() == 0 ? "" : ", ").append(Report.f1(r.allocPerOp())).append(" B (").append(r.threads())
            .append(" t)");
      }
      t.row("≤ 16 bytes allocated per send() without a callback (JMH -prof gc)", sb.toString(), mark(worst <= 16));
    }
    long over = samples.stream().filter(s -> s.result().getLong("totalSizeInBytes") > 0
        && s.result().getLong("peakBufferedBytes") > s.result().getLong("totalSizeInBytes")).count();
    long withBudget = samples.stream().filter(s -> s.result().getLong("totalSizeInBytes") > 0).count();
    t.row("peak buffered bytes never above totalSizeInBytes", (withBudget - over) + " of " + withBudget
        + " runs within the bound", mark(over == 0));
    md.append(t.markdown()).append('\n');
  }

  /** "; fastest run of the suite with this codec (any sweep): 1,135,823 records/s (sendThreads 2 …)". */
  private String fastest(Compression c) {
    Sample best = select(s -> s.spec().client() == Client.LOGPRODUCER && s.spec().compression() == c
        && s.spec().rateLimit() == 0 && !s.spec().jfr() && s.result().verified()).stream()
        .max(Comparator.comparingDouble(s -> s.result().recordsPerSec())).orElse(null);
    if (best == null) {
      return "";
    }
    return "; fastest " + Report.compressionName(c, 0) + " run of the suite: " + Report.count(best.result()
        .recordsPerSec()) + " records/s (" + best.spec().label() + ", " + best.section() + " sweep)";
  }

  private static String mark(boolean ok) {
    return ok ? "✅" : "❌";
  }

  private void sweeps() throws IOException {
    md.append("## Sweeps (the published tables' format)\n\n");
    md.append("Columns as published (raw MB/s, compressed MB/s, CPU of the producer process), plus records/s, "
        + "send() p99 (every 64th call timed; includes time blocked on a full buffer), peak buffered bytes, and the "
        + "JD Cloud Java producer's published raw MB/s (4 vCPU Xeon 8338C, JDK 8, lz4, against a remote service) "
        + "for shape. The harness's machine and network are different: compare shapes, not absolute values.\n\n");

    List<Sample> st = section("sendThreads");
    sweepTable("### sendThreads (lz4, totalSizeInBytes 100 MiB, batchSizeInBytes 2 MiB)", "sendThreads", st,
        s -> Integer.toString(s.spec().sendThreads()), PUBLISHED_SEND_THREADS, "throughput-vs-sendthreads.png",
        "Throughput vs sendThreads");

    List<Sample> bs = section("batchSize");
    sweepTable("### batchSizeInBytes (lz4, sendThreads " + meta.getOrDefault("standardSendThreads", "?")
        + ", totalSizeInBytes 100 MiB)", "batchSizeInBytes", bs, s -> Report.bytes(s.spec().batchSizeInBytes()),
        PUBLISHED_BATCH, "throughput-vs-batchsize.png",
        "Throughput vs batchSizeInBytes");

    List<Sample> ts = section("totalSize");
    sweepTable("### totalSizeInBytes (lz4, sendThreads " + meta.getOrDefault("standardSendThreads", "?")
        + ", batchSizeInBytes 2 MiB)", "totalSizeInBytes", ts, s -> Report.bytes(s.spec().totalSizeInBytes()),
        PUBLISHED_TOTAL, "throughput-vs-totalsize.png",
        "Throughput vs totalSizeInBytes");

    md.append("### compression (sendThreads ").append(meta.getOrDefault("standardSendThreads", "?"))
        .append(", batch ").append(meta.containsKey("standardBatchSize")
            ? Report.bytes(Long.parseLong(meta.get("standardBatchSize"))) : "?").append(")\n\n");
    Table t = new Table("compression", ">records/s", ">raw MB/s", ">compressed MB/s", ">ratio", ">CPU",
        ">CPU µs/record", ">sink CPU µs/record", ">send p99", "sink", ">runs");
    for (Compression c : PerformanceSuite.COMPRESSIONS) {
      List<Sample> list = lp(c);
      if (list.isEmpty()) {
        continue;
      }
      Sample m = medianSample(list);
      RunResult r = m.result();
      double ratio = r.getLong("encodedBytes") / (double) Math.max(1, r.getLong("wireBytes"));
      t.row(Report.compressionName(c, 0), Report.count(med(list, RunResult::recordsPerSec)),
          Report.f1(med(list, RunResult::rawMbPerSec)), Report.f1(med(list, RunResult::wireMbPerSec)),
          Report.f1(ratio) + "×", Report.pct(med(list, RunResult::cpuPercent)),
          Report.f2(med(list, RunResult::cpuMicrosPerRecord)),
          r.has("sinkCpuNanosPerRecord") ? Report.f2(r.getDouble("sinkCpuNanosPerRecord") / 1e3) : "–",
          Report.nanos(r.latency().percentile(99)), list.stream().allMatch(s -> s.result().verified()) ? "✓" : "✗",
          runsCell(list));
    }
    md.append(t.markdown()).append('\n');
    md.append("*ratio* = encoded (OTLP protobuf) bytes ÷ bytes on the wire.\n\n");
  }

  private void sweepTable(String title, String column, List<Sample> list,
      java.util.function.Function<Sample, String> label, Map<String, Double> published, String chart,
      String chartTitle) throws IOException {
    if (list.isEmpty()) {
      return;
    }
    md.append(title).append("\n\n");
    Table t = new Table(column, ">records/s", ">raw MB/s", ">compressed MB/s", ">CPU", ">CPU µs/record",
        ">send p99", ">blocked", ">peak buffered", "sink", ">runs (records/s each)", ">published raw MB/s");
    Map<String, List<Sample>> groups = new LinkedHashMap<>();
    for (Sample s : list) {
      groups.computeIfAbsent(label.apply(s), k -> new ArrayList<>()).add(s);
    }
    List<String> cats = new ArrayList<>();
    double[] ours = new double[groups.size()];
    double[] theirs = new double[groups.size()];
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
          Report.nanos(med(l, r -> r.getLong("sendBlockedNanos"))), Report.mb(maxOf(l, "peakBufferedBytes")),
          l.stream().allMatch(s -> s.result().verified()) ? "✓" : "✗", l.size() + " (" + each + ")",
          published.containsKey(g.getKey()) ? Report.f1(published.get(g.getKey())) : "–");
      cats.add(g.getKey());
      theirs[i] = published.getOrDefault(g.getKey(), Double.NaN);
      ours[i++] = med(l, RunResult::rawMbPerSec);
    }
    md.append(t.markdown()).append('\n');
    List<Charts.Series> series = new ArrayList<>();
    series.add(new Charts.Series("logproducer, this machine (raw MB/s, median)", ours));
    series.add(new Charts.Series("JD Cloud Java producer, published (4 vCPU, remote service)", theirs, true));
    Charts.line(docs.resolve(CHART_DIR).resolve(chart), chartTitle, column, "raw MB/s", cats, series, false);
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

  /** " ⚠" when other processes took more than a quarter core during the run. */
  static String disturbedMark(Sample s) {
    return PerformanceSuite.othersPercent(s.result()) > PerformanceSuite.DISTURBED_PERCENT ? " ⚠" : "";
  }

  private void latency() throws IOException {
    md.append("## send() latency\n\n");
    md.append("Every 64th `send` is timed with `System.nanoTime()` into a fixed-bucket log-linear histogram "
        + "(64 sub-buckets per power of two, ≤ 1.6 % error; `LatencyHistogram`). *Paced* runs hold the "
        + "application threads to a fixed total rate so that the budget is never exhausted: that is the latency an "
        + "application sees in normal operation. In saturated runs the threads outrun the pipeline on purpose, so "
        + "their percentiles include waiting for buffer space (*blocked* = total time `send` callers waited).\n\n");
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
      cats.add(name.replace("logproducer ", "").replace("OTel SDK tuned, ", "OTel ").replace(" (saturated)", " sat.")
          .replace("paced to ", "@"));
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
      Charts.bars(docs.resolve(CHART_DIR).resolve("latency.png"), "send() latency percentiles", "run",
          "µs", cats, series, true);
      md.append("![send() latency percentiles](" + CHART_DIR + "/latency.png)\n\n");
    }
  }

  private void cpu() {
    md.append("## Where the CPU goes\n\n");
    double gen = calibrationCpuMicros();
    md.append(String.format(Locale.ROOT, "**Workload generation alone** (calibration runs, no client): %s "
        + "records/s on all cores, %.2f µs CPU and %.0f bytes allocated per record — the application's own cost of "
        + "building the record (`Workload.next`: `Long.toString`, string concatenation, a `LogRecord`), paid inside "
        + "every producer-process figure below. The same run at the start and at the end of the suite (%s) shows how "
        + "steady the machine's CPU was.%n%n", Report.count(calibrationRate()), gen, calibrationAllocBytes(),
        calibrationSpread()));
    md.append("Producer-process CPU per delivered record by thread group (JVM thread CPU time of the measured "
        + "phase; *app* = the 10 application threads, i.e. generating the record **and** `send`; *vm* = process "
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
    cols.addAll(List.of(">total µs", ">net of generation µs", ">app alloc B/record", ">GC ms", ">sink µs/record"));
    Table t = new Table(cols.toArray(new String[0]));
    for (Sample s : rows) {
      RunResult r = s.result();
      long d = Math.max(1, r.delivered());
      List<Object> cells = new ArrayList<>();
      cells.add((s.spec().client() == Client.OTEL ? "OTel tuned " : "logproducer ")
          + Report.compressionName(s.spec().compression(), s.spec().compressionLevel()));
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
    md.append(String.format(Locale.ROOT, "*app alloc* includes the ~%.0f bytes per record the generator allocates; "
        + "the producer's own allocation per `send` is measured by JMH below. *sink* = the sink process's CPU per "
        + "record (HTTP, decompress, decode, count) over the same window.%n%n", calibrationAllocBytes()));
  }

  private static int groupOrder(String g) {
    return switch (g) {
      case "app" -> 0;
      case "sender" -> 1;
      case "linger" -> 2;
      case "otel-worker" -> 3;
      case "http" -> 4;
      case "other" -> 5;
      case "vm" -> 6;
      default -> 7;
    };
  }

  private void profile() throws IOException {
    if (jfr == null || !Files.exists(jfr)) {
      return;
    }
    List<Sample> p = section("profile");
    JfrProfile prof = p.isEmpty() || !p.get(0).result().has("jfrFrom")
        ? JfrProfile.analyze(jfr, ReportWriter::threadGroupOf)
        : JfrProfile.analyze(jfr, ReportWriter::threadGroupOf, p.get(0).result().getLong("jfrFrom"),
            p.get(0).result().getLong("jfrTo"));
    md.append("### JFR profile of the headline run\n\n");
    if (!p.isEmpty()) {
      md.append("Run: ").append(p.get(0).spec().describe()).append(" — ")
          .append(PerformanceSuite.summary(p.get(0).spec(), p.get(0).result())).append(". JFR `profile` settings "
              + "without the per-TLAB allocation events, recording from JVM start, events of the measured phase only; ")
          .append(Report.count(prof.executionSamples())).append(" execution samples. JFR samples only threads that "
              + "are running Java code, a few per 10 ms period: the send threads spend most of their time in JNI "
              + "(socket writes, the lz4 and zstd compressors), so they are under-represented below (see *Busy native "
              + "frames*); the thread-group CPU table above is the accurate split between threads.\n\n");
    }
    md.append("**Inclusive share of execution samples by component** (a sample counts for every component on its "
        + "stack):\n\n");
    Table c = new Table("component", ">samples", ">share");
    for (JfrProfile.Share s : prof.components()) {
      if (s.value() > 0) {
        c.row(s.name().replace("  ", "  ↳ "), Report.count(s.value()), Report.f1(s.percent()) + " %");
      }
    }
    md.append(c.markdown()).append('\n');
    md.append("**Execution samples by thread group:**\n\n");
    Table th = new Table("thread group", ">samples", ">share");
    for (JfrProfile.Share s : prof.threads()) {
      th.row(s.name(), Report.count(s.value()), Report.f1(s.percent()) + " %");
    }
    md.append(th.markdown()).append('\n');
    md.append("**Top frames (self time):**\n\n");
    Table f = new Table("method", ">samples", ">share");
    for (JfrProfile.Share s : prof.topFrames()) {
      f.row("`" + s.name() + "`", Report.count(s.value()), Report.f1(s.percent()) + " %");
    }
    md.append(f.markdown()).append('\n');
    if (!prof.nativeTopFrames().isEmpty()) {
      md.append("**Busy native frames** (JNI: codecs, socket writes; JFR samples these separately, ")
          .append(Report.count(prof.nativeSamples())).append(" samples, idle waits excluded):\n\n");
      Table n = new Table("method", ">samples", ">share");
      for (JfrProfile.Share s : prof.nativeTopFrames()) {
        n.row("`" + s.name() + "`", Report.count(s.value()), Report.f1(s.percent()) + " %");
      }
      md.append(n.markdown()).append('\n');
    }
    long records = p.isEmpty() ? 0 : p.get(0).result().delivered();
    md.append(String.format(Locale.ROOT, "**Allocation** (JFR allocation samples, weight = estimated bytes; %s in "
        + "all%s):%n%n", Report.mb(prof.allocationWeight()), records > 0 ? String.format(Locale.ROOT,
        ", ≈ %.0f bytes per delivered record", prof.allocationWeight() / records) : ""));
    Table a = new Table("allocation site", ">MB", ">share");
    for (JfrProfile.Share s : prof.allocationBySite()) {
      a.row("`" + s.name() + "`", Report.f1(s.value() / 1e6), Report.f1(s.percent()) + " %");
    }
    md.append(a.markdown()).append('\n');
    Table ac = new Table("class", ">MB", ">share");
    for (JfrProfile.Share s : prof.allocationByClass()) {
      ac.row("`" + s.name() + "`", Report.f1(s.value() / 1e6), Report.f1(s.percent()) + " %");
    }
    md.append(ac.markdown()).append('\n');
    if (!prof.waits().isEmpty()) {
      md.append("**Where threads waited** (JFR `jdk.ThreadPark` ≥ 20 ms and `jdk.JavaMonitorEnter` ≥ 20 ms "
          + "events, summed; waiting is not CPU but shows contention and back-pressure):\n\n");
      Table w = new Table("thread — site", ">total wait");
      for (JfrProfile.Share s : prof.waits()) {
        w.row("`" + s.name() + "`", Report.nanos(s.value()));
      }
      md.append(w.markdown()).append('\n');
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
    md.append("## JMH micro-benchmarks\n\n");
    md.append("`java -jar producer-benchmark/target/benchmarks.jar <Benchmark> [-t N] [-prof gc]`; the suite runs "
        + "them with 1 fork and short iterations: each score is the mean of the measured iterations, with the "
        + "slowest and fastest iteration in brackets (on a shared 2-core machine the spread is the honest error "
        + "bar). `B/op` is JMH's `gc.alloc.rate.norm`: all allocation in the JVM divided by operations, the "
        + "producer's background threads included.\n\n");
    List<JmhRunner.Row> send = jmh.stream().filter(r -> r.benchmark().startsWith("SendBenchmark")).toList();
    if (!send.isEmpty()) {
      md.append("**`Producer.send(record)`** (no callback; OTLP encoder, real batching, framing and compression on 2 "
          + "send threads; a transport that answers at once; pre-generated records):\n\n");
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
      md.append("*encodebuffer* is the encoder's first version (a `utf8Length` pass, then a `writeUtf8` pass, char "
          + "by char); *marked* is what `ProtobufRecordEncoder` does now (`utf8LengthMarked` / `writeUtf8Marked`: "
          + "ASCII values copied in bulk); *asciifast* the benchmark's own prototype of that, with "
          + "`String.getBytes(int, int, byte[], int)`; *getbytes* is `String.getBytes(UTF_8)` (allocates); "
          + "*charsetencoder* a reused `CharsetEncoder`.\n\n");
    }
    List<JmhRunner.Row> codec = jmh.stream().filter(r -> r.benchmark().startsWith("CodecBenchmark")).toList();
    if (!codec.isEmpty()) {
      md.append("**Codecs on a 2 MiB batch** of reference-workload records in OTLP protobuf form (one thread, "
          + "written in 64 KiB slices as the send threads do; lz4 is the producer's own frame writer around "
          + "lz4-java's block compressor):\n\n");
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

  private void recommendations() {
    md.append("## What this run's sweeps say about the defaults\n\n");
    md.append("The data for each setting, as measured in this run; the recommendations, with their reasoning across "
        + "runs, are in *Recommended defaults* under *Analysis* below.\n\n");
    String st = meta.getOrDefault("standardSendThreads", "?");
    String bs = meta.containsKey("standardBatchSize") ? Report.bytes(Long.parseLong(meta.get("standardBatchSize")))
        : "?";
    Table t = new Table("setting", "current default", "this run", "data");
    List<Sample> sts = section("sendThreads");
    String stWhy = sts.isEmpty() ? "" : "time `send` callers were blocked on a full buffer, per run: "
        + blockedSummary(sts) + "; records/s: " + sweepSummary(sts, s -> Integer.toString(s.spec().sendThreads()));
    t.row("`sendThreads`", ProducerConfig.DEFAULT_SEND_THREADS, "fewest that never blocked: " + st, stWhy);
    List<Sample> bss = section("batchSize");
    String bsWhy = bss.isEmpty() ? "" : "records/s (median): " + sweepSummary(bss,
        s -> Report.bytes(s.spec().batchSizeInBytes())) + "; CPU per record in the batch table above";
    t.row("`batchSizeInBytes`", Report.bytes(ProducerConfig.DEFAULT_BATCH_SIZE_IN_BYTES), "see the table", bsWhy);
    t.row("`lingerMillis`", ProducerConfig.DEFAULT_LINGER_MILLIS + " ms", "not swept",
        "under load batches seal on size long before linger; linger only bounds delivery delay for light traffic");
    t.row("`totalSizeInBytes`", Report.bytes(ProducerConfig.DEFAULT_TOTAL_SIZE_IN_BYTES), "see the table",
        section("totalSize").isEmpty() ? "" : sweepSummary(section("totalSize"),
            s -> Report.bytes(s.spec().totalSizeInBytes())));
    StringBuilder cw = new StringBuilder();
    for (Compression c : PerformanceSuite.COMPRESSIONS) {
      List<Sample> l = lp(c);
      if (!l.isEmpty()) {
        Sample m = medianSample(l);
        cw.append(cw.length() == 0 ? "" : ", ").append(Report.compressionName(c, 0)).append(' ')
            .append(Report.count(med(l, RunResult::recordsPerSec))).append("/s at ")
            .append(Report.f1(m.result().getLong("encodedBytes") / (double) Math.max(1, m.result().getLong(
                "wireBytes")))).append("×");
      }
    }
    t.row("`compression`", "exporter's (OTLP: none)", "see the table", "records/s (median) and wire ratio: " + cw);
    md.append(t.markdown()).append('\n');
  }

  /** "1: 850,000/s, 2: …" with the median of each setting's runs, in sweep order. */
  private static String sweepSummary(List<Sample> list, java.util.function.Function<Sample, String> label) {
    Map<String, List<Sample>> groups = new LinkedHashMap<>();
    for (Sample s : list) {
      groups.computeIfAbsent(label.apply(s), k -> new ArrayList<>()).add(s);
    }
    StringBuilder sb = new StringBuilder();
    groups.forEach((k, l) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append(": ")
        .append(Report.count(med(l, RunResult::recordsPerSec))).append("/s"));
    return sb.toString();
  }

  /** "1: 33.1 s / 38.7 s, 2: …": time send() callers spent blocked, per run. */
  private static String blockedSummary(List<Sample> list) {
    Map<String, List<Sample>> groups = new LinkedHashMap<>();
    for (Sample s : list) {
      groups.computeIfAbsent(Integer.toString(s.spec().sendThreads()), k -> new ArrayList<>()).add(s);
    }
    StringBuilder sb = new StringBuilder();
    groups.forEach((k, l) -> {
      sb.append(sb.length() == 0 ? "" : ", ").append(k).append(": ");
      for (int i = 0; i < l.size(); i++) {
        sb.append(i == 0 ? "" : " / ").append(Report.nanos(l.get(i).result().getLong("sendBlockedNanos")));
      }
    });
    return sb.toString();
  }

  /** Hand-written analysis kept with the benchmark sources, inserted verbatim. */
  private void notes() throws IOException {
    try (InputStream in = ReportWriter.class.getResourceAsStream("/performance-notes.md")) {
      if (in != null) {
        md.append(new String(in.readAllBytes(), StandardCharsets.UTF_8)).append('\n');
      }
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
    m.put("Noise", "before each run the suite waits (≤ 30 s) until the machine is idle; *machineBusyPercent* in "
        + "`docs/perf-data/results.tsv` records whole-machine CPU during each run.");
    m.put("Raw data", "`docs/perf-data/`: `results.tsv` (every run's settings and results), `jmh.tsv`, "
        + "`meta.properties`, `profile.jfr` (open with JDK Mission Control, `jfr print`, or "
        + "`java -cp producer-benchmark/target/benchmarks.jar io.logproducer.benchmark.JfrProfile FILE FROM TO`) and "
        + "the per-run logs (`logs/`, not committed). `PerformanceSuite --report-only` regenerates this page from "
        + "them.");
    Table t = new Table("", "");
    m.forEach(t::row);
    md.append(t.markdown()).append('\n');
  }
}
