package io.logproducer.internal.spool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;

/**
 * A fault-injection hook for power-loss tests, off unless the system property {@value #PROPERTY}
 * names a file: then each completed fsync of a segment appends the line {@code durable <segment
 * file name> <offset>} to that file and forces it, so that a test can cut every segment back to
 * what the device held (everything before {@code offset} is on the device). Costs one null check
 * per fsync when off. Thread-safe (appends are serialized).
 */
final class FsyncLog {

  /** The system property naming the log file; unset in production. */
  static final String PROPERTY = "io.logproducer.spool.fsyncLog";

  private static final Path FILE = file();

  /** Not instantiable. */
  private FsyncLog() {}

  private static Path file() {
    String name = System.getProperty(PROPERTY);
    return name == null || name.isEmpty() ? null : Paths.get(name);
  }

  /**
   * Notes that {@code segment}'s bytes before {@code offset} are forced. A failure to write the log
   * is ignored (the hook must not change what the spool does).
   */
  static void forced(Path segment, long offset) {
    if (FILE == null) {
      return;
    }
    byte[] line =
        ("durable " + segment.getFileName() + " " + offset + "\n").getBytes(StandardCharsets.UTF_8);
    synchronized (FsyncLog.class) {
      try (FileChannel ch =
          FileChannel.open(FILE, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
        ByteBuffer b = ByteBuffer.wrap(line);
        while (b.hasRemaining()) {
          ch.write(b);
        }
        ch.force(false);
      } catch (IOException ignored) {
        // A test hook: the spool goes on whatever happens to its log.
      }
    }
  }
}
