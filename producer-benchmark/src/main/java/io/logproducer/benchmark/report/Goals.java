package io.logproducer.benchmark.report;

import static io.logproducer.benchmark.report.SuiteData.med;
import static io.logproducer.benchmark.report.SuiteData.rate;
import static io.logproducer.benchmark.report.SuiteData.status;

import io.logproducer.Compression;
import io.logproducer.benchmark.harness.JmhRunner;
import io.logproducer.benchmark.harness.LatencyHistogram;
import io.logproducer.benchmark.harness.RunResult;
import io.logproducer.benchmark.harness.RunSpec.Client;
import io.logproducer.benchmark.harness.Sample;
import io.logproducer.benchmark.report.Report.Table;
import java.util.Comparator;
import java.util.List;

/**
 * The project's goals measured against the data (the goal's wording is the row's caption; *met* or
 * *not yet*), and the arithmetic of what the 10× goal would take on this machine.
 */
final class Goals {

  private final SuiteData d;

  Goals(SuiteData d) {
    this.d = d;
  }

  /** {@return the goals table, or null without the compression section's lz4 runs} */
  String table() {
    if (d.lp(Compression.LZ4).isEmpty()) {
      return null;
    }
    Table t = new Table("goal", "measured", "status");
    throughput(
        t,
        Compression.LZ4,
        1e6,
        "Deliver ≥ 1,000,000 records/s (≥ 580 raw MB/s) with lz4, every record counted "
            + "by the sink");
    throughput(
        t,
        Compression.ZSTD,
        1e6,
        "Deliver ≥ 1,000,000 records/s with zstd, every record counted by the sink");
    throughput(
        t,
        Compression.GZIP,
        600_000,
        "Deliver ≥ 600,000 records/s with gzip, every record counted by the sink");
    peers(t);
    Sample head = d.head();
    double gen = d.calibrationCpuMicros();
    double cpu = head.result().cpuMicrosPerRecord();
    t.row(
        "Producer CPU ≤ 1.0 µs per record, not counting building the record",
        Report.f2(cpu - gen)
            + " µs ("
            + Report.f2(cpu)
            + " µs for the whole process, less "
            + Report.f2(gen)
            + " µs to build the record)",
        status(cpu - gen <= 1.0));
    wholeProcess(t);
    latency(t);
    allocation(t);
    JmhRunner.Row encoder = d.jmhRow("OtlpEncoderBenchmark", "encoding", "PROTOBUF");
    if (encoder != null) {
      t.row(
          "OTLP protobuf encoder ≤ 300 ns per reference record (JMH `OtlpEncoderBenchmark`, one thread)",
          Report.f1(encoder.score())
              + " ns ("
              + Report.f1(encoder.min())
              + "–"
              + Report.f1(encoder.max())
              + " over the measured iterations)",
          status(encoder.score() <= 300));
    }
    long over =
        d.samples.stream()
            .filter(
                s ->
                    s.result().getLong("totalSizeInBytes") > 0
                        && s.result().getLong("peakBufferedBytes")
                            > s.result().getLong("totalSizeInBytes"))
            .count();
    long withBudget =
        d.samples.stream().filter(s -> s.result().getLong("totalSizeInBytes") > 0).count();
    t.row(
        "Buffered bytes never above `totalSizeInBytes`",
        (withBudget - over) + " of " + withBudget + " runs stayed within it",
        status(over == 0));
    return t.markdown();
  }

