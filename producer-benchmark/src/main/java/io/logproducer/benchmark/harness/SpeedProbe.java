package io.logproducer.benchmark.harness;

import io.logproducer.LogRecord;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;
import io.logproducer.testing.ReferenceWorkload;
import java.util.Arrays;

/**
 * How fast this machine runs right now: a fixed piece of single-threaded work — OTLP-encoding
 * {@value #RECORDS} reference records, the median of {@value #ROUNDS} rounds — timed in the suite's
 * JVM before and after each run. On a virtual machine the host can slow the cores down for minutes
 * while no process here is busy (seen here: the same settings at 1.24 and 1.72 µs of CPU per record
 * minutes apart; the JMH encoder benchmark at 387 and 604 ns), which the whole-machine CPU figure
 * cannot show. The encoder is the probe because it is most of the producer's work per record and
 * was the most sensitive to such slowdowns (building records or compressing barely moved). A run
 * whose slower probe took more than {@value #SLOW} times the suite's fastest probe ran on a slowed
 * machine. Not thread-safe: the suite's thread only.
 */
final class SpeedProbe {

  /** A run whose probe is this many times the fastest one ran on a slowed machine. */
  static final double SLOW = 1.15;

  static final int RECORDS = 10_000;
  static final int ROUNDS = 5;

  private final LogRecord[] records = new LogRecord[1024];
  private final RecordEncoder encoder =
      OtlpHttpExporter.builder().setEndpoint("http://127.0.0.1:9").build().encoder();
  private final EncodeBuffer buffer = new EncodeBuffer(4096);
  private long blackhole;
  private double fastest = Double.POSITIVE_INFINITY;

  SpeedProbe() {
    ReferenceWorkload w = new ReferenceWorkload();
    for (int i = 0; i < records.length; i++) {
      records[i] = w.next(i);
    }
  }

  /**
   * Measures until the JIT has compiled the probe, so that its first timed use is not slow for that
   * reason.
   */
  void warmUp() {
    for (int i = 0; i < 30; i++) {
      measure();
    }
    fastest = Double.POSITIVE_INFINITY;
  }

  /**
   * {@return ns per record now} The median of {@link #ROUNDS} rounds; also updates {@link
   * #fastest()}.
   */
  double measure() {
    double[] rounds = new double[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
      long t0 = System.nanoTime();
      for (int i = 0; i < RECORDS; i++) {
        buffer.reset();
        encoder.encode(records[i & (records.length - 1)], buffer);
        blackhole += buffer.size();
      }
      rounds[round] = (System.nanoTime() - t0) / (double) RECORDS;
    }
    Arrays.sort(rounds);
    double median = rounds[ROUNDS / 2];
    fastest = Math.min(fastest, median);
    return median;
  }

  /** {@return the fastest probe so far, ns per record} */
  double fastest() {
    return fastest;
  }

  /** {@return the slower of two probes against the fastest so far: 1.0 at full speed} */
  double slowdown(double before, double after) {
    return Math.max(before, after) / fastest;
  }

  /**
   * Probes every second, for a look at the machine: {@code java -cp benchmarks.jar …SpeedProbe
   * [seconds]}.
   */
  public static void main(String[] args) throws InterruptedException {
    SpeedProbe p = new SpeedProbe();
    p.warmUp();
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
    for (int i = 0; i < seconds; i++) {
      double ns = p.measure();
      System.out.printf(
          java.util.Locale.ROOT,
          "%3d s  %6.1f ns/record  %.3f× the fastest%n",
          i,
          ns,
          ns / p.fastest());
      Thread.sleep(1000);
    }
  }

  @Override
  public String toString() {
    return "SpeedProbe{fastest=" + fastest + " ns/record, " + blackhole + "}";
  }
}
