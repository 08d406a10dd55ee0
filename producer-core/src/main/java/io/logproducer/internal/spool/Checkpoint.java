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
 * The spool's progress, {@code <dir>/checkpoint}, written every checkpointIntervalMillis when
 * anything changed, at open and at close. It holds:
 *
 * <ul>
 *   <li>the next sequence to assign and the lowest unacknowledged sequence (every sequence below it
 *       is acknowledged or gone);
 *   <li>the acknowledged entries above it, as runs {@code [from, to]} of consecutive entries on
 *       disk that are all acknowledged (acknowledgements arrive out of order; a run may span
 *       sequence numbers no entry has);
 *   <li>the <b>manifest</b>: every segment that holds unacknowledged entries, with its base and
 *       last sequence, its entry count and its unacknowledged entries and records — what should be
 *       on disk, so that the next open can tell a segment that is missing, emptied or shortened;
 *   <li>the journal generation from which {@link SpoolJournal}s apply on top of it.
 * </ul>
 *
 * <p>Written atomically: {@code checkpoint.tmp}, fsync, rename over {@code checkpoint}, fsync of
 * the directory. Big-endian, version 2: magic "LPCK" u32 | version u32 | nextSequence u64 |
 * lowestUnacked u64 | journalGeneration u64 | runs u32 | runs x (from u64, to u64) | segments u32 |
 * segments x (base u64, lastSequence u64, count u32, unackedCount u32, unackedRecords i64, -1 when
 * unknown) | CRC32C u32 over everything before it. Version 1 (written before the manifest: magic |
 * version | nextSequence | lowestUnacked | n u32 | n x acknowledged sequence u64 | CRC) is still
 * read.
 *
 * <p>At most {@link #MAX_BYTES}: the manifest first, then the lowest runs that fit (acknowledged
 * entries above the runs kept would be replayed after a crash once their journal is gone: only past
 * about 16,000 separate runs of acknowledged entries above the oldest unacknowledged one).
 *
 * <p>A checkpoint that is missing or damaged is treated as absent: every entry still on disk and
 * not acknowledged in a journal is replayed (at least once — more duplicates), and a missing
 * segment cannot be told from one fully acknowledged. Immutable; thread-safe.
 */
final class Checkpoint {

  /** The file name. */
  static final String FILE = "checkpoint";

  /** The temporary file name used while writing. */
  static final String TMP_FILE = "checkpoint.tmp";

  /** The largest checkpoint file, bytes. */
  static final int MAX_BYTES = 256 * 1024;

  private static final int MAGIC = 0x4C50434B;
  private static final int VERSION_1 = 1;
  private static final int VERSION = 2;
  private static final int HEADER_BYTES = 36;
  private static final int RUN_BYTES = 16;
  private static final int SEGMENT_BYTES = 32;

  /** What the checkpoint says a segment holds. Immutable. */
  static final class SegmentState {
    final long base;
    final long lastSequence;
    final int count;
    final int unackedCount;
    final long unackedRecords;

    SegmentState(long base, long lastSequence, int count, int unackedCount, long unackedRecords) {
      this.base = base;
      this.lastSequence = lastSequence;
      this.count = count;
      this.unackedCount = unackedCount;
      this.unackedRecords = unackedRecords;
    }
  }

  final long nextSequence;
  final long lowestUnacked;
  final long journalGeneration;

  /** Acknowledged runs above lowestUnacked: from, to, from, to… ascending, not overlapping. */
  final long[] runs;

  /** The manifest, by base ascending; null for a version 1 checkpoint (no manifest). */
  final SegmentState[] segments;

  /** A checkpoint of these values (see the class comment); {@code runs} is not copied. */
  Checkpoint(
      long nextSequence,
      long lowestUnacked,
      long journalGeneration,
      long[] runs,
      SegmentState[] segments) {
    this.nextSequence = nextSequence;
    this.lowestUnacked = lowestUnacked;
    this.journalGeneration = journalGeneration;
    this.runs = runs;
    this.segments = segments;
  }

