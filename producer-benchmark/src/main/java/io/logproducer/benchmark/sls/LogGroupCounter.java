package io.logproducer.benchmark.sls;

/**
 * Counts the logs of an SLS {@code LogGroup} (protobuf, as the aliyun-log SDK's {@code Logs.proto}
 * defines it) by walking its wire format, without generated classes:
 *
 * <pre>
 * LogGroup { repeated Log Logs = 1; optional string Reserved = 2; optional string Topic = 3;
 *            optional string Source = 4; repeated LogTag LogTags = 6; }
 * Log      { required uint32 Time = 1; repeated Content Contents = 2; optional fixed32 Time_ns = 4; }
 * Content  { required string Key = 1; required string Value = 2; }
 * </pre>
 *
 * <p>Every {@code Log} and every {@code Content} is walked: a Log without {@code Time}, a Content
 * without {@code Key}, or any field that runs past its enclosing message makes the whole group
 * malformed ({@link IllegalArgumentException}). Unknown fields are skipped by their wire type. One
 * instance per call.
 */
public final class LogGroupCounter {

  private static final int VARINT = 0;
  private static final int I64 = 1;
  private static final int LEN = 2;
  private static final int I32 = 5;

  private final byte[] buf;
  private int pos;
  private long contents;

  private LogGroupCounter(byte[] buf, int from) {
    this.buf = buf;
    this.pos = from;
  }

  /** What one LogGroup held. */
  public record Counts(long logs, long contents) {}

  /** Counts the logs and contents of the LogGroup in {@code buf[from, to)}. */
  public static Counts count(byte[] buf, int from, int to) {
    if (from < 0 || to > buf.length || from > to) {
      throw new IndexOutOfBoundsException("[" + from + ", " + to + ") of " + buf.length);
    }
    LogGroupCounter c = new LogGroupCounter(buf, from);
    long logs = 0;
    while (c.pos < to) {
      int tag = c.tag(to);
      if (tag == (1 << 3 | LEN)) {
        int end = c.end(to);
        c.log(end);
        logs++;
      } else {
        c.skip(tag & 7, to);
      }
    }
    return new Counts(logs, c.contents);
  }

  /** Walks one Log ending at {@code to}. */
  private void log(int to) {
    boolean time = false;
    while (pos < to) {
      int tag = tag(to);
      if (tag == (1 << 3 | VARINT)) {
        varint(to);
        time = true;
      } else if (tag == (2 << 3 | LEN)) {
        content(end(to));
        contents++;
      } else {
        skip(tag & 7, to);
      }
    }
    if (!time) {
      throw new IllegalArgumentException("a Log without Time, ending at " + to);
    }
  }

  private void content(int to) {
    boolean key = false;
    while (pos < to) {
      int tag = tag(to);
      key |= tag == (1 << 3 | LEN);
      skip(tag & 7, to);
    }
    if (!key) {
      throw new IllegalArgumentException("a Content without Key, ending at " + to);
    }
  }

  private int tag(int to) {
    long tag = varint(to);
    if (tag >>> 3 == 0 || tag < 0 || tag > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("invalid tag " + tag + " before " + pos);
    }
    return (int) tag;
  }

  /** Reads a length and returns where the field it prefixes ends. */
  private int end(int to) {
    long len = varint(to);
    if (len < 0 || len > to - pos) {
      throw new IllegalArgumentException("length " + len + " runs past its message at " + pos);
    }
    return pos + (int) len;
  }

  private void skip(int type, int to) {
    switch (type) {
      case VARINT -> varint(to);
      case I64 -> advance(8, to);
      case LEN -> pos = end(to);
      case I32 -> advance(4, to);
      default -> throw new IllegalArgumentException("wire type " + type + " before " + pos);
    }
  }

  private void advance(int n, int to) {
    if (n > to - pos) {
      throw new IllegalArgumentException("a field runs past its message at " + pos);
    }
    pos += n;
  }

  /** A varint of up to 10 bytes (values of 64 bits come out negative; callers reject them). */
  private long varint(int to) {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= to) {
        throw new IllegalArgumentException("truncated varint at " + pos);
      }
      byte b = buf[pos++];
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
    throw new IllegalArgumentException("varint longer than 10 bytes at " + pos);
  }
}
