package io.logproducer.benchmark.report;

import static io.logproducer.benchmark.report.SuiteData.medianSample;

import io.logproducer.Compression;
import io.logproducer.benchmark.harness.JmhRunner;
import io.logproducer.benchmark.harness.LatencyHistogram;
import io.logproducer.benchmark.harness.PerformanceSuite;
import io.logproducer.benchmark.harness.RunResult;
import io.logproducer.benchmark.harness.Sample;
import io.logproducer.benchmark.report.Report.Table;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The performance page's blocks about where time and CPU go: {@code send()} latency, the
 * calibration, CPU by thread group, the CPU budget, the spread of identical runs, the profile and
 * the JMH micro-benchmarks. Each block is null when the data it needs is missing.
 */
final class CpuTables {

  private static final List<String> GROUP_ORDER =
      List.of(
          "app",
          "sender",
          "linger",
          "otel-worker",
          "http",
          "io",
          "mover",
          "callback",
          "timeout",
          "other",
          "gc",
          "jit",
          "vm");

  private final SuiteData d;
  private final List<PerformanceReport.Chart> charts;

  CpuTables(SuiteData d, List<PerformanceReport.Chart> charts) {
    this.d = d;
    this.charts = charts;
  }

  void register(Map<String, Supplier<String>> blocks) {
    blocks.put("latency", this::latency);
    blocks.put("calibration", this::calibration);
    blocks.put("cpu", this::cpu);
    blocks.put("alloc", this::alloc);
    blocks.put("cpu-budget", this::budget);
    blocks.put("spread", this::spread);
    blocks.put("profile-command", this::profileCommand);
    blocks.put("profile-components", () -> profile("component", 0, true));
    blocks.put("profile-frames", () -> profile("frame", 10, true));
    blocks.put("profile-native", () -> profile("native", 0, false));
    blocks.put("jmh-send", this::jmhSend);
    blocks.put("jmh-encoder", this::jmhEncoder);
    blocks.put("jmh-utf8", this::jmhUtf8);
    blocks.put("jmh-codec", this::jmhCodec);
  }

  private String latency() {
    List<Sample> list = new ArrayList<>(d.section("latency"));
    for (Sample s :
        new Sample[] {
          d.head(),
          medianSample(d.lp(Compression.ZSTD)),
          medianSample(d.otel(true, Compression.NONE))
        }) {
      if (s != null) {
        list.add(s);
      }
    }
    if (list.isEmpty()) {
      return null;
    }
    Table t =
        new Table("run", ">records/s", ">samples", ">p50", ">p99", ">p99.9", ">max", ">blocked");
    List<String> cats = new ArrayList<>();
    double[][] v = new double[3][list.size()];
    for (int i = 0; i < list.size(); i++) {
      Sample s = list.get(i);
      RunResult r = s.result();
      LatencyHistogram h = r.latency();
      String name = s.spec().rateLimit() > 0 ? s.spec().label() : s.spec().label() + " (saturated)";
      t.row(
          name,
          Report.count(r.recordsPerSec()),
          Report.count(h.count()),
          Report.nanos(h.percentile(50)),
          Report.nanos(h.percentile(99)),
          Report.nanos(h.percentile(99.9)),
          Report.nanos(h.max()),
          Report.nanos(r.getLong("sendBlockedNanos")));
      cats.add(
          name.replace("logproducer ", "")
              .replace("OTel SDK tuned, ", "OTel tuned ")
              .replace(" (saturated)", ", saturated")
              .replace(" paced to ", ", paced "));
      v[0][i] = h.percentile(50) / 1e3;
      v[1][i] = h.percentile(99) / 1e3;
      v[2][i] = h.percentile(99.9) / 1e3;
    }
    charts.add(
        new PerformanceReport.Chart(
            "latency.png",
            "send() latency percentiles",
            "run",
            "µs",
            cats,
            List.of(
                new Charts.Series("p50", v[0]),
                new Charts.Series("p99", v[1]),
                new Charts.Series("p99.9", v[2])),
            true,
            true));
    return t.markdown();
  }

