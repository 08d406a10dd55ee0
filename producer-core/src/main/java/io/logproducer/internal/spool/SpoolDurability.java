package io.logproducer.internal.spool;

/**
 * What a stored entry survives before {@link Spool#durableSequence()} passes it.
 *
 * <table>
 *   <caption>Guarantees</caption>
 *   <tr><th>policy</th><th>process kill (kill -9, OOM)</th><th>power loss / kernel crash</th></tr>
 *   <tr><td>NONE</td><td>yes, once append returned</td><td>no (what the OS had written back)</td></tr>
 *   <tr><td>GROUP_COMMIT</td><td>yes, once append returned</td>
 *       <td>yes, once the durable watermark passed it (at most commitIntervalMillis later)</td></tr>
 *   <tr><td>EVERY_ENTRY</td><td>yes</td><td>yes, once append returned STORED</td></tr>
 * </table>
 */
public enum SpoolDurability {
  /** Page cache only: no fsync (segments are not forced when sealed either). */
  NONE,
  /** A committer thread forces the active segment every commitIntervalMillis if anything is new. */
  GROUP_COMMIT,
  /**
   * Each append forces before it returns (concurrent appends share one force when they overlap).
   */
  EVERY_ENTRY
}
