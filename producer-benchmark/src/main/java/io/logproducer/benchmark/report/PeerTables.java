package io.logproducer.benchmark.report;

import static io.logproducer.benchmark.report.SuiteData.med;
import static io.logproducer.benchmark.report.SuiteData.medianSample;
import static io.logproducer.benchmark.report.SuiteData.rangeCell;
import static io.logproducer.benchmark.report.SuiteData.rate;
import static io.logproducer.benchmark.report.SuiteData.runsCell;
import static io.logproducer.benchmark.report.SuiteData.verifiedCell;

import io.logproducer.Compression;
import io.logproducer.benchmark.harness.RunResult;
import io.logproducer.benchmark.harness.RunSpec.Client;
import io.logproducer.benchmark.harness.Sample;
import io.logproducer.benchmark.report.Report.Table;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The performance page's blocks about the clients side by side: the headline, the machine,
 * logproducer against the OpenTelemetry SDK and the Aliyun producer (tables, ratios, charts), the
 * project's goals, the history and the figures others published. Each block is null when the data
 * it needs is missing.
 */
final class PeerTables {

  private static final String WHISKER =
      "median records/s (whisker: slowest to fastest run, where it ran more than once)";

  private final SuiteData d;
  private final List<PerformanceReport.Chart> charts;

  PeerTables(SuiteData d, List<PerformanceReport.Chart> charts) {
    this.d = d;
    this.charts = charts;
  }

  void register(Map<String, Supplier<String>> blocks) {
    blocks.put("measured", () -> d.meta.get("measured"));
    blocks.put("on-what", this::onWhat);
    blocks.put("suite-time", this::suiteTime);
    blocks.put("headline", this::headline);
    blocks.put("machine", this::machine);
    blocks.put("peers", this::peers);
    blocks.put("peer-ratios", this::peerRatios);
    blocks.put("aliyun", this::aliyun);
    blocks.put("aliyun-ratios", this::aliyunRatios);
    blocks.put("goals", () -> new Goals(d).table());
    blocks.put("tenfold", () -> new Goals(d).tenfold());
    blocks.put("history", this::history);
    blocks.put("published", this::published);
  }

  private String onWhat() {
    Map<String, String> m = d.machine();
    return m.isEmpty()
        ? null
        : m.getOrDefault("CPU", "?")
            + ", "
            + m.getOrDefault(SuiteData.CORES_ROW, "?")
            + " cores, "
            + m.getOrDefault("Memory", "?")
            + ", "
            + m.getOrDefault("JDK", "?");
  }

