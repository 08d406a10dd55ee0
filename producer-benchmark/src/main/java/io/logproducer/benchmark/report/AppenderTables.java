package io.logproducer.benchmark.report;

import static io.logproducer.benchmark.report.SuiteData.status;

import io.logproducer.benchmark.report.Report.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The performance page's blocks about the logging appenders, from {@code perf-data/appenders.tsv}
 * alone (written by {@code run-appender-bench.sh}): the JMH table, the ratios against
 * OpenTelemetry's appender with the project's goal, and the end-to-end runs. Each block is null
 * without that file.
 */
final class AppenderTables {

  /**
   * The project's goal for the logback appender: our cost per event on the logging thread ÷
   * OpenTelemetry's.
   */
  static final double GOAL_RATIO = 0.5;

  private static final List<String> VARIANTS =
      List.of("logproducer", "logproducer-queue", "logproducer-async", "otel", "noop");

  /** Our variants, compared with {@code otel} in the ratio table. */
  private static final List<String> OURS =
      List.of("logproducer", "logproducer-queue", "logproducer-async");

  private final AppenderResults.Data data;

  AppenderTables(AppenderResults.Data data) {
    this.data = data;
  }

  void register(Map<String, Supplier<String>> blocks) {
    blocks.put("appenders-measured", () -> data == null ? null : data.measured());
    blocks.put("appenders", this::jmh);
    blocks.put("appender-ratios", this::ratios);
    blocks.put("appenders-e2e", this::e2e);
  }

  private AppenderResults.Jmh row(String variant, int threads) {
    return data.jmh().stream()
        .filter(j -> j.variant().equals(variant) && j.threads() == threads)
        .findFirst()
        .orElse(null);
  }

  private List<Integer> threads() {
    return data.jmh().stream().map(AppenderResults.Jmh::threads).distinct().sorted().toList();
  }

  private static String share(double s) {
    return String.format(Locale.ROOT, "%.1f %%", 100 * s);
  }

  private static String ratio(double v) {
    return String.format(Locale.ROOT, "%.2f×", v);
  }

  private String jmh() {
    if (data == null || data.jmh().isEmpty()) {
      return null;
    }
    Table t =
        new Table(
            "variant",
            ">threads",
            ">ns/op (± error)",
            ">logging-thread CPU ns/op",
            ">B/op",
            ">received",
            ">dropped unseen by the appender");
    for (int threads : threads()) {
      for (String v : VARIANTS) {
        AppenderResults.Jmh j = row(v, threads);
        if (j == null) {
          continue;
        }
        boolean silent = j.appenderDropped() == 0 && j.received() >= 0 && j.received() < j.logged();
        t.row(
            v,
            threads,
            Report.f1(j.nsPerOp())
                + (Double.isNaN(j.nsPerOpError()) ? "" : " ± " + Report.f1(j.nsPerOpError())),
            SuiteData.orDash(j.cpuNsPerOp(), Report::f1),
            SuiteData.orDash(j.bytesPerOp(), Report::f1),
            Double.isNaN(j.receivedShare())
                ? "– (sends nothing)"
                : share(j.receivedShare())
                    + " ("
                    + Report.count(j.received())
                    + " of "
                    + Report.count(j.logged())
                    + ")",
            v.equals("logproducer-async") && silent ? share(1 - j.receivedShare()) : "–");
      }
    }
    return t.markdown();
  }

  private String ratios() {
    if (data == null || data.jmh().isEmpty()) {
      return null;
    }
    List<String> headers = new ArrayList<>(List.of("measure", ">threads"));
    for (String v : OURS) {
      headers.add(">" + v + " ÷ otel");
      headers.add("goal ≤ " + ratio(GOAL_RATIO));
    }
    Table r = new Table(headers.toArray(new String[0]));
    for (boolean cpu : new boolean[] {false, true}) {
      for (int threads : threads()) {
        AppenderResults.Jmh o = row("otel", threads);
        if (o == null) {
          continue;
        }
        List<Object> cells =
            new ArrayList<>(List.of(cpu ? "logging-thread CPU ns/op" : "ns/op", threads));
        for (String v : OURS) {
          AppenderResults.Jmh j = row(v, threads);
          double q =
              j == null
                  ? Double.NaN
                  : cpu ? j.cpuNsPerOp() / o.cpuNsPerOp() : j.nsPerOp() / o.nsPerOp();
          cells.add(Double.isNaN(q) ? "–" : "**" + ratio(q) + "**");
          cells.add(Double.isNaN(q) ? "–" : status(q <= GOAL_RATIO));
        }
        r.row(cells.toArray());
      }
    }
    return r.markdown();
  }

  private String e2e() {
    if (data == null || data.e2e().isEmpty()) {
      return null;
    }
    Map<String, List<AppenderResults.E2e>> byFramework = new LinkedHashMap<>();
    data.e2e()
        .forEach(e -> byFramework.computeIfAbsent(e.framework(), k -> new ArrayList<>()).add(e));
    Table t =
        new Table(
            "framework",
            ">runs",
            ">records per run",
            ">median records/s",
            ">range",
            ">median raw MB/s",
            "delivered");
    byFramework.forEach(
        (fw, runs) -> {
          double[] rate = runs.stream().mapToDouble(AppenderResults.E2e::recordsPerSec).toArray();
          double[] raw = runs.stream().mapToDouble(AppenderResults.E2e::rawMbPerSec).toArray();
          List<Long> records = runs.stream().map(AppenderResults.E2e::records).distinct().toList();
          t.row(
              fw,
              runs.size(),
              records.size() == 1 ? Report.count(records.get(0)) : "varies",
              Report.count(Report.median(rate)),
              runs.size() > 1
                  ? Report.count(Arrays.stream(rate).min().orElseThrow())
                      + "–"
                      + Report.count(Arrays.stream(rate).max().orElseThrow())
                  : "",
              Report.f1(Report.median(raw)),
              delivered(runs));
        });
    return t.markdown();
  }

  private static String delivered(List<AppenderResults.E2e> runs) {
    if (runs.stream().allMatch(AppenderResults.E2e::allDelivered)) {
      return "all, in every run ✓";
    }
    List<String> bad = new ArrayList<>();
    for (AppenderResults.E2e x : runs) {
      if (!x.allDelivered()) {
        bad.add(
            "run "
                + x.run()
                + ": "
                + Report.count(x.delivered())
                + " of "
                + Report.count(x.records())
                + " (failed "
                + Report.count(x.failed())
                + ", refused "
                + Report.count(x.refused())
                + ", not sent "
                + Report.count(x.notSent())
                + ")");
      }
    }
    return "✗ " + String.join("; ", bad);
  }
}
