package io.logproducer.benchmark.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JVM's own threads by name, and their CPU time from {@code /proc}. */
class ProcStatsTest {

  @Test
  void groupsHotSpotThreadsByName() {
    for (String gc :
        List.of("GC Thread#0", "GC Thread#7", "G1 Main Marker", "G1 Conc#0", "G1 Refine#0")) {
      assertEquals("gc", ProcStats.vmGroup(gc), gc);
    }
    assertEquals("gc", ProcStats.vmGroup("G1 Service"));
    assertEquals("gc", ProcStats.vmGroup("ZWorker#3"));
    for (String jit : List.of("C1 CompilerThre", "C2 CompilerThre", "Sweeper thread")) {
      assertEquals("jit", ProcStats.vmGroup(jit), jit);
    }
    for (String other :
        List.of(
            "VM Thread", "VM Periodic Tas", "java", "app-3", "bench-sender-0", "Signal Dispat")) {
      assertNull(ProcStats.vmGroup(other), other);
    }
  }

  @Test
  void readsUserPlusSystemTicksOfAStatLine() {
    // a thread whose name has a space and a parenthesis: utime 250, stime 37 ticks of 10 ms
    String stat =
        "4242 (C2 (CompilerT) S 1 1 1 0 -1 4194368 10 0 0 0 250 37 0 0 20 0 30 0 4294 1 2 3";
    assertEquals(2_870_000_000L, ProcStats.statCpuNanos(stat));
  }

  @Test
  void sumsThisJvmsGcAndJitThreads() {
    Map<String, Long> cpu = ProcStats.vmThreadCpuNanos();
    assertEquals(List.of("gc", "jit"), List.copyOf(cpu.keySet()));
    cpu.values().forEach(v -> assertEquals(0, v % 10_000_000L, "whole ticks: " + v));
  }

  @Test
  void theRunLineShowsCpuPerRecordByGroup() {
    RunResult r =
        RunResult.parse(
            "RESULT delivered=1000 cpu.app=970000 cpu.sender=270000 cpu.gc=10000 cpu.jit=0"
                + " cpu.vm=5000 cpu.warmup=99000");
    // sorted by group name; groups with no CPU and the warm-up's threads left out
    assertEquals(" (app 0.97, gc 0.01, sender 0.27, vm 0.01 µs)", ChildRun.byGroup(r));
    assertEquals("", ChildRun.byGroup(RunResult.parse("RESULT delivered=5")));
  }
}
