package io.logproducer.benchmark.report;

import io.logproducer.Compression;
import io.logproducer.benchmark.harness.JmhRunner;
import io.logproducer.benchmark.harness.RunResult;
import io.logproducer.benchmark.harness.RunSpec.Client;
import io.logproducer.benchmark.harness.Runs;
import io.logproducer.benchmark.harness.Sample;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * The suite's data as the report reads it ({@code docs/perf-data/}): the samples of {@code
 * results.tsv}, the JMH rows, {@code meta.properties}, and the optional files (appenders,
 * SendBenchmark sweeps, the profile summary, the history, the published figures). Selections and
 * medians shared by the report's tables. Immutable; not thread-safe to build.
 */
public final class SuiteData {

  /**
   * meta.properties keys: {@code machine.<row>} rows of the machine table, recorded when the data
   * was measured.
   */
  public static final String MACHINE_PREFIX = "machine.";

  static final String CORES_ROW = "Cores (available to the JVM)";

  final List<Sample> samples;
  final List<JmhRunner.Row> jmh;
  final Map<String, String> meta;

  /** {@code appenders.tsv}, or null. */
  final AppenderResults.Data appenders;

  /** {@code jmh-send-sweeps.tsv}'s rows; empty when there is none. */
  final List<JmhRunner.SweepRow> sendSweeps;

  /** {@code profile.tsv}, or null. */
  final ProfileSummary profile;

  /** {@code history.tsv}'s rows; empty when there is none. */
  final List<History.Row> history;

  /** {@code published.tsv}'s rows; empty when there is none. */
  final List<Published.Row> published;

  /** {@code long-run.tsv}, or null. */
  final LongRunTables.Data longRuns;

  SuiteData(
      List<Sample> samples,
      List<JmhRunner.Row> jmh,
      Map<String, String> meta,
      AppenderResults.Data appenders,
      List<JmhRunner.SweepRow> sendSweeps,
      ProfileSummary profile,
      List<History.Row> history,
      List<Published.Row> published,
      LongRunTables.Data longRuns) {
    this.samples = samples;
    this.jmh = jmh;
    this.meta = meta;
    this.appenders = appenders;
    this.sendSweeps = sendSweeps;
    this.profile = profile;
    this.history = history;
    this.published = published;
    this.longRuns = longRuns;
  }

  List<Sample> section(String name) {
    return samples.stream().filter(s -> s.section().equals(name)).toList();
  }

  List<Sample> select(Predicate<Sample> p) {
    return samples.stream().filter(p).toList();
  }

  static double med(List<Sample> list, ToDoubleFunction<RunResult> f) {
    return Report.median(list.stream().mapToDouble(s -> f.applyAsDouble(s.result())).toArray());
  }

  /** {@return the median records/s of {@code list}; NaN when empty} */
  static double rate(List<Sample> list) {
    return med(list, RunResult::recordsPerSec);
  }

  static double min(List<Sample> list, ToDoubleFunction<RunResult> f) {
    return list.stream().mapToDouble(s -> f.applyAsDouble(s.result())).min().orElse(Double.NaN);
  }

  static double max(List<Sample> list, ToDoubleFunction<RunResult> f) {
    return list.stream().mapToDouble(s -> f.applyAsDouble(s.result())).max().orElse(Double.NaN);
  }

  /** logproducer samples of the compression section with {@code c}. */
  List<Sample> lp(Compression c) {
    return select(s -> s.section().equals("compression") && s.spec().compression() == c);
  }

  List<Sample> otel(boolean tuned, Compression c) {
    return select(
        s ->
            s.section().equals("peers")
                && s.spec().otelTuned() == tuned
                && s.spec().compression() == c);
  }

  /**
   * Samples of the Aliyun Log Java producer with {@code ioThreads} IO threads, or all of them when
   * 0.
   */
  List<Sample> aliyun(int ioThreads) {
    return select(
        s ->
            s.section().equals("aliyun")
                && s.spec().client() == Client.ALIYUN
                && (ioThreads == 0 || s.spec().sendThreads() == ioThreads));
  }

  /** The Aliyun producer's IO-thread counts in the data, ascending. */
  List<Integer> aliyunIoThreads() {
    return aliyun(0).stream().map(s -> s.spec().sendThreads()).distinct().sorted().toList();
  }

