package io.logproducer.gse.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.RecordTooLargeException;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The encoders write straight into the producer's buffer and respect its limit: a record that does
 * not fit is refused before the buffer grows past it; one that fits only by its exact escaped
 * length (not by the worst case of 7 bytes a char) is encoded whole, the same bytes as into an
 * unlimited buffer.
 */
class ItemEncodersLimitTest {

  private static final DataIds IDS = new DataIds(1500001, 1);
  private static final int LIMIT = 1024 * 1024;

  @Test
  void aRecordLargerThanTheLimitIsRefusedWithoutGrowingPastIt() {
    for (RecordEncoder encoder :
        new RecordEncoder[] {ItemEncoders.body(IDS), ItemEncoders.recordJson(IDS, Map.of())}) {
      EncodeBuffer out = new EncodeBuffer(256);
      out.setLimit(LIMIT);
      LogRecord record = LogRecord.builder().setBody("x".repeat(3 * LIMIT)).build();
      assertThrows(RecordTooLargeException.class, () -> encoder.encode(record, out));
      assertTrue(out.capacity() <= 256, "nothing allocated for it: capacity " + out.capacity());
    }
  }

  @Test
  void aRecordThatFitsOnlyByItsExactLengthIsEncodedWhole() {
    String body = "a<b\"c" + "x".repeat(LIMIT / 2);
    for (RecordEncoder encoder :
        new RecordEncoder[] {ItemEncoders.body(IDS), ItemEncoders.recordJson(IDS, Map.of())}) {
      LogRecord record = LogRecord.builder().setBody(body).build();
      EncodeBuffer out = new EncodeBuffer(256);
      out.setLimit(LIMIT);
      encoder.encode(record, out);
      byte[] unlimited = ItemEncoders.encode(encoder, record);
      byte[] limited = java.util.Arrays.copyOf(out.array(), out.size());
      assertArrayEquals(unlimited, limited);
      assertTrue(out.capacity() <= LIMIT, "capacity " + out.capacity());
    }
  }

  @Test
  void theBodyItemIsItsEscapedText() {
    EncodeBuffer out = new EncodeBuffer(16);
    out.setLimit(LIMIT);
    ItemEncoders.body(IDS).encode(LogRecord.builder().setBody("a<b\"c\n").build(), out);
    assertEquals(
        "{\"data\":\"a\\u003cb\\\"c\\n\"",
        new String(out.array(), 0, out.size(), StandardCharsets.UTF_8));
  }
}
