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
  /** Whole oldest segments are deleted to make room; their undelivered batches are counted. */
  DROP_OLDEST
}
