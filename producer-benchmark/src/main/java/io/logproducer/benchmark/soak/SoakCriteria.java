package io.logproducer.benchmark.soak;

import static io.logproducer.benchmark.soak.SoakMain.MIB;
import static io.logproducer.benchmark.soak.SoakMain.fmt;
import static io.logproducer.benchmark.soak.SoakMain.mb;

import io.logproducer.benchmark.soak.SoakMain.Sample;
import io.logproducer.benchmark.soak.SoakResult.Criterion;
import java.util.ArrayList;
import java.util.IntSummaryStatistics;
import java.util.List;
import java.util.Locale;

/**
 * The soak's pass criteria, judged from its counts ({@link SoakResult}), its one-a-second samples
 * and its GC events: one outcome per accepted record, delivered means received, heap after GC flat,
 * thread count flat, buffered bytes bounded, nothing hangs. Not thread-safe; used once, after the
 * run.
 */
final class SoakCriteria {

  private final SoakOptions o;
  private final List<Sample> samples;
  private final SoakGcLog gcLog;

  SoakCriteria(SoakOptions o, List<Sample> samples, SoakGcLog gcLog) {
    this.o = o;
    this.samples = samples;
    this.gcLog = gcLog;
  }

  /**
   * {@return every criterion, in the report's order}; {@code hangs} are the problems the run
   * noticed.
   */
  List<Criterion> judge(SoakResult r, List<String> hangs) {
    List<Criterion> c = new ArrayList<>();
    c.add(
        new Criterion(
            "one outcome per accepted record",
            "missing = accepted − Σ outcomes = 0; no record with 0 or ≥ 2 outcomes (by id)",
            String.format(
                Locale.ROOT,
                "missing %,d; without outcome %,d; with repeated outcomes %,d",
                r.missing(),
                r.noOutcomeIds(),
                r.repeatedOutcomes()),
            r.missing() == 0 && r.noOutcomeIds() == 0 && r.repeatedOutcomes() == 0));
    long noId = r.receiverRecordsWithoutId();
    c.add(
        new Criterion(
            "delivered means received",
            "records reported DELIVERED but never seen by the receiver = 0; ids seen that were never accepted = 0; "
                + "malformed requests = 0",
            String.format(
                Locale.ROOT,
                "lost %,d; never accepted %,d; malformed requests %,d; records without id %,d",
                r.lostDelivered(),
                r.phantom(),
                r.receiverBadRequests(),
                noId),
            r.lostDelivered() == 0
                && r.phantom() == 0
                && r.receiverBadRequests() == 0
                && noId == 0));
    c.add(heapFlat(r.trackingGrownBytes()));

    IntSummaryStatistics threads =
        samples.stream()
            .filter(s -> s.t() >= o.warmup() && s.t() <= o.durationSeconds())
            .filter(s -> s.phase().equals("run"))
            .mapToInt(Sample::threads)
            .summaryStatistics();
    int spread = threads.getMax() - threads.getMin();
    c.add(
        new Criterion(
            "thread count flat",
            "live threads max − min ≤ 2 after warm-up (until the end of sending)",
            threads.getCount() == 0
                ? "no samples"
                : String.format(
                    Locale.ROOT, "%d … %d (Δ %d)", threads.getMin(), threads.getMax(), spread),
            threads.getCount() > 0 && spread <= 2));

    long maxBuffered =
        Math.max(
            r.metrics().getPeakBufferedBytes(),
            samples.stream().mapToLong(Sample::bufferedBytes).max().orElse(0));
    c.add(
        new Criterion(
            "buffered bytes bounded",
            "peak buffered bytes ≤ totalSizeInBytes",
            String.format(Locale.ROOT, "%s ≤ %s", mb(maxBuffered), mb(o.totalSizeBytes)),
            maxBuffered <= o.totalSizeBytes));

    List<String> leftover = r.leftoverThreads();
    c.add(
        new Criterion(
            "nothing hangs",
            "every send() returns after the run; close("
                + o.closeTimeoutSeconds
                + " s) returns; the receiver obeys every command; no producer thread outlives close",
            hangs.isEmpty() && leftover.isEmpty()
                ? String.format(Locale.ROOT, "close took %.1f s; 0 threads left", r.closeSeconds())
                : String.join("; ", hangs)
                    + (leftover.isEmpty() ? "" : "; threads left: " + leftover),
            hangs.isEmpty() && leftover.isEmpty()));
    return c;
  }

  /** Heap after GC: the first window after warm-up against the last window of the run. */
  private Criterion heapFlat(long grown) {
    double w0 = o.warmup();
    double win = o.window();
    double duration = o.durationSeconds();
    long firstMax = maxHeapAfterGc(w0, w0 + win);
    long lastMax = maxHeapAfterGc(duration - win, duration);
    long allowance = 16 * MIB + grown;
    long limit = firstMax < 0 ? -1 : (long) (firstMax * 1.2) + allowance;
    return new Criterion(
        o.fullGcsOnly() ? "heap after full GC flat" : "heap after GC flat",
        String.format(
            Locale.ROOT,
            "max in the last %s s ≤ max in the first %s s after warm-up × 1.2 + 16 MiB%s%s",
            fmt(win),
            fmt(win),
            grown > 0 ? " + id-tracking growth" : "",
            o.fullGcsOnly() ? " (System.gc() every " + o.fullGcEverySeconds + " s)" : ""),
        firstMax < 0 || lastMax < 0
            ? "no GC in a window"
            : String.format(
                Locale.ROOT,
                "%s ≤ %s (%s × 1.2 + %s)",
                mb(lastMax),
                mb(limit),
                mb(firstMax),
                mb(allowance)),
        firstMax >= 0 && lastMax >= 0 && lastMax <= limit);
  }

  private long maxHeapAfterGc(double from, double to) {
    long max = gcLog.maxHeapAfterGc(from, to, o.fullGcsOnly());
    if (max >= 0 || gcLog.notifications()) {
      return max;
    }
    return samples.stream()
        .filter(s -> s.t() >= from && s.t() < to)
        .mapToLong(Sample::heapAfterGcBytes)
        .reduce(max, Math::max);
  }
}
