package io.logproducer;

/**
 * What the spool does when storing a batch would take it past {@link SpoolConfig#getMaxBytes()}.
 * Whatever the policy, a batch that is not stored keeps today's in-memory path (its records get
 * their usual outcome, e.g. {@code FAILED} at the delivery timeout), and every dropped stored batch
 * is counted in {@link ProducerMetrics} — nothing leaves silently.
 */
public enum SpoolFullPolicy {
  /**
   * The send thread waits up to {@link SpoolConfig#getMaxBlockMillis()} for acknowledgements to
   * free a segment, then goes on without storing the batch.
   */
  BLOCK,
  /** The new batch is not stored (it stays in memory only). */
  DROP_NEWEST,
  /**
   * Whole oldest segments are deleted to make room; their undelivered batches are counted. As in
   * Kafka's and Vector's "drop oldest", the point is to keep the newest data: a stored batch is
   * dropped whatever its state. A dropped batch whose records already got {@link
   * SendResult.Status#SPOOLED} is counted in {@link ProducerMetrics#getSpoolRecordsDropped()} and
   * told to {@link SpoolListener#onDropped}. A dropped batch that is still in memory without an
   * outcome (being sent or retried) loses only its disk copy: it goes on in memory, its records get
   * their in-memory outcome ({@code DELIVERED}, or {@code FAILED} at the delivery timeout, never
   * {@code SPOOLED}), and the drop is not counted as a spool drop, so each record is counted once.
   * Dropping such a batch rather than skipping it costs the least: it still has its in-memory
   * chance, where an older spooled batch has none.
   */
  DROP_OLDEST
}
