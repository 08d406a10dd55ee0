package io.logproducer.internal.spool;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;

/**
 * One segment file, {@code <dir>/<20-digit base sequence>.seg}, as the spool knows it in memory:
 * the index of its entries (sequence, file offset, length in bytes), which of them are
 * acknowledged, where its data ends, its size on disk and whether it is sealed. Memory is about 16
 * bytes per entry (entries are whole batches, typically 0.1 to 1 MiB, so a 10 GiB backlog costs
 * about 160 KiB), independent of the payload bytes. Not thread-safe: the {@link Spool}'s lock
 * guards every instance.
 */
final class Segment {

  /** The file name suffix of segments. */
  static final String SUFFIX = ".seg";

  private final Path path;
  private final long baseSequence;
  private long[] sequences = new long[16];
  private int[] offsets = new int[16];
  private int[] lengths = new int[16];
  private int[] records = new int[16];
  private int count;
  private long dataEnd;
  private boolean sealed;
  private long fileBytes;
  private final BitSet acked = new BitSet();
  private int ackedCount;
  private long unackedBytes;

  /** The write channel while this is the active segment; null otherwise. */
  FileChannel channel;

  /** An empty segment of the file {@code path} whose first sequence is {@code baseSequence}. */
  Segment(Path path, long baseSequence) {
    this.path = path;
    this.baseSequence = baseSequence;
  }

  /** {@return the file name of the segment whose first sequence is {@code base}} */
  static String fileName(long base) {
    return String.format("%020d%s", base, SUFFIX);
  }

  /** {@return the base sequence a segment file name carries, or -1 if it is not one} */
  static long parseBase(String fileName) {
    if (fileName.length() != 20 + SUFFIX.length() || !fileName.endsWith(SUFFIX)) {
      return -1;
    }
    for (int i = 0; i < 20; i++) {
      if (!Character.isDigit(fileName.charAt(i))) {
        return -1;
      }
    }
    return Long.parseLong(fileName.substring(0, 20));
  }

  /** Adds an entry at the end of the index (sequences increase); {@code length} 0 means derive. */
  void addEntry(long sequence, int offset, int length) {
    addEntry(sequence, offset, length, -1);
  }

  /**
   * Adds an entry at the end of the index (sequences increase); {@code length} 0 means derive;
   * {@code recordCount} -1 when not known yet (a footer does not carry it).
   */
  void addEntry(long sequence, int offset, int length, int recordCount) {
    if (count == sequences.length) {
      int n = count * 2;
      sequences = Arrays.copyOf(sequences, n);
      offsets = Arrays.copyOf(offsets, n);
      lengths = Arrays.copyOf(lengths, n);
      records = Arrays.copyOf(records, n);
    }
    sequences[count] = sequence;
    offsets[count] = offset;
    lengths[count] = length;
    records[count] = recordCount;
    if (length > 0) {
      unackedBytes += length;
      dataEnd = Math.max(dataEnd, (long) offset + length);
    }
    count++;
  }

  /** Marks the segment sealed with its data ending at {@code end}, deriving missing lengths. */
  void sealAt(long end) {
    dataEnd = end;
    for (int i = 0; i < count; i++) {
      if (lengths[i] == 0) {
        long next = i + 1 < count ? offsets[i + 1] : end;
        lengths[i] = (int) (next - offsets[i]);
        unackedBytes += lengths[i];
      }
    }
    sealed = true;
  }

  /**
   * Records that the entry at {@code index} is acknowledged. {@return its length in bytes, or 0 if
   * it was already acknowledged}
   */
  int acknowledge(int index) {
    if (acked.get(index)) {
      return 0;
    }
    acked.set(index);
    ackedCount++;
    unackedBytes -= lengths[index];
    return lengths[index];
  }

  /** {@return the index of {@code sequence}, or -1 when this segment does not hold it} */
  int indexOf(long sequence) {
    int i = Arrays.binarySearch(sequences, 0, count, sequence);
    return i >= 0 ? i : -1;
  }

  /**
   * {@return the index of the first unacknowledged entry with a sequence above {@code after}, or
   * -1}
   */
  int firstUnackedAfter(long after) {
    int i = Arrays.binarySearch(sequences, 0, count, after);
    int from = i >= 0 ? i + 1 : -i - 1;
    int j = acked.nextClearBit(from);
    return j < count ? j : -1;
  }

  /** {@return whether the entry at {@code index} is acknowledged} */
  boolean isAcked(int index) {
    return acked.get(index);
  }

  /** {@return whether every entry is acknowledged (true for an empty segment)} */
  boolean fullyAcked() {
    return ackedCount == count;
  }

  /** {@return the segment file} */
  Path path() {
    return path;
  }

  /** {@return the sequence in the file name (the first entry's, or the next one when empty)} */
  long baseSequence() {
    return baseSequence;
  }

  /** {@return the number of entries indexed} */
  int count() {
    return count;
  }

  /** {@return the sequence of entry {@code index}} */
  long sequenceAt(int index) {
    return sequences[index];
  }

  /** {@return the file offset of entry {@code index}, bytes} */
  int offsetAt(int index) {
    return offsets[index];
  }

  /** {@return the records in entry {@code index}, or -1 when not known (read from a footer)} */
  int recordsAt(int index) {
    return records[index];
  }

  /** Sets the records in entry {@code index} (read from its header). */
  void setRecordsAt(int index, int recordCount) {
    records[index] = recordCount;
  }

  /** {@return the records in the unacknowledged entries, or -1 when any of them is not known} */
  long unackedRecords() {
    long sum = 0;
    for (int i = acked.nextClearBit(0); i < count; i = acked.nextClearBit(i + 1)) {
      if (records[i] < 0) {
        return -1;
      }
      sum += records[i];
    }
    return sum;
  }

  /** {@return the total length of entry {@code index}, bytes} */
  int lengthAt(int index) {
    return lengths[index];
  }

  /** {@return the last sequence held, or {@code baseSequence - 1} when empty} */
  long lastSequence() {
    return count == 0 ? baseSequence - 1 : sequences[count - 1];
  }

  /** {@return the offset where the next entry goes (the end of the data), bytes} */
  long dataEnd() {
    return dataEnd;
  }

  /** Sets the end of the data (the next write position), bytes. */
  void setDataEnd(long end) {
    dataEnd = end;
  }

  /** {@return whether the segment takes no more entries (sealed by a footer or abandoned)} */
  boolean sealed() {
    return sealed;
  }

  /** {@return the size of the file on disk as the spool made it, bytes} */
  long fileBytes() {
    return fileBytes;
  }

  /** Records the size of the file, bytes. */
  void setFileBytes(long bytes) {
    fileBytes = bytes;
  }

  /** {@return the bytes of the entries not yet acknowledged} */
  long unackedBytes() {
    return unackedBytes;
  }

  /** {@return the number of entries not yet acknowledged} */
  int unackedCount() {
    return count - ackedCount;
  }
}
