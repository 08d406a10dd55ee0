package io.logproducer.benchmark.soak;

import static io.logproducer.benchmark.soak.SoakMain.MIB;
import static io.logproducer.benchmark.soak.SoakMain.fmt;
import static io.logproducer.benchmark.soak.SoakMain.mb;

import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import io.logproducer.benchmark.report.Page;
import io.logproducer.benchmark.report.Report.Table;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IntSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

/**
 * Fills the data blocks of the soak's hand-written {@code SOAK.md}, writes its chart ({@code
 * soak/soak.png}) and CSVs, and the console summary. People write the page's prose; this class
 * writes only tables.
 */
final class SoakReport {

  static final String DIR = "soak";
  static final String PAGE = "SOAK.md";

  /** The names of the page's data blocks, in page order. */
  static final List<String> BLOCKS =
      List.of(
          "result",
          "command",
          "minutes",
          "criteria",
          "problems",
          "machine",
          "outcomes",
          "failure-examples",
          "receiver",
          "memory",
          "periods",
          "outages");

  private final SoakOptions o;
  private final Map<String, String> machine;
  private final SoakResult r;
  private final List<SoakMain.Sample> samples;
  private final List<SoakMain.GcEvent> gcs;
  private final List<SoakMain.Outage> outages;
  private final List<String> failureExamples;
  private final List<String> problems;

  SoakReport(
      SoakOptions o,
      Map<String, String> machine,
      SoakResult r,
      List<SoakMain.Sample> samples,
      List<SoakMain.GcEvent> gcs,
      List<SoakMain.Outage> outages,
      List<String> failureExamples,
      List<String> problems) {
    this.o = o;
    this.machine = machine;
    this.r = r;
    this.samples = samples;
    this.gcs = gcs;
    this.outages = outages;
    this.failureExamples = failureExamples;
    this.problems = problems;
  }

  String command() {
    StringBuilder sb = new StringBuilder("producer-benchmark/run-soak.sh");
    for (String a : o.args) {
      sb.append(' ')
          .append(a.matches("[A-Za-z0-9_./:=,-]+") ? a : "'" + a.replace("'", "'\\''") + "'");
    }
    return sb.toString();
  }

  /** The console summary: outcome, receiver, memory and thread tables and the criteria. */
  String summary() {
    StringBuilder sb = new StringBuilder();
    sb.append("## Outcomes\n\n").append(outcomesTable()).append('\n');
    sb.append("## Receiver\n\n").append(receiverTable()).append('\n');
    sb.append("## Memory and threads\n\n").append(memoryTable()).append('\n');
    sb.append("## Pass criteria\n\n").append(criteriaTable());
    return sb.toString();
  }

  /**
   * Fills the data blocks of the hand-written {@code SOAK.md} in {@code --out} (or, when there is
   * none yet, of {@code docs/SOAK.md}) and writes the chart and the CSVs under {@code soak/}.
   *
   * @throws IOException when a file cannot be read or written
   * @throws IllegalStateException naming the block when a block of the page has no data
   */
  void write() throws IOException {
    Path page = o.out.resolve(PAGE);
    Path template = Files.exists(page) ? page : Path.of("docs").resolve(PAGE);
    Map<String, String> blocks = blocks();
    String filled =
        Page.fill(PAGE, Files.readString(template, StandardCharsets.UTF_8), blocks::get);
    Path dir = o.out.resolve(DIR);
    Files.createDirectories(dir);
    SoakChart.write(dir.resolve(SoakChart.FILE), o, r.pass(), samples, gcs, outages);
    Files.writeString(dir.resolve("samples.csv"), samplesCsv(), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("gc.csv"), gcCsv(), StandardCharsets.UTF_8);
    Files.writeString(page, filled, StandardCharsets.UTF_8);
  }

  // ---- the page's data blocks

