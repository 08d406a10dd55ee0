package io.logproducer.benchmark.report;

import static io.logproducer.benchmark.report.SuiteData.medianSample;

import io.logproducer.Compression;
import io.logproducer.benchmark.harness.RunResult;
import io.logproducer.benchmark.harness.Sample;
import io.logproducer.benchmark.report.Report.Table;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The performance page's blocks {@code long-run-measured} and {@code long-run}, from {@code
 * docs/perf-data/long-run.tsv} ({@code run-suite.sh --long-runs}): for lz4 and zstd-1, the steady
 * state and 20 M records from the JVM's start (no warm-up, the JVM's default heap, as the quick
 * start runs), with the CPU per record by thread group, net of building the records (measured in
 * the same sitting), allocation and the collectors' share of the wall time. Null without the file.
 */
final class LongRunTables {

  /** The data file in {@code docs/perf-data/}. */
  static final String FILE = "long-run.tsv";

  /** The codecs of the long runs, in the table's order. */
  static final List<Compression> COMPRESSIONS = List.of(Compression.LZ4, Compression.ZSTD);

  /** The thread groups shown, in this order; the others (linger, VM threads) make {@code other}. */
  private static final List<String> GROUPS = List.of("app", "sender", "gc", "jit");

  /**
   * The file's samples and its first line's text after {@code # measured }.
   *
   * @param measured when, on what, with which command
   */
  record Data(String measured, List<Sample> samples) {

    /** {@return the file's data, or null when there is no file} */
    static Data load(Path file) throws IOException {
      if (!Files.exists(file)) {
        return null;
      }
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      String head = lines.isEmpty() ? "" : lines.get(0);
      String measured = head.startsWith("# measured ") ? head.substring(11) : "";
      return new Data(measured, Sample.readAll(file));
    }

    /** The samples of {@code section} with compression {@code c}. */
    List<Sample> runs(String section, Compression c) {
      return samples.stream()
          .filter(s -> s.section().equals(section) && s.spec().compression() == c)
          .toList();
    }

    /** The CPU to build one record with no client, in this sitting (median), µs. */
    double buildingMicros() {
      return SuiteData.buildingMicros(
          samples.stream().filter(s -> s.section().equals("longRunCalibration")).toList());
    }
  }

  private final Data data;

  LongRunTables(Data data) {
    this.data = data;
  }

  void register(Map<String, Supplier<String>> blocks) {
    blocks.put("long-run-measured", () -> data == null ? null : data.measured());
    blocks.put("long-run", this::table);
  }

  /** {@return the GC time of {@code r} as a percentage of its wall time} */
  static double gcPercent(RunResult r) {
    return 100.0 * r.getLong("gcMillis") / 1e3 / Math.max(1e-9, r.seconds());
  }

  private String table() {
    if (data == null) {
      return null;
    }
    List<String> cols =
        new ArrayList<>(
            List.of(
                "run",
                ">records/s",
                ">runs",
                ">CPU µs/record",
                ">net of building µs",
                ">÷ building"));
    GROUPS.forEach(g -> cols.add(">" + g + " µs"));
    cols.addAll(
        List.of(
            ">other µs",
            ">app B/record",
            ">all B/record",
            ">max heap",
            ">GCs",
            ">GC ms",
            ">GC % of wall time"));
    Table t = new Table(cols.toArray(new String[0]));
    double building = data.buildingMicros();
    boolean any = false;
    for (Compression c : COMPRESSIONS) {
      for (String section : List.of("longRunSteady", "longRun")) {
        List<Sample> runs = data.runs(section, c);
        Sample s = medianSample(runs);
        if (s != null) {
          t.row(row(s, runs, building).toArray());
          any = true;
        }
      }
    }
    return any ? t.markdown() : null;
  }

  private static List<Object> row(Sample s, List<Sample> runs, double building) {
    RunResult r = s.result();
    double delivered = Math.max(1, r.delivered());
    Map<String, Long> cpu = r.cpuByGroup();
    List<Object> cells = new ArrayList<>();
    cells.add(s.spec().label() + (r.verified() ? "" : " (**sink count differs**)"));
    cells.add(Report.count(r.recordsPerSec()));
    cells.add(SuiteData.runsCell(runs));
    cells.add(Report.f2(r.cpuMicrosPerRecord()));
    cells.add(Report.f2(r.cpuMicrosPerRecord() - building));
    cells.add(building > 0 ? Report.f1(r.cpuMicrosPerRecord() / building) + "×" : "–");
    long shown = 0;
    for (String g : GROUPS) {
      long v = cpu.getOrDefault(g, 0L);
      shown += v;
      cells.add(Report.f2(v / 1e3 / delivered));
    }
    double all = r.cpuMicrosPerRecord() * delivered * 1e3;
    cells.add(Report.f2(Math.max(0, all - shown) / 1e3 / delivered));
    Map<String, Long> alloc = r.allocByGroup();
    long allocAll = alloc.values().stream().mapToLong(Long::longValue).sum();
    cells.add(Report.count(alloc.getOrDefault("app", 0L) / delivered));
    cells.add(Report.count(allocAll / delivered));
    cells.add(
        r.has("heapMaxBytes")
            ? String.format(
                Locale.ROOT, "%.1f GiB", r.getLong("heapMaxBytes") / (double) (1L << 30))
            : "–");
    cells.add(Long.toString(r.getLong("gcCount")));
    cells.add(Long.toString(r.getLong("gcMillis")));
    cells.add(Report.f2(gcPercent(r)));
    return cells;
  }
}
