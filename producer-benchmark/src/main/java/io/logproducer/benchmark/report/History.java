package io.logproducer.benchmark.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The headline figures of every full suite run, one row each, in {@code
 * docs/perf-data/history.tsv}: how the numbers moved from run to run, with the calibration (CPU to
 * build one record, no client) that tells a faster producer from a faster machine. Rows before the
 * suite wrote this file were taken from the reports of those runs.
 */
public final class History {

  public static final String FILE = "history.tsv";
  private static final String HEADER =
      "measured\tlz4\tzstd1\tgzip1\tnone\tcpuLz4Micros\tbuildMicros\totelTuned"
          + "\taliyunBest\tencoderNanos\tnote";

  /**
   * One suite run's headline. Records/s are medians; NaN where the run did not measure it.
   *
   * @param measured when, "yyyy-MM-dd HH:mm UTC"
   * @param cpuLz4Micros producer-process CPU per record in the median lz4 run, building the record
   *     included
   * @param buildMicros CPU to build one record, no client (the suite's calibration)
   * @param encoderNanos the JMH OTLP protobuf encoder, ns per reference record
   */
  record Row(
      String measured,
      double lz4,
      double zstd1,
      double gzip1,
      double none,
      double cpuLz4Micros,
      double buildMicros,
      double otelTuned,
      double aliyunBest,
      double encoderNanos,
      String note) {

    String toTsv() {
      return String.join(
          "\t",
          measured,
          num(lz4, "%.0f"),
          num(zstd1, "%.0f"),
          num(gzip1, "%.0f"),
          num(none, "%.0f"),
          num(cpuLz4Micros, "%.4f"),
          num(buildMicros, "%.4f"),
          num(otelTuned, "%.0f"),
          num(aliyunBest, "%.0f"),
          num(encoderNanos, "%.1f"),
          note.replace('\t', ' '));
    }

    static Row parse(String line) {
      String[] f = line.split("\t", -1);
      if (f.length != 11) {
        throw new IllegalArgumentException(
            "history row with " + f.length + " fields, 11 expected: " + line);
      }
      return new Row(
          f[0], val(f[1]), val(f[2]), val(f[3]), val(f[4]), val(f[5]), val(f[6]), val(f[7]),
          val(f[8]), val(f[9]), f[10]);
    }

    private static String num(double v, String format) {
      return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, format, v);
    }

    private static double val(String s) {
      return s.equals("-") ? Double.NaN : Double.parseDouble(s);
    }
  }

  private History() {}

  /** {@return the rows of {@code file}, oldest first; none when it does not exist} */
  static List<Row> load(Path file) throws IOException {
    List<Row> rows = new ArrayList<>();
    if (!Files.exists(file)) {
      return rows;
    }
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (!line.isBlank() && !line.startsWith("measured\t")) {
        rows.add(Row.parse(line));
      }
    }
    return rows;
  }

  /**
   * Appends {@code row} to {@code file} (created with its header), unless a row of the same time is
   * there.
   */
  public static void append(Path file, Row row) throws IOException {
    List<Row> rows = load(file);
    if (rows.stream().anyMatch(r -> r.measured().equals(row.measured()))) {
      return;
    }
    if (!Files.exists(file)) {
      Files.writeString(file, HEADER + "\n", StandardCharsets.UTF_8);
    }
    Files.writeString(file, row.toTsv() + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
  }
}