  /** {@return every block of the soak page, by name} (see {@link Page}) */
  Map<String, String> blocks() {
    Map<String, String> b = new LinkedHashMap<>();
    String when =
        ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z", Locale.ROOT));
    String commit = System.getenv("SOAK_COMMIT");
    b.put(
        "result",
        (r.pass() ? "PASS" : "FAIL")
            + " — "
            + when
            + (commit == null || commit.isBlank() ? "" : ", commit `" + commit.trim() + "`"));
    b.put("command", "```sh\n" + command() + "\n```\n");
    b.put("minutes", fmt(Math.ceil(o.minutes + 1)));
    b.put("criteria", criteriaTable());
    b.put("problems", list("problem", problems));
    Table m = new Table("", "");
    machine.forEach(m::row);
    SoakMain.settings(o).forEach(m::row);
    b.put("machine", m.markdown());
    b.put("outcomes", outcomesTable());
    b.put(
        "failure-examples",
        list(
            "first outcomes other than DELIVERED",
            failureExamples.stream().map(f -> "`" + f.replace("`", "'") + "`").toList()));
    b.put("receiver", receiverTable());
    b.put("memory", memoryTable());
    b.put("periods", periodTable());
    Table t = new Table("#", "mode", "down at (s)", "up at (s)", "delivered/s in the 10 s after");
    for (SoakMain.Outage out : outages) {
      t.row(
          Integer.toString(out.index()),
          out.mode(),
          String.format(Locale.ROOT, "%.1f", out.from()),
          String.format(Locale.ROOT, "%.1f", out.to()),
          rateAfter(out.to(), 10));
    }
    b.put("outages", outages.isEmpty() ? "none" : t.markdown());
    return b;
  }

  /** A one-column table of {@code items}, or "" without any. */
  private static String list(String header, List<String> items) {
    if (items.isEmpty()) {
      return "";
    }
    Table t = new Table(header);
    items.forEach(t::row);
    return t.markdown();
  }

  private String criteriaTable() {
    Table t = new Table("criterion", "rule", "measured", "");
    for (SoakResult.Criterion c : r.criteria()) {
      t.row(c.name(), c.rule(), c.measured(), c.pass() ? "✓" : "✗ FAIL");
    }
    return t.markdown();
  }

  private String outcomesTable() {
    Table t = new Table("", "records");
    t.row("emitted (send called)", n(r.accepted() + r.refused()));
    t.row("accepted (send returned)", n(r.accepted()));
    t.row("refused at send (BufferExhaustedException, not accepted)", n(r.refused()));
    for (SendResult.Status s : SendResult.Status.values()) {
      long v = r.byStatus()[s.ordinal()];
      if (v != 0
          || s == SendResult.Status.DELIVERED
          || s == SendResult.Status.FAILED
          || s == SendResult.Status.FAILED_AT_CLOSE) {
        t.row("outcome " + s, n(v));
      }
    }
    t.row("**missing** = accepted − Σ outcomes", "**" + n(r.missing()) + "**");
    t.row("accepted records without an outcome (by id)", n(r.noOutcomeIds()));
    t.row("records with more than one outcome (by id)", n(r.repeatedOutcomes()));
    ProducerMetrics m = r.metrics();
    t.row(
        "ProducerMetrics accepted / sent / rejected / failed / dropped",
        n(
            m.getRecordsAccepted(),
            m.getRecordsSent(),
            m.getRecordsRejected(),
            m.getRecordsFailed(),
            m.getRecordsDropped()));
    t.row(
        "requests / retries / batches sent / batches failed",
        n(m.getRequests(), m.getRetries(), m.getBatchesSent(), m.getBatchesFailed()));
    t.row(
        "time application threads spent blocked in send",
        String.format(Locale.ROOT, "%.1f s (sum over threads)", m.getSendBlockedNanos() / 1e9));
    t.row(
        "sending time / close",
        String.format(Locale.ROOT, "%.1f s / %.1f s", r.sendEnd(), r.closeSeconds()));
    t.row(
        "delivered records/s over the sending time",
        String.format(Locale.ROOT, "%,.0f", r.delivered() / Math.max(1e-9, r.sendEnd())));
    return t.markdown();
  }

  private String receiverTable() {
    Table t = new Table("", "records");
    t.row("received (distinct ids)", n(r.received()));
    t.row("duplicates (id seen again: a retry after a lost response)", n(r.duplicates()));
    t.row("**lost**: reported DELIVERED, never received", "**" + n(r.lostDelivered()) + "**");
    t.row("received, but the outcome was not DELIVERED", n(r.receivedButFailed()));
    t.row("received ids that were never accepted", n(r.phantom()));
    t.row(
        "records without a valid id / malformed requests",
        n(r.receiverRecordsWithoutId(), r.receiverBadRequests()));
    t.row(
        "requests accepted / answered 503",
        n(r.receiverRequests(), r.receiverUnavailableAnswers()));
    return t.markdown();
  }

