package io.logproducer.benchmark.report;

import io.logproducer.benchmark.harness.JfrProfile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code docs/perf-data/appender-suite.tsv}: one row per run of {@code appenders.AppenderSuite}
 * (each appender in its own JVM), with {@code # measured …} and {@code # command …} lines; read by
 * {@link AppenderSuiteTables}. Figures per event are in ns (CPU) or bytes; {@code NaN} where a run
 * has no such figure.
 */
public final class AppenderSuiteResults {

  /** The data file in {@code docs/perf-data/}. */
  public static final String FILE = "appender-suite.tsv";

  /** The JFR summary of a profiled variant, {@code appender-profile-<framework>.tsv}. */
  public static final String PROFILE_PREFIX = "appender-profile-";

  static final String MEASURED = "# measured ";
  static final String COMMAND = "# command ";

  /** The thread groups of {@link Run#groups()}, in order. */
  public static final List<String> GROUPS = List.of("logging", "appender", "gc", "jit", "other");

  static final String HEADER =
      "variant\tthreads\tregime\trate\trun\tlogged\tdelivered\tlogging_cpu_ns\tpacing_ns"
          + "\talloc_bytes\tprocess_cpu_ns\treceiver_cpu_ns\tevents_per_sec\tg_logging\tg_appender"
          + "\tg_gc\tg_jit\tg_other\tstop_ns";

  /**
   * One run of one cell.
   *
   * @param variant e.g. {@code logback/otel}
   * @param threads logging threads
   * @param regime {@code saturated} or {@code paced}
   * @param rate paced: events per second in all; 0 when saturated
   * @param run 1, 2, …
   * @param logged events logged, warm-up included
   * @param delivered of these, counted by the receiver (or lines in the file)
   * @param loggingCpuNs logging threads' CPU per event of the measured phase, pacing subtracted
   * @param pacingNs the pacing's CPU per event that was subtracted (0 when saturated)
   * @param allocBytes logging threads' allocation per event
   * @param processCpuNs the whole process's CPU per delivered event (pacing subtracted, stop
   *     included)
   * @param receiverCpuNs the receiver's CPU per delivered event (NaN for files)
   * @param eventsPerSec events delivered per second of the measured phase (stop included)
   * @param groups CPU per logged event by thread group ({@link #GROUPS}), while logging
   * @param stopNs CPU per logged event spent stopping the framework
   */
  public record Run(
      String variant,
      int threads,
      String regime,
      int rate,
      int run,
      long logged,
      long delivered,
      double loggingCpuNs,
      double pacingNs,
      double allocBytes,
      double processCpuNs,
      double receiverCpuNs,
      double eventsPerSec,
      double[] groups,
      double stopNs) {

    /** {@return the framework, the part of the variant before '/'} */
    public String framework() {
      return variant.substring(0, variant.indexOf('/'));
    }

    /** {@return delivered ÷ logged} */
    public double share() {
      return logged == 0 ? Double.NaN : (double) delivered / logged;
    }

    /** {@return the cell this run belongs to: variant, threads, regime and rate} */
    public String cell() {
      return variant + "|" + threads + "|" + regime + "|" + rate;
    }
  }

  /**
   * The file's content.
   *
   * @param measured when and where, e.g. {@code 2026-11-26 07:00 UTC; AMD EPYC, 2 cores, …}
   * @param command the command that made it
   * @param runs every run
   */
  public record Data(String measured, String command, List<Run> runs) {}

  private AppenderSuiteResults() {}

  /** {@return {@code d} as the file's lines} */
  public static List<String> format(Data d) {
    List<String> lines = new ArrayList<>();
    lines.add(MEASURED + d.measured());
    lines.add(COMMAND + d.command());
    lines.add(HEADER);
    for (Run r : d.runs()) {
      List<String> c = new ArrayList<>();
      c.addAll(
          List.of(
              r.variant(),
              Integer.toString(r.threads()),
              r.regime(),
              Integer.toString(r.rate()),
              Integer.toString(r.run()),
              Long.toString(r.logged()),
              Long.toString(r.delivered())));
      for (double v :
          new double[] {
            r.loggingCpuNs(),
            r.pacingNs(),
            r.allocBytes(),
            r.processCpuNs(),
            r.receiverCpuNs(),
            r.eventsPerSec()
          }) {
        c.add(num(v));
      }
      for (double v : r.groups()) {
        c.add(num(v));
      }
      c.add(num(r.stopNs()));
      lines.add(String.join("\t", c));
    }
    return lines;
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "NaN" : String.format(Locale.ROOT, "%.1f", v);
  }

  /**
   * Parses the file's lines.
   *
   * @throws IllegalArgumentException naming the line that is malformed
   */
  public static Data parse(List<String> lines) {
    String measured = "";
    String command = "";
    List<Run> runs = new ArrayList<>();
    for (String line : lines) {
      if (line.startsWith(MEASURED)) {
        measured = line.substring(MEASURED.length()).trim();
      } else if (line.startsWith(COMMAND)) {
        command = line.substring(COMMAND.length()).trim();
      } else if (!line.isBlank() && !line.startsWith("#") && !line.startsWith("variant\t")) {
        String[] f = line.split("\t");
        if (f.length != 19) {
          throw new IllegalArgumentException(
              FILE + ": expected 19 columns, got " + f.length + ": " + line);
        }
        try {
          double[] groups = new double[GROUPS.size()];
          for (int i = 0; i < groups.length; i++) {
            groups[i] = Double.parseDouble(f[13 + i]);
          }
          runs.add(
              new Run(
                  f[0],
                  Integer.parseInt(f[1]),
                  f[2],
                  Integer.parseInt(f[3]),
                  Integer.parseInt(f[4]),
                  Long.parseLong(f[5]),
                  Long.parseLong(f[6]),
                  Double.parseDouble(f[7]),
                  Double.parseDouble(f[8]),
                  Double.parseDouble(f[9]),
                  Double.parseDouble(f[10]),
                  Double.parseDouble(f[11]),
                  Double.parseDouble(f[12]),
                  groups,
                  Double.parseDouble(f[18])));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(FILE + ": malformed line: " + line, e);
        }
      }
    }
    return new Data(measured, command, runs);
  }

  /** {@return the data of {@code file}, or null when it does not exist} */
  public static Data load(Path file) throws IOException {
    return Files.exists(file) ? parse(Files.readAllLines(file, StandardCharsets.UTF_8)) : null;
  }

  /** Writes {@code d} to {@code file}. */
  public static void write(Data d, Path file) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.write(file, format(d), StandardCharsets.UTF_8);
  }

  /**
   * Summarises a JFR recording of a child (its top frames and threads) into {@code out}, in the
   * format of {@code profile.tsv}.
   */
  public static void writeProfile(Path jfr, Path out) throws IOException {
    ProfileSummary.of(JfrProfile.analyze(jfr, AppenderSuiteResults::threadGroup)).write(out);
  }

  /** The profile's thread group of a child's thread. */
  static String threadGroup(String name) {
    if (name == null) {
      return "?";
    }
    if (name.startsWith("log-")) {
      return "logging threads";
    }
    return ProfileSummary.threadGroupOf(name);
  }

  /** {@return the median of {@code v}} (NaN when empty) */
  static double median(double[] v) {
    double[] s = Arrays.stream(v).filter(x -> !Double.isNaN(x)).sorted().toArray();
    if (s.length == 0) {
      return Double.NaN;
    }
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
