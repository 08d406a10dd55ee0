package io.logproducer.internal.spool;

import io.logproducer.SpoolConfig;

/**
 * For tests outside the storage package: a spool whose committer never ticks during a test (with
 * {@code groupCommitMillis} 60,000 and no background checkpoint), so that written entries stay not
 * durable until the test commits them ({@link #commit}).
 */
public final class SteppedCommits {

  private SteppedCommits() {}

  /** {@return the spool of {@code cfg} of kind "test" telling {@code events}, no ticks} */
  public static Spool open(SpoolConfig cfg, SpoolEvents events) {
    return Spool.open(cfg, "test", events, SpoolTestSupport.TUNING);
  }

  /** Forces what was written and advances the durable watermark, as the group commit does. */
  public static void commit(Spool spool) {
    if (SpoolCommitter.commit(spool) != null) {
      throw new IllegalStateException("the commit failed");
    }
  }
}
