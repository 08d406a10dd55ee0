package io.logproducer.internal.spool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The spool's progress, {@code <dir>/checkpoint}: the next sequence to assign, the lowest
 * unacknowledged sequence (every sequence below it is acknowledged or gone) and up to {@link
 * #MAX_ACKED_ABOVE} acknowledged sequences above it (acknowledgements arrive out of order). Written
 * atomically: {@code checkpoint.tmp}, fsync, rename over {@code checkpoint}, fsync of the
 * directory. Big-endian: magic "LPCK" u32 | version u32 | nextSequence u64 | lowestUnacked u64 | n
 * u32 | n x sequence u64 | CRC32C u32 over everything before it.
 *
 * <p>A checkpoint that is missing or damaged is treated as absent: every entry still on disk is
 * replayed (correct — at least once — only with more duplicates, bounded by the acknowledged
 * entries of segments not yet deleted). Immutable; thread-safe.
 */
final class Checkpoint {

  /** The file name. */
  static final String FILE = "checkpoint";

  /** The temporary file name used while writing. */
  static final String TMP_FILE = "checkpoint.tmp";

  /** Acknowledged sequences above the watermark recorded at most; more are replayed. */
  static final int MAX_ACKED_ABOVE = 1024;

  /** The largest checkpoint file, bytes. */
  static final int MAX_BYTES = 32 + 8 * MAX_ACKED_ABOVE;

  private static final int MAGIC = 0x4C50434B;
  private static final int VERSION = 1;

  final long nextSequence;
  final long lowestUnacked;
  final long[] ackedAbove;

  /** A checkpoint of these values (see the class comment). */
  Checkpoint(long nextSequence, long lowestUnacked, long[] ackedAbove) {
    this.nextSequence = nextSequence;
    this.lowestUnacked = lowestUnacked;
    this.ackedAbove = ackedAbove.clone();
    Arrays.sort(this.ackedAbove);
  }

  /** {@return whether this checkpoint says {@code sequence} is acknowledged} (O(log n)) */
  boolean acknowledges(long sequence) {
    if (sequence < lowestUnacked) {
      return true;
    }
    return Arrays.binarySearch(ackedAbove, sequence) >= 0;
  }

  /** {@return the size of this checkpoint's file, bytes} */
  int bytes() {
    return 32 + 8 * ackedAbove.length;
  }

  /**
   * Writes this checkpoint to {@code dir} atomically and durably.
   *
   * @throws IOException when any step fails (the previous checkpoint then still stands)
   */
  void write(Path dir) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(bytes());
    buf.putInt(MAGIC).putInt(VERSION).putLong(nextSequence).putLong(lowestUnacked);
    buf.putInt(ackedAbove.length);
    for (long s : ackedAbove) {
      buf.putLong(s);
    }
    buf.putInt(Crc32c.of(buf.array(), 0, buf.position()));
    buf.flip();
    Path tmp = dir.resolve(TMP_FILE);
    try (FileChannel ch =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    }
    Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE);
    forceDirectory(dir);
  }

  /**
   * {@return the checkpoint in {@code dir}, or null when it is missing or damaged}
   *
   * @throws IOException when it exists but cannot be read
   */
  static Checkpoint read(Path dir) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(dir.resolve(FILE));
    } catch (NoSuchFileException e) {
      return null;
    }
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    if (bytes.length < 32 || buf.getInt(0) != MAGIC || buf.getInt(4) != VERSION) {
      return null;
    }
    int n = buf.getInt(24);
    if (n < 0 || n > MAX_ACKED_ABOVE || bytes.length != 32 + 8 * n) {
      return null;
    }
    if (Crc32c.of(bytes, 0, bytes.length - 4) != buf.getInt(bytes.length - 4)) {
      return null;
    }
    long[] acked = new long[n];
    for (int i = 0; i < n; i++) {
      acked[i] = buf.getLong(28 + 8 * i);
    }
    return new Checkpoint(buf.getLong(8), buf.getLong(16), acked);
  }

  /**
   * Forces {@code dir}'s entry changes (creations, renames, deletions) to disk; a no-op where the
   * platform cannot open a directory (Windows).
   *
   * @throws IOException when the force itself fails
   */
  static void forceDirectory(Path dir) throws IOException {
    FileChannel ch;
    try {
      ch = FileChannel.open(dir, StandardOpenOption.READ);
    } catch (IOException e) {
      if (Files.isDirectory(dir)) {
        return;
      }
      throw e;
    }
    try {
      ch.force(true);
    } finally {
      ch.close();
    }
  }
}