  /** Building the records alone, with no client: each calibration run and their median. */
  private String calibration() {
    List<Sample> cal = d.section("calibration");
    if (cal.isEmpty()) {
      return null;
    }
    Table t =
        new Table(
            "calibration run", ">records/s (all cores)", ">CPU µs/record", ">allocated B/record");
    for (Sample s : cal) {
      RunResult r = s.result();
      long emitted = Math.max(1, r.getLong("emitted"));
      t.row(
          s.spec().label(),
          Report.count(r.getLong("emitted") / r.seconds()),
          Report.f2(r.getLong("cpu.app") / 1e3 / emitted),
          Report.count(r.getLong("alloc.app") / (double) emitted));
    }
    t.row(
        "median",
        Report.count(
            Report.median(
                cal.stream()
                    .mapToDouble(s -> s.result().getLong("emitted") / s.result().seconds())
                    .toArray())),
        Report.f2(d.calibrationCpuMicros()),
        Report.count(d.calibrationAllocBytes()));
    return t.markdown();
  }

  /** The median run of each client and compression the CPU tables show, or an empty list. */
  private List<Sample> groupRows() {
    List<Sample> rows = new ArrayList<>();
    for (Compression c : PerformanceSuite.COMPRESSIONS) {
      rows.add(medianSample(d.lp(c)));
    }
    rows.add(medianSample(d.otel(true, Compression.NONE)));
    rows.add(medianSample(d.otel(true, Compression.GZIP)));
    rows.add(d.aliyunBest() > 0 ? medianSample(d.aliyun(d.aliyunBest())) : null);
    rows.removeIf(s -> s == null);
    return rows;
  }

  /** The thread groups of {@code rows} ({@code warmup} left out), in {@link #GROUP_ORDER}. */
  private static List<String> groups(List<Sample> rows, Function<RunResult, Map<String, Long>> by) {
    List<String> groups = new ArrayList<>();
    rows.forEach(
        s ->
            by.apply(s.result()).keySet().stream()
                .filter(g -> !groups.contains(g) && !g.equals("warmup"))
                .forEach(groups::add));
    groups.sort(
        Comparator.comparingInt(
            g -> GROUP_ORDER.contains(g) ? GROUP_ORDER.indexOf(g) : GROUP_ORDER.size()));
    return groups;
  }

  private static String rowName(Sample s) {
    return switch (s.spec().client()) {
      case OTEL -> "OTel tuned " + SuiteData.compression(s);
      case ALIYUN ->
          "Aliyun " + SuiteData.compression(s) + ", " + s.spec().sendThreads() + " IO threads";
      default -> "logproducer " + SuiteData.compression(s);
    };
  }

  /**
   * Bytes allocated per delivered record by the Java threads of each group, and the collectors'
   * time as a share of the run's wall time.
   */
  private String alloc() {
    List<Sample> rows = groupRows();
    if (rows.isEmpty()) {
      return null;
    }
    List<String> groups = groups(rows, RunResult::allocByGroup);
    List<String> cols = new ArrayList<>(List.of("run", ">records/s"));
    groups.forEach(g -> cols.add(">" + g + " B/record"));
    cols.addAll(List.of(">all B/record", ">GCs", ">GC ms", ">GC % of wall time"));
    Table t = new Table(cols.toArray(new String[0]));
    for (Sample s : rows) {
      RunResult r = s.result();
      double delivered = Math.max(1, r.delivered());
      Map<String, Long> alloc = r.allocByGroup();
      List<Object> cells = new ArrayList<>(List.of(rowName(s), Report.count(r.recordsPerSec())));
      long all = 0;
      for (String g : groups) {
        Long v = alloc.get(g);
        cells.add(v == null ? "–" : Report.count(v / delivered));
        all += v == null ? 0 : v;
      }
      cells.add(Report.count(all / delivered));
      cells.add(Long.toString(r.getLong("gcCount")));
      cells.add(Long.toString(r.getLong("gcMillis")));
      cells.add(Report.f2(100.0 * r.getLong("gcMillis") / 1e3 / Math.max(1e-9, r.seconds())));
      t.row(cells.toArray());
    }
    return t.markdown();
  }

