package io.logproducer.examples;

import io.logproducer.LogRecord;
import io.logproducer.Severity;
import java.nio.charset.StandardCharsets;

/**
 * The reference workload, as published with the JD Cloud Java producer's performance test: records with four fields
 * whose values end in {@code _<sequence>}, about 580 bytes of UTF-8 keys and values each. Here {@code level}, {@code thread} and {@code location} are attributes
 * and {@code message} is the body.
 *
 * <p>"Raw bytes" of a record are the UTF-8 bytes of the four keys and values, as the reference defines them. One
 * instance per application thread (not thread-safe).
 */
public final class Workload {

  static final String LEVEL = "INFO_";
  static final String THREAD = "pool-1-thread-2_";
  static final String LOCATION = "com.jdcloud.logs.producer.core.BatchSender.sendBatch(BatchSender.java:117)_";
  static final String PART = "测试日志_____abcdefghijklmnopqrstuvwxyz~!@#$%^&*()_0123456789_";
  /** UTF-8 bytes of everything but the nine {@code <sequence>} digit runs. */
  static final int FIXED_RAW_BYTES = utf8("level") + utf8(LEVEL) + utf8("thread") + utf8(THREAD) + utf8("location")
      + utf8(LOCATION) + utf8("message") + 6 * (1 + utf8(PART)) + 5;

  private final LogRecord.Builder builder = LogRecord.builder();
  private final StringBuilder sb = new StringBuilder(640);
  private long rawBytes;

  /** The record with sequence number {@code seq}. */
  public LogRecord next(long seq) {
    String s = Long.toString(seq);
    sb.setLength(0);
    for (int i = 0; i < 6; i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(i).append(PART).append(s);
    }
    rawBytes += FIXED_RAW_BYTES + 9L * s.length();
    return builder.setTimeUnixNano(System.currentTimeMillis() * 1_000_000L)
        .setSeverity(Severity.INFO)
        .setAttribute("level", LEVEL + s)
        .setAttribute("thread", THREAD + s)
        .setAttribute("location", LOCATION + s)
        .setBody(sb.toString())
        .build();
  }

  /** Raw bytes of the records generated so far. */
  public long rawBytes() {
    return rawBytes;
  }

  /** Raw bytes of record {@code seq}, computed from the record itself (for tests). */
  static long rawBytesOf(LogRecord r) {
    long n = utf8("message") + utf8(r.getBody().asString());
    for (int i = 0; i < r.getAttributeCount(); i++) {
      n += utf8(r.getAttributeKey(i)) + utf8(r.getAttributeValue(i).asString());
    }
    return n;
  }

  private static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
