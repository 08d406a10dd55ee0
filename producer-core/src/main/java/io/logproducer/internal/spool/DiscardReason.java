package io.logproducer.internal.spool;

/** Why an unacknowledged entry left the spool without being delivered. */
public enum DiscardReason {
  /** Deleted with its segment to make room under the DROP_OLDEST policy. */
  DROPPED_OLDEST,
  /** Older than maxAgeMillis when the cursor reached it. */
  EXPIRED,
  /** Its bytes were damaged (bad CRC, torn, unreadable); sequence and meta may be unknown. */
  CORRUPT
}
