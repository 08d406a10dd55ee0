package io.logproducer.benchmark.jmh;

import io.logproducer.LogRecord;
import io.logproducer.testing.ReferenceWorkload;

/**
 * Pre-generated reference-workload records, so that benchmarks measure the producer and not the
 * generator.
 */
final class Records {

  /** Records per pool (a power of two). */
  static final int POOL = 1024;

  private Records() {}

  /** {@link #POOL} records with sequence numbers {@code base … base+POOL-1}. */
  static LogRecord[] pool(long base) {
    ReferenceWorkload w = new ReferenceWorkload();
    LogRecord[] r = new LogRecord[POOL];
    for (int i = 0; i < POOL; i++) {
      r[i] = w.next(base + i);
    }
    return r;
  }
}
