package io.logproducer.benchmark.jmh;

import io.logproducer.LogRecord;
import io.logproducer.testing.ReferenceWorkload;
import java.util.concurrent.ThreadLocalRandom;

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

  /**
   * Fills one appender benchmark thread's order ids and users (the two arguments of its logging
   * call), distinct for each thread.
   *
   * @param thread the thread's number, from 1
   * @param orderIds filled with ids
   * @param users filled with user names, as many as {@code orderIds}
   */
  static void fillOrders(int thread, Long[] orderIds, String[] users) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int i = 0; i < orderIds.length; i++) {
      orderIds[i] = 700_000_000L + thread * 10_000_000L + random.nextInt(10_000_000);
      users[i] = "user-" + Integer.toHexString(random.nextInt()) + "@example.com";
    }
  }
}