  private String cpu() {
    List<Sample> rows = groupRows();
    if (rows.isEmpty()) {
      return null;
    }
    List<String> groups = groups(rows, RunResult::cpuByGroup);
    List<String> cols = new ArrayList<>(List.of("run", ">records/s"));
    groups.forEach(g -> cols.add(">" + g + " µs"));
    cols.addAll(
        List.of(
            ">total µs",
            ">without building µs",
            ">app alloc B/record",
            ">GC ms",
            ">sink µs/record"));
    Table t = new Table(cols.toArray(new String[0]));
    double gen = d.calibrationCpuMicros();
    for (Sample s : rows) {
      RunResult r = s.result();
      long delivered = Math.max(1, r.delivered());
      List<Object> cells = new ArrayList<>();
      cells.add(rowName(s));
      cells.add(Report.count(r.recordsPerSec()));
      Map<String, Long> cpu = r.cpuByGroup();
      groups.forEach(
          g -> cells.add(cpu.containsKey(g) ? Report.f2(cpu.get(g) / 1e3 / delivered) : "–"));
      cells.add(Report.f2(r.cpuMicrosPerRecord()));
      cells.add(Report.f2(r.cpuMicrosPerRecord() - gen));
      cells.add(Report.count(r.allocByGroup().getOrDefault("app", 0L) / (double) delivered));
      cells.add(Long.toString(r.getLong("gcMillis")));
      cells.add(SuiteData.sinkMicrosCell(r));
      t.row(cells.toArray());
    }
    return t.markdown();
  }

  /**
   * The median lz4 run's CPU per record, the producer's and the sink's, against what the cores
   * allow.
   */
  private String budget() {
    Sample head = d.head();
    if (head == null || d.cores() <= 0 || !head.result().has("sinkCpuNanosPerRecord")) {
      return null;
    }
    RunResult r = head.result();
    double sink = r.getDouble("sinkCpuNanosPerRecord") / 1e3;
    double all = r.cpuMicrosPerRecord() + sink;
    Table t = new Table("median lz4 run", ">value");
    t.row(
        "producer process CPU per record (building the record included)",
        Report.f2(r.cpuMicrosPerRecord()) + " µs");
    t.row("sink CPU per record", Report.f2(sink) + " µs");
    t.row("both", Report.f2(all) + " µs");
    t.row(d.cores() + " cores ÷ both: records/s at most", Report.count(d.cores() * 1e6 / all));
    t.row("records/s measured", Report.count(r.recordsPerSec()));
    return t.markdown();
  }

  /** The slowest and the fastest of the most different identical runs. */
  private String spread() {
    List<Sample> spread = d.widestSpread();
    if (spread == null) {
      // a --quick run measures each setting once: say so rather than refuse the page
      return d.samples.isEmpty()
          ? null
          : "*No setting ran more than once in this data (a `--quick` run measures each once).*";
    }
    Table t = new Table("identical settings", "run", ">records/s", ">producer CPU µs/record");
    String[] names = {"slowest", "fastest"};
    for (int i = 0; i < 2; i++) {
      RunResult r = spread.get(i).result();
      t.row(
          spread.get(0).spec().label(),
          names[i],
          Report.count(r.recordsPerSec()),
          Report.f2(r.cpuMicrosPerRecord()));
    }
    return t.markdown();
  }

  private String profileCommand() {
    List<Sample> p = d.section("profile");
    if (p.isEmpty()) {
      return null;
    }
    RunResult r = p.get(0).result();
    return "```sh\njava -cp producer-benchmark/target/benchmarks.jar io.logproducer.benchmark.harness.JfrProfile "
        + "docs/perf-data/profile.jfr"
        + (r.has("jfrFrom") ? " " + r.getLong("jfrFrom") + " " + r.getLong("jfrTo") : "")
        + "\n```\n";
  }

