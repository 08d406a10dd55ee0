package io.logproducer.internal.spool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Rebuilds the index of a segment that has no valid footer (the active segment after a crash, or a
 * sealed one whose footer was torn or damaged) by reading its entries from offset 0 and checking
 * each one's CRC. Rules:
 *
 * <ul>
 *   <li>An entry whose header is implausible, whose CRC does not match, or whose sequence is not
 *       above the previous one, is damaged. The scanner then resynchronises: it searches forward,
 *       byte by byte, for the next magic number that opens a whole entry with a matching CRC and a
 *       higher sequence. Found: the bytes in between were exactly one damaged entry (counted in
 *       {@link #corrupt()}), and the scan goes on from there — a damaged length field costs only
 *       its own entry. Not found: the damaged bytes are the torn tail; the data ends where they
 *       begin ({@link #dataEnd()}) and they count as one damaged entry unless they are all zeros
 *       (an entry of which nothing reached the disk).
 *   <li>Memory: one buffer as large as the largest entry met, plus a 1 MiB search window.
 * </ul>
 *
 * <p>Cost: one sequential read of the segment; confined to the opening thread.
 */
final class SegmentScanner {

  private static final int WINDOW = 1 << 20;

  private final FileChannel channel;
  private final long fileLength;
  private final long maxEntryBytes;
  private ByteBuffer entry = ByteBuffer.allocate(64 * 1024);
  private final ByteBuffer window = ByteBuffer.allocate(WINDOW);
  private int corrupt;
  private long dataEnd;
  private long garbageEnd;

  /**
   * A scanner over {@code channel} (a file of {@code fileLength} bytes) accepting entries up to
   * {@code maxEntryBytes} bytes in total.
   */
  SegmentScanner(FileChannel channel, long fileLength, long maxEntryBytes) {
    this.channel = channel;
    this.fileLength = fileLength;
    this.maxEntryBytes = maxEntryBytes;
  }

  /**
   * Scans the file and adds every whole entry with a sequence above {@code after} to {@code
   * segment}.
   *
   * @throws IOException when the file cannot be read
   */
  void scanInto(Segment segment, long after) throws IOException {
    long pos = 0;
    long last = after;
    while (true) {
      if (validAt(pos, last)) {
        int total = EntryFrame.totalLength(entry, 0);
        last = EntryFrame.sequence(entry, 0);
        segment.addEntry(last, (int) pos, total, entry.getInt(24));
        pos += total;
        continue;
      }
      long next = resync(pos + 1, last);
      if (next < 0) {
        if (!zerosFrom(pos) && !footerAt(pos, segment)) {
          corrupt++;
        }
        dataEnd = pos;
        garbageEnd = Math.max(garbageEnd, Math.min(fileLength, pos + EntryFrame.HEADER_BYTES));
        segment.setDataEnd(pos);
        return;
      }
      corrupt++;
      pos = next;
    }
  }

  /** {@return the damaged entries met (the torn tail included when it holds any byte)} */
  int corrupt() {
    return corrupt;
  }

  /**
   * {@return the end of the last non-zero byte after {@link #dataEnd()} (the torn tail's extent, to
   * be zeroed so that a later crash does not count it again), or 0 when the tail is clean}
   */
  long garbageEnd() {
    return garbageEnd > dataEnd ? garbageEnd : 0;
  }

  /** {@return the offset where the whole entries end, bytes} */
  long dataEnd() {
    return dataEnd;
  }

  /**
   * {@return whether a whole entry with a matching CRC and a sequence above {@code last} starts at
   * pos}
   */
  private boolean validAt(long pos, long last) throws IOException {
    if (pos + EntryFrame.HEADER_BYTES > fileLength || !readFully(pos, EntryFrame.HEADER_BYTES)) {
      return false;
    }
    if (!EntryFrame.plausible(entry, 0, maxEntryBytes)) {
      return false;
    }
    int total = EntryFrame.totalLength(entry, 0);
    if (pos + total > fileLength || EntryFrame.sequence(entry, 0) <= last) {
      return false;
    }
    return readFully(pos, total) && EntryFrame.crcMatches(entry, 0);
  }

  /** {@return the offset of the next valid entry at or after {@code from}, or -1} */
  private long resync(long from, long last) throws IOException {
    int magic0 = EntryFrame.MAGIC >>> 24;
    for (long base = from; base + EntryFrame.HEADER_BYTES <= fileLength; base += WINDOW - 3) {
      int n = (int) Math.min(WINDOW, fileLength - base);
      window.clear().limit(n);
      if (!fill(window, base)) {
        return -1;
      }
      for (int i = 0; i + 4 <= n; i++) {
        if (window.get(i) != 0) {
          garbageEnd = Math.min(fileLength, base + i + 4);
        }
        if ((window.get(i) & 0xFF) == magic0
            && window.getInt(i) == EntryFrame.MAGIC
            && validAt(base + i, last)) {
          return base + i;
        }
      }
      if (n < WINDOW) {
        return -1;
      }
    }
    return -1;
  }

  /**
   * {@return whether the bytes at {@code pos} are the seal of {@code segment}'s entries, not a
   * damaged entry: either the file ends exactly where a footer of these entries would and the bytes
   * still carry the footer's magic or its first index entry (a sealed segment whose footer took a
   * flipped byte; one flip cannot erase both), or a valid footer of exactly these entries starts
   * there (a seal whose truncation did not reach the disk)}
   */
  private boolean footerAt(long pos, Segment segment) throws IOException {
    long length = SegmentFooter.bytesFor(segment.count());
    if (pos + length == fileLength && length <= Integer.MAX_VALUE && readFully(pos, (int) length)) {
      boolean magic = entry.getInt((int) length - 8) == SegmentFooter.MAGIC;
      boolean firstIndexed =
          segment.count() > 0
              && entry.getLong(0) == segment.sequenceAt(0)
              && entry.getInt(8) == segment.offsetAt(0);
      if (magic || firstIndexed) {
        return true;
      }
    }
    if (pos + length > fileLength || length > Integer.MAX_VALUE || !readFully(pos, (int) length)) {
      return false;
    }
    ByteBuffer footer = ByteBuffer.wrap(entry.array(), 0, (int) length).slice();
    Segment probe = new Segment(segment.path(), segment.baseSequence());
    return footer.getInt((int) length - 8) == SegmentFooter.MAGIC
        && SegmentFooter.decodeInto(footer, probe)
        && probe.count() == segment.count()
        && probe.dataEnd() == pos;
  }

  /**
   * {@return whether the header-sized range at {@code pos} (or what is left of the file) is zeros}
   */
  private boolean zerosFrom(long pos) throws IOException {
    int n = (int) Math.min(EntryFrame.HEADER_BYTES, fileLength - pos);
    if (n <= 0) {
      return true;
    }
    if (!readFully(pos, n)) {
      return true;
    }
    for (int i = 0; i < n; i++) {
      if (entry.get(i) != 0) {
        return false;
      }
    }
    return true;
  }

  /** Reads {@code length} bytes at {@code pos} into {@code entry} from index 0. */
  private boolean readFully(long pos, int length) throws IOException {
    if (entry.capacity() < length) {
      entry = ByteBuffer.allocate(Math.max(length, entry.capacity() * 2));
    }
    entry.clear().limit(length);
    return fill(entry, pos);
  }

  /** Fills {@code buf} from {@code pos}; {@return false at end of file} */
  private boolean fill(ByteBuffer buf, long pos) throws IOException {
    long p = pos;
    while (buf.hasRemaining()) {
      int r = channel.read(buf, p);
      if (r < 0) {
        return false;
      }
      p += r;
    }
    return true;
  }
}
