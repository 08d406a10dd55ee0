package io.logproducer.internal.spool;

import static io.logproducer.internal.spool.SpoolTestSupport.append;
import static io.logproducer.internal.spool.SpoolTestSupport.assertEntry;
import static io.logproducer.internal.spool.SpoolTestSupport.config;
import static io.logproducer.internal.spool.SpoolTestSupport.open;
import static io.logproducer.internal.spool.SpoolTestSupport.readAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.logproducer.SpoolConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class SpoolRoundTripTest {
  @TempDir Path dir;

  @Test
  void randomSizesSurviveCloseAndReopenInOrder() throws Exception {
    Random r = new Random(7);
    List<Integer> sizes = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      int kind = r.nextInt(4);
      sizes.add(
          kind == 0
              ? 0
              : kind == 1 ? r.nextInt(100) : kind == 2 ? r.nextInt(64 << 10) : r.nextInt(3 << 20));
    }
    SpoolConfig cfg = config(dir, 8 << 20, 1L << 30).build();
    try (Spool spool = open(cfg)) {
      for (int i = 0; i < sizes.size(); i++) {
        assertEquals(i + 1, append(spool, i, sizes.get(i)));
      }
    }
    try (Spool spool = open(cfg)) {
      List<SpoolTestSupport.Read> all = readAll(spool);
      assertEquals(sizes.size(), all.size());
      for (int i = 0; i < sizes.size(); i++) {
        assertEquals(i + 1, all.get(i).sequence());
        assertEntry(all.get(i), i, sizes.get(i));
      }
      assertEquals(
          sizes.size() + 1, spool.nextSequence(), "sequence continues after a clean close");
      assertEquals(sizes.size() + 1, append(spool, 999, 10));
      assertEquals(0, spool.corruptEntries());
    }
  }

  @Test
  void entriesOfThisRunAndPreviousRunsAreReadInOneOrderAndCanBeBounded() throws Exception {
    SpoolConfig cfg = config(dir, 64 << 10, 4L << 20).build();
    try (Spool spool = open(cfg)) {
      for (int i = 0; i < 5; i++) {
        append(spool, i, 5000);
      }
    }
    try (Spool spool = open(cfg)) {
      assertEquals(6, spool.firstSequenceOfThisRun());
      for (int i = 5; i < 10; i++) {
        append(spool, i, 5000);
      }
      try (SpoolCursor c = spool.cursor()) {
        List<Long> old = new ArrayList<>();
        for (SpoolEntry e = c.next(spool.firstSequenceOfThisRun() - 1);
            e != null;
            e = c.next(spool.firstSequenceOfThisRun() - 1)) {
          old.add(e.sequence());
        }
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), old);
        assertEquals(6, c.next().sequence());
      }
      assertEquals(10, readAll(spool).size());
    }
  }

  @Test
  void tooLargeEntriesAndMetaAreRefused() throws Exception {
    try (Spool spool = open(config(dir, 64 << 10, 4L << 20).build())) {
      AppendResult r = spool.append(0, 1, null, java.nio.ByteBuffer.allocate(64 << 10));
      assertEquals(AppendResult.Status.TOO_LARGE, r.status());
      r = spool.append(0, 1, new byte[(64 << 10) + 1], java.nio.ByteBuffer.allocate(1));
      assertEquals(AppendResult.Status.TOO_LARGE, r.status());
      assertEquals(1, append(spool, 1, 10));
    }
  }
}
