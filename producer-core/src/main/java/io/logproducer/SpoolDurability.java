package io.logproducer;

/**
 * What a spooled batch survives, by policy. A batch is <em>durable per the policy</em> once the
 * spool's durable watermark passed it; only then may its records complete with {@link
 * SendResult.Status#SPOOLED}.
 *
 * <table>
 *   <caption>What a spooled batch survives</caption>
 *   <tr><th>policy</th><th>process kill (kill -9, OOM kill)</th><th>power loss, kernel crash</th></tr>
 *   <tr><td>NONE</td><td>yes, once written</td><td>no</td></tr>
 *   <tr><td>GROUP_COMMIT</td><td>yes, once written</td>
 *       <td>yes, at most {@code groupCommitMillis} after it was written</td></tr>
 *   <tr><td>EVERY_BATCH</td><td>yes</td><td>yes, before its export starts</td></tr>
 * </table>
 */
public enum SpoolDurability {
  /** No fsync: the page cache holds the batch; survives a process kill, not a power loss. */
  NONE,
  /**
   * One fsync every {@link SpoolConfig#getGroupCommitMillis()} covers every batch written since the
   * last one (the default: power-loss safe within that window at a small cost).
   */
  GROUP_COMMIT,
  /** An fsync per batch before it is exported: power-loss safe, at one fsync per batch. */
  EVERY_BATCH
}
