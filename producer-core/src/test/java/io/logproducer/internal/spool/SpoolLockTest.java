package io.logproducer.internal.spool;

import static io.logproducer.internal.spool.SpoolTestSupport.config;
import static io.logproducer.internal.spool.SpoolTestSupport.open;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.SpoolConfig;
import io.logproducer.SpoolLockedException;
import io.logproducer.SpoolOpenException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class SpoolLockTest {
  @TempDir Path dir;

  @Test
  void aSecondOpenInThisJvmFailsNamingDirectoryAndPid() throws Exception {
    SpoolConfig cfg = config(dir, 64 << 10, 4L << 20).build();
    try (Spool spool = open(cfg)) {
      SpoolLockedException e = assertThrows(SpoolLockedException.class, () -> open(cfg));
      assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
      assertTrue(e.getMessage().contains("pid=" + ProcessHandle.current().pid()), e.getMessage());
    }
    try (Spool again = open(cfg)) {
      assertTrue(Files.exists(dir.resolve(DirectoryLock.FILE)), "released by close, reopened");
    }
  }

  @Test
  void anotherKindIsRefusedNamingBoth() throws Exception {
    try (Spool spool = open(config(dir, 64 << 10, 4L << 20).build())) {
      spool.append(0, 1, null, java.nio.ByteBuffer.allocate(10));
    }
    SpoolConfig other = config(dir, 64 << 10, 4L << 20).build();
    SpoolOpenException e =
        assertThrows(
            SpoolOpenException.class,
            () -> Spool.open(other, "kafka", SpoolEvents.NONE, SpoolTestSupport.TUNING));
    assertEquals(dir, e.getDirectory());
    assertTrue(
        e.getMessage().contains("'test'") && e.getMessage().contains("'kafka'"), e.getMessage());
    assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
    try (Spool spool = open(config(dir, 64 << 10, 4L << 20).build())) {
      assertTrue(spool.pendingEntries() == 1, "the refused open released the lock");
    }
  }
}
