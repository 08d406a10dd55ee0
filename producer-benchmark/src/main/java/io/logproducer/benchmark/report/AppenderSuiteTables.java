package io.logproducer.benchmark.report;

import static io.logproducer.benchmark.report.SuiteData.status;

import io.logproducer.benchmark.report.AppenderSuiteResults.Run;
import io.logproducer.benchmark.report.Report.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * The performance page's "Logging appenders" blocks from {@code perf-data/appender-suite.tsv} (each
 * appender in its own JVM, {@code run-appender-bench.sh}) and the JFR summaries {@code
 * perf-data/appender-profile-<framework>.tsv}: the measurement's date and command, the table of
 * every cell (medians of its runs), the ratios against the project's goals, the 200,000 events/s
 * runs, the chart and the top frames. Each block is null without its file.
 */
final class AppenderSuiteTables {

  /** Our logging-thread and whole-process CPU ÷ OpenTelemetry's: the goal is at most this. */
  static final double GOAL_VS_OTEL = 0.5;

  /** Paced runs at this total rate or above are the high-rate cell (200,000 events/s). */
  static final int HIGH_RATE = 200_000;

  /** The file chart's name under {@code docs/performance/}. */
  static final String CHART = "appenders.png";

  /** Variant kinds in table order: the part after the framework. */
  static final List<String> KINDS =
      List.of("logproducer", "logproducer-inline", "file", "raf", "otel", "aliyun");

  private final AppenderSuiteResults.Data data;
  private final Map<String, ProfileSummary> profiles = new LinkedHashMap<>();
  private final List<PerformanceReport.Chart> charts;

