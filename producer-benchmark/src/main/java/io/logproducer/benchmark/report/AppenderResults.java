package io.logproducer.benchmark.report;

import io.logproducer.benchmark.harness.MachineInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * The logging appenders' numbers: turns the output of {@code run-appender-bench.sh} (the two {@code
 * AppenderBenchmark} JMH runs, {@code -t 1} and {@code -t 4}, and the final lines of the examples'
 * {@code logback} and {@code log4j2} runs) into {@code docs/perf-data/appenders.tsv}, from which
 * {@link AppenderTables} fills the page's tables.
 *
 * <pre>
 * java -cp benchmarks.jar io.logproducer.benchmark.report.AppenderResults t1.txt t4.txt e2e.txt appenders.tsv
 * </pre>
 *
 * <p>The file: {@code #} comment lines (when and on what the data was measured), one header line,
 * then one {@code jmh} row per variant and thread count and one {@code e2e} row per end-to-end run;
 * {@code -} where a column does not apply.
 */
@Command(
    name = "AppenderResults",
    mixinStandardHelpOptions = true,
    description = "Writes appenders.tsv from run-appender-bench.sh's JMH and end-to-end outputs.")
public final class AppenderResults implements Callable<Integer> {

  @Parameters(index = "0", description = "the JMH output of -t 1 (appender-bench-t1.txt)")
  private Path t1;

  @Parameters(index = "1", description = "the JMH output of -t 4 (appender-bench-t4.txt)")
  private Path t4;

  @Parameters(index = "2", description = "the end-to-end runs' output; none when missing")
  private Path e2eFile;

  @Parameters(index = "3", description = "the file to write (docs/perf-data/appenders.tsv)")
  private Path out;

  @Parameters(index = "4", arity = "0..1", description = "what changed, for the file's note")
  private String note;

  static final String FILE = "appenders.tsv";
  static final String MEASURED_PREFIX = "# measured ";
  static final String NOTE_PREFIX = "# note ";
  static final List<String> COLUMNS =
      List.of(
          "kind",
          "name",
          "threads_or_run",
          "ns_per_op",
          "ns_per_op_error",
          "cpu_ns_per_op",
          "bytes_per_op",
          "logged",
          "received",
          "appender_dropped",
          "records",
          "delivered",
          "failed",
          "refused",
          "not_sent",
          "records_per_sec",
          "raw_mb_per_sec",
          "wire_mb_per_sec");

  /**
   * One JMH trial of one variant: wall ns per logging call (and JMH's 99.9 % error), the logging
   * threads' own CPU ns per call, bytes allocated per call, and over the whole trial (warm-up
   * included) the events logged, the records the receiver counted and the drops the appender itself
   * reported (-1 where none is reported or it is n/a).
   */
  record Jmh(
      String variant,
      int threads,
      double nsPerOp,
      double nsPerOpError,
      double cpuNsPerOp,
      double bytesPerOp,
      long logged,
      long received,
      long appenderDropped) {

    /**
     * Share of the logged events the receiver counted, 0–1; NaN for the no-op appender (nothing is
     * sent).
     */
    double receivedShare() {
      return received < 0 || logged <= 0 ? Double.NaN : (double) received / logged;
    }
  }

  /**
   * One end-to-end run of the examples jar's {@code logback} or {@code log4j2} command: its final
   * line.
   */
  record E2e(
      String framework,
      int run,
      long records,
      long delivered,
      long failed,
      long refused,
      long notSent,
      double recordsPerSec,
      double rawMbPerSec,
      double wireMbPerSec) {

    boolean allDelivered() {
      return records > 0 && delivered == records && failed == 0 && refused == 0 && notSent == 0;
    }
  }

  /**
   * The file's content: {@code measured} is the text after "# measured " (when and on what), {@code
   * note} the text after "# note " (a remark about the measurement, shown with the data), each null
   * when absent.
   */
  record Data(String measured, String note, List<Jmh> jmh, List<E2e> e2e) {}

  private AppenderResults() {}

  /** Exit code 0 when written, 2 on bad arguments, 1 when a file cannot be read or written. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new AppenderResults()).execute(args));
  }

  @Override
  public Integer call() throws IOException {
    List<Jmh> jmh = new ArrayList<>(parseJmh(Files.readAllLines(t1, StandardCharsets.UTF_8)));
    jmh.addAll(parseJmh(Files.readAllLines(t4, StandardCharsets.UTF_8)));
    List<E2e> e2e =
        Files.exists(e2eFile)
            ? parseE2e(Files.readAllLines(e2eFile, StandardCharsets.UTF_8))
            : List.of();
    Map<String, String> m = MachineInfo.collect();
    // when the runs ended: the output files' modification times
    String measured =
        "JMH "
            + utc(later(Files.getLastModifiedTime(t1), Files.getLastModifiedTime(t4)))
            + (e2e.isEmpty() ? "" : ", end to end " + utc(Files.getLastModifiedTime(e2eFile)))
            + "; "
            + m.get("CPU")
            + ", "
            + m.get("Cores (available to the JVM)")
            + " cores, "
            + m.get("JDK");
    if (out.getParent() != null) {
      Files.createDirectories(out.getParent());
    }
    String n = note != null && !note.isBlank() ? note.strip().replace('\n', ' ') : null;
    Files.writeString(out, format(new Data(measured, n, jmh, e2e)), StandardCharsets.UTF_8);
    System.out.println(
        "wrote " + out + ": " + jmh.size() + " JMH rows, " + e2e.size() + " end-to-end runs");
    return 0;
  }

  private static FileTime later(FileTime a, FileTime b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private static String utc(FileTime t) {
    return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT)
        .format(t.toInstant().atOffset(ZoneOffset.UTC));
  }

  // ---------------------------------------------------------------- parsing

  /**
   * "AppenderBenchmark.log[:gc.alloc.rate.norm] <variant> <queue> avgt 5 <score> ± <error> <unit>".
   */
  private static final Pattern RESULT =
      Pattern.compile(
          "^AppenderBenchmark\\.log(:gc\\.alloc\\.rate\\.norm)?\\s+"
              + "(\\S+)\\s+\\S+\\s+avgt\\s+\\d+\\s+([0-9.]+)(?:\\s+±\\s+([0-9.]+))?\\s+(ns/op|B/op)\\s*$");

  private static final Pattern REPORT =
      Pattern.compile("\\[AppenderBenchmark\\] appender=(\\S+) (.*)$");
  private static final Pattern KEY_VALUE = Pattern.compile("(\\S+?)=(\\S+)");

  /**
   * The rows of one JMH run's output (one thread count): the result table's {@code ns/op} and
   * {@code gc.alloc.rate.norm} lines and each trial's {@code [AppenderBenchmark] appender=…} line,
   * by variant, in the order of the result table.
   */
  static List<Jmh> parseJmh(List<String> lines) {
    Map<String, double[]> score = new LinkedHashMap<>(); // variant -> {ns/op, error, B/op}
    Map<String, Map<String, String>> report = new LinkedHashMap<>();
    for (String line : lines) {
      Matcher r = RESULT.matcher(line.strip());
      if (r.matches()) {
        double[] s =
            score.computeIfAbsent(
                r.group(2), k -> new double[] {Double.NaN, Double.NaN, Double.NaN});
        if (r.group(1) == null) {
          s[0] = Double.parseDouble(r.group(3));
          s[1] = r.group(4) == null ? Double.NaN : Double.parseDouble(r.group(4));
        } else {
          s[2] = Double.parseDouble(r.group(3));
        }
        continue;
      }
      Matcher p = REPORT.matcher(line);
      if (p.find()) {
        report.put(p.group(1), keyValues(p.group(2)));
      }
    }
    List<Jmh> rows = new ArrayList<>();
    for (Map.Entry<String, double[]> e : score.entrySet()) {
      Map<String, String> kv = report.get(e.getKey());
      if (kv == null) {
        throw new IllegalArgumentException(
            "no [AppenderBenchmark] line for appender=" + e.getKey());
      }
      double[] s = e.getValue();
      if (Double.isNaN(s[0])) {
        throw new IllegalArgumentException("no ns/op result for appender=" + e.getKey());
      }
      rows.add(
          new Jmh(
              e.getKey(),
              Integer.parseInt(kv.get("threads")),
              s[0],
              s[1],
              number(kv.get("loggingThreadCpuNsPerOp")),
              s[2],
              Long.parseLong(kv.get("logged")),
              longOr(kv.get("receiverRecords"), -1),
              longOr(kv.get("droppedCount()"), -1)));
    }
    return rows;
  }

  /**
   * The lines {@code run-appender-bench.sh} saves: {@code framework=<name> run=<n> records=<n>}
   * followed by the command's final line ({@code delivered=… failed=… refused=… not_sent=…
   * records_per_sec=… raw_mb_per_sec=… wire_mb_per_sec=…}); other lines are ignored.
   */
  static List<E2e> parseE2e(List<String> lines) {
    List<E2e> runs = new ArrayList<>();
    for (String line : lines) {
      Map<String, String> kv = keyValues(line);
      if (!kv.containsKey("framework") || !kv.containsKey("delivered")) {
        continue;
      }
      runs.add(
          new E2e(
              kv.get("framework"),
              Integer.parseInt(kv.getOrDefault("run", "0")),
              Long.parseLong(kv.get("records")),
              Long.parseLong(kv.get("delivered")),
              Long.parseLong(kv.get("failed")),
              Long.parseLong(kv.get("refused")),
              Long.parseLong(kv.get("not_sent")),
              Double.parseDouble(kv.get("records_per_sec")),
              Double.parseDouble(kv.get("raw_mb_per_sec")),
              Double.parseDouble(kv.get("wire_mb_per_sec"))));
    }
    return runs;
  }

  /** The {@code key=value} pairs of {@code line}, in order. */
  private static Map<String, String> keyValues(String line) {
    Map<String, String> kv = new LinkedHashMap<>();
    Matcher m = KEY_VALUE.matcher(line);
    while (m.find()) {
      kv.put(m.group(1), m.group(2));
    }
    return kv;
  }

  private static double number(String s) {
    return s == null || s.equals("n/a") ? Double.NaN : Double.parseDouble(s);
  }

  private static long longOr(String s, long absent) {
    return s == null ? absent : Long.parseLong(s);
  }

  // ---------------------------------------------------------------- the file

  static String format(Data d) {
    StringBuilder sb = new StringBuilder();
    if (d.measured() != null) {
      sb.append(MEASURED_PREFIX).append(d.measured()).append('\n');
    }
    if (d.note() != null) {
      sb.append(NOTE_PREFIX).append(d.note()).append('\n');
    }
    sb.append(String.join("\t", COLUMNS)).append('\n');
    for (Jmh j : d.jmh()) {
      row(
          sb,
          "jmh",
          j.variant(),
          j.threads(),
          d(j.nsPerOp()),
          d(j.nsPerOpError()),
          d(j.cpuNsPerOp()),
          d(j.bytesPerOp()),
          j.logged(),
          l(j.received()),
          l(j.appenderDropped()),
          dashes(8));
    }
    for (E2e e : d.e2e()) {
      row(
          sb,
          "e2e",
          e.framework(),
          e.run(),
          dashes(7),
          e.records(),
          e.delivered(),
          e.failed(),
          e.refused(),
          e.notSent(),
          d(e.recordsPerSec()),
          d(e.rawMbPerSec()),
          d(e.wireMbPerSec()));
    }
    return sb.toString();
  }

  /** {@code n} empty cells: the columns of the other kind of row. */
  private static String dashes(int n) {
    return String.join("\t", Collections.nCopies(n, "-"));
  }

  private static void row(StringBuilder sb, Object... cells) {
    for (int i = 0; i < cells.length; i++) {
      sb.append(i == 0 ? "" : "\t").append(cells[i]);
    }
    sb.append('\n');
  }

  private static String d(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    String s = String.format(Locale.ROOT, "%.3f", v);
    return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
  }

  private static String l(long v) {
    return v < 0 ? "-" : Long.toString(v);
  }

  static Data parse(List<String> lines) {
    String measured = null;
    String note = null;
    List<String> header = null;
    List<Jmh> jmh = new ArrayList<>();
    List<E2e> e2e = new ArrayList<>();
    for (String line : lines) {
      if (line.isBlank()) {
        continue;
      }
      if (line.startsWith("#")) {
        if (line.startsWith(MEASURED_PREFIX)) {
          measured = line.substring(MEASURED_PREFIX.length()).strip();
        } else if (line.startsWith(NOTE_PREFIX)) {
          note = line.substring(NOTE_PREFIX.length()).strip();
        }
        continue;
      }
      String[] f = line.split("\t", -1);
      if (header == null) {
        header = List.of(f);
        continue;
      }
      Map<String, String> c = new LinkedHashMap<>();
      for (int i = 0; i < header.size() && i < f.length; i++) {
        c.put(header.get(i), f[i]);
      }
      switch (c.get("kind")) {
        case "jmh" ->
            jmh.add(
                new Jmh(
                    c.get("name"),
                    Integer.parseInt(c.get("threads_or_run")),
                    dbl(c.get("ns_per_op")),
                    dbl(c.get("ns_per_op_error")),
                    dbl(c.get("cpu_ns_per_op")),
                    dbl(c.get("bytes_per_op")),
                    lng(c.get("logged")),
                    lng(c.get("received")),
                    lng(c.get("appender_dropped"))));
        case "e2e" ->
            e2e.add(
                new E2e(
                    c.get("name"),
                    Integer.parseInt(c.get("threads_or_run")),
                    lng(c.get("records")),
                    lng(c.get("delivered")),
                    lng(c.get("failed")),
                    lng(c.get("refused")),
                    lng(c.get("not_sent")),
                    dbl(c.get("records_per_sec")),
                    dbl(c.get("raw_mb_per_sec")),
                    dbl(c.get("wire_mb_per_sec"))));
        default -> throw new IllegalArgumentException("unknown row kind: " + line);
      }
    }
    return new Data(measured, note, jmh, e2e);
  }

  /** The file, or null when it does not exist. */
  static Data load(Path file) throws IOException {
    return Files.exists(file) ? parse(Files.readAllLines(file, StandardCharsets.UTF_8)) : null;
  }

  private static double dbl(String s) {
    return s == null || s.equals("-") ? Double.NaN : Double.parseDouble(s);
  }

  private static long lng(String s) {
    return s == null || s.equals("-") ? -1 : Long.parseLong(s);
  }
}
