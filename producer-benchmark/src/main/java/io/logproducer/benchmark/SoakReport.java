package io.logproducer.benchmark;

import static io.logproducer.benchmark.SoakMain.MIB;
import static io.logproducer.benchmark.SoakMain.fmt;
import static io.logproducer.benchmark.SoakMain.mb;

import io.logproducer.ProducerMetrics;
import io.logproducer.SendResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** Writes the soak's {@code SOAK.md}, its chart ({@code soak/soak.svg}) and CSVs, and the console summary. */
final class SoakReport {

  static final String DIR = "soak";
  static final String CHART = "soak.svg";

  private final SoakMain.Options o;
  private final Map<String, String> machine;
  private final SoakMain.Result r;
  private final List<SoakMain.Sample> samples;
  private final List<SoakMain.GcEvent> gcs;
  private final List<SoakMain.Outage> outages;
  private final List<String> failureExamples;
  private final List<String> problems;

  SoakReport(SoakMain.Options o, Map<String, String> machine, SoakMain.Result r, List<SoakMain.Sample> samples,
      List<SoakMain.GcEvent> gcs, List<SoakMain.Outage> outages, List<String> failureExamples,
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
      sb.append(' ').append(a.matches("[A-Za-z0-9_./:=,-]+") ? a : "'" + a.replace("'", "'\\''") + "'");
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

  void write() throws IOException {
    Path dir = o.out.resolve(DIR);
    Files.createDirectories(dir);
    Files.writeString(dir.resolve(CHART), svg(), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("samples.csv"), samplesCsv(), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("gc.csv"), gcCsv(), StandardCharsets.UTF_8);
    Files.writeString(o.out.resolve("SOAK.md"), markdown(), StandardCharsets.UTF_8);
  }

  // ---- markdown

  String markdown() {
    StringBuilder sb = new StringBuilder();
    sb.append("# Soak: bounded memory, nothing hangs, one outcome per record\n\n");
    sb.append("The reference workload at a steady rate through the real producer (public API only: `Producer.send(record, "
        + "callback)`, `OtlpHttpExporter`) to a real OTLP/HTTP receiver in its own JVM on 127.0.0.1, which goes down "
        + "on a schedule — alternately refusing connections and answering `503` with `Retry-After: 1`. The receiver "
        + "decodes every record and tracks it by its `seq` attribute (thread × 10⁹ + sequence), so duplicates and "
        + "losses are counted per record, and the producer side tracks every accepted record's callback by the same id. "
        + "Not run in CI.\n\n");
    String when = ZonedDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z", Locale.ROOT));
    String commit = System.getenv("SOAK_COMMIT");
    sb.append("**Result: ").append(r.pass() ? "PASS" : "FAIL").append("** — ").append(when)
        .append(commit == null || commit.isBlank() ? "" : ", commit `" + commit.trim() + "`").append(".\n\n");
    sb.append("```sh\n").append(command()).append("\n```\n\n");
    sb.append("(about ").append(fmt(Math.ceil(o.minutes + 1))).append(" minutes: the sending time, then close and "
        + "drain; exit code 0 when every criterion passes, 1 otherwise; `--help` lists the options.)\n\n");

    sb.append("## Pass criteria\n\n").append(criteriaTable()).append('\n');
    if (!problems.isEmpty()) {
      sb.append("Problems:\n\n");
      for (String p : problems) {
        sb.append("- ").append(p).append('\n');
      }
      sb.append('\n');
    }

    sb.append("## Machine and settings\n\n");
    Table m = new Table("", "");
    machine.forEach((k, v) -> m.row(k, v.replace("|", "\\|")));
    SoakMain.settings(o).forEach(m::row);
    sb.append(m).append('\n');

    sb.append("## Outcomes\n\n").append(outcomesTable()).append('\n');
    if (!failureExamples.isEmpty()) {
      sb.append("First outcomes other than DELIVERED:\n\n");
      for (String f : failureExamples) {
        sb.append("- `").append(f.replace("`", "'")).append("`\n");
      }
      sb.append('\n');
    }
    sb.append("## Receiver\n\n").append(receiverTable()).append('\n');
    sb.append("## Memory and threads\n\n").append(memoryTable()).append('\n');
    sb.append("The producer side's id tracking (two bitsets per thread, ")
        .append(mb(r.trackingBytes())).append(r.trackingGrownBytes() > 0
            ? ", of which " + mb(r.trackingGrownBytes()) + " grew during the run and is allowed for in the rule"
            : ", allocated before the run")
        .append(") is included in the heap figures.\n\n");

    sb.append("![heap after GC, buffered bytes, threads and delivered records/s over time](").append(DIR).append('/')
        .append(CHART).append(")\n\n");
    sb.append("Shaded: receiver down (red: connection refused; orange: 503 + Retry-After). Per-second samples: `")
        .append(DIR).append("/samples.csv`; every GC: `").append(DIR).append("/gc.csv`.\n\n");

    sb.append("## Every 30 seconds\n\n").append(periodTable()).append('\n');
    sb.append(METHOD);
    if (!outages.isEmpty()) {
      sb.append("\n## Outages\n\n");
      Table t = new Table("#", "mode", "down at (s)", "up at (s)", "delivered/s in the 10 s after");
      for (SoakMain.Outage out : outages) {
        t.row(Integer.toString(out.index()), out.mode(), String.format(Locale.ROOT, "%.1f", out.from()),
            String.format(Locale.ROOT, "%.1f", out.to()), rateAfter(out.to(), 10));
      }
      sb.append(t).append('\n');
    }
    return sb.toString();
  }

  /** How the soak works and how to read it (also the text of the placeholder docs/SOAK.md). */
  static final String METHOD = """
      ## How it works

      - **Producer** (this JVM, `-Xmx512m` by default so that a leak shows within minutes): `--threads` application \
      threads each build the reference record (~580 bytes) plus an integer attribute `seq` = thread × 10⁹ + \
      sequence, and call `Producer.send(record, callback)` at `--rate` / threads records/s. After a `send` that \
      blocked (an outage), a thread carries on at its rate from then on instead of catching up in a burst. \
      `BufferFullPolicy.BLOCK`: while the receiver is down the budget fills and `send` blocks; a \
      `BufferExhaustedException` after `maxBlockMillis` counts as *refused at send* (not accepted; the same id is \
      tried again). Each callback counts the outcome by `SendResult.Status` and marks the id in two bitsets \
      (had an outcome; was DELIVERED), allocated before the run.
      - **Receiver** (`SoakReceiver`, its own JVM): a real OTLP/HTTP receiver on 127.0.0.1 (httpcore5) that \
      decompresses each request, walks the protobuf, reads every record's `seq` and marks it in a bitset: an id \
      seen twice is a *duplicate* (legitimate: a retry after a lost response). Every `--down-every-s` seconds it \
      goes down for `--down-for-s` seconds, alternately (odd outages) closing its listening socket and every open \
      connection — connection refused — and (even outages) answering every request `503` with `Retry-After: 1`.
      - **Samples**, once a second: heap after the most recent GC (the \"after\" usage of the heap pools in the \
      collector's notification, summed), live threads (`ThreadMXBean`), `ProducerMetrics.getBufferedBytes()` and \
      `getWaitingThreads()`, records accepted / delivered / not delivered / refused, the receiver's state and \
      count. Every GC's heap-after value is recorded too (`soak/gc.csv`).
      - **End**: the threads stop (every `send` must return), `close(timeout)` runs in a thread of its own, the \
      receiver's count must stop moving, then its bitsets are compared with the producer's. A watchdog ends a run \
      that exceeds its time bound with a thread dump and exit code 1.

      Definitions: *missing* = accepted − Σ outcomes (and, by id, accepted records with no outcome or more than \
      one); *lost* = records whose outcome was DELIVERED but whose id the receiver never saw; *received, outcome \
      not DELIVERED* is legitimate (the request reached the receiver, its answer did not reach the producer in \
      time). The heap rule compares the largest heap-after-GC of the first window after warm-up with that of the \
      last window of the sending time (both include outages at the same rhythm); heap after a young collection \
      still holds old-generation garbage (e.g. buffers promoted during an outage), so a leak shows as a floor that \
      keeps rising, a healthy run as a flat band.
      """;

  private String criteriaTable() {
    Table t = new Table("criterion", "rule", "measured", "");
    for (SoakMain.Criterion c : r.criteria()) {
      t.row(c.name(), c.rule(), c.measured(), c.pass() ? "✓" : "✗ FAIL");
    }
    return t.toString();
  }

  private String outcomesTable() {
    Table t = new Table("", "records");
    t.row("emitted (send called)", n(r.accepted() + r.refused()));
    t.row("accepted (send returned)", n(r.accepted()));
    t.row("refused at send (BufferExhaustedException, not accepted)", n(r.refused()));
    for (SendResult.Status s : SendResult.Status.values()) {
      long v = r.byStatus()[s.ordinal()];
      if (v != 0 || s == SendResult.Status.DELIVERED || s == SendResult.Status.FAILED
          || s == SendResult.Status.FAILED_AT_CLOSE) {
        t.row("outcome " + s, n(v));
      }
    }
    t.row("**missing** = accepted − Σ outcomes", "**" + n(r.missing()) + "**");
    t.row("accepted records without an outcome (by id)", n(r.noOutcomeIds()));
    t.row("records with more than one outcome (by id)", n(r.repeatedOutcomes()));
    ProducerMetrics m = r.metrics();
    t.row("ProducerMetrics accepted / sent / rejected / failed / dropped", n(m.getRecordsAccepted()) + " / "
        + n(m.getRecordsSent()) + " / " + n(m.getRecordsRejected()) + " / " + n(m.getRecordsFailed()) + " / "
        + n(m.getRecordsDropped()));
    t.row("requests / retries / batches sent / batches failed", n(m.getRequests()) + " / " + n(m.getRetries())
        + " / " + n(m.getBatchesSent()) + " / " + n(m.getBatchesFailed()));
    t.row("time application threads spent blocked in send", String.format(Locale.ROOT, "%.1f s (sum over threads)",
        m.getSendBlockedNanos() / 1e9));
    t.row("sending time / close", String.format(Locale.ROOT, "%.1f s / %.1f s", r.sendEnd(), r.closeSeconds()));
    t.row("delivered records/s over the sending time", String.format(Locale.ROOT, "%,.0f",
        r.delivered() / Math.max(1e-9, r.sendEnd())));
    return t.toString();
  }

  private String receiverTable() {
    Table t = new Table("", "records");
    t.row("received (distinct ids)", n(r.received()));
    t.row("duplicates (id seen again: a retry after a lost response)", n(r.duplicates()));
    t.row("**lost**: reported DELIVERED, never received", "**" + n(r.lostDelivered()) + "**");
    t.row("received, but the outcome was not DELIVERED", n(r.receivedButFailed()));
    t.row("received ids that were never accepted", n(r.phantom()));
    t.row("records without a valid id / malformed requests", n(r.receiverRecordsWithoutId()) + " / "
        + n(r.receiverBadRequests()));
    t.row("requests accepted / answered 503", n(r.receiverRequests()) + " / " + n(r.receiverUnavailableAnswers()));
    return t.toString();
  }

  private String memoryTable() {
    double w0 = o.warmup();
    double win = o.window();
    double end = o.durationSeconds();
    Table t = new Table("", "value");
    String kind = o.fullGcsOnly() ? "heap after full GC (System.gc() every " + o.fullGcEverySeconds
        + " s)" : "heap after GC";
    t.row(kind + ", max in the first " + fmt(win) + " s after warm-up (" + fmt(w0) + "–" + fmt(w0 + win) + " s)",
        mbOrNa(maxGc(w0, w0 + win)));
    t.row(kind + ", max in the last " + fmt(win) + " s (" + fmt(end - win) + "–" + fmt(end) + " s)",
        mbOrNa(maxGc(end - win, end)));
    t.row(kind + ", min (floor) first window / last window", mbOrNa(minGc(w0, w0 + win)) + " / "
        + mbOrNa(minGc(end - win, end)));
    t.row(kind + ", max over the whole run (incl. warm-up and close)", mbOrNa(maxGc(0, Double.MAX_VALUE)));
    t.row("garbage collections", n(gcs.size()) + " (" + gcSummary() + ")");
    t.row("buffered bytes, max sampled / peak (ProducerMetrics) / totalSizeInBytes", mb((long) maxOf(s -> s.bufferedBytes(),
        0, Double.MAX_VALUE)) + " / " + mb(r.metrics().getPeakBufferedBytes()) + " / " + mb(o.totalSizeBytes));
    int[] th = threads(w0, end);
    t.row("live threads after warm-up (until the end of sending), min / max", th == null ? "n/a"
        : th[0] + " / " + th[1]);
    t.row("threads left by the producer after close", r.leftoverThreads().isEmpty() ? "none"
        : String.join(", ", r.leftoverThreads()));
    return t.toString();
  }

  private String periodTable() {
    Table t = new Table("time (s)", "receiver", "delivered/s", "received/s", "heap after GC max (MB)", "threads",
        "buffered max (MB)", "senders blocked (max)");
    double end = o.durationSeconds();
    for (double from = 0; from < end - 1e-9; from += 30) {
      double to = Math.min(end, from + 30);
      t.row(fmt(from) + "–" + fmt(to), receiverIn(from, to), rate(from, to, SoakMain.Sample::delivered),
          rate(from, to, SoakMain.Sample::received), mbNum(maxGc(from, to)), threadsCell(from, to),
          String.format(Locale.ROOT, "%.1f", maxOf(SoakMain.Sample::bufferedBytes, from, to) / (double) MIB),
          String.format(Locale.ROOT, "%.0f", maxOf(s -> s.waitingThreads(), from, to)));
    }
    double last = samples.isEmpty() ? end : samples.get(samples.size() - 1).t();
    t.row(fmt(end) + "–" + fmt(Math.ceil(last)) + " (close, drain)", "up",
        rate(end, last + 1, SoakMain.Sample::delivered), rate(end, last + 1, SoakMain.Sample::received),
        mbNum(maxGc(end, Double.MAX_VALUE)), threadsCell(end, last + 1),
        String.format(Locale.ROOT, "%.1f", maxOf(SoakMain.Sample::bufferedBytes, end, last + 1) / (double) MIB),
        String.format(Locale.ROOT, "%.0f", maxOf(s -> s.waitingThreads(), end, last + 1)));
    return t.toString();
  }

  private String receiverIn(double from, double to) {
    List<String> parts = new ArrayList<>();
    for (SoakMain.Outage out : outages) {
      double a = Math.max(from, out.from());
      double b = Math.min(to, out.to());
      if (b > a) {
        parts.add(String.format(Locale.ROOT, "down %.0f s (%s)", b - a,
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
    return String.format(Locale.ROOT, "%,.0f", (f.applyAsDouble(b) - f.applyAsDouble(a)) / (b.t() - a.t()));
  }

  private String threadsCell(double from, double to) {
    int[] th = threadsAny(from, to);
    return th == null ? "–" : th[0] == th[1] ? Integer.toString(th[0]) : th[0] + "–" + th[1];
  }

  private int[] threads(double from, double to) {
    int min = Integer.MAX_VALUE;
    int max = Integer.MIN_VALUE;
    for (SoakMain.Sample s : samples) {
      if (s.t() >= from && s.t() <= to && s.phase().equals("run")) {
        min = Math.min(min, s.threads());
        max = Math.max(max, s.threads());
      }
    }
    return min > max ? null : new int[] {min, max};
  }

  private int[] threadsAny(double from, double to) {
    int min = Integer.MAX_VALUE;
    int max = Integer.MIN_VALUE;
    for (SoakMain.Sample s : samples) {
      if (s.t() >= from && s.t() < to) {
        min = Math.min(min, s.threads());
        max = Math.max(max, s.threads());
      }
    }
    return min > max ? null : new int[] {min, max};
  }

  private double maxOf(ToDoubleFunction<SoakMain.Sample> f, double from, double to) {
    double max = 0;
    for (SoakMain.Sample s : samples) {
      if (s.t() >= from && s.t() < to) {
        max = Math.max(max, f.applyAsDouble(s));
      }
    }
    return max;
  }

  private long maxGc(double from, double to) {
    long max = -1;
    for (SoakMain.GcEvent e : gcs) {
      if (e.t() >= from && e.t() < to && SoakMain.counts(e, o.fullGcsOnly())) {
        max = Math.max(max, e.heapAfterBytes());
      }
    }
    if (gcs.isEmpty()) { // no GC notifications: sampled heap used
      for (SoakMain.Sample s : samples) {
        if (s.t() >= from && s.t() < to) {
          max = Math.max(max, s.heapAfterGcBytes());
        }
      }
    }
    return max;
  }

  private long minGc(double from, double to) {
    long min = Long.MAX_VALUE;
    for (SoakMain.GcEvent e : gcs) {
      if (e.t() >= from && e.t() < to && SoakMain.counts(e, o.fullGcsOnly())) {
        min = Math.min(min, e.heapAfterBytes());
      }
    }
    return min == Long.MAX_VALUE ? -1 : min;
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
    StringBuilder sb = new StringBuilder("t_s,phase,receiver,heap_after_gc_bytes,heap_used_bytes,threads,"
        + "buffered_bytes,waiting_threads,accepted,delivered,not_delivered,refused_at_send,received,duplicates,"
        + "gc_count\n");
    for (SoakMain.Sample s : samples) {
      sb.append(String.format(Locale.ROOT, "%.3f,%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d%n", s.t(), s.phase(),
          s.receiverState(), s.heapAfterGcBytes(), s.heapUsedBytes(), s.threads(), s.bufferedBytes(),
          s.waitingThreads(), s.accepted(), s.delivered(), s.notDelivered(), s.refused(), s.received(),
          s.duplicates(), s.gcCount()));
    }
    return sb.toString();
  }

  private String gcCsv() {
    StringBuilder sb = new StringBuilder("t_s,gc,action,cause,heap_after_bytes,duration_ms\n");
    for (SoakMain.GcEvent e : gcs) {
      sb.append(String.format(Locale.ROOT, "%.3f,%s,%s,%s,%d,%d%n", e.t(), e.gc(), e.action(), e.cause(),
          e.heapAfterBytes(), e.durationMillis()));
    }
    return sb.toString();
  }

  // ---- SVG chart: four stacked panels over time, outages shaded

  private static final int W = 1000;
  private static final int PANEL_H = 150;
  private static final int GAP = 34;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int TOP = 62;

  String svg() {
    double tMax = Math.max(o.durationSeconds(), samples.isEmpty() ? 0 : samples.get(samples.size() - 1).t());
    tMax = Math.max(1, tMax);
    int panels = 4;
    int h = TOP + panels * (PANEL_H + GAP) + 30;
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
        + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", W, h, W, h));
    sb.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", W, h));
    sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\" "
        + "text-anchor=\"middle\">Soak: %s min, receiver down every %d s for %d s, %s, %s</text>%n", W / 2,
        fmt(o.minutes), o.downEveryS, o.downForS, o.rate == 0 ? "max rate" : String.format(Locale.ROOT,
            "%,d records/s", o.rate), r.pass() ? "PASS" : "FAIL"));

    // heap after GC (every GC), MB
    double[][] heap = new double[gcs.size()][];
    for (int i = 0; i < gcs.size(); i++) {
      heap[i] = new double[] {gcs.get(i).t(), gcs.get(i).heapAfterBytes() / (double) MIB};
    }
    if (gcs.isEmpty()) {
      heap = series(s -> s.heapAfterGcBytes() < 0 ? Double.NaN : s.heapAfterGcBytes() / (double) MIB);
    }
    double[][] buffered = series(s -> s.bufferedBytes() / (double) MIB);
    double[][] threads = series(s -> s.threads());
    double[][] rate = new double[Math.max(0, samples.size() - 1)][];
    for (int i = 1; i < samples.size(); i++) {
      SoakMain.Sample a = samples.get(i - 1);
      SoakMain.Sample b = samples.get(i);
      rate[i - 1] = new double[] {b.t(), (b.delivered() - a.delivered()) / Math.max(1e-3, b.t() - a.t())};
    }
    panel(sb, 0, tMax, "heap after GC (MB)", heap, "#1f77b4", true, Double.NaN, null);
    panel(sb, 1, tMax, "buffered (MB)", buffered, "#2ca02c", false, o.totalSizeBytes / (double) MIB,
        "totalSizeInBytes");
    panel(sb, 2, tMax, "live threads", threads, "#9467bd", false, Double.NaN, null);
    panel(sb, 3, tMax, "delivered records/s", rate, "#ff7f0e", false, Double.NaN, null);
    int y = TOP + panels * (PANEL_H + GAP) + 6;
    sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time (s); "
        + "end of sending at %s s</text>%n", LEFT + (W - LEFT - RIGHT) / 2, y, fmt(o.durationSeconds())));
    sb.append("</svg>\n");
    return sb.toString();
  }

  private double[][] series(ToDoubleFunction<SoakMain.Sample> f) {
    double[][] out = new double[samples.size()][];
    for (int i = 0; i < samples.size(); i++) {
      out[i] = new double[] {samples.get(i).t(), f.applyAsDouble(samples.get(i))};
    }
    return out;
  }

  private void panel(StringBuilder sb, int index, double tMax, String label, double[][] points, String color,
      boolean dots, double limit, String limitLabel) {
    int plotW = W - LEFT - RIGHT;
    int y0 = TOP + index * (PANEL_H + GAP);
    double max = Double.isNaN(limit) ? 0 : limit;
    double min = Double.MAX_VALUE;
    for (double[] p : points) {
      if (!Double.isNaN(p[1])) {
        max = Math.max(max, p[1]);
        min = Math.min(min, p[1]);
      }
    }
    double lo = 0;
    if (label.equals("live threads") && min != Double.MAX_VALUE) {
      lo = Math.max(0, Math.floor(min) - 5); // small variations should be visible
    }
    double step = Charts.Axis.niceStep(Math.max(1e-9, max - lo) / 4);
    lo = Math.floor(lo / step) * step;
    double hi = lo + Math.max(1, Math.ceil((max * 1.05 - lo) / step)) * step;
    // outages
    for (SoakMain.Outage out : outages) {
      double x1 = LEFT + out.from() / tMax * plotW;
      double x2 = LEFT + out.to() / tMax * plotW;
      sb.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
          + "fill-opacity=\"0.15\"/>%n", x1, y0, Math.max(0.5, x2 - x1), PANEL_H,
          out.mode().startsWith("503") ? "#ff7f0e" : "#d62728"));
    }
    if (index == 0) {
      // the windows the heap rule compares
      double w0 = o.warmup();
      double win = o.window();
      double end = o.durationSeconds();
      window(sb, LEFT + w0 / tMax * plotW, LEFT + (w0 + win) / tMax * plotW, y0, "first window");
      window(sb, LEFT + (end - win) / tMax * plotW, LEFT + end / tMax * plotW, y0, "last window");
    }
    // end of sending
    double xe = LEFT + o.durationSeconds() / tMax * plotW;
    sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#555\" "
        + "stroke-dasharray=\"2,3\"/>%n", xe, y0, xe, y0 + PANEL_H));
    // y grid and ticks
    for (double v = lo; v <= hi + step / 1000; v += step) {
      double y = y0 + PANEL_H - (v - lo) / (hi - lo) * PANEL_H;
      sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#e6e6e6\"/>%n",
          LEFT, y, LEFT + plotW, y));
      sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#333\">%s</text>%n",
          LEFT - 6, y + 4, tick(v)));
    }
    // x ticks
    double xStep = tMax <= 120 ? 10 : tMax <= 400 ? 30 : 60;
    for (double t = 0; t <= tMax + 1e-9; t += xStep) {
      double x = LEFT + t / tMax * plotW;
      sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#333\"/>%n",
          x, y0 + PANEL_H, x, y0 + PANEL_H + 4));
      sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#333\" "
          + "font-size=\"10\">%s</text>%n", x, y0 + PANEL_H + 15, fmt(t)));
    }
    sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
        + "stroke=\"#333\"/>%n", LEFT, y0, plotW, PANEL_H));
    sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-weight=\"bold\" fill=\"%s\">%s</text>%n",
        LEFT + 6, y0 + 14, color, esc(label)));
    if (!Double.isNaN(limit)) {
      double y = y0 + PANEL_H - (limit - lo) / (hi - lo) * PANEL_H;
      sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#d62728\" "
          + "stroke-dasharray=\"6,4\"/>%n", LEFT, y, LEFT + plotW, y));
      sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" fill=\"#d62728\">%s</text>"
          + "%n", LEFT + plotW - 4, y - 4, esc(limitLabel)));
    }
    // data
    StringBuilder path = new StringBuilder();
    boolean pen = false;
    for (double[] p : points) {
      if (Double.isNaN(p[1])) {
        pen = false;
        continue;
      }
      double x = LEFT + p[0] / tMax * plotW;
      double y = y0 + PANEL_H - (p[1] - lo) / (hi - lo) * PANEL_H;
      path.append(pen ? " L" : " M").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
      pen = true;
      if (dots) {
        sb.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"1.8\" fill=\"%s\"/>%n", x, y,
            color));
      }
    }
    if (path.length() > 0) {
      sb.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"/>%n",
          path.toString().trim(), color, dots ? "0.8" : "1.5"));
    }
  }

  private static void window(StringBuilder sb, double x1, double x2, int y0, String label) {
    sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#1f77b4\" "
        + "stroke-width=\"3\"/>%n", x1 + 2, y0 - 4, x2 - 2, y0 - 4));
    for (double x : new double[] {x1 + 2, x2 - 2}) {
      sb.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#1f77b4\" "
          + "stroke-width=\"1.5\"/>%n", x, y0 - 9, x, y0 + 1));
    }
    sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" fill=\"#1f77b4\" "
        + "font-size=\"10\">%s</text>%n", (x1 + x2) / 2, y0 - 8, label));
  }

  private static String tick(double v) {
    if (v >= 1e6) {
      return String.format(Locale.ROOT, "%.1fM", v / 1e6);
    }
    if (v >= 1e4) {
      return String.format(Locale.ROOT, "%.0fk", v / 1e3);
    }
    return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static String n(long v) {
    return String.format(Locale.ROOT, "%,d", v);
  }

  private static String mbOrNa(long bytes) {
    return bytes < 0 ? "n/a" : mb(bytes);
  }

  private static String mbNum(long bytes) {
    return bytes < 0 ? "–" : String.format(Locale.ROOT, "%.1f", bytes / (double) MIB);
  }

  /** A Markdown table. */
  private static final class Table {
    private final String[] header;
    private final List<String[]> rows = new ArrayList<>();

    Table(String... header) {
      this.header = header;
    }

    void row(String... cells) {
      rows.add(cells);
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder("|");
      for (String h : header) {
        sb.append(' ').append(h).append(" |");
      }
      sb.append("\n|");
      for (int i = 0; i < header.length; i++) {
        sb.append("---|");
      }
      sb.append('\n');
      for (String[] r : rows) {
        sb.append('|');
        for (String c : r) {
          sb.append(' ').append(c).append(" |");
        }
        sb.append('\n');
      }
      return sb.toString();
    }
  }
}
