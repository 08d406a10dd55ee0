package io.logproducer.internal.spool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;

/**
 * Reads the pending (unacknowledged) entries oldest first, from previous runs and this one, with
 * positional reads into one reusable buffer that grows to the largest entry read (at most a
 * segment): memory does not depend on the backlog. Each entry's CRC is checked when read; a damaged
 * or unreadable one is acknowledged and reported as CORRUPT, one older than maxAgeMillis as
 * EXPIRED, and the cursor moves on. Returning an entry does not acknowledge it. One reader thread
 * per cursor; the spool may be appended to and acknowledged concurrently.
 */
public final class SpoolCursor implements AutoCloseable {
  private final Spool spool;
  private long position;
  private ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
  private Segment openSegment;
  private FileChannel channel;

  /** A cursor over {@code spool}, before its oldest pending entry. */
  SpoolCursor(Spool spool) {
    this.spool = spool;
    this.position = 0;
  }

  /** {@return the next pending entry of any sequence, or null when there is none} */
  public SpoolEntry next() {
    return next(Long.MAX_VALUE);
  }

  /**
   * {@return the next pending entry with a sequence above the last one returned and at most {@code
   * upToSequence} (e.g. below {@link Spool#firstSequenceOfThisRun()} to replay only previous runs,
   * or below what the caller still holds in memory), or null when there is none}
   */
  public SpoolEntry next(long upToSequence) {
    while (true) {
      Object[] at = spool.locateNext(position, upToSequence);
      if (at == null) {
        return null;
      }
      Segment s = (Segment) at[0];
      int i = (Integer) at[1];
      position = s.sequenceAt(i);
      SpoolEntry e = read(s, i);
      if (e != null) {
        return e;
      }
    }
  }

  /**
   * Moves the cursor to just after {@code sequence}: the next {@link #next(long)} returns the first
   * pending entry above it. Lets a reader come back, by its sequence, to an entry it passed over
   * (replay does, for an entry whose shard was busy): {@code seekAfter(s - 1)} then {@code next(s)}
   * returns entry {@code s}, or null when it is no longer pending.
   */
  public void seekAfter(long sequence) {
    position = sequence;
  }

  /** Reads entry {@code i} of {@code s}; {@return it, or null when discarded or gone meanwhile} */
  private SpoolEntry read(Segment s, int i) {
    long seq = s.sequenceAt(i);
    int length = s.lengthAt(i);
    try {
      FileChannel ch = channelFor(s);
      if (buffer.capacity() < length) {
        buffer = ByteBuffer.allocate(Math.max(length, Math.min(buffer.capacity() * 2, length * 2)));
      }
      buffer.clear().limit(length);
      if (!SegmentFiles.readFully(ch, buffer, s.offsetAt(i))
          || !EntryFrame.plausible(buffer, 0, length)
          || EntryFrame.totalLength(buffer, 0) != length
          || EntryFrame.sequence(buffer, 0) != seq
          || !EntryFrame.crcMatches(buffer, 0)) {
        spool.discard(s, i, new Discard(DiscardReason.CORRUPT, seq, -1, null));
        return null;
      }
    } catch (NoSuchFileException e) {
      LossDetector.lose(
          spool, s); // the file was deleted under the spool: every pending entry in it is gone
      return null;
    } catch (IOException e) {
      spool.discard(s, i, new Discard(DiscardReason.CORRUPT, seq, -1, null));
      return null;
    }
    long createdAt = buffer.getLong(16);
    int recordCount = buffer.getInt(24);
    int metaLength = buffer.getInt(28);
    byte[] meta = new byte[metaLength];
    System.arraycopy(buffer.array(), EntryFrame.HEADER_BYTES, meta, 0, metaLength);
    long now = spool.tuning.clock.getAsLong();
    if (now - createdAt > spool.config.getMaxAgeMillis()) {
      spool.discard(s, i, new Discard(DiscardReason.EXPIRED, seq, recordCount, meta));
      return null;
    }
    if (!spool.pending(s, i)) {
      return null;
    }
    buffer.position(EntryFrame.HEADER_BYTES + metaLength);
    return new SpoolEntry(seq, createdAt, recordCount, meta, buffer.slice().asReadOnlyBuffer());
  }

  /** {@return a read channel on {@code s}, reusing the open one} */
  private FileChannel channelFor(Segment s) throws IOException {
    if (openSegment != s) {
      close();
      channel = FileChannel.open(s.path(), StandardOpenOption.READ);
      openSegment = s;
    }
    return channel;
  }

  /** Closes the cursor's file channel; the cursor may still be used (it reopens). */
  @Override
  public void close() {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // A read-only channel.
      }
      channel = null;
      openSegment = null;
    }
  }
}
