package io.logproducer.internal.spool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The spool's journal, {@code <dir>/journal-<20-digit generation>}: what happened to entries since
 * the last checkpoint, one fixed-size record per event, written (not forced) the moment it happens,
 * so that a killed process leaves it in the page cache and the next owner knows it. Two events:
 *
 * <ul>
 *   <li><b>APPEND</b>: entry {@code sequence} of {@code recordCount} records went into the segment
 *       whose base is {@code segmentBase} — what lets the next open tell a segment that is missing,
 *       emptied or shorter than what was written into it (a loss to report) from one that never had
 *       those entries;
 *   <li><b>ACK</b>: entry {@code sequence} (of {@code recordCount} records, in segment {@code
 *       segmentBase}) left the spool — delivered, refused, expired, dropped or found corrupt — so
 *       that it is not replayed again. Without it, acknowledgements would reach the disk only with
 *       the next checkpoint (every second), and a kill would replay everything acknowledged since.
 * </ul>
 *
 * <p>Record (big-endian, {@value #RECORD_BYTES} bytes): type u32 (1 APPEND, 2 ACK) | recordCount
 * i32 | sequence u64 | segmentBase u64 | CRC32C u32 over the 24 bytes before it. A record that is
 * torn or fails its CRC ends the file for the reader (nothing after a torn record was ever
 * acknowledged to anyone: records are written in order by one lock holder).
 *
 * <p>Rotation: each checkpoint starts a new generation and names it ({@link Checkpoint}); once the
 * checkpoint is on disk, the older generations are deleted. At open, the journals of the
 * checkpoint's generation and later are applied on top of it (every journal when the checkpoint is
 * missing or damaged: applying an acknowledgement twice changes nothing).
 *
 * <p>Durability: under GROUP_COMMIT and EVERY_BATCH the committer forces it every
 * groupCommitMillis; under NONE never. Size: at most {@link #MAX_BYTES} a generation; past that,
 * records are skipped (their acknowledgements then reach the disk with the next checkpoint, which
 * the spool asks for at once). Not thread-safe: the {@link Spool}'s lock guards it.
 */
final class SpoolJournal {

  /** The file name prefix; the generation follows as 20 digits. */
  static final String PREFIX = "journal-";

  /** Bytes of one record. */
  static final int RECORD_BYTES = 28;

  /** The most bytes one generation holds (about 4,600 events: several seconds of batches). */
  static final long MAX_BYTES = 128L * 1024;

  /** Record type: an entry was appended. */
  static final int APPEND = 1;

  /** Record type: an entry was acknowledged (left the spool). */
  static final int ACK = 2;

  /** One journal record as read back. Immutable. */
  static final class Record {
    final int type;
    final int recordCount;
    final long sequence;
    final long segmentBase;

    Record(int type, int recordCount, long sequence, long segmentBase) {
      this.type = type;
      this.recordCount = recordCount;
      this.sequence = sequence;
      this.segmentBase = segmentBase;
    }
  }

  private final Path path;
  private final long generation;
  private FileChannel channel;
  private long position;
  private final ByteBuffer record = ByteBuffer.allocate(RECORD_BYTES);

  private SpoolJournal(Path path, long generation, FileChannel channel) {
    this.path = path;
    this.generation = generation;
    this.channel = channel;
  }

  /** {@return the file name of generation {@code gen}} */
  static String fileName(long gen) {
    return String.format("%s%020d", PREFIX, gen);
  }

  /** {@return the generation a journal file name carries, or -1 if it is not one} */
  static long parseGeneration(String fileName) {
    if (fileName.length() != PREFIX.length() + 20 || !fileName.startsWith(PREFIX)) {
      return -1;
    }
    for (int i = PREFIX.length(); i < fileName.length(); i++) {
      if (!Character.isDigit(fileName.charAt(i))) {
        return -1;
      }
    }
    return Long.parseLong(fileName.substring(PREFIX.length()));
  }

  /**
   * Creates (replacing a leftover of the same generation) the journal of generation {@code gen} in
   * {@code dir}.
   *
   * @throws IOException when it cannot be created
   */
  static SpoolJournal create(Path dir, long gen) throws IOException {
    Path p = dir.resolve(fileName(gen));
    FileChannel ch =
        FileChannel.open(
            p,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING);
    return new SpoolJournal(p, gen, ch);
  }

  /** {@return this journal's generation} */
  long generation() {
    return generation;
  }

  /** {@return the bytes written to this journal's file} */
  long bytes() {
    return position;
  }

  /** {@return whether the next record would pass {@link #MAX_BYTES}} */
  boolean full() {
    return position + RECORD_BYTES > MAX_BYTES;
  }

  /**
   * Writes one record at the end (into the page cache; see {@link #force()}). {@return false when
   * the journal is full or closed (the record is skipped)}
   *
   * @throws IOException when the write fails (the record may be torn: the reader stops there)
   */
  boolean append(int type, long sequence, int recordCount, long segmentBase) throws IOException {
    if (channel == null || full()) {
      return false;
    }
    record.clear();
    record.putInt(type).putInt(recordCount).putLong(sequence).putLong(segmentBase);
    record.putInt(Crc32c.of(record.array(), 0, 24));
    record.flip();
    SegmentFiles.writeFully(channel, record, position);
    position += RECORD_BYTES;
    return true;
  }

  /**
   * {@return the channel to force for what was written so far, or null when closed} The caller
   * forces it outside the spool's lock.
   */
  FileChannel channel() {
    return channel;
  }

  /** Closes the file (it stays on disk until {@link #deleteBelow}). */
  void close() {
    SegmentFiles.closeQuietly(channel);
    channel = null;
  }

  /** {@return the journal file} */
  Path path() {
    return path;
  }

  /**
   * Deletes the journals of {@code dir} older than generation {@code gen}. {@return the bytes
   * deleted}
   */
  static long deleteBelow(Path dir, long gen) throws IOException {
    long freed = 0;
    for (java.util.Map.Entry<Long, Path> e : list(dir).headMap(gen, false).entrySet()) {
      try {
        long size = Files.size(e.getValue());
        Files.deleteIfExists(e.getValue());
        freed += size;
      } catch (NoSuchFileException gone) {
        // Deleted meanwhile.
      }
    }
    return freed;
  }

  /** {@return the journal files of {@code dir} by generation} */
  static TreeMap<Long, Path> list(Path dir) throws IOException {
    TreeMap<Long, Path> out = new TreeMap<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, PREFIX + "*")) {
      for (Path p : ds) {
        long gen = parseGeneration(p.getFileName().toString());
        if (gen >= 0) {
          out.put(gen, p);
        }
      }
    }
    return out;
  }

  /**
   * {@return the records of every journal of {@code dir} of generation {@code fromGen} or later, in
   * the order written} Each file is read up to its first torn or damaged record.
   *
   * @throws IOException when a journal exists but cannot be read
   */
  static List<Record> read(Path dir, long fromGen) throws IOException {
    List<Record> out = new ArrayList<>();
    for (Path p : list(dir).tailMap(fromGen, true).values()) {
      byte[] bytes;
      try {
        bytes = Files.readAllBytes(p);
      } catch (NoSuchFileException gone) {
        continue;
      }
      ByteBuffer buf = ByteBuffer.wrap(bytes);
      for (int at = 0; at + RECORD_BYTES <= bytes.length; at += RECORD_BYTES) {
        if (Crc32c.of(bytes, at, 24) != buf.getInt(at + 24)) {
          break;
        }
        int type = buf.getInt(at);
        if (type != APPEND && type != ACK) {
          break;
        }
        out.add(new Record(type, buf.getInt(at + 4), buf.getLong(at + 8), buf.getLong(at + 16)));
      }
    }
    return out;
  }
}