  private String suiteTime() {
    if (!d.meta.containsKey("suiteSeconds")) {
      return null;
    }
    long s = Long.parseLong(d.meta.get("suiteSeconds"));
    return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60)
        + (d.meta.containsKey("options") ? " (" + d.meta.get("options") + ")" : "");
  }

  /**
   * The clients' rows of the headline and peers tables, by name; empty lists where a client did not
   * run.
   */
  private Map<String, List<Sample>> clients(boolean all) {
    Map<String, List<Sample>> rows = new LinkedHashMap<>();
    rows.put("logproducer lz4", d.lp(Compression.LZ4));
    rows.put("logproducer zstd", d.lp(Compression.ZSTD));
    if (all) {
      rows.put("logproducer none", d.lp(Compression.NONE));
      rows.put("logproducer gzip", d.lp(Compression.GZIP));
      rows.put("OTel SDK, tuned", d.otel(true, Compression.NONE));
      rows.put("OTel SDK, tuned gzip", d.otel(true, Compression.GZIP));
      rows.put("OTel SDK, defaults", d.otel(false, Compression.NONE));
    } else {
      rows.put("OpenTelemetry SDK, tuned to drop nothing", d.otel(true, Compression.NONE));
      rows.put("OpenTelemetry SDK, defaults", d.otel(false, Compression.NONE));
      int bestIo = d.aliyunBest();
      if (bestIo > 0) {
        rows.put(
            "Aliyun Log Java producer, "
                + bestIo
                + " IO thread"
                + (bestIo == 1 ? "" : "s")
                + " (its fastest)",
            d.aliyun(bestIo));
      }
    }
    rows.values().removeIf(List::isEmpty);
    return rows;
  }

  private static String clientName(String key) {
    return key.startsWith("logproducer") ? "logproducer" : key.replace(" gzip", "");
  }

  private String headline() {
    Map<String, List<Sample>> rows = clients(false);
    if (rows.isEmpty()) {
      return null;
    }
    Table t =
        new Table(
            "client",
            "compression",
            ">records/s",
            ">slowest–fastest",
            ">runs",
            ">producer CPU per record",
            "delivered");
    rows.forEach(
        (name, l) -> {
          Sample s = medianSample(l);
          t.row(
              clientName(name),
              SuiteData.compression(s),
              "**" + Report.count(rate(l)) + "**",
              rangeCell(l),
              runsCell(l),
              Report.f2(med(l, RunResult::cpuMicrosPerRecord)) + " µs",
              deliveredCell(l, s.result()));
        });
    return t.markdown();
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

  private String machine() {
    Map<String, String> m = d.machine();
    if (m.isEmpty()) {
      return null;
    }
    Table t = new Table("", "");
    m.forEach(t::row);
    return t.markdown();
  }

  private static String deliveredOfEmitted(RunResult r) {
    return Report.count(r.delivered())
        + " / "
        + Report.count(r.getLong("emitted"))
        + (r.lossPercent() > 0.005
            ? String.format(Locale.ROOT, " (**%.1f %% lost**)", r.lossPercent())
            : "");
  }

  private String peers() {
    Map<String, List<Sample>> rows = clients(true);
    if (rows.isEmpty()) {
      return null;
    }
    Table t =
        new Table(
            "client",
            "compression",
            ">records/s",
            ">range",
            ">raw MB/s",
            ">wire MB/s",
            ">producer CPU",
            ">CPU µs/record",
            ">delivered / emitted",
            "sink",
            ">runs");
    List<String> names = new ArrayList<>();
    List<Sample[]> groups = new ArrayList<>();
    rows.forEach(
        (name, list) -> {
          Sample m = medianSample(list);
          t.row(
              clientName(name),
              SuiteData.compression(m),
              Report.count(rate(list)),
              rangeCell(list),
              Report.f1(med(list, RunResult::rawMbPerSec)),
              Report.f1(med(list, RunResult::wireMbPerSec)),
              Report.pct(med(list, RunResult::cpuPercent)),
              Report.f2(med(list, RunResult::cpuMicrosPerRecord)),
              deliveredOfEmitted(m.result()),
              verifiedCell(list),
              runsCell(list));
          names.add(
              clientName(name).replace("OTel SDK, ", "OTel ") + " " + SuiteData.compression(m));
          groups.add(list.toArray(new Sample[0]));
        });
    charts.add(
        PerformanceReport.Chart.whiskers(
            "peers.png",
            "Delivered records/s, same run and same sink",
            "client and compression",
            "records/s",
            names,
            groups,
            WHISKER,
            true));
    return t.markdown();
  }

  private static void ratioRow(Table t, String ours, double a, String peer, double b) {
    if (!Double.isNaN(a) && !Double.isNaN(b) && b > 0) {
      t.row(
          ours + " (" + Report.count(a) + "/s)",
          peer + " (" + Report.count(b) + "/s)",
          "**" + Report.times(a / b) + "**");
    }
  }

  private String peerRatios() {
    double lz4 = rate(d.lp(Compression.LZ4));
    double oNone = rate(d.otel(true, Compression.NONE));
    double oGzip = rate(d.otel(true, Compression.GZIP));
    Table r = new Table("logproducer", "vs", ">ratio");
    ratioRow(r, "lz4", lz4, "OTel tuned, none", oNone);
    ratioRow(r, "zstd-1", rate(d.lp(Compression.ZSTD)), "OTel tuned, none", oNone);
    ratioRow(r, "lz4", lz4, "OTel tuned, gzip", oGzip);
    ratioRow(r, "none", rate(d.lp(Compression.NONE)), "OTel tuned, none (same compression)", oNone);
    ratioRow(
        r, "gzip-1", rate(d.lp(Compression.GZIP)), "OTel tuned, gzip (same compression)", oGzip);
    ratioRow(
        r, "lz4", lz4, "OTel defaults (what it delivered)", rate(d.otel(false, Compression.NONE)));
    return r.size() == 0 ? null : r.markdown();
  }

  private String aliyun() {
    List<Integer> ios = d.aliyunIoThreads();
    if (ios.isEmpty()) {
      return null;
    }
    Table t =
        new Table(
            "client",
            ">sending threads",
            ">records/s",
            ">range",
            ">raw MB/s",
            ">wire MB/s",
            ">producer CPU",
            ">CPU µs/record",
            ">delivered / emitted",
            "sink",
            ">sink µs/record",
            ">runs");
    List<List<Sample>> rows = new ArrayList<>();
    ios.forEach(io -> rows.add(d.aliyun(io)));
    rows.add(d.lp(Compression.LZ4));
    rows.add(d.lp(Compression.ZSTD));
    List<String> names = new ArrayList<>();
    List<Sample[]> groups = new ArrayList<>();
    for (List<Sample> list : rows) {
      if (list.isEmpty()) {
        continue;
      }
      Sample m = medianSample(list);
      RunResult r = m.result();
      boolean aliyun = m.spec().client() == Client.ALIYUN;
      String compression = SuiteData.compression(m);
      t.row(
          (aliyun ? "Aliyun producer" : "logproducer") + ", " + compression,
          m.spec().sendThreads(),
          Report.count(rate(list)),
          rangeCell(list),
          Report.f1(med(list, RunResult::rawMbPerSec)),
          Report.f1(med(list, RunResult::wireMbPerSec)),
          Report.pct(med(list, RunResult::cpuPercent)),
          Report.f2(med(list, RunResult::cpuMicrosPerRecord)),
          deliveredOfEmitted(r),
          verifiedCell(list),
          SuiteData.sinkMicrosCell(r),
          runsCell(list));
      names.add(
          aliyun
              ? "Aliyun " + compression + ", " + m.spec().sendThreads() + " IO"
              : "logproducer " + compression);
      groups.add(list.toArray(new Sample[0]));
    }
    charts.add(
        PerformanceReport.Chart.whiskers(
            "aliyun.png",
            "Delivered records/s: the Aliyun Log Java producer and logproducer, same run",
            "client, compression and sending threads",
            "records/s",
            names,
            groups,
            WHISKER,
            true));
    return t.markdown();
  }

  private String aliyunRatios() {
    int best = d.aliyunBest();
    if (best == 0) {
      return null;
    }
    double aBest = rate(d.aliyun(best));
    double lz4 = rate(d.lp(Compression.LZ4));
    Table r = new Table("logproducer", "vs", ">ratio");
    String bestName =
        "Aliyun lz4, " + best + (best == 1 ? " IO thread" : " IO threads") + ", its fastest";
    ratioRow(r, "lz4", lz4, bestName, aBest);
    ratioRow(r, "zstd-1", rate(d.lp(Compression.ZSTD)), bestName, aBest);
    Sample head = d.head();
    if (head != null
        && head.spec().sendThreads() != best
        && !d.aliyun(head.spec().sendThreads()).isEmpty()) {
      int n = head.spec().sendThreads();
      ratioRow(
          r,
          "lz4",
          lz4,
          "Aliyun lz4, " + n + " IO threads (as many sending threads)",
          rate(d.aliyun(n)));
    }
    return r.size() == 0 ? null : r.markdown();
  }

  private String history() {
    if (d.history.isEmpty()) {
      return null;
    }
    Table t =
        new Table(
            "measured",
            ">lz4",
            ">zstd-1",
            ">gzip-1",
            ">none",
            ">CPU µs/record (lz4)",
            ">net µs",
            ">building µs",
            ">OTel tuned",
            ">lz4 ÷ OTel",
            ">Aliyun (fastest)",
            ">lz4 ÷ Aliyun",
            ">encoder ns",
            "what changed");
    for (History.Row r : d.history) {
      t.row(
          r.measured(),
          SuiteData.orDash(r.lz4(), Report::count),
          SuiteData.orDash(r.zstd1(), Report::count),
          SuiteData.orDash(r.gzip1(), Report::count),
          SuiteData.orDash(r.none(), Report::count),
          SuiteData.orDash(r.cpuLz4Micros(), Report::f2),
          SuiteData.orDash(r.cpuLz4Micros() - r.buildMicros(), Report::f2),
          SuiteData.orDash(r.buildMicros(), Report::f2),
          SuiteData.orDash(r.otelTuned(), Report::count),
          SuiteData.orDash(r.lz4() / r.otelTuned(), Report::times),
          SuiteData.orDash(r.aliyunBest(), Report::count),
          SuiteData.orDash(r.lz4() / r.aliyunBest(), Report::times),
          SuiteData.orDash(r.encoderNanos(), Report::f1),
          r.note());
    }
    return t.markdown();
  }

  /**
   * Other producers' published figures: in their own table, never charted, never divided by ours.
   */
  private String published() {
    if (d.published.isEmpty()) {
      return null;
    }
    Table t = new Table("published sweep", "setting", ">raw MB/s", "source");
    d.published.forEach(r -> t.row(r.sweep(), r.setting(), Report.f1(r.rawMbPerSec()), r.source()));
    return t.markdown();
  }
}
