package io.logproducer.benchmark.harness;

import io.logproducer.benchmark.jmh.CodecBenchmark;
import io.logproducer.benchmark.jmh.OtlpEncoderBenchmark;
import io.logproducer.benchmark.jmh.SendBenchmark;
import io.logproducer.benchmark.jmh.Utf8Benchmark;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs the suite's JMH benchmarks through JMH's API (each in a forked JVM, as JMH does) with
 * shorter iterations than the classes' annotations, and returns their scores: {@code send()} at 1,
 * 4 and 10 threads with {@code -prof gc}, the OTLP encoder, and the codecs on a 2 MiB batch.
 */
public final class JmhRunner {

  /**
   * One JMH score. {@code params} are the benchmark's {@code @Param}s; {@code secondary} holds gc
   * and aux values.
   */
  public record Row(
      String benchmark,
      Map<String, String> params,
      int threads,
      double score,
      double error,
      String unit,
      Map<String, Double> secondary,
      double min,
      double max) {

    /** {@code gc.alloc.rate.norm} (bytes per operation), or NaN. */
    public double allocPerOp() {
      for (Map.Entry<String, Double> e : secondary.entrySet()) {
        if (e.getKey().endsWith("gc.alloc.rate.norm")) {
          return e.getValue();
        }
      }
      return Double.NaN;
    }

    String toTsv() {
      return Tsv.join(
          benchmark, threads, score, error, unit, join(params), join(secondary), min, max);
    }

    private static String join(Map<String, ?> m) {
      return m.entrySet().stream()
          .map(e -> e.getKey().replace(' ', '_') + "=" + e.getValue())
          .collect(Collectors.joining(","));
    }

    static Row fromTsv(String line) {
      String[] f = line.split("\t", -1);
      Map<String, String> params = new LinkedHashMap<>();
      Map<String, Double> sec = new LinkedHashMap<>();
      for (String kv : f[5].isEmpty() ? new String[0] : f[5].split(",")) {
        params.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
      }
      for (String kv : f.length > 6 && !f[6].isEmpty() ? f[6].split(",") : new String[0]) {
        int eq = kv.lastIndexOf('=');
        sec.put(kv.substring(0, eq), Double.parseDouble(kv.substring(eq + 1)));
      }
      return new Row(
          f[0],
          params,
          Integer.parseInt(f[1]),
          Double.parseDouble(f[2]),
          Double.parseDouble(f[3]),
          f[4],
          sec,
          f.length > 8 ? Double.parseDouble(f[7]) : Double.NaN,
          f.length > 8 ? Double.parseDouble(f[8]) : Double.NaN);
    }
  }

  /** The SendBenchmark sweeps' results in {@code perf-data}. */
  public static final String SWEEPS_FILE = "jmh-send-sweeps.tsv";

  /** Benchmark threads of the SendBenchmark sweeps ({@code -t}). */
  static final int SWEEP_THREADS = 4;

  /** Compression of the sweeps of the other parameters (the headline setting). */
  static final String SWEEP_COMPRESSION = "LZ4";

  /**
   * The swept {@code @Param}s of {@link SendBenchmark}, in report order, each with its full and its
   * quick values; one is varied at a time, the others keep the benchmark's defaults (compression
   * {@link #SWEEP_COMPRESSION}).
   */
  public static final List<String[]> SWEEPS =
      List.of(
          new String[] {"sendThreads", "1,2,4,8,16,32", "1,32"},
          new String[] {
            "batchSizeInBytes", "262144,524288,1048576,2097152,4194304", "262144,4194304"
          },
          new String[] {
            "totalSizeInBytes",
            "16777216,33554432,67108864,134217728,268435456",
            "16777216,268435456"
          },
          new String[] {"compression", "NONE,GZIP,LZ4,ZSTD", "NONE,GZIP,ZSTD"});

  /**
   * One point of a SendBenchmark sweep: the swept parameter, its value, and the score (sends/s, all
   * threads).
   */
  public record SweepRow(
      String param,
      String value,
      int threads,
      double opsPerSec,
      double error,
      double bytesPerOp,
      double min,
      double max) {

    static final String HEADER = "# param\tvalue\tops/s\terror\tB/op\tmin\tmax\tthreads";

    String toTsv() {
      return Tsv.join(param, value, opsPerSec, error, bytesPerOp, min, max, threads);
    }

    static SweepRow fromTsv(String line) {
      String[] f = line.split("\t", -1);
      return new SweepRow(
          f[0],
          f[1],
          f.length > 7 ? Integer.parseInt(f[7]) : SWEEP_THREADS,
          Double.parseDouble(f[2]),
          Double.parseDouble(f[3]),
          Double.parseDouble(f[4]),
          f.length > 6 ? Double.parseDouble(f[5]) : Double.NaN,
          f.length > 6 ? Double.parseDouble(f[6]) : Double.NaN);
    }
  }

  private final PrintStream progress;
  private final boolean quick;

  JmhRunner(PrintStream progress, boolean quick) {
    this.progress = progress;
    this.quick = quick;
  }

