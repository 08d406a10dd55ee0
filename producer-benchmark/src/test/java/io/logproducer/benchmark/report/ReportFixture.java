package io.logproducer.benchmark.report;

import io.logproducer.Compression;
import io.logproducer.benchmark.harness.LatencyHistogram;
import io.logproducer.benchmark.harness.PerformanceSuite;
import io.logproducer.benchmark.harness.RunResult;
import io.logproducer.benchmark.harness.RunSpec;
import io.logproducer.benchmark.harness.RunSpec.Client;
import io.logproducer.benchmark.harness.Sample;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Samples of a small suite run and its meta data, for the report's tests; the filled blocks of a
 * report.
 */
final class ReportFixture {

  private ReportFixture() {}

  /**
   * The value of block {@code name} from the data in {@code docs/perf-data} and these samples; null
   * without data.
   */
  static String block(Path docs, List<Sample> samples, Map<String, String> meta, String name)
      throws IOException {
    return PerformanceReport.load(docs, samples, List.of(), null, meta).blocks().get(name).get();
  }

  static Map<String, String> meta() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("standardSendThreads", "4");
    m.put("standardBatchSize", Integer.toString(2 * RunSpec.MIB));
    m.put("suiteSeconds", "61");
    m.put("options", "warmup 1.0 s, duration 1.0 s, repeats 3");
    m.put("measured", "2030-01-02 03:04 UTC");
    m.put(SuiteData.MACHINE_PREFIX + "CPU", "Test CPU 9000");
    m.put(SuiteData.MACHINE_PREFIX + SuiteData.CORES_ROW, "2");
    m.put(SuiteData.MACHINE_PREFIX + "Memory", "8.0 GiB");
    m.put(SuiteData.MACHINE_PREFIX + "JDK", "Test JDK 17");
    return m;
  }

  /**
   * One run of one second: {@code perSec} records delivered (of {@code emitted}), verified by the
   * sink.
   */
  static Sample run(String section, RunSpec spec, long perSec, long emitted, long blockedNanos) {
    LatencyHistogram h = new LatencyHistogram();
    for (int i = 1; i <= 100; i++) {
      h.record(1_000 + 10L * i);
    }
    StringBuilder r = new StringBuilder("RESULT");
    r.append(" emitted=")
        .append(emitted)
        .append(" delivered=")
        .append(perSec)
        .append(" seconds=1.0")
        .append(" rawBytes=")
        .append(perSec * 581)
        .append(" encodedBytes=")
        .append(perSec * 633)
        .append(" wireBytes=")
        .append(perSec * 51)
        .append(" cpuNanos=")
        .append(perSec * 2_100)
        .append(" cpu.app=")
        .append(perSec * 1_500)
        .append(" cpu.vm=")
        .append(perSec * 200)
        .append(" alloc.app=")
        .append(perSec * 1_800)
        .append(" gcMillis=40 requests=300")
        .append(" requestLatencyAvgMillis=12.5 sendBlockedNanos=")
        .append(blockedNanos)
        .append(" peakBufferedBytes=")
        .append(spec.totalSizeInBytes() / 2)
        .append(" totalSizeInBytes=")
        .append(spec.client() == Client.LOGPRODUCER ? spec.totalSizeInBytes() : -1)
        .append(" latency=")
        .append(h.encode());
    switch (spec.client()) {
      case LOGPRODUCER -> r.append(" cpu.sender=").append(perSec * 400);
      case OTEL ->
          r.append(" cpu.otel-worker=")
              .append(perSec * 1_500)
              .append(" cpu.http=")
              .append(perSec * 2_500);
      case ALIYUN ->
          r.append(" cpu.io=").append(perSec * 5_000).append(" cpu.callback=").append(perSec * 300);
      default -> {}
    }
    if (spec.client() != Client.GENERATE) {
      // the machine was busy with this run and the sink only: no run is marked as disturbed
      r.append(" sinkRecords=")
          .append(perSec)
          .append(" sinkCpuNanosPerRecord=301.0 sinkCpuPercent=20.0")
          .append(" machineBusyPercent=")
          .append(perSec * 2_100 / 1e7 + 21);
    }
    if (spec.jfr()) {
      r.append(" jfrFrom=1000 jfrTo=2000");
    }
    return new Sample(section, spec, RunResult.parse(r.toString()));
  }

  static Sample run(String section, RunSpec spec, long perSec) {
    return run(section, spec, perSec, perSec, 0);
  }

  static List<Sample> fixture(boolean withAliyun) {
    RunSpec base = RunSpec.reference().withTiming(1, 1);
    RunSpec lz4 = base.withCompression(Compression.LZ4, 0);
    RunSpec otel = base.withClient(Client.OTEL).withCompression(Compression.NONE, 0);
    List<Sample> l = new ArrayList<>();
    l.add(
        run("calibration", base.withClient(Client.GENERATE).withLabel("generate only"), 5_000_000));
    for (int pass = 0; pass < 2; pass++) {
      l.add(
          run(
              "sendThreads",
              lz4.withSendThreads(1).withLabel("sendThreads 1"),
              500_000 + pass * 20_000,
              500_000 + pass * 20_000,
              5_000_000_000L));
      l.add(
          run(
              "sendThreads",
              lz4.withSendThreads(4).withLabel("sendThreads 4"),
              650_000 + pass * 20_000));
      l.add(
          run(
              "batchSize",
              lz4.withBatchSize(RunSpec.MIB).withLabel("batch 1 MiB"),
              640_000 + pass * 20_000));
      l.add(run("batchSize", lz4.withLabel("batch 2 MiB"), 660_000 + pass * 20_000));
      l.add(
          run(
              "totalSize",
              lz4.withTotalSize(50L * RunSpec.MIB).withLabel("total 50 MiB"),
              630_000 + pass * 20_000));
      l.add(run("totalSize", lz4.withLabel("total 100 MiB"), 670_000 + pass * 20_000));
    }
    l.add(
        run(
            "compression",
            base.withCompression(Compression.NONE, 0).withLabel("logproducer none"),
            800_000));
    l.add(
        run(
            "compression",
            base.withCompression(Compression.GZIP, 0).withLabel("logproducer gzip-1"),
            400_000));
    for (long v : new long[] {600_000, 700_000, 900_000}) {
      l.add(run("compression", lz4.withLabel("logproducer lz4"), v));
      l.add(
          run(
              "compression",
              base.withCompression(Compression.ZSTD, 0).withLabel("logproducer zstd-1"),
              v + 10));
    }
    l.add(
        run(
            "peers",
            otel.withOtel(false, 0, 0).withLabel("OTel SDK defaults"),
            20_000,
            200_000,
            0));
    l.add(
        run("peers", otel.withOtel(true, 65_536, 8_192).withLabel("OTel SDK tuned, none"), 90_000));
    l.add(
        run(
            "peers",
            otel.withOtel(true, 65_536, 8_192).withLabel("OTel SDK tuned, none"),
            110_000));
    l.add(
        run(
            "peers",
            otel.withCompression(Compression.GZIP, 0)
                .withOtel(true, 65_536, 8_192)
                .withLabel("OTel SDK tuned, gzip"),
            70_000));
    if (withAliyun) {
      RunSpec a = PerformanceSuite.aliyunBase(base);
      l.add(run("aliyun", a.withSendThreads(1).withLabel("Aliyun lz4, ioThreads 1"), 60_000));
      l.add(run("aliyun", a.withSendThreads(2).withLabel("Aliyun lz4, ioThreads 2"), 100_000));
      l.add(run("aliyun", a.withSendThreads(4).withLabel("Aliyun lz4, ioThreads 4"), 90_000));
      l.add(run("aliyun", a.withSendThreads(8).withLabel("Aliyun lz4, ioThreads 8"), 110_000));
      l.add(run("aliyun", a.withSendThreads(2).withLabel("Aliyun lz4, ioThreads 2"), 120_000));
      l.add(run("aliyun", a.withSendThreads(2).withLabel("Aliyun lz4, ioThreads 2"), 200_000));
    }
    l.add(run("latency", lz4.withRateLimit(300_000).withLabel("lz4 paced to 300,000/s"), 300_000));
    l.add(run("profile", lz4.withJfr(true).withLabel("lz4, JFR profile"), 610_000));
    l.add(
        run(
            "calibration",
            base.withClient(Client.GENERATE).withLabel("generate only (end)"),
            4_900_000));
    return l;
  }
}
