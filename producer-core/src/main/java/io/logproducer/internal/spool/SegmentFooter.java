package io.logproducer.internal.spool;

import java.nio.ByteBuffer;

/**
 * The footer that seals a segment, written after its last entry; the file is then truncated to end
 * with it, so it is found by reading the file's last {@link #TRAILER_BYTES} bytes. Big-endian:
 *
 * <pre>
 * count x (sequence u64, offset u32)   the segment's index: every entry's sequence and file offset
 * count u32 | dataEnd u64 | lastSequence u64 | magic 0x4C50534F ("LPSO") u32 | crc u32
 * </pre>
 *
 * <p>The CRC32C covers the index and the trailer's first 24 bytes. A valid footer lets the segment
 * be opened without reading its entries (Kafka trusts its sealed segments below the recovery point
 * the same way); the entries are still checked one by one, lazily, when read. Stateless.
 */
final class SegmentFooter {

  /** Bytes of the fixed trailer that ends a sealed segment. */
  static final int TRAILER_BYTES = 28;

  /** Bytes of the index per entry. */
  static final int PER_ENTRY_BYTES = 12;

  /** The footer's magic number. */
  static final int MAGIC = 0x4C50534F;

  /** Not instantiable. */
  private SegmentFooter() {}

  /** {@return the bytes of the footer of a segment of {@code count} entries} */
  static long bytesFor(int count) {
    return (long) PER_ENTRY_BYTES * count + TRAILER_BYTES;
  }

  /**
   * {@return the footer of {@code segment}'s first {@code segment.count()} entries, ready to write}
   */
  static ByteBuffer encode(Segment segment) {
    int count = segment.count();
    ByteBuffer buf = ByteBuffer.allocate((int) bytesFor(count));
    for (int i = 0; i < count; i++) {
      buf.putLong(segment.sequenceAt(i));
      buf.putInt(segment.offsetAt(i));
    }
    buf.putInt(count);
    buf.putLong(segment.dataEnd());
    buf.putLong(count == 0 ? segment.baseSequence() - 1 : segment.sequenceAt(count - 1));
    buf.putInt(MAGIC);
    buf.putInt(Crc32c.of(buf.array(), 0, buf.position()));
    buf.flip();
    return buf;
  }

  /**
   * {@return the entry count the trailer in {@code trailer} (exactly {@link #TRAILER_BYTES} bytes)
   * announces, or -1 when it is not a plausible trailer for a file of {@code fileLength} bytes}
   */
  static int countIfTrailer(ByteBuffer trailer, long fileLength) {
    if (trailer.getInt(20) != MAGIC) {
      return -1;
    }
    int count = trailer.getInt(0);
    long dataEnd = trailer.getLong(4);
    if (count < 0 || dataEnd < 0 || dataEnd + bytesFor(count) != fileLength) {
      return -1;
    }
    return count;
  }

  /**
   * Fills {@code segment} from {@code footer} (the whole footer, index and trailer) after checking
   * its CRC. {@return whether the footer was valid} (on false, {@code segment} is unchanged).
   */
  static boolean decodeInto(ByteBuffer footer, Segment segment) {
    int n = footer.limit();
    if (Crc32c.of(footer.array(), 0, n - 4) != footer.getInt(n - 4)) {
      return false;
    }
    int count = footer.getInt(n - TRAILER_BYTES);
    long dataEnd = footer.getLong(n - TRAILER_BYTES + 4);
    long previous = Long.MIN_VALUE;
    for (int i = 0; i < count; i++) {
      long seq = footer.getLong(i * PER_ENTRY_BYTES);
      int offset = footer.getInt(i * PER_ENTRY_BYTES + 8);
      if (seq <= previous || offset < 0 || offset >= dataEnd) {
        return false;
      }
      previous = seq;
    }
    for (int i = 0; i < count; i++) {
      segment.addEntry(
          footer.getLong(i * PER_ENTRY_BYTES), footer.getInt(i * PER_ENTRY_BYTES + 8), 0);
    }
    segment.sealAt(dataEnd);
    return true;
  }
}
