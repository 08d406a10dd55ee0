package io.logproducer.internal.spool;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The single-owner lock of a spool directory: an OS lock ({@link FileChannel#tryLock()}) on {@code
 * <dir>/lock}, whose content names the owner ({@code pid=<pid> started=<epoch millis>}). The OS
 * releases the lock when its process dies, however it dies (kill -9 included), so a lock left by a
 * dead process is simply taken over; the file itself is never deleted (deleting it would let two
 * owners lock two different inodes). Thread-safe for {@link #release()}.
 */
final class DirectoryLock {

  /** The file name. */
  static final String FILE = "lock";

  private final FileChannel channel;
  private final FileLock lock;
  private final long bytes;

  /** A held lock: its channel, the OS lock and the lock file's size in bytes. */
  private DirectoryLock(FileChannel channel, FileLock lock, long bytes) {
    this.channel = channel;
    this.lock = lock;
    this.bytes = bytes;
  }

  /**
   * Takes the lock of {@code dir} and writes this process's identity into it.
   *
   * @throws SpoolLockedException when another owner (in this JVM or another process) holds it
   * @throws IOException when the lock file cannot be created or written
   */
  static DirectoryLock acquire(Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    FileChannel ch =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    if (lock == null) {
      ch.close();
      throw new SpoolLockedException(dir, owner(file));
    }
    try {
      byte[] id = identity().getBytes(StandardCharsets.UTF_8);
      ch.truncate(0);
      ByteBuffer buf = ByteBuffer.wrap(id);
      while (buf.hasRemaining()) {
        ch.write(buf, buf.position());
      }
      return new DirectoryLock(ch, lock, id.length);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /** {@return the size of the lock file, bytes} */
  long bytes() {
    return bytes;
  }

  /** Releases the lock; idempotent, never throws. */
  void release() {
    try {
      if (lock.isValid()) {
        lock.release();
      }
    } catch (IOException ignored) {
      // The channel's close releases it as well.
    }
    try {
      channel.close();
    } catch (IOException ignored) {
      // Nothing more to release.
    }
  }

  /** {@return "pid=<pid> started=<millis>" of this process} */
  static String identity() {
    RuntimeMXBean rt = ManagementFactory.getRuntimeMXBean();
    return "pid=" + pid() + " started=" + rt.getStartTime() + "\n";
  }

  /** {@return this process's id (from the runtime name "pid@host" on Java 8), or -1} */
  static long pid() {
    String name = ManagementFactory.getRuntimeMXBean().getName();
    int at = name.indexOf('@');
    try {
      return Long.parseLong(at > 0 ? name.substring(0, at) : name);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** {@return the owner written in the lock {@code file}, or why it cannot be read} */
  private static String owner(Path file) {
    try {
      String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).trim();
      return text.isEmpty() ? "owner unknown" : text;
    } catch (IOException e) {
      return "owner unreadable: " + e;
    }
  }
}
