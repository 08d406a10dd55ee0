package io.logproducer.internal.spool;

/** The state of a spool as its callers see it ({@link Spool#status()}). */
public enum SpoolStatus {
  /** Appends are stored. */
  ENABLED,
  /**
   * The disk failed ({@link Spool#lastError()} says how); appends are refused until a retry after a
   * back-off (1 s doubling to 30 s by default) succeeds.
   */
  DISABLED,
  /** Closed: every call is refused. */
  CLOSED
}
