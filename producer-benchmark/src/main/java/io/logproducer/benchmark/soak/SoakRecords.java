package io.logproducer.benchmark.soak;

import io.logproducer.LogRecord;
import io.logproducer.Severity;

/**
 * The reference workload of the test kit's {@code io.logproducer.testing.ReferenceWorkload} (same
 * four fields, ~580 bytes of UTF-8 keys and values, values ending in {@code _<sequence>}) plus one
 * integer attribute {@code seq} = thread × 10^9 + sequence, the id by which the soak's receiver
 * recognises every record. One instance per application thread.
 */
final class SoakRecords {

  /** Ids of thread {@code t} are {@code t * ID_STRIDE + i}. */
  static final long ID_STRIDE = 1_000_000_000L;

  static final String SEQ_KEY = "seq";

  // The same strings as the kit's ReferenceWorkload (private there).
  private static final String LEVEL = "INFO_";
  private static final String THREAD = "pool-1-thread-2_";
  private static final String LOCATION =
      "com.jdcloud.logs.producer.core.BatchSender.sendBatch(BatchSender.java:117)_";
  private static final String PART = "测试日志_____abcdefghijklmnopqrstuvwxyz~!@#$%^&*()_0123456789_";

  private final long idBase;
  private final LogRecord.Builder builder = LogRecord.builder();
  private final StringBuilder sb = new StringBuilder(640);

  SoakRecords(int thread) {
    this.idBase = thread * ID_STRIDE;
  }

  /** The record with sequence number {@code i} of this thread. */
  LogRecord next(long i) {
    String s = Long.toString(i);
    sb.setLength(0);
    for (int k = 0; k < 6; k++) {
      if (k > 0) {
        sb.append(',');
      }
      sb.append(k).append(PART).append(s);
    }
    return builder
        .setTimeUnixNano(System.currentTimeMillis() * 1_000_000L)
        .setSeverity(Severity.INFO)
        .setAttribute("level", LEVEL + s)
        .setAttribute("thread", THREAD + s)
        .setAttribute("location", LOCATION + s)
        .setAttribute(SEQ_KEY, idBase + i)
        .setBody(sb.toString())
        .build();
  }
}
