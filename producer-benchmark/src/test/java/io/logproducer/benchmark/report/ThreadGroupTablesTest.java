package io.logproducer.benchmark.report;

import static io.logproducer.benchmark.report.ReportFixture.block;
import static io.logproducer.benchmark.report.ReportFixture.fixture;
import static io.logproducer.benchmark.report.ReportFixture.meta;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.benchmark.harness.RunResult;
import io.logproducer.benchmark.harness.Sample;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CPU and allocation by thread group: GC and JIT threads apart, GC time as a share of wall time.
 */
class ThreadGroupTablesTest {

  @TempDir Path docs;

  @Test
  void allocationPerRecordByGroupAndGcShareOfWallTime() throws IOException {
    String alloc = block(docs, fixture(false), meta(), "alloc");
    assertTrue(
        alloc.startsWith(
            "| run | records/s | app B/record | all B/record | GCs | GC ms | GC % of wall time |"),
        alloc);
    // 1,800 B per record on the app threads, 40 ms of GC in a 1-second run
    assertTrue(
        alloc.contains("| logproducer lz4 | 700,000 | 1,800 | 1,800 | 0 | 40 | 4.00 |"), alloc);
  }

  @Test
  void gcAndJitThreadsHaveColumnsOfTheirOwn() throws IOException {
    List<Sample> data = new ArrayList<>();
    for (Sample s : fixture(false)) {
      String line = s.result().format();
      if (s.spec().client() == io.logproducer.benchmark.harness.RunSpec.Client.LOGPRODUCER) {
        long delivered = s.result().delivered();
        line +=
            " cpu.gc="
                + delivered * 50
                + " cpu.jit="
                + delivered * 20
                + " alloc.sender="
                + delivered * 8
                + " gcCount=3";
      }
      data.add(new Sample(s.section(), s.spec(), RunResult.parse(line)));
    }
    String cpu = block(docs, data, meta(), "cpu");
    assertTrue(cpu.contains("| http µs | gc µs | jit µs | vm µs | total µs |"), cpu);
    // app 1.50, sender 0.40, gc 0.05, jit 0.02, vm 0.20 µs per record
    assertTrue(
        cpu.contains(
            "| logproducer lz4 | 700,000 | 1.50 | 0.40 | – | – | 0.05 | 0.02 | 0.20 | 2.10 |"),
        cpu);
    String alloc = block(docs, data, meta(), "alloc");
    assertTrue(
        alloc.contains("| logproducer lz4 | 700,000 | 1,800 | 8 | 1,808 | 3 | 40 | 4.00 |"), alloc);
  }
}
