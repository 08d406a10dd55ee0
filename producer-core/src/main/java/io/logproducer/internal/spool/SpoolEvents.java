package io.logproducer.internal.spool;

import java.io.IOException;

/**
 * Events from a {@link Spool}, so that nothing leaves it silently. Called on the thread that caused
 * the event (an appender for DROPPED_OLDEST, the cursor's reader for EXPIRED and CORRUPT, the
 * opening thread for CORRUPT found at open, the committer thread for durability), never under a
 * lock the listener could need; an exception it throws is ignored. Implementations must be
 * thread-safe.
 */
public interface SpoolEvents {

  /** A listener that ignores everything. */
  SpoolEvents NONE = new SpoolEvents() {};

  /**
   * An unacknowledged entry left the spool undelivered. {@code sequence} is -1 and {@code meta}
   * null when the entry was too damaged to know them; {@code recordCount} is then -1.
   */
  default void onDiscarded(DiscardReason reason, long sequence, int recordCount, byte[] meta) {}

  /**
   * Entries that were written to the segment {@code file} and never acknowledged are gone: the file
   * is missing, empty or shorter than what was written into it (found at open from the checkpoint
   * and the journal, or when the cursor found the file deleted). One call per segment.
   *
   * @param fromSequence the first sequence of the range the lost entries were in
   * @param toSequence the last sequence of that range
   * @param batches the entries lost
   * @param records their records, or -1 when not known
   */
  default void onLost(String file, long fromSequence, long toSequence, int batches, long records) {}

  /** Something the operator should know that lost nothing (e.g. a stray file moved aside). */
  default void onNotice(String message) {}

  /** Every entry with a sequence up to {@code sequence} is as durable as the policy promises. */
  default void onDurable(long sequence) {}

  /**
   * Forcing entries {@code from..to} (inclusive) to disk failed: they stay readable in this process
   * but may not survive a power loss. The durable watermark still passes them.
   */
  default void onDurabilityFailed(long from, long to, IOException cause) {}
}
