package io.logproducer.gse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.RecordTooLargeException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record far larger than the largest one the producer accepts is refused at {@code send} with
 * {@link RecordTooLargeException}, before anything of its size is allocated: the GSE encoder writes
 * into the producer's bounded buffer, which refuses to grow past its limit, instead of into an
 * unbounded scratch buffer of its own. Measured with the thread's allocated-bytes counter.
 */
class GseOversizedRecordTest {

  /**
   * The record's body: 64 MiB of text, more than any frame may hold (maxFrameBodyBytes is at most
   * 64 MiB).
   */
  private static final int BODY_CHARS = 64 * 1024 * 1024;

  /** What the refused send may allocate, in bytes: far below the record's size. */
  private static final long ALLOWED_BYTES = 4L * 1024 * 1024;

  @TempDir Path dir;

  @Test
  void a64MiBRecordIsRefusedBeforeABufferOfItsSizeExists() {
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    assertTrue(
        threads.isThreadAllocatedMemorySupported(), "this JVM counts allocated bytes per thread");
    threads.setThreadAllocatedMemoryEnabled(true);
    for (GseExporter.ItemFormat format : GseExporter.ItemFormat.values()) {
      GseExporter exporter =
          GseExporter.builder()
              .setUnixSocketPath(dir.resolve("absent.sock").toString())
              .setDataId(1500001)
              .setItemFormat(format)
              .build();
      Producer producer = new Producer(Support.config().build(), exporter);
      try {
        producer.send(LogRecord.builder().setBody("warm-up").build()); // the thread's buffer exists
        LogRecord huge = LogRecord.builder().setBody(repeat('x', BODY_CHARS)).build();
        long tid = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(tid);
        RecordTooLargeException e =
            assertThrows(RecordTooLargeException.class, () -> producer.send(huge));
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        assertNotNull(e.getMessage());
        assertTrue(
            allocated < ALLOWED_BYTES,
            format
                + ": refusing a "
                + BODY_CHARS
                + "-char record allocated "
                + allocated
                + " bytes, more than "
                + ALLOWED_BYTES);
        assertEquals(0, producer.getMetrics().getRecordsSent(), "nothing was sent");
      } finally {
        producer.close(100); // the warm-up record has no agent to go to
      }
    }
  }

  private static String repeat(char c, int n) {
    char[] chars = new char[n];
    java.util.Arrays.fill(chars, c);
    return new String(chars);
  }
}
