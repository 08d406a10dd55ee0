package io.logproducer.benchmark;

import io.logproducer.benchmark.jmh.CodecBenchmark;
import io.logproducer.benchmark.jmh.OtlpEncoderBenchmark;
import io.logproducer.benchmark.jmh.SendBenchmark;
import io.logproducer.benchmark.jmh.Utf8Benchmark;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
 * Runs the suite's JMH benchmarks through JMH's API (each in a forked JVM, as JMH does) with shorter iterations than
 * the classes' annotations, and returns their scores: {@code send()} at 1, 4 and 10 threads with {@code -prof gc},
 * the OTLP encoder, and the codecs on a 2 MiB batch.
 */
final class JmhRunner {

  /** One JMH score. {@code params} are the benchmark's {@code @Param}s; {@code secondary} holds gc and aux values. */
  record Row(String benchmark, Map<String, String> params, int threads, double score, double error, String unit,
      Map<String, Double> secondary, double min, double max) {

    /** {@code gc.alloc.rate.norm} (bytes per operation), or NaN. */
    double allocPerOp() {
      for (Map.Entry<String, Double> e : secondary.entrySet()) {
        if (e.getKey().endsWith("gc.alloc.rate.norm")) {
          return e.getValue();
        }
      }
      return Double.NaN;
    }

    String toTsv() {
      StringBuilder sb = new StringBuilder();
      sb.append(benchmark).append('\t').append(threads).append('\t').append(score).append('\t').append(error)
          .append('\t').append(unit).append('\t');
      List<String> p = new ArrayList<>();
      params.forEach((k, v) -> p.add(k + "=" + v));
      sb.append(String.join(",", p)).append('\t');
      List<String> s = new ArrayList<>();
      secondary.forEach((k, v) -> s.add(k.replace(' ', '_') + "=" + v));
      sb.append(String.join(",", s)).append('\t').append(min).append('\t').append(max);
      return sb.toString();
    }

    static Row fromTsv(String line) {
      String[] f = line.split("\t", -1);
      Map<String, String> params = new LinkedHashMap<>();
      if (!f[5].isEmpty()) {
        for (String kv : f[5].split(",")) {
          int eq = kv.indexOf('=');
          params.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
      }
      Map<String, Double> sec = new LinkedHashMap<>();
      if (f.length > 6 && !f[6].isEmpty()) {
        for (String kv : f[6].split(",")) {
          int eq = kv.lastIndexOf('=');
          sec.put(kv.substring(0, eq), Double.parseDouble(kv.substring(eq + 1)));
        }
      }
      double min = f.length > 8 ? Double.parseDouble(f[7]) : Double.NaN;
      double max = f.length > 8 ? Double.parseDouble(f[8]) : Double.NaN;
      return new Row(f[0], params, Integer.parseInt(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3]), f[4],
          sec, min, max);
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
      rows.addAll(run(options(SendBenchmark.class, 2, 4).threads(threads).addProfiler(GCProfiler.class)));
    }
    progress.println("  JMH OtlpEncoderBenchmark, -prof gc …");
    rows.addAll(run(options(OtlpEncoderBenchmark.class, 1, 5).addProfiler(GCProfiler.class)));
    progress.println("  JMH Utf8Benchmark …");
    rows.addAll(run(options(Utf8Benchmark.class, 1, 5)));
    progress.println("  JMH CodecBenchmark …");
    rows.addAll(run(options(CodecBenchmark.class, 1, 5)));
    return rows;
  }

  private ChainedOptionsBuilder options(Class<?> benchmark, int iterationSeconds, int iterations) {
    return new OptionsBuilder()
        .include("\\." + benchmark.getSimpleName() + "\\.")
        .forks(1)
        .jvmArgsPrepend(PerformanceSuite.ENABLE_NATIVE_ACCESS)
        .warmupIterations(quick ? 1 : 2)
        .warmupTime(TimeValue.seconds(iterationSeconds))
        .measurementIterations(quick ? 2 : iterations)
        .measurementTime(TimeValue.seconds(iterationSeconds))
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
      Row row = new Row(bench, params, r.getParams().getThreads(), primary.getScore(), primary.getScoreError(),
          primary.getScoreUnit(), secondary, primary.getStatistics().getMin(), primary.getStatistics().getMax());
      progress.printf(Locale.ROOT, "    %s %s threads=%d: %.1f %s (iterations %.1f–%.1f)%s%n", bench, params,
          row.threads(), row.score(), row.unit(), row.min(), row.max(), Double.isNaN(row.allocPerOp()) ? ""
              : String.format(Locale.ROOT, ", %.1f B/op", row.allocPerOp()));
      rows.add(row);
    }
    return rows;
  }

  static void save(List<Row> rows, Path file) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Row r : rows) {
      lines.add(r.toTsv());
    }
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.write(file, lines, StandardCharsets.UTF_8);
  }

  static List<Row> load(Path file) throws IOException {
    List<Row> rows = new ArrayList<>();
    if (Files.exists(file)) {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (!line.isBlank()) {
          rows.add(Row.fromTsv(line));
        }
      }
    }
    return rows;
  }

  /** The batch size the codec benchmark compresses. */
  static int codecBatchBytes() {
    return CodecBenchmark.BATCH_BYTES;
  }
}