  private String memoryTable() {
    double w0 = o.warmup();
    double win = o.window();
    double end = o.durationSeconds();
    Table t = new Table("", "value");
    String kind =
        o.fullGcsOnly()
            ? "heap after full GC (System.gc() every " + o.fullGcEverySeconds + " s)"
            : "heap after GC";
    t.row(
        kind
            + ", max in the first "
            + fmt(win)
            + " s after warm-up ("
            + fmt(w0)
            + "–"
            + fmt(w0 + win)
            + " s)",
        mbOrNa(maxGc(w0, w0 + win)));
    t.row(
        kind + ", max in the last " + fmt(win) + " s (" + fmt(end - win) + "–" + fmt(end) + " s)",
        mbOrNa(maxGc(end - win, end)));
    t.row(
        kind + ", min (floor) first window / last window",
        mbOrNa(minGc(w0, w0 + win)) + " / " + mbOrNa(minGc(end - win, end)));
    t.row(
        kind + ", max over the whole run (incl. warm-up and close)",
        mbOrNa(maxGc(0, Double.MAX_VALUE)));
    t.row("garbage collections", n(gcs.size()) + " (" + gcSummary() + ")");
    t.row(
        "buffered bytes, max sampled / peak (ProducerMetrics) / totalSizeInBytes",
        mb((long) maxOf(s -> s.bufferedBytes(), 0, Double.MAX_VALUE))
            + " / "
            + mb(r.metrics().getPeakBufferedBytes())
            + " / "
            + mb(o.totalSizeBytes));
    IntSummaryStatistics th = threads(s -> s.t() >= w0 && s.t() <= end && s.phase().equals("run"));
    t.row(
        "live threads after warm-up (until the end of sending), min / max",
        th.getCount() == 0 ? "n/a" : th.getMin() + " / " + th.getMax());
    t.row(
        "producer's id tracking (two bitsets per thread), included in the heap figures",
        mb(r.trackingBytes())
            + (r.trackingGrownBytes() > 0
                ? ", of which "
                    + mb(r.trackingGrownBytes())
                    + " grew during the run (allowed "
                    + "for in the rule)"
                : ", allocated before the run"));
    t.row(
        "threads left by the producer after close",
        r.leftoverThreads().isEmpty() ? "none" : String.join(", ", r.leftoverThreads()));
    return t.markdown();
  }

  private String periodTable() {
    Table t =
        new Table(
            "time (s)",
            "receiver",
            "delivered/s",
            "received/s",
            "heap after GC max (MB)",
            "threads",
            "buffered max (MB)",
            "senders blocked (max)");
    double end = o.durationSeconds();
    for (double from = 0; from < end - 1e-9; from += 30) {
      double to = Math.min(end, from + 30);
      periodRow(t, fmt(from) + "–" + fmt(to), receiverIn(from, to), from, to, to);
    }
    double last = samples.isEmpty() ? end : samples.get(samples.size() - 1).t();
    String close = fmt(end) + "–" + fmt(Math.ceil(last)) + " (close, drain)";
    periodRow(t, close, "up", end, last + 1, Double.MAX_VALUE);
    return t.markdown();
  }

  /** A row of the period table for [from, to); its GCs up to {@code gcTo}. */
  private void periodRow(Table t, String time, String up, double from, double to, double gcTo) {
    t.row(
        time,
        up,
        rate(from, to, SoakMain.Sample::delivered),
        rate(from, to, SoakMain.Sample::received),
        mbNum(maxGc(from, gcTo)),
        threadsCell(from, to),
        String.format(
            Locale.ROOT, "%.1f", maxOf(SoakMain.Sample::bufferedBytes, from, to) / (double) MIB),
        String.format(Locale.ROOT, "%.0f", maxOf(s -> s.waitingThreads(), from, to)));
  }

  private String receiverIn(double from, double to) {
    List<String> parts = new ArrayList<>();
    for (SoakMain.Outage out : outages) {
      double a = Math.max(from, out.from());
      double b = Math.min(to, out.to());
      if (b > a) {
        parts.add(
            String.format(
                Locale.ROOT,
                "down %.0f s (%s)",
                b - a,
                out.mode().startsWith("503") ? "503" : "refused"));
      }
    }
    return parts.isEmpty() ? "up" : String.join(", ", parts);
  }

  private String rateAfter(double from, double seconds) {
    return rate(from, from + seconds, SoakMain.Sample::delivered);
  }