  /**
   * @param dataDir {@code docs/perf-data}
   * @param charts where the chart block adds its chart
   */
  AppenderSuiteTables(Path dataDir, List<PerformanceReport.Chart> charts) {
    this.charts = charts;
    try {
      this.data = AppenderSuiteResults.load(dataDir.resolve(AppenderSuiteResults.FILE));
      for (String fw : List.of("logback", "log4j2")) {
        Path p = dataDir.resolve(AppenderSuiteResults.PROFILE_PREFIX + fw + ".tsv");
        if (Files.exists(p)) {
          profiles.put(fw, ProfileSummary.read(p));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void register(Map<String, Supplier<String>> blocks) {
    blocks.put("appender-suite-measured", this::measured);
    blocks.put("appender-suite", this::table);
    blocks.put("appender-suite-goals", this::goals);
    blocks.put("appender-suite-high-rate", this::highRate);
    blocks.put("appender-suite-chart", this::chart);
    blocks.put("appender-suite-profile", this::profile);
  }

  private String measured() {
    return data == null ? null : data.measured() + "; command: `" + data.command() + "`";
  }

  /** The cells of the standard regimes (not the high-rate runs), in table order. */
  private List<List<Run>> cells() {
    Map<String, List<Run>> byCell = new LinkedHashMap<>();
    for (String fw : List.of("logback", "log4j2")) {
      for (String regime : List.of("saturated", "paced")) {
        for (int threads : List.of(1, 4)) {
          for (String kind : KINDS) {
            for (Run r : data.runs()) {
              if (r.variant().equals(fw + "/" + kind)
                  && r.regime().equals(regime)
                  && r.threads() == threads
                  && r.rate()
                      < HIGH_RATE) { // saturated (0) and the paced regimes; not the high-rate cell
                byCell.computeIfAbsent(r.cell(), k -> new ArrayList<>()).add(r);
              }
            }
          }
        }
      }
    }
    return new ArrayList<>(byCell.values());
  }

  private static double med(List<Run> runs, ToDoubleFunction<Run> f) {
    return AppenderSuiteResults.median(runs.stream().mapToDouble(f).toArray());
  }

  private static String ns(double v) {
    return Double.isNaN(v) ? "–" : Report.count(v);
  }

  private static String pct(double share) {
    return Double.isNaN(share) ? "–" : String.format(Locale.ROOT, "%.1f %%", 100 * share);
  }

  private static String regime(Run r) {
    return r.regime().equals("paced") ? "paced " + Report.count(r.rate()) + "/s" : "saturated";
  }

  private String table() {
    if (data == null || data.runs().isEmpty()) {
      return null;
    }
    Table t =
        new Table(
            "variant",
            ">threads",
            "regime",
            ">runs",
            ">logging-thread CPU ns/event",
            ">pacing subtracted ns/event",
            ">whole-process CPU ns/delivered event",
            ">events/s delivered",
            ">delivered",
            ">by group: logging / appender / GC / JIT / other ns/event",
            ">logging-thread B/event",
            ">receiver CPU ns/event");
    for (List<Run> c : cells()) {
      Run r = c.get(0);
      t.row(
          r.variant(),
          r.threads(),
          regime(r),
          c.size(),
          ns(med(c, Run::loggingCpuNs)),
          r.regime().equals("paced") ? ns(med(c, Run::pacingNs)) : "–",
          ns(med(c, Run::processCpuNs)),
          Report.count(med(c, Run::eventsPerSec)),
          pct(med(c, Run::share)),
          groups(c),
          ns(med(c, Run::allocBytes)),
          ns(med(c, Run::receiverCpuNs)));
    }
    return t.markdown();
  }

  private static String groups(List<Run> c) {
    List<String> g = new ArrayList<>();
    for (int i = 0; i < AppenderSuiteResults.GROUPS.size(); i++) {
      int k = i;
      g.add(ns(med(c, r -> r.groups()[k])));
    }
    return String.join(" / ", g);
  }

  private List<Run> cell(String variant, String regime, int threads) {
    for (List<Run> c : cells()) {
      Run r = c.get(0);
      if (r.variant().equals(variant) && r.regime().equals(regime) && r.threads() == threads) {
        return c;
      }
    }
    return null;
  }

  private String goals() {
    if (data == null || data.runs().isEmpty()) {
      return null;
    }
    Table t =
        new Table(
            "framework",
            "regime",
            ">threads",
            ">logging thread: ours ÷ otel (goal ≤ 0.50×)",
            ">logging thread: ours ÷ file (goal < 1×)",
            ">whole process: ours ÷ otel (goal ≤ 0.50×)",
            ">whole process: ours ÷ aliyun (goal ≤ 0.50×)",
            ">ours delivered (goal 100 %)");
    for (String fw : List.of("logback", "log4j2")) {
      String file = fw.equals("logback") ? fw + "/file" : fw + "/raf";
      for (String regime : List.of("saturated", "paced")) {
        for (int threads : List.of(1, 4)) {
          List<Run> ours = cell(fw + "/logproducer", regime, threads);
          if (ours == null) {
            continue;
          }
          t.row(
              fw,
              regime,
              threads,
              ratio(ours, cell(fw + "/otel", regime, threads), Run::loggingCpuNs, true),
              ratio(ours, cell(file, regime, threads), Run::loggingCpuNs, false),
              ratio(ours, cell(fw + "/otel", regime, threads), Run::processCpuNs, true),
              ratio(ours, cell("logback/aliyun", regime, threads), Run::processCpuNs, true),
              pct(med(ours, Run::share))
                  + " "
                  + status(ours.stream().allMatch(r -> r.delivered() == r.logged())));
        }
      }
    }
    return t.markdown();
  }

  /** {@code ours ÷ peer} with the goal's status; half: goal ≤ 0.5×, else goal < 1×. */
  private static String ratio(
      List<Run> ours, List<Run> peer, ToDoubleFunction<Run> f, boolean half) {
    if (peer == null) {
      return "–";
    }
    double a = med(ours, f);
    double b = med(peer, f);
    if (!(a > 0) || !(b > 0)) {
      // a paced figure at or below 0: the pacing's estimated cost was at least the measured one
      return "– (pacing noise)";
    }
    double q = a / b;
    return String.format(Locale.ROOT, "**%.2f×** ", q) + status(half ? q <= GOAL_VS_OTEL : q < 1);
  }

  private String highRate() {
    if (data == null) {
      return null;
    }
    Map<String, List<Run>> byVariant = new LinkedHashMap<>();
    for (Run r : data.runs()) {
      if (r.regime().equals("paced") && r.rate() >= HIGH_RATE) {
        byVariant
            .computeIfAbsent(
                r.variant() + "|" + r.threads() + "|" + r.rate(), k -> new ArrayList<>())
            .add(r);
      }
    }
    if (byVariant.isEmpty()) {
      return null;
    }
    Table t =
        new Table(
            "variant",
            ">threads",
            ">events/s asked",
            ">runs",
            ">events/s delivered",
            ">delivered",
            ">logging-thread CPU ns/event",
            ">whole-process CPU ns/delivered event");
    byVariant.forEach(
        (k, c) -> {
          Run r = c.get(0);
          t.row(
              r.variant(),
              r.threads(),
              Report.count(r.rate()),
              c.size(),
              Report.count(med(c, Run::eventsPerSec)),
              pct(med(c, Run::share))
                  + " "
                  + status(c.stream().allMatch(x -> x.delivered() == x.logged())),
              ns(med(c, Run::loggingCpuNs)),
              ns(med(c, Run::processCpuNs)));
        });
    return t.markdown();
  }

  private String chart() {
    if (data == null || data.runs().isEmpty()) {
      return null;
    }
    List<String> categories = new ArrayList<>();
    List<List<Run>> cells = cells();
    for (String fw : List.of("logback", "log4j2")) {
      for (String regime : List.of("saturated", "paced")) {
        for (int threads : List.of(1, 4)) {
          String name = fw + " " + regime + " " + threads + "t";
          boolean any =
              cells.stream()
                  .anyMatch(
                      c ->
                          c.get(0).framework().equals(fw)
                              && c.get(0).regime().equals(regime)
                              && c.get(0).threads() == threads);
          if (any) {
            categories.add(name);
          }
        }
      }
    }
    List<Charts.Series> series = new ArrayList<>();
    for (String kind : List.of("logproducer", "logproducer-inline", "file/raf", "otel", "aliyun")) {
      double[] v = new double[categories.size()];
      boolean any = false;
      for (int i = 0; i < v.length; i++) {
        String[] p = categories.get(i).split(" ");
        String variantKind =
            kind.equals("file/raf") ? (p[0].equals("logback") ? "file" : "raf") : kind;
        List<Run> c = cell(p[0] + "/" + variantKind, p[1], Integer.parseInt(p[2].replace("t", "")));
        v[i] = c == null ? Double.NaN : med(c, Run::loggingCpuNs);
        any |= c != null;
      }
      if (any) {
        series.add(new Charts.Series(kind, v));
      }
    }
    charts.add(
        new PerformanceReport.Chart(
            CHART,
            "Logging-thread CPU per event (median)",
            "framework, regime, logging threads",
            "ns/event",
            categories,
            series,
            false,
            true));
    return "![Logging-thread CPU per event by appender](performance/" + CHART + ")";
  }

  private String profile() {
    if (profiles.isEmpty()) {
      return null;
    }
    Table t = new Table("framework", "top frame", ">share of samples");
    profiles.forEach(
        (fw, s) -> {
          int n = 0;
          for (String[] row : s.rows("frame")) {
            if (n++ == 8) {
              break;
            }
            t.row(
                fw,
                "`" + row[0] + "`",
                String.format(Locale.ROOT, "%.1f %%", s.share(row, s.executionSamples())));
          }
        });
    return t.markdown();
  }
}