  private String profile(String kind, int limit, boolean execution) {
    ProfileSummary s = d.profile;
    if (s == null || s.rows(kind).isEmpty()) {
      return null;
    }
    List<String[]> rows = s.rows(kind);
    Table t = new Table(kind.equals("component") ? "component" : "method", ">samples", ">share");
    int total = execution ? s.executionSamples() : s.nativeSamples();
    for (String[] row : limit > 0 ? rows.subList(0, Math.min(limit, rows.size())) : rows) {
      t.row(
          kind.equals("component") ? row[0].replace("  ", "  ↳ ") : "`" + row[0] + "`",
          Report.count(Long.parseLong(row[1])),
          Report.f1(s.share(row, total)) + " %");
    }
    t.row(
        kind.equals("native") ? "all busy native samples" : "all execution samples",
        Report.count(total),
        "100.0 %");
    return t.markdown();
  }

  /** " (min–max)" of a JMH score's iterations, or "" when unknown. */
  private static String range(JmhRunner.Row r, DoubleFunction<String> f) {
    return Double.isNaN(r.min()) ? "" : " (" + f.apply(r.min()) + "–" + f.apply(r.max()) + ")";
  }

  private String jmhSend() {
    List<JmhRunner.Row> rows = d.jmhRows("SendBenchmark");
    if (rows.isEmpty()) {
      return null;
    }
    Table t =
        new Table(
            ">threads",
            "compression",
            ">sends/s (all threads)",
            ">ns per send per thread",
            ">B/op");
    rows.forEach(
        r ->
            t.row(
                r.threads(),
                r.params().get("compression"),
                Report.count(r.score()) + range(r, Report::count),
                Report.f1(1e9 * r.threads() / r.score()),
                Report.f1(r.allocPerOp())));
    return t.markdown();
  }

  private String jmhEncoder() {
    List<JmhRunner.Row> rows = d.jmhRows("OtlpEncoderBenchmark");
    if (rows.isEmpty()) {
      return null;
    }
    Table t = new Table("encoding", ">ns/record", ">records/s (one core)", ">B/op");
    rows.forEach(
        r ->
            t.row(
                r.params().get("encoding"),
                Report.f1(r.score()) + range(r, Report::f1),
                Report.count(1e9 / r.score()),
                Report.f1(r.allocPerOp())));
    return t.markdown();
  }

  private String jmhUtf8() {
    List<JmhRunner.Row> rows = d.jmhRows("Utf8Benchmark");
    if (rows.isEmpty()) {
      return null;
    }
    if (rows.stream().noneMatch(r -> r.params().containsKey("shape"))) { // before the shapes
      Table t = new Table("method", ">ns per record", ">B/op");
      rows.forEach(
          r ->
              t.row(
                  r.params().get("method"),
                  Report.f1(r.score()) + range(r, Report::f1),
                  SuiteData.orDash(r.allocPerOp(), Report::f1)));
      return t.markdown();
    }
    Table t = new Table("method", "shape", ">ns per op", ">B/op");
    rows.forEach(
        r ->
            t.row(
                r.params().get("method"),
                r.params().get("shape"),
                Report.f1(r.score()) + range(r, Report::f1),
                SuiteData.orDash(r.allocPerOp(), Report::f1)));
    return t.markdown();
  }

  private String jmhCodec() {
    List<JmhRunner.Row> rows = d.jmhRows("CodecBenchmark");
    if (rows.isEmpty()) {
      return null;
    }
    Table t = new Table("codec", ">batches/s", ">MB/s (input)", ">ratio", ">ms per 2 MiB batch");
    double mbPerOp = JmhRunner.codecBatchBytes() / 1e6;
    for (JmhRunner.Row r : rows) {
      double raw = r.secondary().getOrDefault("rawBytes", Double.NaN);
      double comp = r.secondary().getOrDefault("compressedBytes", Double.NaN);
      t.row(
          r.params().get("codec"),
          Report.f1(r.score()) + range(r, Report::f1),
          Report.count(r.score() * mbPerOp),
          Double.isNaN(raw) || comp <= 0 ? "–" : Report.f1(raw / comp) + "×",
          Report.f2(1e3 / r.score()));
    }
    return t.markdown();
  }
}
