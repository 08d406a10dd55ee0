package io.logproducer;

/**
 * Hears of each stored batch leaving a producer's disk spool, so that nothing leaves it silently:
 * set with {@link SpoolConfig.Builder#setListener}. A batch leaves the spool once, by exactly one
 * of these events: delivered (by replay, or by the late answer of the export that was in flight
 * when its records got SPOOLED), expired ({@code maxAgeMillis}), dropped to make room ({@link
 * SpoolFullPolicy#DROP_OLDEST}), found corrupt, or refused for good by the receiver during replay.
 * Entries the live path settles itself (delivered while their callbacks were still held, or failed
 * for good) give no event: their records' outcome already told the application.
 *
 * <p>Each event names the batch's sequence (its receiver-side dedupe key, increasing in the order
 * batches were stored) and its record count. Every method has an empty default.
 *
 * <p><b>Threads.</b> Called on the producer's own threads (the replay thread, a send thread that
 * made room or took a late answer, the thread that opens the producer for damage found at open),
 * never under a lock of the spool, possibly from several threads at once: implementations must be
 * thread-safe, quick and must not block. An exception a method throws is caught and logged
 * (rate-limited), and changes nothing. A method must not call {@code close()} on the producer.
 */
public interface SpoolListener {

  /**
   * A stored batch was delivered: by replay, or by the late answer of the export that was in flight
   * when its records got SPOOLED (the receiver took the request; records it refused within it are
   * counted in {@code ProducerMetrics.getSpoolRecordsRefused()}).
   *
   * @param sequence the batch's sequence in the spool
   * @param recordCount the records in the batch
   */
  default void onDelivered(long sequence, int recordCount) {}

  /**
   * A stored batch was older than {@code maxAgeMillis} when replay reached it: deleted undelivered.
   *
   * @param sequence the batch's sequence in the spool
   * @param recordCount the records in the batch
   */
  default void onExpired(long sequence, int recordCount) {}

  /**
   * A stored batch was deleted undelivered to make room under {@link SpoolFullPolicy#DROP_OLDEST}.
   *
   * @param sequence the batch's sequence in the spool
   * @param recordCount the records in the batch
   */
  default void onDropped(long sequence, int recordCount) {}

  /**
   * A stored batch was found damaged (bad checksum, torn, unreadable) and skipped.
   *
   * @param sequence the batch's sequence, or -1 when the damage hides it
   * @param recordCount the records in the batch, or -1 when the damage hides it
   */
  default void onCorrupt(long sequence, int recordCount) {}

  /**
   * The receiver refused a replayed batch for good (not retryable): deleted undelivered.
   *
   * @param sequence the batch's sequence in the spool
   * @param recordCount the records in the batch
   * @param reason the receiver's answer, for a log line
   */
  default void onRefused(long sequence, int recordCount, String reason) {}

  /**
   * Stored batches are gone without having been read: their segment file was missing, emptied or
   * shorter than what had been written into it (found when the producer opened the spool, from its
   * checkpoint and journal; or when replay found the file deleted). One call per segment file.
   *
   * @param fromSequence the first sequence of the range the lost batches were in
   * @param toSequence the last sequence of that range (sequences in it that were delivered, or
   *     never used, are not counted)
   * @param batchCount the stored batches lost
   * @param recordCount their records, or -1 when the damage hid them
   */
  default void onLost(long fromSequence, long toSequence, int batchCount, long recordCount) {}
}