  /** Runs everything; returns the rows in a stable order. */
  List<Row> runAll() throws RunnerException {
    List<Row> rows = new ArrayList<>();
    for (int threads : new int[] {1, 4, 10}) {
      progress.printf(Locale.ROOT, "  JMH SendBenchmark, %d thread(s), -prof gc …%n", threads);
      ChainedOptionsBuilder o =
          options(SendBenchmark.class, 2, 4).threads(threads).addProfiler(GCProfiler.class);
      if (quick) {
        o.param(
            "compression",
            SWEEP_COMPRESSION); // --quick: lz4 only (the sweeps below cover compression)
      }
      rows.addAll(run(o));
    }
    progress.println("  JMH OtlpEncoderBenchmark, -prof gc …");
    rows.addAll(run(options(OtlpEncoderBenchmark.class, 1, 5).addProfiler(GCProfiler.class)));
    progress.println("  JMH Utf8Benchmark …");
    rows.addAll(run(options(Utf8Benchmark.class, 1, 5)));
    progress.println("  JMH CodecBenchmark …");
    rows.addAll(run(options(CodecBenchmark.class, 1, 5)));
    return rows;
  }

  /**
   * The SendBenchmark sweeps: each swept {@code @Param} over its values ({@link #SWEEPS}), the
   * others at their defaults, {@value #SWEEP_THREADS} threads, {@code -prof gc}; 1 s iterations
   * (one fork per point). With {@code --quick}: the ends of each range only and half-second
   * iterations.
   */
  List<SweepRow> runSendSweeps() throws RunnerException {
    List<SweepRow> rows = new ArrayList<>();
    for (String[] sweep : SWEEPS) {
      String param = sweep[0];
      String[] values = (quick ? sweep[2] : sweep[1]).split(",");
      progress.printf(
          Locale.ROOT,
          "  JMH SendBenchmark sweep of %s (%s), %d threads, -prof gc …%n",
          param,
          String.join(", ", values),
          SWEEP_THREADS);
      ChainedOptionsBuilder o =
          options(SendBenchmark.class, 1, 3)
              .threads(SWEEP_THREADS)
              .addProfiler(GCProfiler.class)
              .param(param, values);
      if (!param.equals("compression")) {
        o.param("compression", SWEEP_COMPRESSION);
      }
      for (Row r : run(o)) {
        rows.add(
            new SweepRow(
                param,
                r.params().get(param),
                r.threads(),
                r.score(),
                r.error(),
                r.allocPerOp(),
                r.min(),
                r.max()));
      }
    }
    return rows;
  }

  public static void saveSweeps(List<SweepRow> rows, Path file) throws IOException {
    Tsv.write(
        file,
        Stream.concat(Stream.of(SweepRow.HEADER), rows.stream().map(SweepRow::toTsv)).toList());
  }

  /** The rows of a sweeps file; empty when there is none. */
  public static List<SweepRow> loadSweeps(Path file) throws IOException {
    return Tsv.read(file, SweepRow::fromTsv);
  }

  /**
   * {@code --quick} (a smoke test): iterations of at most half a second; a fork costs more than
   * that.
   */
  private ChainedOptionsBuilder options(Class<?> benchmark, int iterationSeconds, int iterations) {
    TimeValue time = quick ? TimeValue.milliseconds(500) : TimeValue.seconds(iterationSeconds);
    return new OptionsBuilder()
        .include("\\." + benchmark.getSimpleName() + "\\.")
        .forks(1)
        .jvmArgsPrepend(PerformanceSuite.ENABLE_NATIVE_ACCESS)
        .warmupIterations(quick ? 1 : 2)
        .warmupTime(time)
        .measurementIterations(quick ? 2 : iterations)
        .measurementTime(time)
        .shouldFailOnError(true)
        .verbosity(VerboseMode.SILENT);
  }

  private List<Row> run(ChainedOptionsBuilder options) throws RunnerException {
    List<Row> rows = new ArrayList<>();
    for (RunResult r : new Runner(options.build()).run()) {
      Result<?> primary = r.getPrimaryResult();
      Map<String, String> params = new LinkedHashMap<>();
      for (String key : r.getParams().getParamsKeys()) {
        params.put(key, r.getParams().getParam(key));
      }
      Map<String, Double> secondary = new LinkedHashMap<>();
      r.getSecondaryResults().forEach((k, v) -> secondary.put(k, v.getScore()));
      String bench = r.getParams().getBenchmark();
      bench = bench.substring(bench.lastIndexOf('.', bench.lastIndexOf('.') - 1) + 1);
      Row row =
          new Row(
              bench,
              params,
              r.getParams().getThreads(),
              primary.getScore(),
              primary.getScoreError(),
              primary.getScoreUnit(),
              secondary,
              primary.getStatistics().getMin(),
              primary.getStatistics().getMax());
      progress.printf(
          Locale.ROOT,
          "    %s %s threads=%d: %.1f %s (iterations %.1f–%.1f)%s%n",
          bench,
          params,
          row.threads(),
          row.score(),
          row.unit(),
          row.min(),
          row.max(),
          Double.isNaN(row.allocPerOp())
              ? ""
              : String.format(Locale.ROOT, ", %.1f B/op", row.allocPerOp()));
      rows.add(row);
    }
    return rows;
  }

  static void save(List<Row> rows, Path file) throws IOException {
    Tsv.write(file, rows.stream().map(Row::toTsv).toList());
  }

  /** The rows of a jmh.tsv; empty when there is none. */
  public static List<Row> load(Path file) throws IOException {
    return Tsv.read(file, Row::fromTsv);
  }

  /** The batch size the codec benchmark compresses. */
  public static int codecBatchBytes() {
    return CodecBenchmark.BATCH_BYTES;
  }
}
