package io.logproducer.benchmark.report;

import static io.logproducer.benchmark.report.SuiteData.groups;
import static io.logproducer.benchmark.report.SuiteData.med;
import static io.logproducer.benchmark.report.SuiteData.medianSample;
import static io.logproducer.benchmark.report.SuiteData.rate;
import static io.logproducer.benchmark.report.SuiteData.runsCell;
import static io.logproducer.benchmark.report.SuiteData.verifiedCell;

import io.logproducer.Compression;
import io.logproducer.ProducerConfig;
import io.logproducer.benchmark.harness.JmhRunner;
import io.logproducer.benchmark.harness.PerformanceSuite;
import io.logproducer.benchmark.harness.RunResult;
import io.logproducer.benchmark.harness.Sample;
import io.logproducer.benchmark.report.Report.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The performance page's blocks about the settings: the end-to-end sweeps (sendThreads,
 * batchSizeInBytes, totalSizeInBytes, compression), the JMH SendBenchmark sweeps, how cost grows
 * with the record size and the application threads, and the defaults beside the data. Each block is
 * null when the data it needs is missing.
 */
final class SweepTables {

  private static final String WHISKER = "median records/s (whisker: slowest to fastest run)";

  private final SuiteData d;
  private final List<PerformanceReport.Chart> charts;

  SweepTables(SuiteData d, List<PerformanceReport.Chart> charts) {
    this.d = d;
    this.charts = charts;
  }

  void register(Map<String, Supplier<String>> blocks) {
    sweep(blocks, "sendThreads", "sendThreads", s -> Integer.toString(s.spec().sendThreads()));
    sweep(blocks, "batchSize", "batchSizeInBytes", s -> Report.bytes(s.spec().batchSizeInBytes()));
    sweep(blocks, "totalSize", "totalSizeInBytes", s -> Report.bytes(s.spec().totalSizeInBytes()));
    blocks.put("compression", this::compression);
    for (String[] sweep : JmhRunner.SWEEPS) {
      blocks.put("jmh-sweep-" + sweep[0], () -> jmhSweep(sweep[0]));
    }
    blocks.put("record-size", new CostGrowth(d, charts)::recordSize);
    blocks.put("app-threads", new CostGrowth(d, charts)::appThreads);
    blocks.put("defaults", this::defaults);
  }

  /**
   * Registers block {@code sweep-<section>}: the table of the section's settings of {@code column},
   * and its chart {@code throughput-vs-<section in lower case>.png}.
   */
  private void sweep(
      Map<String, Supplier<String>> blocks,
      String section,
      String column,
      Function<Sample, String> label) {
    blocks.put("sweep-" + section, () -> sweep(section, column, label));
  }

  private String sweep(String section, String column, Function<Sample, String> label) {
    List<Sample> list = d.section(section);
    if (list.isEmpty()) {
      return null;
    }
    Table t =
        new Table(
            column,
            ">records/s",
            ">raw MB/s",
            ">compressed MB/s",
            ">CPU",
            ">CPU µs/record",
            ">send p99",
            ">blocked",
            ">request",
            ">peak buffered",
            "sink",
            ">runs (records/s each)");
    Map<String, List<Sample>> groups = groups(list, label);
    groups.forEach(
        (k, l) -> {
          String each =
              l.stream()
                  .map(s -> Report.count(s.result().recordsPerSec()) + SuiteData.disturbedMark(s))
                  .collect(Collectors.joining(" / "));
          t.row(
              k,
              Report.count(rate(l)),
              Report.f1(med(l, RunResult::rawMbPerSec)),
              Report.f1(med(l, RunResult::wireMbPerSec)),
              Report.pct(med(l, RunResult::cpuPercent)),
              Report.f2(med(l, RunResult::cpuMicrosPerRecord)),
              Report.nanos(medianSample(l).result().latency().percentile(99)),
              Report.nanos(med(l, r -> r.getLong("sendBlockedNanos"))),
              Report.nanos(1e6 * med(l, r -> r.getDouble("requestLatencyAvgMillis"))),
              Report.mb(
                  l.stream()
                      .mapToLong(s -> s.result().getLong("peakBufferedBytes"))
                      .max()
                      .orElse(0)),
              verifiedCell(l),
              l.size() + " (" + each + ")");
        });
    charts.add(
        PerformanceReport.Chart.whiskers(
            "throughput-vs-" + section.toLowerCase(Locale.ROOT) + ".png",
            "Delivered records/s vs " + column,
            column,
            "records/s delivered",
            new ArrayList<>(groups.keySet()),
            groups.values().stream().map(l -> l.toArray(new Sample[0])).toList(),
            WHISKER,
            false));
    return t.markdown();
  }

