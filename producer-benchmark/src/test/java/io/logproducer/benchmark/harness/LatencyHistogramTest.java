package io.logproducer.benchmark.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

  @Test
  void smallValuesAreExact() {
    LatencyHistogram h = new LatencyHistogram();
    for (int v = 1; v <= 100; v++) {
      h.record(v);
    }
    assertEquals(50, h.percentile(50));
    assertEquals(99, h.percentile(99));
    assertEquals(100, h.percentile(100));
    assertEquals(1, h.percentile(0.5));
    assertEquals(100, h.max());
    assertEquals(1, h.min());
    assertEquals(50.5, h.mean(), 1e-9);
  }

  @Test
  void bucketsAreContiguousAndBounded() {
    // Every value maps to a bucket whose highest value is >= the value and within 1/64 of it.
    long[] probes = {
      0,
      1,
      127,
      128,
      129,
      255,
      256,
      1000,
      4095,
      4096,
      123_456,
      5_000_000_000L,
      Long.MAX_VALUE / 3,
      Long.MAX_VALUE
    };
    for (long v : probes) {
      int i = LatencyHistogram.index(v);
      long hi = LatencyHistogram.highestValueIn(i);
      assertTrue(hi >= v, "bucket of " + v + " ends at " + hi);
      assertTrue(hi - v <= Math.max(0, v / 64), "bucket of " + v + " too wide: " + hi);
      assertTrue(i < LatencyHistogram.BUCKETS);
      if (v > 0) {
        assertTrue(LatencyHistogram.highestValueIn(LatencyHistogram.index(v) - 1) < v || v < 128);
      }
    }
    for (int i = 0; i < LatencyHistogram.BUCKETS - 70; i++) {
      long hi = LatencyHistogram.highestValueIn(i);
      assertEquals(i, LatencyHistogram.index(hi), "highest value of bucket " + i);
      if (hi < Long.MAX_VALUE) {
        assertEquals(i + 1, LatencyHistogram.index(hi + 1), "value after bucket " + i);
      }
    }
  }

  @Test
  void percentilesMatchSortedSamplesWithinPrecision() {
    Random rnd = new Random(42);
    long[] values = new long[100_000];
    LatencyHistogram h = new LatencyHistogram();
    for (int i = 0; i < values.length; i++) {
      values[i] = (long) Math.exp(rnd.nextGaussian() * 1.5 + 7); // log-normal around 1 µs
      h.record(values[i]);
    }
    Arrays.sort(values);
    for (double p : new double[] {50, 90, 99, 99.9, 99.99}) {
      long exact = values[(int) Math.ceil(p / 100 * values.length) - 1];
      long got = h.percentile(p);
      assertTrue(
          got >= exact && got <= exact + exact / 64 + 1,
          "p" + p + ": exact " + exact + ", histogram " + got);
    }
  }

  @Test
  void addAndEncodeRoundTrip() {
    LatencyHistogram a = new LatencyHistogram();
    LatencyHistogram b = new LatencyHistogram();
    a.record(300);
    a.record(70_000);
    b.record(5);
    b.record(-3); // counted as 0
    a.add(b);
    assertEquals(4, a.count());
    assertEquals(0, a.min());
    assertEquals(70_000, a.max());
    LatencyHistogram c = LatencyHistogram.decode(a.encode());
    assertEquals(a, c);
    assertEquals(a.percentile(75), c.percentile(75));
    assertEquals(0, LatencyHistogram.decode("").count());
    assertEquals(0, new LatencyHistogram().percentile(99));
  }

  @Test
  void rejectsBadPercentiles() {
    LatencyHistogram h = new LatencyHistogram();
    assertThrows(IllegalArgumentException.class, () -> h.percentile(0));
    assertThrows(IllegalArgumentException.class, () -> h.percentile(100.5));
  }
}
