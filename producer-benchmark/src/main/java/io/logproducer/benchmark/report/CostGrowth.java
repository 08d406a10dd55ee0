package io.logproducer.benchmark.report;

import static io.logproducer.benchmark.report.SuiteData.groups;
import static io.logproducer.benchmark.report.SuiteData.med;
import static io.logproducer.benchmark.report.SuiteData.medianSample;
import static io.logproducer.benchmark.report.SuiteData.rate;
import static io.logproducer.benchmark.report.SuiteData.runsCell;
import static io.logproducer.benchmark.report.SuiteData.verifiedCell;

import io.logproducer.benchmark.harness.RunResult;
import io.logproducer.benchmark.harness.Sample;
import io.logproducer.benchmark.report.Report.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** How cost grows: the record-size and application-threads sweeps, a table and two charts each. */
final class CostGrowth {

  private static final String WHISKER = "median records/s (whisker: slowest to fastest run)";

  private final SuiteData d;
  private final List<PerformanceReport.Chart> charts;

  CostGrowth(SuiteData d, List<PerformanceReport.Chart> charts) {
    this.d = d;
    this.charts = charts;
  }

  /** Producer CPU per MB of raw data delivered, ms. */
  static double cpuMsPerMb(RunResult r) {
    double mb = r.rawMbPerSec() * r.seconds();
    return mb <= 0 ? Double.NaN : r.getLong("cpuNanos") / 1e6 / mb;
  }

  /** Raw bytes per record generated. */
  static double rawPerRecord(RunResult r) {
    return r.getLong("rawBytes") / (double) Math.max(1, r.getLong("emitted"));
  }

  /** {@return the record-size table, or null without the recordSize section} */
  String recordSize() {
    List<Sample> sizes = d.section("recordSize");
    if (sizes.isEmpty()) {
      return null;
    }
    Table t =
        new Table(
            "records",
            ">raw B/record",
            ">records/s",
            ">raw MB/s",
            ">compressed MB/s",
            ">CPU",
            ">CPU µs/record",
            ">CPU ms/MB",
            ">send p99",
            "sink",
            ">runs");
    Map<String, List<Sample>> g =
        groups(
            sizes,
            s -> s.spec().recordBytes() == 0 ? "reference" : Report.bytes(s.spec().recordBytes()));
    List<String> cats = new ArrayList<>();
    double[] msPerMb = new double[g.size()];
    int i = 0;
    for (Map.Entry<String, List<Sample>> e : g.entrySet()) {
      List<Sample> l = e.getValue();
      double raw = med(l, CostGrowth::rawPerRecord);
      t.row(
          e.getKey(),
          Report.count(raw),
          Report.count(rate(l)),
          Report.f1(med(l, RunResult::rawMbPerSec)),
          Report.f1(med(l, RunResult::wireMbPerSec)),
          Report.pct(med(l, RunResult::cpuPercent)),
          Report.f2(med(l, RunResult::cpuMicrosPerRecord)),
          Report.f2(med(l, CostGrowth::cpuMsPerMb)),
          Report.nanos(medianSample(l).result().latency().percentile(99)),
          verifiedCell(l),
          runsCell(l));
      cats.add(
          e.getKey().equals("reference") ? "reference, " + Report.count(raw) + " B" : e.getKey());
      msPerMb[i++] = med(l, CostGrowth::cpuMsPerMb);
    }
    charts.add(
        PerformanceReport.Chart.whiskers(
                "throughput-vs-recordsize.png",
                "Delivered records/s vs record size",
                "record size",
                "records/s delivered (log)",
                cats,
                arrays(g),
                WHISKER,
                false)
            .withLogY());
    charts.add(
        new PerformanceReport.Chart(
            "cpu-vs-recordsize.png",
            "Producer CPU per MB of raw data vs record size",
            "record size",
            "CPU ms per raw MB",
            cats,
            List.of(new Charts.Series("median CPU ms/MB", msPerMb)),
            false,
            false));
    return t.markdown();
  }

  /** {@return the application-threads table, or null without the appThreads section} */
  String appThreads() {
    List<Sample> apps = d.section("appThreads");
    if (apps.isEmpty()) {
      return null;
    }
    Table t =
        new Table(
            ">app threads",
            ">records/s",
            ">raw MB/s",
            ">CPU",
            ">sink CPU",
            ">machine",
            ">CPU µs/record",
            ">send p50",
            ">send p99",
            ">blocked",
            "sink",
            ">runs");
    Map<String, List<Sample>> g = groups(apps, s -> Integer.toString(s.spec().appThreads()));
    double[] p99 = new double[g.size()];
    int i = 0;
    for (Map.Entry<String, List<Sample>> e : g.entrySet()) {
      List<Sample> l = e.getValue();
      RunResult r = medianSample(l).result();
      double machine =
          med(l, x -> x.has("machineBusyPercent") ? x.getDouble("machineBusyPercent") : Double.NaN);
      double sinkCpu =
          med(l, x -> x.has("sinkCpuPercent") ? x.getDouble("sinkCpuPercent") : Double.NaN);
      t.row(
          e.getKey(),
          Report.count(rate(l)),
          Report.f1(med(l, RunResult::rawMbPerSec)),
          Report.pct(med(l, RunResult::cpuPercent)),
          SuiteData.orDash(sinkCpu, Report::pct),
          SuiteData.orDash(machine, Report::pct),
          Report.f2(med(l, RunResult::cpuMicrosPerRecord)),
          Report.nanos(r.latency().percentile(50)),
          Report.nanos(r.latency().percentile(99)),
          Report.nanos(med(l, x -> x.getLong("sendBlockedNanos"))),
          verifiedCell(l),
          runsCell(l));
      p99[i++] = r.latency().percentile(99) / 1e3;
    }
    List<String> cats = new ArrayList<>(g.keySet());
    charts.add(
        PerformanceReport.Chart.whiskers(
            "throughput-vs-appthreads.png",
            "Delivered records/s vs application threads",
            "application threads",
            "records/s delivered",
            cats,
            arrays(g),
            WHISKER,
            false));
    charts.add(
        new PerformanceReport.Chart(
            "p99-vs-appthreads.png",
            "send() p99 vs application threads",
            "application threads",
            "send() p99, µs (log)",
            cats,
            List.of(new Charts.Series("p99 of the median run", p99)),
            true,
            false));
    return t.markdown();
  }

  private static List<Sample[]> arrays(Map<String, List<Sample>> g) {
    return g.values().stream().map(l -> l.toArray(new Sample[0])).toList();
  }
}
