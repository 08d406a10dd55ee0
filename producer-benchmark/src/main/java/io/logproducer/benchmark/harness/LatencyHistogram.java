package io.logproducer.benchmark.harness;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Sampled latencies in nanoseconds: an HdrHistogram {@link Histogram} of 3 significant digits
 * (values below 2048 exact, others reported at most 1/1024 above the true one), with the exact
 * smallest and largest value and sum beside it.
 *
 * <p>Not thread-safe: each application thread records into its own histogram, and they are {@link
 * #add added} together at the end.
 */
public final class LatencyHistogram {

  private final Histogram h = new Histogram(3);
  private long max;
  private long min = Long.MAX_VALUE;
  private double sum;

  /** Records one value; negative values count as 0. */
  public void record(long value) {
    long v = Math.max(0, value);
    h.recordValue(v);
    sum += v;
    max = Math.max(max, v);
    min = Math.min(min, v);
  }

  /** Adds every value of {@code other} to this histogram. */
  public void add(LatencyHistogram other) {
    h.add(other.h);
    sum += other.sum;
    max = Math.max(max, other.max);
    min = Math.min(min, other.min);
  }

  /** Values recorded. */
  public long count() {
    return h.getTotalCount();
  }

  /** The exact largest value recorded, 0 if none. */
  public long max() {
    return max;
  }

  /** The exact smallest value recorded, 0 if none. */
  public long min() {
    return count() == 0 ? 0 : min;
  }

  /** The mean of the recorded values, 0 if none. */
  public double mean() {
    return count() == 0 ? 0 : sum / count();
  }

  /**
   * The value at {@code percentile} (0–100]: the smallest bucket bound such that at least that
   * share of the values is at or below it (never above {@link #max()}). 0 when empty.
   *
   * @throws IllegalArgumentException when {@code percentile} is not in (0, 100]
   */
  public long percentile(double percentile) {
    if (!(percentile > 0 && percentile <= 100)) {
      throw new IllegalArgumentException("percentile must be in (0, 100], was " + percentile);
    }
    // the rank as before HdrHistogram (whose getValueAtPercentile rounds the rank its own way)
    long rank = Math.max(1, Math.min(count(), (long) Math.ceil(percentile / 100.0 * count())));
    long seen = 0;
    for (HistogramIterationValue v : h.recordedValues()) {
      seen += v.getCountAtValueIteratedTo();
      if (seen >= rank) {
        return Math.min(v.getValueIteratedTo(), max);
      }
    }
    return 0;
  }

  /**
   * A compact text form for passing a histogram between processes, without spaces: {@code
   * hdr:<max>/<min>/<sum>/<the histogram's compressed encoding, base64>}.
   */
  public String encode() {
    ByteBuffer b = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int n = h.encodeIntoCompressedByteBuffer(b);
    String hdr = Base64.getEncoder().encodeToString(Arrays.copyOf(b.array(), n));
    return "hdr:%d/%d/%d/%s".formatted(max, min(), (long) sum, hdr);
  }

  /**
   * The inverse of {@link #encode()}; also reads the form written before HdrHistogram ({@code
   * <count>/<max>/<min>/<sum>,<bucket>:<count>,…}).
   *
   * @throws IllegalArgumentException when the histogram part does not decode
   */
  public static LatencyHistogram decode(String s) {
    LatencyHistogram l = new LatencyHistogram();
    if (s == null || s.isEmpty()) {
      return l;
    }
    String[] f;
    if (s.startsWith("hdr:")) {
      f = s.substring(4).split("/", 4);
      try {
        l.h.add(
            Histogram.decodeFromCompressedByteBuffer(
                ByteBuffer.wrap(Base64.getDecoder().decode(f[3])), 0));
      } catch (DataFormatException e) {
        throw new IllegalArgumentException("not an encoded histogram: " + s, e);
      }
    } else {
      String[] parts = s.split(",");
      for (int i = 1; i < parts.length; i++) {
        String[] bucket = parts[i].split(":");
        l.h.recordValueWithCount(
            legacyHighestValueIn(Integer.parseInt(bucket[0])), Long.parseLong(bucket[1]));
      }
      f = Arrays.copyOfRange(parts[0].split("/"), 1, 4);
    }
    l.max = Long.parseLong(f[0]);
    l.min = l.count() == 0 ? Long.MAX_VALUE : Long.parseLong(f[1]);
    l.sum = Long.parseLong(f[2]);
    return l;
  }

  /**
   * The largest value of bucket {@code index} of the form before HdrHistogram (a bucket for each
   * value below 128, then 64 for each power of two). Each is also the largest value of a bucket of
   * {@link #h} (finer, and on the same power-of-two bounds), so old percentiles read back
   * unchanged.
   */
  static long legacyHighestValueIn(int index) {
    if (index < 128) {
      return index;
    }
    int shift = index / 64 - 1;
    return ((index - shift * 64L) << shift) + (1L << shift) - 1;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LatencyHistogram l && l.h.equals(h) && l.max == max && l.min() == min();
  }

  @Override
  public int hashCode() {
    return h.hashCode();
  }
}