  private String compression() {
    Table t =
        new Table(
            "compression",
            ">records/s",
            ">raw MB/s",
            ">compressed MB/s",
            ">ratio",
            ">CPU",
            ">CPU µs/record",
            ">sink CPU µs/record",
            ">send p99",
            "sink",
            ">runs");
    for (Compression c : PerformanceSuite.COMPRESSIONS) {
      List<Sample> list = d.lp(c);
      if (list.isEmpty()) {
        continue;
      }
      RunResult r = medianSample(list).result();
      t.row(
          Report.compressionName(c, 0),
          Report.count(rate(list)),
          Report.f1(med(list, RunResult::rawMbPerSec)),
          Report.f1(med(list, RunResult::wireMbPerSec)),
          Report.f1(SuiteData.wireRatio(r)) + "×",
          Report.pct(med(list, RunResult::cpuPercent)),
          Report.f2(med(list, RunResult::cpuMicrosPerRecord)),
          SuiteData.sinkMicrosCell(r),
          Report.nanos(r.latency().percentile(99)),
          verifiedCell(list),
          runsCell(list));
    }
    return t.size() == 0 ? null : t.markdown();
  }

  /** One SendBenchmark sweep ({@code perf-data/jmh-send-sweeps.tsv}): a table and a chart. */
  private String jmhSweep(String param) {
    List<JmhRunner.SweepRow> rows =
        d.sendSweeps.stream().filter(r -> r.param().equals(param)).toList();
    if (rows.isEmpty()) {
      return null;
    }
    Table t =
        new Table(
            param,
            ">sends/s (all threads)",
            ">± error (99.9 %)",
            ">ns per send per thread",
            ">B/op");
    List<String> cats = new ArrayList<>();
    double[] v = new double[rows.size()];
    double[] lo = new double[rows.size()];
    double[] hi = new double[rows.size()];
    int i = 0;
    for (JmhRunner.SweepRow r : rows) {
      String label = sweepValue(param, r.value());
      t.row(
          label,
          Report.count(r.opsPerSec())
              + (Double.isNaN(r.min())
                  ? ""
                  : " (" + Report.count(r.min()) + "–" + Report.count(r.max()) + ")"),
          SuiteData.orDash(r.error(), Report::count),
          Report.f1(1e9 * r.threads() / r.opsPerSec()),
          SuiteData.orDash(r.bytesPerOp(), Report::f1));
      cats.add(label);
      v[i] = r.opsPerSec();
      lo[i] = Double.isNaN(r.min()) ? r.opsPerSec() : r.min();
      hi[i++] = Double.isNaN(r.max()) ? r.opsPerSec() : r.max();
    }
    charts.add(
        new PerformanceReport.Chart(
            "jmh-send-" + param.toLowerCase(Locale.ROOT) + ".png",
            "JMH SendBenchmark: sends/s vs " + param,
            param,
            "sends/s (" + rows.get(0).threads() + " threads)",
            cats,
            List.of(
                new Charts.Series(
                    "mean sends/s (whisker: slowest to fastest iteration)", v, lo, hi)),
            false,
            param.equals("compression")));
    return t.markdown();
  }

  private static String sweepValue(String param, String value) {
    return switch (param) {
      case "batchSizeInBytes", "totalSizeInBytes" -> Report.bytes(Long.parseLong(value));
      case "compression" -> value.toLowerCase(Locale.ROOT);
      default -> value;
    };
  }

