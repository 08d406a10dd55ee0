package io.logproducer.benchmark.harness;

import io.logproducer.LogRecord;
import io.logproducer.Severity;
import java.nio.charset.StandardCharsets;

/**
 * Records of a chosen size for the suite's record-size sweep, in the reference workload's style:
 * one attribute ({@code level=INFO_<sequence>}) and a {@code message} body of the reference's text
 * (numbered copies of its mixed Chinese/ASCII part, separated by commas), cut to length and ending
 * in {@code _<sequence>}. Raw bytes (UTF-8 keys and values, as the reference counts them) are
 * {@code recordBytes} for a 7-digit sequence number, a few bytes less or more for shorter or longer
 * ones. The reference record itself is the kit's {@code ReferenceWorkload}, which this class leaves
 * alone (the sweep's reference point uses it). One instance per application thread.
 */
final class SizedWorkload {

  static final String LEVEL = "INFO_";
  static final String PART = "测试日志_____abcdefghijklmnopqrstuvwxyz~!@#$%^&*()_0123456789_";

  /** Digits of the sequence number the size is computed for. */
  static final int NOMINAL_DIGITS = 7;

  private final LogRecord.Builder builder = LogRecord.builder();
  private final String filler;
  private final int fixedRawBytes;
  private final StringBuilder sb;
  private long rawBytes;

  SizedWorkload(int recordBytes) {
    // fixed: "level" + "INFO_" + "message" + the body's '_' separator; per record: the sequence
    // twice
    int fixed = utf8("level") + utf8(LEVEL) + utf8("message") + 1;
    int budget = Math.max(0, recordBytes - fixed - 2 * NOMINAL_DIGITS);
    StringBuilder f = new StringBuilder();
    int bytes = 0;
    outer:
    for (int i = 0; ; i++) {
      String piece = (i > 0 ? "," : "") + i + PART;
      for (int k = 0; k < piece.length(); k++) {
        char c = piece.charAt(k);
        int b = c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
        if (bytes + b > budget) {
          break outer;
        }
        f.append(c);
        bytes += b;
      }
    }
    filler = f.toString();
    fixedRawBytes = fixed + bytes;
    sb = new StringBuilder(filler.length() + 24);
  }

  /** The record with sequence number {@code seq}. */
  LogRecord next(long seq) {
    String s = Long.toString(seq);
    sb.setLength(0);
    sb.append(filler).append('_').append(s);
    rawBytes += fixedRawBytes + 2L * s.length();
    return builder
        .setTimeUnixNano(System.currentTimeMillis() * 1_000_000L)
        .setSeverity(Severity.INFO)
        .setAttribute("level", LEVEL + s)
        .setBody(sb.toString())
        .build();
  }

  /** Raw bytes of the records generated so far. */
  long rawBytes() {
    return rawBytes;
  }

  private static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
