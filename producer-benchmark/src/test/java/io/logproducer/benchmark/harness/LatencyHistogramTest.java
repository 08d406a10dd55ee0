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
  void valuesAreReportedAtMostOneThousandthAbove() {
    long[] probes = {0, 1, 127, 128, 2047, 2048, 2049, 4095, 4096, 123_456, 5_000_000_000L};
    for (long v : probes) {
      LatencyHistogram h = new LatencyHistogram();
      h.record(v);
      h.record(2 * v + 1); // the max, so that p50 is not clamped to it
      long p50 = h.percentile(50);
      assertTrue(p50 >= v && p50 - v <= v / 1024, "p50 of " + v + " reported as " + p50);
    }
  }

  @Test
  void theFormBeforeHdrHistogramReadsBackWithItsPercentiles() {
    // 300 in bucket 203 (256..511 in 64 buckets of 4: 300..303), 70,000 in bucket 708
    // (69,632..70,655)
    LatencyHistogram h = LatencyHistogram.decode("2/70000/300/70300,203:1,708:1");
    assertEquals(303, h.percentile(50));
    assertEquals(70_000, h.percentile(100)); // never above the exact max
    assertEquals(2, h.count());
    assertEquals(300, h.min());
    assertEquals(35_150, h.mean(), 1e-9);
    assertEquals(127, LatencyHistogram.legacyHighestValueIn(127));
    assertEquals(70_655, LatencyHistogram.legacyHighestValueIn(708));
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
          got >= exact && got <= exact + exact / 1024 + 1,
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