  /** Per-second increase of a counter between the samples nearest {@code from} and {@code to}. */
  private String rate(double from, double to, ToDoubleFunction<SoakMain.Sample> f) {
    SoakMain.Sample a = null;
    SoakMain.Sample b = null;
    for (SoakMain.Sample s : samples) {
      if (a == null && s.t() >= from - 0.5) {
        a = s;
      }
      if (s.t() <= to + 0.5) {
        b = s;
      }
    }
    if (a == null || b == null || b.t() <= a.t()) {
      return "–";
    }
    return String.format(
        Locale.ROOT, "%,.0f", (f.applyAsDouble(b) - f.applyAsDouble(a)) / (b.t() - a.t()));
  }

  private String threadsCell(double from, double to) {
    IntSummaryStatistics th = threads(s -> s.t() >= from && s.t() < to);
    return th.getCount() == 0
        ? "–"
        : th.getMin() == th.getMax() ? "" + th.getMin() : th.getMin() + "–" + th.getMax();
  }

  private IntSummaryStatistics threads(Predicate<SoakMain.Sample> p) {
    return samples.stream().filter(p).mapToInt(SoakMain.Sample::threads).summaryStatistics();
  }

  private double maxOf(ToDoubleFunction<SoakMain.Sample> f, double from, double to) {
    return samples.stream()
        .filter(s -> s.t() >= from && s.t() < to)
        .mapToDouble(f)
        .reduce(0, Math::max);
  }

  /** Heap after the GCs the heap rule counts in [from, to); without GC notifications, sampled. */
  private LongStream heapAfterGc(double from, double to) {
    if (gcs.isEmpty()) {
      return samples.stream()
          .filter(s -> s.t() >= from && s.t() < to)
          .mapToLong(SoakMain.Sample::heapAfterGcBytes);
    }
    return gcs.stream()
        .filter(e -> e.t() >= from && e.t() < to && SoakMain.counts(e, o.fullGcsOnly()))
        .mapToLong(SoakMain.GcEvent::heapAfterBytes);
  }

  private long maxGc(double from, double to) {
    return heapAfterGc(from, to).reduce(-1, Math::max);
  }

  private long minGc(double from, double to) {
    return gcs.isEmpty() ? -1 : heapAfterGc(from, to).min().orElse(-1);
  }

  private String gcSummary() {
    Map<String, Integer> by = new java.util.TreeMap<>();
    long pauseMs = 0;
    for (SoakMain.GcEvent e : gcs) {
      by.merge(e.gc() + ": " + e.cause(), 1, Integer::sum);
      pauseMs += e.durationMillis();
    }
    List<String> parts = new ArrayList<>();
    by.forEach((k, v) -> parts.add(v + "× " + k));
    return String.join("; ", parts) + (gcs.isEmpty() ? "" : "; " + n(pauseMs) + " ms in all");
  }

  // ---- CSV

  private String samplesCsv() {
    StringBuilder sb =
        new StringBuilder(
            "t_s,phase,receiver,heap_after_gc_bytes,heap_used_bytes,threads,"
                + "buffered_bytes,waiting_threads,accepted,delivered,not_delivered,refused_at_send,received,duplicates,"
                + "gc_count\n");
    for (SoakMain.Sample s : samples) {
      sb.append(
          String.format(
              Locale.ROOT,
              "%.3f,%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d%n",
              s.t(),
              s.phase(),
              s.receiverState(),
              s.heapAfterGcBytes(),
              s.heapUsedBytes(),
              s.threads(),
              s.bufferedBytes(),
              s.waitingThreads(),
              s.accepted(),
              s.delivered(),
              s.notDelivered(),
              s.refused(),
              s.received(),
              s.duplicates(),
              s.gcCount()));
    }
    return sb.toString();
  }

  private String gcCsv() {
    StringBuilder sb = new StringBuilder("t_s,gc,action,cause,heap_after_bytes,duration_ms\n");
    for (SoakMain.GcEvent e : gcs) {
      sb.append(
          String.format(
              Locale.ROOT,
              "%.3f,%s,%s,%s,%d,%d%n",
              e.t(),
              e.gc(),
              e.action(),
              e.cause(),
              e.heapAfterBytes(),
              e.durationMillis()));
    }
    return sb.toString();
  }

  /** The counts with thousands separators, joined by " / ". */
  private static String n(long... v) {
    return Arrays.stream(v)
        .mapToObj(x -> String.format(Locale.ROOT, "%,d", x))
        .collect(Collectors.joining(" / "));
  }

  private static String mbOrNa(long bytes) {
    return bytes < 0 ? "n/a" : mb(bytes);
  }

  private static String mbNum(long bytes) {
    return bytes < 0 ? "–" : String.format(Locale.ROOT, "%.1f", bytes / (double) MIB);
  }
}
