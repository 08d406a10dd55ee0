package io.logproducer.benchmark;

import io.logproducer.examples.Workload;

/**
 * How fast this machine runs right now: a fixed piece of single-threaded work — building
 * {@value #RECORDS} reference records, the fastest of {@value #ROUNDS} rounds — timed in the suite's JVM before and
 * after each run. On a virtual machine the host can slow every core down for minutes while no process here is busy
 * (seen here: the same settings at 1.24 and 1.72 µs of CPU per record minutes apart), which the whole-machine CPU
 * figure cannot show. A run whose slower probe took more than {@value #SLOW} times the suite's fastest probe ran on
 * a slowed machine. Not thread-safe: the suite's thread only.
 */
final class SpeedProbe {

  /** A run whose probe is this many times the fastest one ran on a slowed machine. */
  static final double SLOW = 1.15;
  static final int RECORDS = 20_000;
  static final int ROUNDS = 3;

  private final Workload workload = new Workload();
  private long sequence;
  private long blackhole;
  private double fastest = Double.POSITIVE_INFINITY;

  /** Measures until the JIT has compiled the probe, so that its first timed use is not slow for that reason. */
  void warmUp() {
    for (int i = 0; i < 30; i++) {
      measure();
    }
    fastest = Double.POSITIVE_INFINITY;
  }

  /** {@return ns per record now} The fastest of {@link #ROUNDS} rounds; also updates {@link #fastest()}. */
  double measure() {
    double best = Double.POSITIVE_INFINITY;
    for (int round = 0; round < ROUNDS; round++) {
      long t0 = System.nanoTime();
      for (int i = 0; i < RECORDS; i++) {
        blackhole += workload.next(sequence++).getAttributeCount();
      }
      best = Math.min(best, (System.nanoTime() - t0) / (double) RECORDS);
    }
    fastest = Math.min(fastest, best);
    return best;
  }

  /** {@return the fastest probe so far, ns per record} */
  double fastest() {
    return fastest;
  }

  /** {@return the slower of two probes against the fastest so far: 1.0 at full speed} */
  double slowdown(double before, double after) {
    return Math.max(before, after) / fastest;
  }

  @Override
  public String toString() {
    return "SpeedProbe{fastest=" + fastest + " ns/record, " + blackhole + "}";
  }
}
