package io.logproducer.testing.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Counting and decoding requests outside a receiver (moved from examples' OtlpRecordCounterTest).
 */
class OtlpRequestsTest {

  /**
   * ExportLogsServiceRequest with 2 ResourceLogs holding 1 and 2 ScopeLogs of 2, 1 and 3 records.
   */
  @Test
  void countsRecordsAcrossResourceAndScopeLogs() {
    byte[] request =
        request(resourceLogs(scopeLogs(2)), resourceLogs(concat(scopeLogs(1), scopeLogs(3))));
    assertEquals(6, OtlpRequests.countProtobuf(request, 0, request.length));
    assertEquals(0, OtlpRequests.countProtobuf(new byte[0], 0, 0));
  }

  @Test
  void truncatedInputIsRejected() {
    byte[] request = request(resourceLogs(scopeLogs(2)));
    assertThrows(
        IllegalArgumentException.class,
        () -> OtlpRequests.countProtobuf(request, 0, request.length - 1));
  }

  @Test
  void countsJsonLogRecordsIgnoringBracesInStrings() {
    String json =
        "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"body\":{\"stringValue\":\"a}{[\\\"\"}},"
            + "{\"attributes\":[{\"key\":\"k\",\"value\":{\"kvlistValue\":{\"values\":[]}}}]}]},"
            + "{\"logRecords\":[ {} ]}]}]}";
    assertEquals(3, OtlpRequests.countJson(json));
    assertThrows(
        IllegalArgumentException.class, () -> OtlpRequests.countJson("{\"logRecords\":[{"));
    assertThrows(
        IllegalArgumentException.class, () -> OtlpRequests.countJson("{\"resourceLogs\":{}}"));
  }

  @Test
  void countsASliceAndDecodesTheSameRecords() {
    byte[] request =
        request(resourceLogs(scopeLogs(2)), resourceLogs(concat(scopeLogs(1), scopeLogs(3))));
    byte[] padded = new byte[request.length + 7];
    System.arraycopy(request, 0, padded, 3, request.length);
    assertEquals(6, OtlpRequests.countProtobuf(padded, 3, request.length));
    assertThrows(
        IllegalArgumentException.class, () -> OtlpRequests.countProtobuf(padded, 3, padded.length));
    java.util.List<ReceivedLogRecord> records = OtlpRequests.decodeProtobuf(request);
    assertEquals(6, records.size());
    for (ReceivedLogRecord r : records) {
      assertEquals("s", r.scopeName());
      assertEquals(0x0807060504030201L, r.timeUnixNano());
    }
  }

  private static byte[] scopeLogs(int records) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    field(out, 1, new byte[] {0x0A, 0x01, 's'}); // scope { name: "s" }
    for (int i = 0; i < records; i++) {
      field(out, 2, new byte[] {0x09, 1, 2, 3, 4, 5, 6, 7, 8}); // LogRecord { time_unix_nano }
    }
    return out.toByteArray();
  }

  private static byte[] resourceLogs(byte[] scopeLogsFields) {
    return scopeLogsFields;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    field(out, 2, a);
    field(out, 2, b);
    return out.toByteArray();
  }

  private static byte[] request(byte[]... resourceLogs) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] rl : resourceLogs) {
      ByteArrayOutputStream r = new ByteArrayOutputStream();
      field(r, 1, new byte[0]); // empty Resource
      if (rl.length > 0 && rl[0] == 0x12) {
        r.writeBytes(rl); // already a list of scope_logs fields
      } else {
        field(r, 2, rl);
      }
      field(out, 1, r.toByteArray());
    }
    return out.toByteArray();
  }

  private static void field(ByteArrayOutputStream out, int number, byte[] value) {
    out.write(number << 3 | 2);
    int len = value.length;
    while (len >= 0x80) {
      out.write(len & 0x7F | 0x80);
      len >>>= 7;
    }
    out.write(len);
    out.writeBytes(value);
  }
}
