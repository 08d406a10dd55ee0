package io.logproducer.benchmark.harness;

import java.util.Arrays;

/**
 * A fixed-bucket, log-linear histogram of non-negative {@code long} values (nanoseconds), in the
 * manner of HdrHistogram with 2 significant binary digits of 6 bits: values below 128 have their
 * own bucket; above, each power-of-two range is split into 64 equal buckets, so a reported value is
 * at most 1/64 (1.6 %) above the true one. Covers the whole {@code long} range in 3,712 buckets (29
 * KiB). Recording is two shifts and an increment.
 *
 * <p>Not thread-safe: each application thread records into its own histogram, and they are {@link
 * #add added} together at the end.
 */
public final class LatencyHistogram {

  private static final int SUB_BITS = 6;
  private static final int SUB = 1 << SUB_BITS; // 64

  /** Index of the last bucket: shift 57 (values up to 2^63-1), sub-bucket 127. */
  static final int BUCKETS = (63 - SUB_BITS) * SUB + 2 * SUB;

  private final long[] counts = new long[BUCKETS];
  private long total;
  private long max;
  private long min = Long.MAX_VALUE;
  private double sum;

  /** Records one value; negative values count as 0. */
  public void record(long value) {
    long v = Math.max(0, value);
    counts[index(v)]++;
    total++;
    sum += v;
    if (v > max) {
      max = v;
    }
    if (v < min) {
      min = v;
    }
  }

  /** The bucket of {@code v} (at least 0). */
  static int index(long v) {
    if (v < 2 * SUB) {
      return (int) v;
    }
    int shift = 63 - Long.numberOfLeadingZeros(v) - SUB_BITS; // >= 1
    return shift * SUB + (int) (v >>> shift);
  }

  /** The largest value that falls into bucket {@code index}. */
  static long highestValueIn(int index) {
    if (index < 2 * SUB) {
      return index;
    }
    int shift = index / SUB - 1;
    long sub = index - shift * SUB; // in [64, 128)
    long lowest = sub << shift;
    return lowest + (1L << shift) - 1;
  }

  /** Adds every value of {@code other} to this histogram. */
  public void add(LatencyHistogram other) {
    for (int i = 0; i < BUCKETS; i++) {
      counts[i] += other.counts[i];
    }
    total += other.total;
    sum += other.sum;
    max = Math.max(max, other.max);
    min = Math.min(min, other.min);
  }

  /** Values recorded. */
  public long count() {
    return total;
  }

  /** The exact largest value recorded, 0 if none. */
  public long max() {
    return max;
  }

  /** The exact smallest value recorded, 0 if none. */
  public long min() {
    return total == 0 ? 0 : min;
  }

  /** The mean of the recorded values, 0 if none. */
  public double mean() {
    return total == 0 ? 0 : sum / total;
  }

  /**
   * The value at {@code percentile} (0–100]: the smallest bucket bound such that at least that
   * share of the values is at or below it (never above {@link #max()}). 0 when empty.
   */
  public long percentile(double percentile) {
    if (!(percentile > 0 && percentile <= 100)) {
      throw new IllegalArgumentException("percentile must be in (0, 100], was " + percentile);
    }
    if (total == 0) {
      return 0;
    }
    long rank = (long) Math.ceil(percentile / 100.0 * total);
    rank = Math.max(1, Math.min(total, rank));
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += counts[i];
      if (seen >= rank) {
        return Math.min(highestValueIn(i), max);
      }
    }
    return max;
  }

  /**
   * A compact text form for passing a histogram between processes: {@code index:count,…} of
   * non-empty buckets.
   */
  public String encode() {
    StringBuilder sb = new StringBuilder();
    sb.append(total)
        .append('/')
        .append(max)
        .append('/')
        .append(min())
        .append('/')
        .append((long) sum);
    for (int i = 0; i < BUCKETS; i++) {
      if (counts[i] != 0) {
        sb.append(',').append(i).append(':').append(counts[i]);
      }
    }
    return sb.toString();
  }

  /** The inverse of {@link #encode()}. */
  public static LatencyHistogram decode(String s) {
    LatencyHistogram h = new LatencyHistogram();
    if (s == null || s.isEmpty()) {
      return h;
    }
    String[] parts = s.split(",");
    String[] head = parts[0].split("/");
    h.total = Long.parseLong(head[0]);
    h.max = Long.parseLong(head[1]);
    h.min = h.total == 0 ? Long.MAX_VALUE : Long.parseLong(head[2]);
    h.sum = Long.parseLong(head[3]);
    for (int i = 1; i < parts.length; i++) {
      int colon = parts[i].indexOf(':');
      h.counts[Integer.parseInt(parts[i].substring(0, colon))] =
          Long.parseLong(parts[i].substring(colon + 1));
    }
    return h;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LatencyHistogram h
        && h.total == total
        && h.max == max
        && Arrays.equals(h.counts, counts);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(counts);
  }
}
