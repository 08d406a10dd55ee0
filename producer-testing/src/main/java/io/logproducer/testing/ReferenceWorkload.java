package io.logproducer.testing;

import io.logproducer.LogRecord;
import io.logproducer.Severity;
import java.nio.charset.StandardCharsets;

/**
 * The reference workload, as published with the JD Cloud Java producer's performance test: records
 * of four fields whose values end in {@code _<sequence>}, about 580 bytes of UTF-8 keys and values
 * each (529 bytes plus 9 per decimal digit of the sequence: 538 at sequence 0, 592 at sequence
 * 1,000,000). Here {@code level}, {@code thread} and {@code location} are string attributes, {@code
 * message} is the string body (six comma-separated parts holding CJK, ASCII letters, punctuation
 * and digits), the severity is {@code INFO} and the time is the wall clock's, in milliseconds.
 *
 * <p>"Raw bytes" of a record are the UTF-8 bytes of the four keys and values, as the reference
 * defines them. Not thread-safe: one instance per application thread (the records themselves are
 * immutable).
 */
public final class ReferenceWorkload {

  private static final String LEVEL = "INFO_";
  private static final String THREAD = "pool-1-thread-2_";
  private static final String LOCATION =
      "com.jdcloud.logs.producer.core.BatchSender.sendBatch(BatchSender.java:117)_";
  private static final String PART = "测试日志_____abcdefghijklmnopqrstuvwxyz~!@#$%^&*()_0123456789_";

  /** UTF-8 bytes of everything but the nine {@code <sequence>} digit runs. */
  private static final int FIXED_RAW_BYTES =
      utf8("level")
          + utf8(LEVEL)
          + utf8("thread")
          + utf8(THREAD)
          + utf8("location")
          + utf8(LOCATION)
          + utf8("message")
          + 6 * (1 + utf8(PART))
          + 5;

  private final LogRecord.Builder builder = LogRecord.builder();
  private final StringBuilder sb = new StringBuilder(640);
  private long rawBytes;

  /** Creates a workload that has generated nothing yet ({@link #rawBytes()} is 0). */
  public ReferenceWorkload() {}

  /**
   * Builds the record with sequence number {@code seq} and adds its raw bytes to {@link
   * #rawBytes()}.
   *
   * @param seq the sequence number, ≥ 0 (appended to every value)
   * @return the record
   */
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
    return builder
        .setTimeUnixNano(System.currentTimeMillis() * 1_000_000L)
        .setSeverity(Severity.INFO)
        .setAttribute("level", LEVEL + s)
        .setAttribute("thread", THREAD + s)
        .setAttribute("location", LOCATION + s)
        .setBody(sb.toString())
        .build();
  }

  /** {@return the raw bytes (UTF-8 of keys and values) of the records generated so far} */
  public long rawBytes() {
    return rawBytes;
  }

  /**
   * Computes the raw bytes of a record from the record itself: UTF-8 bytes of {@code "message"},
   * the string body, and every attribute's key and string value.
   *
   * @param r a record with a string body and string attributes
   * @return its raw bytes
   */
  public static long rawBytesOf(LogRecord r) {
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
