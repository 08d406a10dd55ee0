package io.logproducer.internal.spool;

import io.logproducer.SpoolLockedException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

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

  /**
   * The directories (real paths) this JVM holds, with their owner line. Checked before the lock
   * file is even opened: on Linux (POSIX {@code fcntl} locks) closing any descriptor of a file
   * drops every lock the process holds on it, so a second open in this JVM must not open, read or
   * close the lock file of a directory this JVM holds (it would silently hand the lock to another
   * process).
   */
  private static final ConcurrentHashMap<Path, String> HELD = new ConcurrentHashMap<>();

  /** Numbers the claims, so that a late second release cannot drop a newer claim. */
  private static final AtomicLong CLAIMS = new AtomicLong();

  private final FileChannel channel;
  private final FileLock lock;
  private final long bytes;
  private final Path key;
  private final String token;

  /**
   * A held lock: its channel, the OS lock, the lock file's size in bytes and the directory's key.
   */
  private DirectoryLock(FileChannel channel, FileLock lock, long bytes, Path key, String token) {
    this.channel = channel;
    this.lock = lock;
    this.bytes = bytes;
    this.key = key;
    this.token = token;
  }

  /**
   * Takes the lock of {@code dir} and writes this process's identity into it.
   *
   * @throws io.logproducer.SpoolLockedException when another owner (in this JVM or another process)
   *     holds it
   * @throws IOException when the lock file cannot be created or written
   */
  static DirectoryLock acquire(Path dir) throws IOException {
    Path key = dir.toRealPath();
    String me = identity().trim() + " spool#" + CLAIMS.incrementAndGet();
    String holder = HELD.putIfAbsent(key, me);
    if (holder != null) {
      throw locked(dir, holder + ", in this JVM");
    }
    try {
      return lockFile(dir, key, me);
    } catch (IOException | RuntimeException e) {
      HELD.remove(key, me);
      throw e;
    }
  }

  /** Takes the OS lock of {@code dir}'s lock file for the claim {@code token} of {@code key}. */
  private static DirectoryLock lockFile(Path dir, Path key, String token) throws IOException {
    Path file = dir.resolve(FILE);
    FileChannel ch =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = ch.tryLock();
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    if (lock == null) {
      ch.close();
      throw locked(dir, owner(file));
    }
    try {
      byte[] id = identity().getBytes(StandardCharsets.UTF_8);
      ch.truncate(0);
      ByteBuffer buf = ByteBuffer.wrap(id);
      while (buf.hasRemaining()) {
        ch.write(buf, buf.position());
      }
      return new DirectoryLock(ch, lock, id.length, key, token);
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /** {@return the size of the lock file, bytes} */
  long bytes() {
    return bytes;
  }

  /** Releases the lock (the OS lock, then this JVM's claim); idempotent, never throws. */
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
    HELD.remove(key, token);
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

  /** {@return the exception for {@code dir} held by {@code owner} (the lock file's content)} */
  private static SpoolLockedException locked(Path dir, String owner) {
    return new SpoolLockedException(
        dir,
        "spool directory "
            + dir
            + " is locked by another owner ("
            + owner
            + "); one producer per spool directory",
        null);
  }
}
