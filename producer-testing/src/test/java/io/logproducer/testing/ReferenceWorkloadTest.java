package io.logproducer.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.logproducer.LogRecord;
import org.junit.jupiter.api.Test;

class ReferenceWorkloadTest {

  @Test
  void recordsHaveTheReferenceShapeAndExactRawBytes() {
    ReferenceWorkload w = new ReferenceWorkload();
    long expected = 0;
    for (long seq : new long[] {0, 7, 123_456, 19_999_999}) {
      LogRecord r = w.next(seq);
      expected += ReferenceWorkload.rawBytesOf(r);
      assertEquals("INFO_" + seq, r.getAttribute("level").asString());
      assertEquals("pool-1-thread-2_" + seq, r.getAttribute("thread").asString());
      assertEquals(
          "com.jdcloud.logs.producer.core.BatchSender.sendBatch(BatchSender.java:117)_" + seq,
          r.getAttribute("location").asString());
      String[] parts = r.getBody().asString().split(",");
      assertEquals(6, parts.length);
      for (int i = 0; i < 6; i++) {
        assertEquals(
            i + "测试日志_____abcdefghijklmnopqrstuvwxyz~!@#$%^&*()_0123456789_" + seq, parts[i]);
      }
    }
    assertEquals(expected, w.rawBytes());
    long one = ReferenceWorkload.rawBytesOf(new ReferenceWorkload().next(1_000_000));
    assertEquals(592, one, "529 raw bytes plus 9 per digit of the sequence");
    assertEquals(538, ReferenceWorkload.rawBytesOf(new ReferenceWorkload().next(0)));
  }
}
