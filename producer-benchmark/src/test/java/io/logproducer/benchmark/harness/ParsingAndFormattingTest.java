package io.logproducer.benchmark.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.benchmark.report.Charts;
import io.logproducer.benchmark.report.Report;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParsingAndFormattingTest {

  @Test
  void parsesSinkReports() {
    SinkStats s =
        SinkStats.parse(
            "records=1200 requests=3 wire_bytes=4096 body_bytes=700000 bad=1 cpu_ns=2500000000",
            77);
    assertEquals(new SinkStats(1200, 3, 4096, 700_000, 1, 2_500_000_000L, 77), s);
    assertNull(SinkStats.parse("listening http://127.0.0.1:1234", 0));
    assertNull(SinkStats.parse("records=x requests=1 wire_bytes=1 body_bytes=1 bad=0 cpu_ns=1", 0));
    assertNull(SinkStats.parse("records=1 requests=1", 0)); // fields missing
    // unknown extra fields are tolerated
    assertEquals(
        5,
        SinkStats.parse("records=5 requests=1 wire_bytes=1 body_bytes=1 bad=0 cpu_ns=9 extra=3", 0)
            .records());
  }

  @Test
  void aRunIsDisturbedByOtherProcessesOrBySlowedMachine() {
    RunResult quiet =
        RunResult.parse(
            "RESULT seconds=1.0 cpuNanos=1500000000 machineBusyPercent=180 "
                + "sinkCpuPercent=20 sinkRecords=1");
    assertEquals(10, Runs.othersPercent(quiet), 1e-9); // 180 - 150 - 20
    assertEquals(0.4, Runs.disturbance(quiet), 1e-9);
    assertEquals(1.6, Runs.disturbance(quiet.with("machineBusyPercent", 210)), 1e-9); // others 40 %
    assertEquals(0.4, Runs.disturbance(quiet.with("machineSlowdown", "1.05")), 1e-9);
    assertEquals(2.0, Runs.disturbance(quiet.with("machineSlowdown", "1.30")), 1e-9);
    assertFalse(Runs.disturbance(quiet.with("machineSlowdown", "1.149")) > 1);
    assertTrue(Runs.disturbance(quiet.with("machineSlowdown", "1.151")) > 1);
  }

  @Test
  void speedProbeComparesWithItsFastest() {
    SpeedProbe p = new SpeedProbe();
    double first = p.measure();
    assertTrue(first > 0);
    assertEquals(first, p.fastest(), 0);
    assertEquals(1.0, p.slowdown(p.fastest(), p.fastest()), 1e-12);
    assertEquals(2.0, p.slowdown(p.fastest(), 2 * p.fastest()), 1e-12);
    double second = p.measure();
    assertEquals(Math.min(first, second), p.fastest(), 0);
  }

  @Test
  void runResultDerivedFigures() {
    RunResult r =
        RunResult.parse(
            "RESULT emitted=2000 delivered=1000 seconds=2.0 rawBytes=1160000 wireBytes=100000 "
                + "cpuNanos=3000000000 cpu.app=1000 cpu.sender=20 alloc.app=5 sinkRecords=1000");
    assertEquals(500, r.recordsPerSec(), 1e-9);
    assertEquals(0.29, r.rawMbPerSec(), 1e-9); // half the raw bytes were delivered
    assertEquals(0.05, r.wireMbPerSec(), 1e-9);
    assertEquals(150, r.cpuPercent(), 1e-9);
    assertEquals(3000, r.cpuMicrosPerRecord(), 1e-9);
    assertEquals(50, r.lossPercent(), 1e-9);
    assertEquals(Map.of("app", 1000L, "sender", 20L), r.cpuByGroup());
    assertTrue(r.verified());
    assertFalse(r.with("sinkRecords", 999).verified());
    assertEquals(r.values(), RunResult.parse(r.format()).values());
  }

  @Test
  void runSpecRoundTripsThroughArguments() {
    RunSpec s =
        RunSpec.reference()
            .withLabel("x y, z")
            .withSendThreads(8)
            .withCompression(Compression.ZSTD, 3)
            .withOtel(true, 1000, 100)
            .withRateLimit(5000)
            .withJfr(true);
    assertEquals(s, RunSpec.fromArgs(s.toArgs().toArray(new String[0])));
    assertEquals(s, RunSpec.fromMap(s.toMap()));
    assertThrows(
        IllegalArgumentException.class, () -> RunSpec.fromArgs(new String[] {"--sendThreads"}));
  }

  @Test
  void sampleRoundTripsThroughTsv() {
    Sample s =
        new Sample(
            "peers",
            RunSpec.reference().withLabel("OTel SDK tuned, gzip_1").withOtel(true, 65536, 8192),
            RunResult.parse("RESULT delivered=5 seconds=1.5"));
    Sample back = Sample.fromTsv(s.toTsv());
    assertEquals(s.section(), back.section());
    assertEquals(s.spec(), back.spec());
    assertEquals(s.result().values(), back.result().values());
  }

  @Test
  void formatsTablesAndNumbers() {
    String md =
        new Report.Table("setting", ">records/s").row("a|b", "1,000").row("c", 2).markdown();
    assertEquals("| setting | records/s |\n|---|---:|\n| a\\|b | 1,000 |\n| c | 2 |\n", md);
    assertThrows(IllegalArgumentException.class, () -> new Report.Table("a", "b").row("only one"));
    assertEquals("512 KiB", Report.bytes(512 * 1024));
    assertEquals("2 MiB", Report.bytes(2L << 20));
    assertEquals("100 MiB", Report.bytes(100L << 20));
    assertEquals("850 ns", Report.nanos(850));
    assertEquals("3.20 µs", Report.nanos(3_200));
    assertEquals("41.0 ms", Report.nanos(41_000_000));
    assertEquals("12.3×", Report.times(12.345));
    assertEquals("1,234,568", Report.count(1_234_567.6));
    assertEquals("lz4", Report.compressionName(Compression.LZ4, 0));
    assertEquals("zstd-1", Report.compressionName(Compression.ZSTD, 0));
    assertEquals("gzip-6", Report.compressionName(Compression.GZIP, 6));
    assertEquals(2.5, Report.median(4, 1, 2, 3), 1e-9);
    assertEquals(3, Report.median(5, 3, 1), 1e-9);
    assertTrue(Double.isNaN(Report.median()));
  }

  @Test
  void picksTheFewestSendThreadsWithWhichSendNeverBlocked() {
    java.util.List<Sample> sweep = new java.util.ArrayList<>();
    long[][] blockedNanos = {
      {1, 40_000_000_000L}, {2, 3_000_000_000L}, {4, 0}, {8, 0}, {4, 100_000_000L}
    };
    for (long[] b : blockedNanos) {
      sweep.add(
          new Sample(
              "sendThreads",
              RunSpec.reference().withSendThreads((int) b[0]),
              RunResult.parse("RESULT seconds=8 sendBlockedNanos=" + b[1])));
    }
    // 4 blocked 0.1 s of 80 thread-seconds in its second pass: 0.125 %, under the 0.5 % tolerance
    assertEquals(4, Runs.pickUnblocked(new int[] {1, 2, 4, 8}, sweep));
    sweep.add(
        new Sample(
            "sendThreads",
            RunSpec.reference().withSendThreads(4),
            RunResult.parse("RESULT seconds=8 sendBlockedNanos=1000000000")));
    assertEquals(8, Runs.pickUnblocked(new int[] {1, 2, 4, 8}, sweep));
    assertEquals(16, Runs.pickUnblocked(new int[] {16}, java.util.List.of()));
  }

  @Test
  void chartLabels() {
    assertEquals("1.23M", Charts.valueLabel(1_234_567));
    assertEquals("580k", Charts.valueLabel(580_000));
    assertEquals("12.5", Charts.valueLabel(12.5));
    assertEquals(2.5, Charts.Axis.niceStep(2.2), 1e-9);
    assertEquals(1, Charts.Axis.linear(0.5).fraction(0.5) > 0 ? 1 : 0);
  }
}
