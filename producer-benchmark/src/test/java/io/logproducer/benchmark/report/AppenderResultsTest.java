package io.logproducer.benchmark.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.benchmark.report.AppenderResults.Data;
import io.logproducer.benchmark.report.AppenderResults.E2e;
import io.logproducer.benchmark.report.AppenderResults.Jmh;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link AppenderResults}: what it reads from run-appender-bench.sh's output and the file it
 * writes.
 */
class AppenderResultsTest {

  /** A cut-down JMH output: the tear-down line lands inside "Iteration 5:", as JMH prints it. */
  static final String JMH_T4 =
      """
      # Benchmark: io.logproducer.benchmark.jmh.AppenderBenchmark.log
      # Parameters: (appender = logproducer, otelMaxQueueSize = 2048)
      Iteration   5:\s
      [AppenderBenchmark] appender=logproducer threads=4 logged=18389607 loggingThreadCpuNsPerOp=850.4 \
      receiverRecords=18389607 notReceived=0 (0.0%) receiverRequests=5543 bytesPerRecord=315 droppedCount()=0 \
      failedCount()=0
      2864.344 ns/op
                       gc.alloc.rate.norm: 1280.488 B/op
      [AppenderBenchmark] appender=otel threads=4 logged=44297887 loggingThreadCpuNsPerOp=428.6 \
      receiverRecords=1188867 notReceived=43109020 (97.3%) receiverRequests=2323 bytesPerRecord=261 otelQueue=2048 \
      otelExported=1188867 otelFailed=0 otelDropped(logged-exported-failed)=43109020
      [AppenderBenchmark] otel record: scope=com.example.shop.PaymentService body=ValueString{Order 1 paid} \
      attributes={tenant="acme-eu-west-1"}
      [AppenderBenchmark] appender=noop threads=4 logged=573009141 loggingThreadCpuNsPerOp=52.8

      Benchmark                                        (appender)  (otelMaxQueueSize)  Mode  Cnt     Score      Error   Units
      AppenderBenchmark.log                           logproducer                2048  avgt    5  2864.344 ± 3511.225   ns/op
      AppenderBenchmark.log:gc.alloc.rate             logproducer                2048  avgt    5  1669.408 ± 1518.134  MB/sec
      AppenderBenchmark.log:gc.alloc.rate.norm        logproducer                2048  avgt    5  1281.287 ±    9.719    B/op
      AppenderBenchmark.log:gc.count                  logproducer                2048  avgt    5    11.000             counts
      AppenderBenchmark.log                                  otel                2048  avgt    5  1195.768 ±  714.044   ns/op
      AppenderBenchmark.log:gc.alloc.rate.norm               otel                2048  avgt    5   968.166 ±   15.074    B/op
      AppenderBenchmark.log                                  noop                2048  avgt    5   107.504 ±   10.311   ns/op
      AppenderBenchmark.log:gc.alloc.rate.norm               noop                2048  avgt    5   144.001 ±    0.010    B/op
      """;

  static final String E2E =
      """
      end to end: logback, run 1 of 3, 1000000 records …
      framework=logback run=1 records=1000000 delivered=1000000 failed=0 refused=0 not_sent=0 records_per_sec=333028 \
      raw_mb_per_sec=190.8 wire_mb_per_sec=228.1
      framework=log4j2 run=2 records=1000000 delivered=999000 failed=0 refused=1000 not_sent=0 records_per_sec=241459 \
      raw_mb_per_sec=138.4 wire_mb_per_sec=157.2
      """;

  @Test
  void readsTheResultTableAndEachTrialsTearDownLine() {
    List<Jmh> rows = AppenderResults.parseJmh(JMH_T4.lines().toList());
    assertEquals(
        List.of(
            new Jmh(
                "logproducer", 4, 2864.344, 3511.225, 850.4, 1281.287, 18_389_607, 18_389_607, 0),
            new Jmh("otel", 4, 1195.768, 714.044, 428.6, 968.166, 44_297_887, 1_188_867, -1),
            new Jmh("noop", 4, 107.504, 10.311, 52.8, 144.001, 573_009_141, -1, -1)),
        rows);
    assertEquals(1_188_867 / 44_297_887.0, rows.get(1).receivedShare(), 1e-12);
    assertTrue(Double.isNaN(rows.get(2).receivedShare()));
  }

  @Test
  void aVariantWithoutItsTearDownLineIsAnError() {
    List<String> lines = JMH_T4.lines().filter(l -> !l.contains("appender=otel")).toList();
    assertThrows(IllegalArgumentException.class, () -> AppenderResults.parseJmh(lines));
  }

  @Test
  void readsTheEndToEndFinalLines() {
    assertEquals(
        List.of(
            new E2e("logback", 1, 1_000_000, 1_000_000, 0, 0, 0, 333_028, 190.8, 228.1),
            new E2e("log4j2", 2, 1_000_000, 999_000, 0, 1_000, 0, 241_459, 138.4, 157.2)),
        AppenderResults.parseE2e(E2E.lines().toList()));
    assertTrue(AppenderResults.parseE2e(E2E.lines().toList()).get(0).allDelivered());
    assertTrue(!AppenderResults.parseE2e(E2E.lines().toList()).get(1).allDelivered());
  }

  @Test
  void theFileReadsBackAsWritten() {
    Data d =
        new Data(
            "JMH 2030-01-02 03:04 UTC; Test CPU, 2 cores",
            "A remark.",
            AppenderResults.parseJmh(JMH_T4.lines().toList()),
            AppenderResults.parseE2e(E2E.lines().toList()));
    String tsv = AppenderResults.format(d);
    assertTrue(
        tsv.startsWith(
            "# measured JMH 2030-01-02 03:04 UTC; Test CPU, 2 cores\n# note A remark.\n"
                + "kind\tname\tthreads_or_run\t"),
        tsv);
    assertTrue(
        tsv.contains(
            "\njmh\tlogproducer\t4\t2864.344\t3511.225\t850.4\t1281.287\t18389607\t18389607\t0\t-\t"),
        tsv);
    assertTrue(
        tsv.contains("\njmh\tnoop\t4\t107.504\t10.311\t52.8\t144.001\t573009141\t-\t-\t-\t"), tsv);
    assertTrue(
        tsv.contains(
            "\ne2e\tlogback\t1\t-\t-\t-\t-\t-\t-\t-\t1000000\t1000000\t0\t0\t0\t333028\t190.8\t228.1\n"),
        tsv);
    assertEquals(d, AppenderResults.parse(tsv.lines().toList()));
  }
}
