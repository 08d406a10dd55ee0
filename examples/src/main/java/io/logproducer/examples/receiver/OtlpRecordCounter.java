package io.logproducer.examples.receiver;

/**
 * Counts the {@code LogRecord}s in an OTLP {@code ExportLogsServiceRequest}, in protobuf or JSON form, by walking
 * the structure without building objects. Throws {@link IllegalArgumentException} on malformed input, so a
 * receiver built on it verifies what it counts.
 */
public final class OtlpRecordCounter {

  private OtlpRecordCounter() {
  }

  /** Records in a protobuf {@code ExportLogsServiceRequest}. */
  public static long countProtobuf(byte[] buf, int off, int len) {
    long count = 0;
    ProtobufReader request = new ProtobufReader(buf, off, off + len);
    while (request.more()) {
      int tag = request.varint32();
      if (tag == (1 << 3 | 2)) { // resource_logs
        ProtobufReader rl = request.sub();
        while (rl.more()) {
          int t = rl.varint32();
          if (t == (2 << 3 | 2)) { // scope_logs
            ProtobufReader sl = rl.sub();
            while (sl.more()) {
              int st = sl.varint32();
              if (st == (2 << 3 | 2)) { // log_records
                sl.sub();
                count++;
              } else {
                sl.skip(st);
              }
            }
          } else {
            rl.skip(t);
          }
        }
      } else {
        request.skip(tag);
      }
    }
    return count;
  }

  /** Records in an OTLP/JSON request: the elements of every {@code "logRecords"} array. */
  public static long countJson(String json) {
    long count = 0;
    int i = 0;
    String key = "\"logRecords\"";
    while ((i = json.indexOf(key, i)) >= 0) {
      i += key.length();
      while (i < json.length() && (json.charAt(i) == ':' || Character.isWhitespace(json.charAt(i)))) {
        i++;
      }
      if (i >= json.length() || json.charAt(i) != '[') {
        throw new IllegalArgumentException("logRecords is not an array at " + i);
      }
      int depth = 0;
      boolean inString = false;
      for (; i < json.length(); i++) {
        char c = json.charAt(i);
        if (inString) {
          if (c == '\\') {
            i++;
          } else if (c == '"') {
            inString = false;
          }
          continue;
        }
        if (c == '"') {
          inString = true;
        } else if (c == '[' || c == '{') {
          depth++;
          if (c == '{' && depth == 2) {
            count++;
          }
        } else if (c == ']' || c == '}') {
          depth--;
          if (depth == 0) {
            break;
          }
        }
      }
      if (depth != 0) {
        throw new IllegalArgumentException("unterminated logRecords array");
      }
    }
    return count;
  }
}
