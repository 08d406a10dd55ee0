package io.logproducer.internal.spool;

import static io.logproducer.internal.spool.SpoolTestSupport.config;
import static io.logproducer.internal.spool.SpoolTestSupport.readAll;
import static io.logproducer.internal.spool.SpoolTestSupport.sequences;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.logproducer.SpoolConfig;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class SpoolMaxAgeTest {
  @TempDir Path dir;

  @Test
  void entriesOlderThanMaxAgeAreExpiredWhenReadAndReportedExactly() throws Exception {
    AtomicLong now = new AtomicLong(1_000_000);
    SpoolTestSupport.Recorder rec = new SpoolTestSupport.Recorder();
    SpoolConfig cfg = config(dir, 64 << 10, 4L << 20).setMaxAgeMillis(10_000).build();
    SpoolTuning tuning = new SpoolTuning(3_600_000, 0, 0, now::get);
    List<String> expectedEvents = new ArrayList<>();
    try (Spool spool = Spool.open(cfg, "test", rec, tuning)) {
      for (int i = 0; i < 10; i++) {
        long createdAt = 980_000 + 2_000 * i;
        byte[] meta = ("m" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        long seq = spool.append(createdAt, i + 1, meta, ByteBuffer.allocate(100)).sequence();
        if (now.get() - createdAt > 10_000) {
          expectedEvents.add("EXPIRED " + seq + " " + (i + 1) + " m" + i);
        }
      }
      assertEquals(0, spool.expiredEntries(), "nothing expires before it is read");
      assertEquals(List.of(1L + 5, 7L, 8L, 9L, 10L), sequences(readAll(spool)));
      assertEquals(expectedEvents, rec.events);
      assertEquals(5, spool.expiredEntries());
      assertEquals(5, spool.pendingEntries(), "expired entries left the spool");
      now.addAndGet(5_000);
      assertEquals(List.of(9L, 10L), sequences(readAll(spool)));
      assertEquals(8, spool.expiredEntries());
    }
  }
}
