package io.logproducer.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import org.junit.jupiter.api.Test;

class WorkloadTest {

  @Test
  void recordsHaveTheReferenceShapeAndExactRawBytes() {
    Workload w = new Workload();
    long expected = 0;
    for (long seq : new long[] {0, 7, 123_456, 19_999_999}) {
      LogRecord r = w.next(seq);
      expected += Workload.rawBytesOf(r);
      assertEquals("INFO_" + seq, r.getAttribute("level").asString());
      assertEquals("pool-1-thread-2_" + seq, r.getAttribute("thread").asString());
      assertEquals("com.jdcloud.logs.producer.core.BatchSender.sendBatch(BatchSender.java:117)_" + seq,
          r.getAttribute("location").asString());
      String[] parts = r.getBody().asString().split(",");
      assertEquals(6, parts.length);
      for (int i = 0; i < 6; i++) {
        assertEquals(i + "测试日志_____abcdefghijklmnopqrstuvwxyz~!@#$%^&*()_0123456789_" + seq, parts[i]);
      }
    }
    assertEquals(expected, w.rawBytes());
    long one = Workload.rawBytesOf(new Workload().next(1_000_000));
    assertTrue(one > 560 && one < 620, "about 580 raw bytes per record, was " + one);
  }
}
