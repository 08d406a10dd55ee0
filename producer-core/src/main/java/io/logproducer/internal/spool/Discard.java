package io.logproducer.internal.spool;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * One entry leaving the spool undelivered, as reported to {@link SpoolEvents#onDiscarded}: the
 * reason, sequence, record count and meta (-1, -1 and null where unknown). Immutable.
 */
final class Discard {
  final DiscardReason reason;
  final long sequence;
  final int recordCount;
  final byte[] meta;

  /** An event; -1, -1 and null where unknown. */
  Discard(DiscardReason reason, long sequence, int recordCount, byte[] meta) {
    this.reason = reason;
    this.sequence = sequence;
    this.recordCount = recordCount;
    this.meta = meta;
  }

  /**
   * {@return the event for entry {@code i} of {@code s}, its record count and meta read from the
   * file's header (when unreadable: the sequence only)}
   */
  static Discard read(DiscardReason reason, Segment s, int i) {
    long seq = s.sequenceAt(i);
    try (FileChannel ch = FileChannel.open(s.path(), StandardOpenOption.READ)) {
      ByteBuffer h = ByteBuffer.allocate(EntryFrame.HEADER_BYTES);
      if (!SegmentFiles.readFully(ch, h, s.offsetAt(i)) || h.getInt(0) != EntryFrame.MAGIC) {
        return new Discard(reason, seq, -1, null);
      }
      int metaLength = h.getInt(28);
      if (metaLength < 0 || metaLength > EntryFrame.MAX_META_BYTES) {
        return new Discard(reason, seq, -1, null);
      }
      ByteBuffer m = ByteBuffer.allocate(metaLength);
      SegmentFiles.readFully(ch, m, s.offsetAt(i) + EntryFrame.HEADER_BYTES);
      return new Discard(reason, seq, h.getInt(24), m.array());
    } catch (IOException e) {
      return new Discard(reason, seq, -1, null);
    }
  }

  /** Reports {@code events} to {@code listener}, ignoring what it throws. */
  static void fire(SpoolEvents listener, List<Discard> events) {
    for (Discard d : events) {
      safely(() -> listener.onDiscarded(d.reason, d.sequence, d.recordCount, d.meta));
    }
  }

  /**
   * Runs a listener call, ignoring what it throws (a listener must not reach the spool's callers).
   */
  static void safely(Runnable r) {
    try {
      r.run();
    } catch (RuntimeException ignored) {
      // Ignored on purpose.
    }
  }
}