  /**
   * The whole process's CPU per record, building it included (median lz4 and zstd-1 runs),
   * records/s with lz4, and the collectors' share of the 20 M-record runs with the JVM's default
   * heap.
   */
  private void wholeProcess(Table t) {
    Sample lz4 = SuiteData.medianSample(d.lp(Compression.LZ4));
    Sample zstd = SuiteData.medianSample(d.lp(Compression.ZSTD));
    if (zstd != null) {
      double a = lz4.result().cpuMicrosPerRecord();
      double b = zstd.result().cpuMicrosPerRecord();
      t.row(
          "Whole-process CPU ≤ 1.0 µs per record, building the record included, lz4 and zstd-1",
          Report.f2(a) + " µs (lz4), " + Report.f2(b) + " µs (zstd-1), in their median runs",
          status(a <= 1.0 && b <= 1.0));
    }
    double rate = rate(d.lp(Compression.LZ4));
    t.row(
        "Deliver ≥ 1,300,000 records/s with lz4 in the same runs",
        "median " + Report.count(rate) + " records/s",
        status(rate >= 1_300_000));
    if (d.longRuns == null) {
      return;
    }
    for (Compression c : LongRunTables.COMPRESSIONS) {
      List<Sample> runs = d.longRuns.runs("longRun", c);
      if (runs.isEmpty()) {
        continue;
      }
      double gc = med(runs, LongRunTables::gcPercent);
      Sample m = SuiteData.medianSample(runs);
      t.row(
          "GC time ≤ 2 % of wall time, 20 M records with the JVM's default heap ("
              + Report.compressionName(c, 0)
              + ")",
          Report.f2(gc)
              + " % (median of "
              + runs.size()
              + (runs.size() == 1 ? " run" : " runs")
              + ", measured "
              + d.longRuns.measured().replaceAll(";.*", "")
              + "; "
              + Report.f2(m.result().cpuMicrosPerRecord())
              + " µs of CPU per record from the JVM's start in the median run, "
              + Report.f1(m.result().cpuMicrosPerRecord() / d.longRuns.buildingMicros())
              + "× building a record that day)",
          status(gc <= 2.0));
    }
  }

  private void throughput(Table t, Compression c, double goal, String caption) {
    List<Sample> l = d.lp(c);
    if (l.isEmpty()) {
      return;
    }
    double rate = rate(l);
    boolean verified = l.stream().allMatch(s -> s.result().verified());
    t.row(
        caption,
        "median "
            + Report.count(rate)
            + " records/s"
            + (c == Compression.LZ4
                ? " (" + Report.f1(med(l, RunResult::rawMbPerSec)) + " raw MB/s)"
                : "")
            + " over "
            + l.size()
            + (l.size() == 1 ? " run, " : " runs, ")
            + (verified ? "all counted" : "**sink count differs**")
            + (c == Compression.GZIP ? "" : fastest(c)),
        status(rate >= goal && verified));
  }

  /** "; fastest lz4 run in this data: 1,135,823 records/s (sendThreads 2, sendThreads sweep)". */
  private String fastest(Compression c) {
    Sample best =
        d
            .select(
                s ->
                    s.spec().client() == Client.LOGPRODUCER
                        && s.spec().compression() == c
                        && s.spec().rateLimit() == 0
                        && !s.spec().jfr()
                        && s.result().verified())
            .stream()
            .max(Comparator.comparingDouble(s -> s.result().recordsPerSec()))
            .orElse(null);
    return best == null
        ? ""
        : "; fastest "
            + Report.compressionName(c, 0)
            + " run in this data: "
            + Report.count(best.result().recordsPerSec())
            + " records/s ("
            + best.spec().label()
            + ", "
            + best.section()
            + " sweep)";
  }

  private void peers(Table t) {
    double lz4 = rate(d.lp(Compression.LZ4));
    List<Sample> otel = d.otel(true, Compression.NONE);
    if (!otel.isEmpty()) {
      double oNone = rate(otel);
      long lost =
          otel.stream()
              .mapToLong(s -> s.result().getLong("emitted") - s.result().delivered())
              .sum();
      t.row(
          "≥ 10× the records/s of the OpenTelemetry SDK tuned to drop nothing",
          Report.times(lz4 / oNone)
              + " (logproducer lz4 against the SDK uncompressed; the SDK lost "
              + Report.count(lost)
              + " records)",
          status(lz4 / oNone >= 10 && lost == 0));
    }
    int bestIo = d.aliyunBest();
    if (bestIo > 0) {
      double aBest = rate(d.aliyun(bestIo));
      boolean verified =
          d.aliyun(0).stream().allMatch(s -> s.result().verified())
              && d.lp(Compression.LZ4).stream().allMatch(s -> s.result().verified());
      t.row(
          "≥ 3× the records/s of the Aliyun Log Java producer at its fastest setting",
          Report.times(lz4 / aBest)
              + " (logproducer lz4 against the Aliyun producer with lz4 and "
              + bestIo
              + (bestIo == 1 ? " IO thread" : " IO threads")
              + ", "
              + Report.count(aBest)
              + " records/s"
              + (verified ? "" : "; **sink count differs**")
              + ")",
          status(lz4 / aBest >= 3 && verified));
    }
  }

