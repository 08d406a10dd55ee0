package io.logproducer.internal.spool;

/** What an append does when a new segment would take the spool past maxBytes. */
public enum SpoolFullPolicy {
  /** Wait up to maxBlockMillis for acknowledgements to delete a segment; then refuse (FULL). */
  BLOCK,
  /** Refuse this append (FULL): the caller keeps the batch in memory only. */
  DROP_NEWEST,
  /**
   * Delete whole oldest sealed segments, reporting each unacknowledged entry in them to the {@link
   * SpoolListener} as {@link DiscardReason#DROPPED_OLDEST}; refuse only if no sealed segment is
   * left.
   */
  DROP_OLDEST
}
