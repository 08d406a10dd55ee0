package io.logproducer.benchmark.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Figures other producers published on their own hardware ({@code docs/perf-data/published.tsv}):
 * shown only in their own table, never charted, never divided by a figure measured here. Columns:
 * sweep, setting, raw MB/s, source; tab-separated, {@code #} starts a comment.
 */
final class Published {

  static final String FILE = "published.tsv";

  /**
   * One published figure: raw MB/s at one setting of one of the publisher's sweeps, and where it
   * was published.
   */
  record Row(String sweep, String setting, double rawMbPerSec, String source) {}

  private Published() {}

  /** {@return the rows of {@code file}, in file order; empty when it does not exist} */
  static List<Row> load(Path file) throws IOException {
    List<Row> rows = new ArrayList<>();
    if (!Files.exists(file)) {
      return rows;
    }
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] f = line.split("\t", -1);
      if (f.length != 4) {
        throw new IOException(
            file + ": expected 4 tab-separated columns, got " + f.length + ": " + line);
      }
      rows.add(new Row(f[0], f[1], Double.parseDouble(f[2]), f[3]));
    }
    return rows;
  }
}
