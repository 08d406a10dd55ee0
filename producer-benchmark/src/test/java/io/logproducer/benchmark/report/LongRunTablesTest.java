package io.logproducer.benchmark.report;

import static io.logproducer.benchmark.report.ReportFixture.block;
import static io.logproducer.benchmark.report.ReportFixture.fixture;
import static io.logproducer.benchmark.report.ReportFixture.meta;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Compression;
import io.logproducer.benchmark.harness.RunResult;
import io.logproducer.benchmark.harness.RunSpec;
import io.logproducer.benchmark.harness.RunSpec.Client;
import io.logproducer.benchmark.harness.Sample;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The 20 M-record runs from the JVM's start with the default heap: their block (CPU per record by
 * thread group, allocation, GC share of wall time) and their rows in the goals.
 */
class LongRunTablesTest {

  @TempDir Path docs;

  @Test
  void longRunsShowCpuByGroupAndTheirGcShare() throws IOException {
    RunSpec whole = RunSpec.reference().withTiming(0, 0).withHeap("default");
    List<Sample> runs = new ArrayList<>();
    runs.add(
        new Sample(
            "longRunCalibration",
            RunSpec.reference().withClient(Client.GENERATE).withLabel("building the records alone"),
            RunResult.parse("RESULT emitted=1000000 delivered=0 seconds=1.0 cpu.app=400000000")));
    // 20 s each: 1.5 %, 0.5 %, 1.0 % of GC; the median by records/s is the first
    runs.add(longRun("longRun", whole.withCompression(Compression.LZ4, 0), 1_000_000, 300));
    runs.add(longRun("longRun", whole.withCompression(Compression.LZ4, 0), 990_000, 100));
    runs.add(longRun("longRun", whole.withCompression(Compression.LZ4, 0), 1_010_000, 200));
    runs.add(longRun("longRunSteady", RunSpec.reference(), 1_200_000, 20));
    runs.add(longRun("longRun", whole.withCompression(Compression.ZSTD, 0), 900_000, 500));
    Path data = Files.createDirectories(docs.resolve("perf-data"));
    StringBuilder file = new StringBuilder("# measured 2030-01-02 03:04 UTC; Test CPU, 2 cores\n");
    runs.forEach(r -> file.append(r.toTsv()).append('\n'));
    Files.writeString(data.resolve(LongRunTables.FILE), file);

    assertEquals(
        "2030-01-02 03:04 UTC; Test CPU, 2 cores",
        block(docs, fixture(false), meta(), "long-run-measured"));
    String table = block(docs, fixture(false), meta(), "long-run");
    assertTrue(
        table.startsWith(
            "| run | records/s | runs | CPU µs/record | net of building µs | ÷ building | app µs |"
                + " sender µs |"
                + " gc µs | jit µs | other µs | app B/record | all B/record | max heap | GCs |"
                + " GC ms | GC % of wall time |"),
        table);
    // steady first, then from the JVM's start; 1.30 µs in all = app 0.90 + sender 0.25 + gc 0.02
    // + jit 0.10 + other 0.03; building 0.40
    assertTrue(
        table.contains(
            "| logproducer lz4, steady state | 1,200,000 | 1 | 1.30 | 0.90 | 3.3× | 0.90 | 0.25 |"),
        table);
    assertTrue(
        table.contains(
            "| logproducer lz4, 20 M records | 1,000,000 | 3 | 1.30 | 0.90 | 3.3× | 0.90 | 0.25 | 0.02 |"
                + " 0.10 | 0.03 | 1,800 | 1,810 | 5.9 GiB | 7 | 300 | 1.50 |"),
        table);
    assertTrue(table.indexOf("lz4, steady state") < table.indexOf("lz4, 20 M records"), table);
    assertTrue(table.contains("| logproducer zstd-1, 20 M records | 900,000 | 1 |"), table);
    String goals = block(docs, fixture(false), meta(), "goals");
    assertTrue(
        goals.contains(
            "| GC time ≤ 2 % of wall time, 20 M records with the JVM's default heap (lz4) | 1.00 %"
                + " (median of 3 runs, measured 2030-01-02 03:04 UTC; 1.30 µs of CPU per record"
                + " from the JVM's start in the median run, 3.3× building a record that day) |"
                + " met |"),
        goals);
    assertTrue(
        goals.contains(
            "| GC time ≤ 2 % of wall time, 20 M records with the JVM's default heap (zstd-1) |"
                + " 2.50 % (median of 1 run,"),
        goals);
  }

  @Test
  void withoutLongRunsTheBlockIsEmptyAndTheGoalsOmitThem() throws IOException {
    assertNull(block(docs, fixture(false), meta(), "long-run"));
    assertNull(block(docs, fixture(false), meta(), "long-run-measured"));
    String goals = block(docs, fixture(false), meta(), "goals");
    assertTrue(!goals.contains("default heap"), goals);
    // the lz4 median of the fixture: 700,000 records/s, 2.10 µs; zstd-1 700,010, 2.10 µs
    assertTrue(
        goals.contains(
            "| Whole-process CPU ≤ 1.0 µs per record, building the record included, lz4 and"
                + " zstd-1 | 2.10 µs (lz4), 2.10 µs (zstd-1), in their median runs | not yet |"),
        goals);
    assertTrue(
        goals.contains(
            "| Deliver ≥ 1,300,000 records/s with lz4 in the same runs | median 700,000 records/s"
                + " | not yet |"),
        goals);
  }

  @Test
  void theDefaultHeapIsASettingOfItsOwnThatReadsBack() {
    RunSpec spec = RunSpec.reference().withHeap("default");
    assertTrue(spec.defaultHeap());
    assertEquals("default", spec.toMap().get("heap"));
    assertEquals(spec, RunSpec.fromArgs(spec.toArgs().toArray(new String[0])));
    assertNull(RunSpec.reference().toMap().get("heap"), "absent for the fixed heap, as before");
  }

  /** 20 s delivering {@code perSec}: CPU by group as in the assertion, 5.9 GiB of heap at most. */
  private static Sample longRun(String section, RunSpec spec, long perSec, long gcMillis) {
    long n = perSec * 20;
    String line =
        "RESULT emitted="
            + n
            + " delivered="
            + n
            + " seconds=20.0 rawBytes="
            + n * 581
            + " cpuNanos="
            + n * 1_300
            + " cpu.app="
            + n * 900
            + " cpu.sender="
            + n * 250
            + " cpu.gc="
            + n * 20
            + " cpu.jit="
            + n * 100
            + " cpu.vm="
            + n * 30
            + " alloc.app="
            + n * 1_800
            + " alloc.sender="
            + n * 10
            + " gcMillis="
            + gcMillis
            + " gcCount=7 heapMaxBytes="
            + (long) (5.9 * (1L << 30))
            + " sinkRecords="
            + n;
    String codec = spec.compression() == Compression.LZ4 ? "lz4" : "zstd-1";
    return new Sample(
        section,
        spec.withLabel(
            "logproducer "
                + codec
                + (section.equals("longRun") ? ", 20 M records" : ", steady state")),
        RunResult.parse(line));
  }
}
