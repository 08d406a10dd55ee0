package io.logproducer.benchmark.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The record-size sweep's records: the size asked for, counted as the reference counts raw bytes.
 */
class SizedWorkloadTest {

  private static long raw(LogRecord r) {
    long n = utf8("message") + utf8(r.getBody().asString());
    for (int i = 0; i < r.getAttributeCount(); i++) {
      n += utf8(r.getAttributeKey(i)) + utf8(r.getAttributeValue(i).asString());
    }
    return n;
  }

  private static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  @Test
  void recordsHaveTheRequestedRawSizeAndCountItExactly() {
    for (int size : new int[] {100, 4096, 65536}) {
      SizedWorkload w = new SizedWorkload(size);
      long sum = 0;
      for (long seq : new long[] {1_234_567, 7_654_321, 12}) {
        LogRecord r = w.next(seq);
        sum += raw(r);
        if (seq == 1_234_567) {
          // a 7-digit sequence number: the nominal size, less at most one multi-byte character
          assertTrue(raw(r) <= size && raw(r) >= size - 2, size + ": " + raw(r));
        }
        assertTrue(r.getBody().asString().endsWith("_" + seq));
      }
      assertEquals(sum, w.rawBytes(), "raw bytes counted as generated, size " + size);
    }
  }

  @Test
  void theReferenceRunKeepsTheReferenceWorkload() {
    RunSpec ref = RunSpec.reference();
    assertEquals(0, ref.recordBytes());
    // absent from the settings, so results.tsv lines and specs of reference runs are unchanged
    assertTrue(!ref.toMap().containsKey("recordBytes"));
    RunSpec sized = ref.withRecordBytes(4096);
    assertEquals(4096, RunSpec.fromMap(sized.toMap()).recordBytes());
    assertEquals(ref, RunSpec.fromMap(ref.toMap()));
  }
}