  /**
   * The Aliyun producer's fastest IO-thread count (highest median records/s), or 0 without Aliyun
   * data.
   */
  int aliyunBest() {
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

  /**
   * The sample whose records/s is the median of {@code list} (the lower middle for even counts), or
   * null.
   */
  static Sample medianSample(List<Sample> list) {
    if (list.isEmpty()) {
      return null;
    }
    List<Sample> sorted = new ArrayList<>(list);
    sorted.sort(Comparator.comparingDouble(s -> s.result().recordsPerSec()));
    return sorted.get((sorted.size() - 1) / 2);
  }

  /** The median lz4 run of the compression section (the headline), or null. */
  Sample head() {
    return medianSample(lp(Compression.LZ4));
  }

  /** Samples grouped by a label, in the order first seen. */
  static Map<String, List<Sample>> groups(List<Sample> list, Function<Sample, String> label) {
    Map<String, List<Sample>> groups = new LinkedHashMap<>();
    for (Sample s : list) {
      groups.computeIfAbsent(label.apply(s), k -> new ArrayList<>()).add(s);
    }
    return groups;
  }

  /**
   * Generation CPU per record, µs: the median of the calibration runs (start and end of the suite).
   */
  double calibrationCpuMicros() {
    return buildingMicros(section("calibration"));
  }

  /** {@return the median CPU per record of calibration runs (building records alone), µs} */
  static double buildingMicros(List<Sample> calibration) {
    return Report.median(
        calibration.stream()
            .mapToDouble(
                s ->
                    s.result().getLong("cpu.app")
                        / 1e3
                        / Math.max(1, s.result().getLong("emitted")))
            .toArray());
  }

  double calibrationAllocBytes() {
    return Report.median(
        section("calibration").stream()
            .mapToDouble(
                s ->
                    s.result().getLong("alloc.app")
                        / (double) Math.max(1, s.result().getLong("emitted")))
            .toArray());
  }

  /**
   * The machine table's rows, as recorded with the data (never the machine the page is regenerated
   * on).
   */
  Map<String, String> machine() {
    Map<String, String> m = new LinkedHashMap<>();
    meta.forEach(
        (k, v) -> {
          if (k.startsWith(MACHINE_PREFIX)) {
            m.put(k.substring(MACHINE_PREFIX.length()), v);
          }
        });
    return m;
  }

  int cores() {
    try {
      return Integer.parseInt(machine().getOrDefault(CORES_ROW, "0").trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * The widest spread among repeated runs of identical logproducer settings (reused runs counted
   * once): the slowest and the fastest run, or null when nothing was repeated.
   */
  List<Sample> widestSpread() {
    Map<String, List<Sample>> g =
        groups(
            select(
                s ->
                    s.spec().client() == Client.LOGPRODUCER
                        && s.spec().rateLimit() == 0
                        && !s.spec().jfr()
                        && !s.result().has("reusedFrom")),
            s -> Runs.specKey(s.spec()));
    List<Sample> best = null;
    double ratio = 0;
    for (List<Sample> l : g.values()) {
      if (l.size() < 2) {
        continue;
      }
      Sample slow =
          l.stream().min(Comparator.comparingDouble(s -> s.result().recordsPerSec())).orElseThrow();
      Sample fast =
          l.stream().max(Comparator.comparingDouble(s -> s.result().recordsPerSec())).orElseThrow();
      double lo = slow.result().recordsPerSec();
      double hi = fast.result().recordsPerSec();
      if (lo > 0 && hi / lo > ratio) {
        ratio = hi / lo;
        best = List.of(slow, fast);
      }
    }
    return best;
  }

  /** The JMH row of {@code benchmark} whose parameter {@code param} is {@code value}, or null. */
  JmhRunner.Row jmhRow(String benchmark, String param, String value) {
    return jmh.stream()
        .filter(r -> r.benchmark().startsWith(benchmark) && value.equals(r.params().get(param)))
        // Utf8Benchmark's string shapes: the reference record's is the one the page quotes
        .filter(r -> r.params().getOrDefault("shape", "record").equals("record"))
        .findFirst()
        .orElse(null);
  }

  List<JmhRunner.Row> jmhRows(String benchmark) {
    return jmh.stream().filter(r -> r.benchmark().startsWith(benchmark)).toList();
  }

  // ---------------------------------------------------------------- cells shared by the tables

  /** "673,099–910,073", or "" for a single run. */
  static String rangeCell(List<Sample> l) {
    return l.size() > 1
        ? Report.count(min(l, RunResult::recordsPerSec))
            + "–"
            + Report.count(max(l, RunResult::recordsPerSec))
        : "";
  }

  /** "3" or "3 (1 ⚠)": runs, and how many were disturbed by other processes. */
  static String runsCell(List<Sample> l) {
    long disturbed = l.stream().filter(s -> !disturbedMark(s).isEmpty()).count();
    return l.size() + (disturbed > 0 ? " (" + disturbed + " ⚠)" : "");
  }

  /**
   * " ⚠" when other processes took more than a quarter core during the run, or the machine ran more
   * than 15 % slower than its fastest (the suite's speed probe).
   */
  static String disturbedMark(Sample s) {
    return Runs.disturbance(s.result()) > 1 ? " ⚠" : "";
  }

  static String verifiedCell(List<Sample> l) {
    return l.stream().allMatch(s -> s.result().verified()) ? "✓" : "✗";
  }

  static String sinkMicrosCell(RunResult r) {
    return r.has("sinkCpuNanosPerRecord")
        ? Report.f2(r.getDouble("sinkCpuNanosPerRecord") / 1e3)
        : "–";
  }

  static double wireRatio(RunResult r) {
    return r.getLong("encodedBytes") / (double) Math.max(1, r.getLong("wireBytes"));
  }

  static String compression(Sample s) {
    return Report.compressionName(s.spec().compression(), s.spec().compressionLevel());
  }

  static String orDash(double v, java.util.function.DoubleFunction<String> f) {
    return Double.isNaN(v) || Double.isInfinite(v) ? "–" : f.apply(v);
  }

  static String status(boolean met) {
    return met ? "met" : "not yet";
  }
}