  private void latency(Table t) {
    List<Sample> paced = d.section("latency");
    if (paced.isEmpty()) {
      return;
    }
    StringBuilder sb = new StringBuilder();
    boolean ok = true;
    for (Sample p : paced) {
      LatencyHistogram h = p.result().latency();
      boolean exhausted = p.result().getLong("sendBlockedNanos") > 0;
      ok &= h.percentile(99) <= 5_000 && !exhausted;
      sb.append(sb.length() == 0 ? "" : "; ")
          .append(Report.nanos(h.percentile(99)))
          .append(" paced to ")
          .append(Report.count(p.spec().rateLimit()))
          .append("/s")
          .append(exhausted ? " (the buffer filled up)" : "");
    }
    Sample sat = d.head();
    if (sat.result().getLong("sendBlockedNanos") == 0) {
      sb.append("; ")
          .append(Report.nanos(sat.result().latency().percentile(99)))
          .append(" in the median saturated lz4 run, which never waited for buffer space");
    }
    t.row("`send()` p99 ≤ 5 µs while the buffer has room", sb.toString(), status(ok));
  }

  private void allocation(Table t) {
    List<JmhRunner.Row> send =
        d.jmhRows("SendBenchmark").stream()
            .filter(r -> "NONE".equals(r.params().get("compression")))
            .toList();
    if (send.isEmpty()) {
      return;
    }
    double worst = send.stream().mapToDouble(JmhRunner.Row::allocPerOp).max().orElse(Double.NaN);
    StringBuilder sb = new StringBuilder();
    for (JmhRunner.Row r : send) {
      sb.append(sb.length() == 0 ? "" : ", ")
          .append(Report.f1(r.allocPerOp()))
          .append(" B (")
          .append(r.threads())
          .append(r.threads() == 1 ? " thread)" : " threads)");
    }
    t.row(
        "≤ 16 bytes allocated per `send()` without a callback (JMH, `-prof gc`)",
        sb.toString(),
        status(worst <= 16));
  }

  /**
   * {@return what 10× the SDK's records/s would take here, or null without the data}: the CPU per
   * record of that rate on this machine's cores, less building the records and the sink's share of
   * the same cores, against what the producer uses and the UTF-8 work of one record alone (JMH)
   */
  String tenfold() {
    Sample head = d.head();
    double oNone = rate(d.otel(true, Compression.NONE));
    if (head == null
        || d.cores() <= 0
        || Double.isNaN(oNone)
        || oNone <= 0
        || !head.result().has("sinkCpuNanosPerRecord")) {
      return null;
    }
    double target = 10 * oNone;
    double perRecord = d.cores() * 1e6 / target;
    double gen = d.calibrationCpuMicros();
    double sink = head.result().getDouble("sinkCpuNanosPerRecord") / 1e3;
    Table t = new Table("quantity", ">value");
    t.row("10 × the tuned SDK's records/s", Report.count(target) + " records/s");
    t.row(
        "CPU per record at that rate on " + d.cores() + " cores, for everything",
        Report.f2(perRecord) + " µs");
    t.row("building the record", Report.f2(gen) + " µs");
    t.row("the sink, on the same cores", Report.f2(sink) + " µs");
    t.row("left for the producer", Report.f2(perRecord - gen - sink) + " µs");
    t.row("left for the producer against a remote receiver", Report.f2(perRecord - gen) + " µs");
    t.row(
        "logproducer's own CPU per record (lz4)",
        Report.f2(head.result().cpuMicrosPerRecord() - gen) + " µs");
    JmhRunner.Row utf8 = d.jmhRow("Utf8Benchmark", "method", "onepass");
    if (utf8 != null) {
      t.row(
          "one record's four strings as UTF-8, nothing else (JMH `Utf8Benchmark`, onepass)",
          Report.f2(utf8.score() / 1e3) + " µs");
    }
    return t.markdown();
  }
}
