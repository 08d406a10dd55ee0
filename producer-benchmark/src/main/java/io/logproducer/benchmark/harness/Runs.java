package io.logproducer.benchmark.harness;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the suite decides about measured runs: their identity, how disturbed they were, the sweep's
 * pick.
 */
public final class Runs {

  private Runs() {}

  /**
   * The fewest send threads with which the application threads never waited for buffer space (in
   * every pass): send threads exist to keep requests in flight while earlier ones wait for the
   * receiver; once {@code send} never blocks, more of them only add runnable threads (and
   * connections). Falls back to the largest setting.
   */
  public static int pickUnblocked(int[] sendThreads, List<Sample> sweep) {
    for (int st : sendThreads) {
      List<Sample> l = sweep.stream().filter(s -> s.spec().sendThreads() == st).toList();
      boolean never =
          !l.isEmpty()
              && l.stream()
                  .allMatch(
                      s ->
                          s.result().getLong("sendBlockedNanos")
                              < 0.005 * s.spec().appThreads() * s.result().seconds() * 1e9);
      if (never) {
        return st;
      }
    }
    return sendThreads[sendThreads.length - 1];
  }

  /**
   * How disturbed a run was, 1 at either threshold: other processes' CPU against {@link
   * PerformanceSuite#DISTURBED_PERCENT}, the machine's slowdown (see {@link SpeedProbe}) against
   * {@link SpeedProbe#SLOW}; the larger.
   */
  public static double disturbance(RunResult r) {
    double slow =
        r.has("machineSlowdown") ? (r.getDouble("machineSlowdown") - 1) / (SpeedProbe.SLOW - 1) : 0;
    return Math.max(othersPercent(r) / PerformanceSuite.DISTURBED_PERCENT, slow);
  }

  /** The settings that define a measurement (label and profiling excluded). */
  public static String specKey(RunSpec spec) {
    Map<String, String> m = new LinkedHashMap<>(spec.toMap());
    m.remove("label");
    m.remove("jfr");
    return m.toString();
  }

  /**
   * CPU other processes used during a run's measured phase, % of one core; 0 when unknown (no
   * whole-machine figure, or a run too short for two sink reports, whose CPU would otherwise count
   * as someone else's).
   */
  public static double othersPercent(RunResult r) {
    if (!r.has("machineBusyPercent") || (r.has("sinkRecords") && !r.has("sinkCpuPercent"))) {
      return 0;
    }
    return r.getDouble("machineBusyPercent") - r.cpuPercent() - r.getDouble("sinkCpuPercent");
  }
}