  /** The defaults beside the headline runs' settings and what the sweeps measured of each. */
  private String defaults() {
    Sample head = d.head();
    if (head == null) {
      return null;
    }
    Table t = new Table("setting", "default", "in the headline runs", "measured");
    t.row(
        "`sendThreads`",
        ProducerConfig.DEFAULT_SEND_THREADS,
        head.spec().sendThreads(),
        perSetting(
            "sendThreads",
            s -> Integer.toString(s.spec().sendThreads()),
            "time `send()` waited, per run: ",
            l ->
                String.join(
                    " / ",
                    l.stream()
                        .map(s -> Report.nanos(s.result().getLong("sendBlockedNanos")))
                        .toList())));
    t.row(
        "`batchSizeInBytes`",
        Report.bytes(ProducerConfig.DEFAULT_BATCH_SIZE_IN_BYTES),
        Report.bytes(head.spec().batchSizeInBytes()),
        perSetting(
            "batchSize",
            s -> Report.bytes(s.spec().batchSizeInBytes()),
            "CPU per record, request time: ",
            l ->
                Report.f2(med(l, RunResult::cpuMicrosPerRecord))
                    + " µs, "
                    + Report.nanos(1e6 * med(l, r -> r.getDouble("requestLatencyAvgMillis")))));
    t.row(
        "`lingerMillis`",
        ProducerConfig.DEFAULT_LINGER_MILLIS + " ms",
        head.spec().lingerMillis() + " ms",
        batchFill(head.result()));
    t.row(
        "`totalSizeInBytes`",
        Report.bytes(ProducerConfig.DEFAULT_TOTAL_SIZE_IN_BYTES),
        Report.bytes(head.spec().totalSizeInBytes()),
        perSetting(
            "totalSize",
            s -> Report.bytes(s.spec().totalSizeInBytes()),
            "records/s (median): ",
            l -> Report.count(rate(l))));
    StringBuilder cw = new StringBuilder();
    for (Compression c : PerformanceSuite.COMPRESSIONS) {
      List<Sample> l = d.lp(c);
      if (!l.isEmpty()) {
        cw.append(cw.length() == 0 ? "records/s (median), wire ratio: " : "; ")
            .append(Report.compressionName(c, 0))
            .append(": ")
            .append(Report.count(rate(l)))
            .append(", ")
            .append(Report.f1(SuiteData.wireRatio(medianSample(l).result())))
            .append("×");
      }
    }
    t.row(
        "`compression`", "the exporter's (OTLP: none)", SuiteData.compression(head), cw.toString());
    t.row(
        "requests in flight",
        "–",
        head.spec().sendThreads() + " send threads",
        inFlight(head.result()));
    return t.markdown();
  }

  /**
   * "512 KiB: 2.88 µs, 5.0 ms; 1 MiB: …" with {@code value} of each setting's runs, in sweep order;
   * "–" without.
   */
  private String perSetting(
      String section,
      Function<Sample, String> label,
      String caption,
      Function<List<Sample>, String> value) {
    List<Sample> list = d.section(section);
    if (list.isEmpty()) {
      return "–";
    }
    StringBuilder sb = new StringBuilder(caption);
    groups(list, label)
        .forEach(
            (k, l) ->
                sb.append(sb.length() == caption.length() ? "" : "; ")
                    .append(k)
                    .append(": ")
                    .append(value.apply(l)));
    return sb.toString();
  }

  /** How full a default batch gets how fast at the headline rate. */
  private static String batchFill(RunResult r) {
    if (r.delivered() <= 0 || r.getLong("encodedBytes") <= 0) {
      return "–";
    }
    double perRecord = r.getLong("encodedBytes") / (double) r.delivered();
    double records = ProducerConfig.DEFAULT_BATCH_SIZE_IN_BYTES / perRecord;
    return String.format(
        Locale.ROOT,
        "a %s batch: %s records of %.0f encoded bytes, filled in %s at the headline rate",
        Report.bytes(ProducerConfig.DEFAULT_BATCH_SIZE_IN_BYTES),
        Report.count(records),
        perRecord,
        Report.nanos(records / r.recordsPerSec() * 1e9));
  }

  /** Requests, their average time and how many were in flight on average in the headline run. */
  private static String inFlight(RunResult r) {
    if (r.getLong("requests") <= 0) {
      return "–";
    }
    double flight =
        r.getLong("requests") / r.seconds() * r.getDouble("requestLatencyAvgMillis") / 1e3;
    return String.format(
        Locale.ROOT,
        "%s requests in %.1f s, %s each on average: %.1f in flight",
        Report.count(r.getLong("requests")),
        r.seconds(),
        Report.nanos(r.getDouble("requestLatencyAvgMillis") * 1e6),
        flight);
  }
}
