package io.logproducer.testing.kafka;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads what a test needs from one {@code otlp_proto} Kafka message, a protobuf {@code ExportLogsServiceRequest}:
 * how many {@code LogRecord}s it holds and their string bodies. Walks the wire format without building objects and
 * refuses malformed input, so a test that counts with it also checks that every message parses. Not a general
 * protobuf reader: only the path {@code resource_logs(1) / scope_logs(2) / log_records(2) / body(5) /
 * string_value(1)} is followed, every other field is skipped. Stateless.
 */
final class OtlpLogsMessage {

  private static final int LENGTH_DELIMITED = 2;
  private static final int RESOURCE_LOGS = 1;
  private static final int SCOPE_LOGS = 2;
  private static final int LOG_RECORDS = 2;
  private static final int BODY = 5;
  private static final int STRING_VALUE = 1;

  private OtlpLogsMessage() {
  }

  /**
   * Counts the log records of a request.
   *
   * @param value the message value
   * @return the number of {@code LogRecord}s over all resource and scope groups
   * @throws IllegalArgumentException when {@code value} is null or not a well-formed request
   */
  static int recordCount(byte[] value) {
    return walk(value, null);
  }

  /**
   * The bodies of a request's log records, in the order they appear.
   *
   * @param value the message value
   * @return one entry per record: its string body, or null when the body is absent or not a string
   * @throws IllegalArgumentException when {@code value} is null or not a well-formed request
   */
  static List<String> stringBodies(byte[] value) {
    List<String> bodies = new ArrayList<>();
    walk(value, bodies);
    return bodies;
  }

  private static int walk(byte[] value, List<String> bodies) {
    if (value == null) {
      throw new IllegalArgumentException("value is null: not an ExportLogsServiceRequest");
    }
    int count = 0;
    Wire request = new Wire(value, 0, value.length);
    while (request.more()) {
      int tag = request.tag();
      if (tag == (RESOURCE_LOGS << 3 | LENGTH_DELIMITED)) {
        Wire resourceLogs = request.sub();
        while (resourceLogs.more()) {
          int t = resourceLogs.tag();
          if (t == (SCOPE_LOGS << 3 | LENGTH_DELIMITED)) {
            count += scopeLogs(resourceLogs.sub(), bodies);
          } else {
            resourceLogs.skip(t);
          }
        }
      } else {
        request.skip(tag);
      }
    }
    return count;
  }

  private static int scopeLogs(Wire scopeLogs, List<String> bodies) {
    int count = 0;
    while (scopeLogs.more()) {
      int t = scopeLogs.tag();
      if (t == (LOG_RECORDS << 3 | LENGTH_DELIMITED)) {
        Wire record = scopeLogs.sub();
        count++;
        if (bodies != null) {
          bodies.add(body(record));
        } else {
          record.skipAll();
        }
      } else {
        scopeLogs.skip(t);
      }
    }
    return count;
  }

  private static String body(Wire record) {
    String body = null;
    while (record.more()) {
      int t = record.tag();
      if (t == (BODY << 3 | LENGTH_DELIMITED)) {
        Wire anyValue = record.sub();
        body = null;
        while (anyValue.more()) {
          int a = anyValue.tag();
          if (a == (STRING_VALUE << 3 | LENGTH_DELIMITED)) {
            body = anyValue.string();
          } else {
            anyValue.skip(a);
          }
        }
      } else {
        record.skip(t);
      }
    }
    return body;
  }

  /** A range of protobuf wire bytes read front to back; every read checks the range's end. */
  private static final class Wire {
    private final byte[] buf;
    private final int end;
    private int pos;

    Wire(byte[] buf, int pos, int end) {
      this.buf = buf;
      this.pos = pos;
      this.end = end;
    }

    boolean more() {
      return pos < end;
    }

    int tag() {
      long tag = varint();
      if (tag >>> 3 == 0 || tag > Integer.MAX_VALUE) {
        throw malformed("field number 0 or too large in tag " + tag);
      }
      return (int) tag;
    }

    long varint() {
      long result = 0;
      for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= end) {
          throw malformed("truncated varint");
        }
        byte b = buf[pos++];
        result |= (long) (b & 0x7f) << shift;
        if (b >= 0) {
          return result;
        }
      }
      throw malformed("varint longer than 10 bytes");
    }

    Wire sub() {
      int length = length();
      Wire sub = new Wire(buf, pos, pos + length);
      pos += length;
      return sub;
    }

    String string() {
      int length = length();
      String s = new String(buf, pos, length, StandardCharsets.UTF_8);
      pos += length;
      return s;
    }

    private int length() {
      long length = varint();
      if (length < 0 || length > end - pos) {
        throw malformed("length " + length + " beyond the " + (end - pos) + " bytes left");
      }
      return (int) length;
    }

    void skip(int tag) {
      switch (tag & 7) {
        case 0:
          varint();
          break;
        case 1:
          advance(8);
          break;
        case LENGTH_DELIMITED:
          advance(length());
          break;
        case 5:
          advance(4);
          break;
        default:
          throw malformed("unsupported wire type " + (tag & 7) + " (field " + (tag >>> 3) + ")");
      }
    }

    void skipAll() {
      while (more()) {
        skip(tag());
      }
    }

    private void advance(int n) {
      if (n > end - pos) {
        throw malformed(n + " bytes needed, " + (end - pos) + " left");
      }
      pos += n;
    }

    private IllegalArgumentException malformed(String why) {
      return new IllegalArgumentException("not a well-formed ExportLogsServiceRequest at byte " + pos + ": " + why);
    }
  }
}