  /** {@return whether this checkpoint says {@code sequence} is acknowledged} (O(log runs)) */
  boolean acknowledges(long sequence) {
    if (sequence < lowestUnacked) {
      return true;
    }
    int lo = 0;
    int hi = runs.length / 2 - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (runs[2 * mid + 1] < sequence) {
        lo = mid + 1;
      } else if (runs[2 * mid] > sequence) {
        hi = mid - 1;
      } else {
        return true;
      }
    }
    return false;
  }

  /** {@return the size of this checkpoint's file, bytes} */
  int bytes() {
    return bytesFor(runs.length / 2, segments == null ? 0 : segments.length);
  }

  /** {@return the size of a checkpoint of {@code runs} runs and {@code segments} segments} */
  static int bytesFor(int runs, int segments) {
    return HEADER_BYTES + RUN_BYTES * runs + 4 + SEGMENT_BYTES * segments + 4;
  }

  /** {@return the most runs that fit beside {@code segments} segments in {@link #MAX_BYTES}} */
  static int maxRuns(int segments) {
    return Math.max(0, (MAX_BYTES - bytesFor(0, segments)) / RUN_BYTES);
  }

  /** {@return the most segments the manifest holds} */
  static int maxSegments() {
    return (MAX_BYTES - bytesFor(0, 0)) / SEGMENT_BYTES;
  }

  /**
   * Writes this checkpoint to {@code dir} atomically and durably.
   *
   * @throws IOException when any step fails (the previous checkpoint then still stands)
   */
  void write(Path dir) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(bytes());
    buf.putInt(MAGIC).putInt(VERSION).putLong(nextSequence).putLong(lowestUnacked);
    buf.putLong(journalGeneration);
    buf.putInt(runs.length / 2);
    for (long r : runs) {
      buf.putLong(r);
    }
    SegmentState[] segs = segments == null ? new SegmentState[0] : segments;
    buf.putInt(segs.length);
    for (SegmentState s : segs) {
      buf.putLong(s.base).putLong(s.lastSequence).putInt(s.count).putInt(s.unackedCount);
      buf.putLong(s.unackedRecords);
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
   * {@return the checkpoint in {@code dir} (version 1 or 2), or null when it is missing or damaged}
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
    if (bytes.length < 32 || buf.getInt(0) != MAGIC) {
      return null;
    }
    if (Crc32c.of(bytes, 0, bytes.length - 4) != buf.getInt(bytes.length - 4)) {
      return null;
    }
    int version = buf.getInt(4);
    if (version == VERSION_1) {
      return readVersion1(buf, bytes.length);
    }
    if (version != VERSION || bytes.length < bytesFor(0, 0)) {
      return null;
    }
    int n = buf.getInt(32);
    if (n < 0 || (long) HEADER_BYTES + (long) RUN_BYTES * n + 8 > bytes.length) {
      return null;
    }
    long[] runs = new long[2 * n];
    int at = HEADER_BYTES;
    for (int i = 0; i < runs.length; i++, at += 8) {
      runs[i] = buf.getLong(at);
    }
    int m = buf.getInt(at);
    at += 4;
    if (m < 0 || bytes.length != bytesFor(n, m)) {
      return null;
    }
    SegmentState[] segs = new SegmentState[m];
    for (int i = 0; i < m; i++, at += SEGMENT_BYTES) {
      segs[i] =
          new SegmentState(
              buf.getLong(at),
              buf.getLong(at + 8),
              buf.getInt(at + 16),
              buf.getInt(at + 20),
              buf.getLong(at + 24));
    }
    return new Checkpoint(buf.getLong(8), buf.getLong(16), buf.getLong(24), runs, segs);
  }

  private static Checkpoint readVersion1(ByteBuffer buf, int length) {
    int n = buf.getInt(24);
    if (n < 0 || length != 32 + 8 * n) {
      return null;
    }
    long[] acked = new long[n];
    for (int i = 0; i < n; i++) {
      acked[i] = buf.getLong(28 + 8 * i);
    }
    Arrays.sort(acked);
    long[] runs = new long[2 * n];
    for (int i = 0; i < n; i++) {
      runs[2 * i] = acked[i];
      runs[2 * i + 1] = acked[i];
    }
    return new Checkpoint(buf.getLong(8), buf.getLong(16), 0, runs, null);
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
