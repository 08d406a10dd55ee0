package io.logproducer.benchmark.report;

import io.logproducer.Compression;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Number formatting and Markdown tables for the performance report. */
public final class Report {

  private Report() {}

  /**
   * "lz4", "zstd-1", "gzip-1", "none" (level 0 = the producer's default level, 1 for gzip and
   * zstd).
   */
  public static String compressionName(Compression c, int level) {
    return switch (c) {
      case NONE -> "none";
      case LZ4 -> "lz4";
      case GZIP -> "gzip-" + (level == 0 ? 1 : level);
      case ZSTD -> "zstd-" + (level == 0 ? 1 : level);
    };
  }

  /** Binary sizes: 512 KiB, 2 MiB, 100 MiB. */
  public static String bytes(long b) {
    if (b >= 1L << 30 && b % (1L << 30) == 0) {
      return (b >> 30) + " GiB";
    }
    if (b >= 1L << 20 && b % (1L << 20) == 0) {
      return (b >> 20) + " MiB";
    }
    if (b >= 1L << 10 && b % (1L << 10) == 0) {
      return (b >> 10) + " KiB";
    }
    if (b >= 1L << 20) {
      return String.format(Locale.ROOT, "%.1f MiB", b / (double) (1L << 20));
    }
    return b + " B";
  }

  /** 1234567 → "1,234,567". */
  public static String count(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  /** One decimal. */
  public static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  /** Two decimals. */
  public static String f2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  /** A percentage with no decimals: "180%". */
  public static String pct(double v) {
    return String.format(Locale.ROOT, "%.0f%%", v);
  }

  /** A ratio: "12.3×". */
  public static String times(double v) {
    return String.format(Locale.ROOT, v >= 100 ? "%.0f×" : "%.1f×", v);
  }

  /** Nanoseconds as a short human value: 850 ns, 3.2 µs, 41 ms. */
  public static String nanos(double ns) {
    if (ns < 1_000) {
      return String.format(Locale.ROOT, "%.0f ns", ns);
    }
    if (ns < 1_000_000) {
      return String.format(Locale.ROOT, ns < 10_000 ? "%.2f µs" : "%.1f µs", ns / 1e3);
    }
    if (ns < 1_000_000_000) {
      return String.format(Locale.ROOT, ns < 10_000_000 ? "%.2f ms" : "%.1f ms", ns / 1e6);
    }
    return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
  }

  /** MB (10^6 bytes) with one decimal. */
  public static String mb(double bytes) {
    return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
  }

  /** The median of {@code values} (mean of the middle two for an even count); NaN when empty. */
  public static double median(double... values) {
    if (values.length == 0) {
      return Double.NaN;
    }
    double[] v = values.clone();
    Arrays.sort(v);
    int mid = v.length / 2;
    return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  }

  /** A Markdown table built row by row; cells are escaped for pipes. */
  public static final class Table {
    private final List<String> header;
    private final List<Boolean> rightAligned = new ArrayList<>();
    private final List<List<String>> rows = new ArrayList<>();

    /** Columns; a name starting with '>' is right-aligned (the '>' is dropped). */
    public Table(String... columns) {
      header = new ArrayList<>();
      for (String c : columns) {
        boolean right = c.startsWith(">");
        header.add(right ? c.substring(1) : c);
        rightAligned.add(right);
      }
    }

    public Table row(Object... cells) {
      if (cells.length != header.size()) {
        throw new IllegalArgumentException(
            "row has " + cells.length + " cells, table has " + header.size() + " columns");
      }
      List<String> r = new ArrayList<>();
      for (Object c : cells) {
        r.add(String.valueOf(c).replace("|", "\\|"));
      }
      rows.add(r);
      return this;
    }

    public int size() {
      return rows.size();
    }

    /** GitHub-flavoured Markdown, ending with a newline. */
    public String markdown() {
      StringBuilder sb = new StringBuilder();
      sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
      for (boolean right : rightAligned) {
        sb.append(right ? "---:|" : "---|");
      }
      sb.append('\n');
      for (List<String> r : rows) {
        sb.append("| ").append(String.join(" | ", r)).append(" |\n");
      }
      return sb.toString();
    }
  }
}
