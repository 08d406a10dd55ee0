package io.logproducer.gse.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.spi.RecordEncoder;
import java.lang.ref.WeakReference;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The encoders' per-thread scratch buffer pins nothing of the library in application threads. */
class ItemEncodersScratchTest {

  private static final DataIds IDS = new DataIds(1500001, 1);

  @Test
  void threadsHoldOnlyAJdkWeakReferenceThroughAPlainThreadLocal() {
    assertSame(ThreadLocal.class, ItemEncoders.scratchThreadLocal().getClass(), "no ThreadLocal subclass");
    JsonBytes j = ItemEncoders.scratch();
    Object held = ItemEncoders.scratchThreadLocal().get();
    assertSame(WeakReference.class, held.getClass());
    assertSame(j, ((WeakReference<?>) held).get());
    j.raw('x');
    JsonBytes again = ItemEncoders.scratch();
    assertSame(j, again, "reused while it lives");
    assertEquals(0, again.size(), "and handed out empty");
  }

  @Test
  void encodingIsTheSameWhenTheScratchBufferWasCollected() {
    RecordEncoder encoder = ItemEncoders.recordJson(IDS, Map.of());
    LogRecord record = LogRecord.builder().setBody("hello").setAttribute("k", "v").build();
    byte[] before = ItemEncoders.encode(encoder, record);
    JsonBytes first = ItemEncoders.scratch();
    ItemEncoders.scratchThreadLocal().get().clear(); // as a GC would
    byte[] after = ItemEncoders.encode(encoder, record);
    assertArrayEquals(before, after);
    assertNotSame(first, ItemEncoders.scratch(), "made anew");
  }

  @Test
  void aBufferGrownByAHugeRecordDoesNotSurvive() {
    RecordEncoder encoder = ItemEncoders.body(IDS);
    ItemEncoders.encode(encoder, LogRecord.builder().setBody("x".repeat(3 * 1024 * 1024)).build());
    JsonBytes j = ItemEncoders.scratch();
    assertTrue(j.array().length <= 1024 * 1024, "trimmed after use: " + j.array().length);
  }
}
