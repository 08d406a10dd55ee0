package io.logproducer.internal.spool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * File operations on segments: create one preallocated, seal one with its footer, read a footer,
 * zero a range, read or write fully at a position. Preallocation writes zeros (1 MiB at a time)
 * rather than {@code RandomAccessFile.setLength}: {@code setLength} makes a sparse file on ext4,
 * XFS and tmpfs, so ENOSPC would still surface mid-append; written zeros reserve the blocks, so
 * running out of space shows at segment creation, where it is refused cleanly (Java has no
 * fallocate). On copy-on-write file systems (btrfs, ZFS) no preallocation can promise that.
 * Stateless; thread-safe.
 */
final class SegmentFiles {

  private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(1 << 20);

  /** Not instantiable. */
  private SegmentFiles() {}

  /**
   * Creates {@code path} (which must not exist) and fills it with {@code bytes} zeros; on failure
   * deletes what it created. {@return the channel, open for reading and writing}
   *
   * @throws IOException on any failure (ENOSPC included)
   */
  static FileChannel createPreallocated(Path path, long bytes) throws IOException {
    FileChannel ch =
        FileChannel.open(
            path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      zero(ch, 0, bytes);
      return ch;
    } catch (IOException | RuntimeException e) {
      ch.close();
      Files.deleteIfExists(path);
      throw e;
    }
  }

  /** Writes zeros over {@code [from, to)} of {@code ch}. */
  static void zero(FileChannel ch, long from, long to) throws IOException {
    long pos = from;
    while (pos < to) {
      ByteBuffer z = ZEROS.duplicate();
      z.limit((int) Math.min(z.capacity(), to - pos));
      pos += writeFully(ch, z, pos);
    }
  }

  /**
   * Writes {@code segment}'s footer after its data and truncates the file to end with it; forces it
   * when {@code force}. {@return the file's new size, bytes}
   */
  static long seal(FileChannel ch, Segment segment, boolean force) throws IOException {
    ByteBuffer footer = SegmentFooter.encode(segment);
    long end = segment.dataEnd() + footer.remaining();
    writeFully(ch, footer, segment.dataEnd());
    ch.truncate(end);
    if (force) {
      ch.force(true);
      FsyncLog.forced(segment.path(), end);
    }
    return end;
  }

  /**
   * Reads the footer of a file of {@code size} bytes into {@code segment}. {@return whether it had
   * a valid one}
   */
  static boolean readFooter(FileChannel ch, long size, Segment segment) throws IOException {
    if (size < SegmentFooter.TRAILER_BYTES) {
      return false;
    }
    ByteBuffer trailer = ByteBuffer.allocate(SegmentFooter.TRAILER_BYTES);
    if (!readFully(ch, trailer, size - SegmentFooter.TRAILER_BYTES)) {
      return false;
    }
    int count = SegmentFooter.countIfTrailer(trailer, size);
    if (count < 0) {
      return false;
    }
    long footerBytes = SegmentFooter.bytesFor(count);
    ByteBuffer footer = ByteBuffer.allocate((int) footerBytes);
    return readFully(ch, footer, size - footerBytes) && SegmentFooter.decodeInto(footer, segment);
  }

  /** Writes all of {@code buf} at {@code pos}. {@return the bytes written} */
  static int writeFully(FileChannel ch, ByteBuffer buf, long pos) throws IOException {
    int n = buf.remaining();
    long p = pos;
    while (buf.hasRemaining()) {
      p += ch.write(buf, p);
    }
    return n;
  }

  /** Reads {@code buf}'s remaining bytes at {@code pos}. {@return false at end of file} */
  static boolean readFully(FileChannel ch, ByteBuffer buf, long pos) throws IOException {
    long p = pos;
    while (buf.hasRemaining()) {
      int r = ch.read(buf, p);
      if (r < 0) {
        return false;
      }
      p += r;
    }
    return true;
  }

  /**
   * Refuses a segment of {@code segmentBytes} that would leave less than {@code minShare} of the
   * file system of {@code dir} usable.
   *
   * @throws IOException naming the numbers when it would
   */
  static void checkFreeDisk(Path dir, long segmentBytes, double minShare) throws IOException {
    FileStore store = Files.getFileStore(dir);
    long usable = store.getUsableSpace();
    long totalSpace = store.getTotalSpace();
    if (usable - segmentBytes < minShare * totalSpace) {
      throw new IOException(
          "free-disk guard: a segment of "
              + segmentBytes
              + " bytes would leave less than "
              + minShare
              + " of "
              + totalSpace
              + " bytes free (usable "
              + usable
              + ") in "
              + dir);
    }
  }

  /**
   * Forces {@code path}'s data (its first {@code end} bytes are noted as durable) to disk: through
   * {@code ch} when it is open, else through a new descriptor (fsync flushes a file's dirty pages
   * whichever descriptor asks), with this thread's interrupt status set aside meanwhile so that an
   * interrupt cannot close it again.
   *
   * @throws IOException when the force fails
   */
  static void force(FileChannel ch, Path path, long end) throws IOException {
    if (ch != null && ch.isOpen()) {
      try {
        ch.force(false);
        FsyncLog.forced(path, end);
        return;
      } catch (java.nio.channels.ClosedChannelException e) {
        // Closed meanwhile (an interrupt): force through a new descriptor below.
      }
    }
    boolean interrupted = Thread.interrupted();
    try (FileChannel again = FileChannel.open(path, StandardOpenOption.READ)) {
      again.force(false);
      FsyncLog.forced(path, end);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Closes {@code ch} (null allowed), ignoring errors. */
  static void closeQuietly(FileChannel ch) {
    if (ch == null) {
      return;
    }
    try {
      ch.close();
    } catch (IOException ignored) {
      // Closing a channel no longer used.
    }
  }
}
