package io.logproducer.internal.spool;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The spool's one background thread ("logproducer-spool-committer", daemon): under GROUP_COMMIT it
 * forces the active segment every commitIntervalMillis when anything was written (one fsync for
 * every entry since the last), and under every policy it writes the checkpoint every
 * checkpointIntervalMillis when acknowledgements changed it. It never throws: failures go through
 * {@link Spool#fail}. Stopped by {@link #shutdown()}.
 */
final class SpoolCommitter extends Thread {
  private final Spool spool;
  private volatile boolean stopped;

  /** The committer of {@code spool}, not yet started. */
  SpoolCommitter(Spool spool) {
    super("logproducer-spool-committer");
    setDaemon(true);
    this.spool = spool;
  }

  /** Commits and checkpoints at their intervals until {@link #shutdown()}. */
  @Override
  public void run() {
    SpoolConfig c = spool.config;
    boolean group = c.durability == SpoolDurability.GROUP_COMMIT;
    long tick =
        group
            ? Math.min(c.commitIntervalMillis, c.checkpointIntervalMillis)
            : c.checkpointIntervalMillis;
    long nextCheckpoint =
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(c.checkpointIntervalMillis);
    while (!stopped) {
      LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(tick));
      if (stopped) {
        return;
      }
      try {
        if (group) {
          spool.commit();
        }
        if (System.nanoTime() - nextCheckpoint >= 0) {
          spool.writeCheckpoint(false);
          nextCheckpoint =
              System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(c.checkpointIntervalMillis);
        }
      } catch (RuntimeException e) {
        spool.health.noted(e);
      }
    }
  }

  /** Stops the thread and waits for it (up to 10 s). */
  void shutdown() {
    stopped = true;
    LockSupport.unpark(this);
    try {
      join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
