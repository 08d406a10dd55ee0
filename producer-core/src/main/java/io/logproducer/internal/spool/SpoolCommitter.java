package io.logproducer.internal.spool;

import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The spool's one background thread ("logproducer-spool-committer", daemon): under GROUP_COMMIT it
 * forces the active segment every commitIntervalMillis when anything was written (one fsync for
 * every entry since the last), and under every policy it writes the checkpoint every
 * checkpointIntervalMillis when acknowledgements changed it. It never throws: failures go through
 * {@link Spool#fail}. Stopped by {@link #shutdown()}. Also the checkpoint writer ({@link
 * #writeCheckpoint}) of open and close.
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
    boolean group = c.getDurability() == SpoolDurability.GROUP_COMMIT;
    long tick =
        group
            ? Math.min(c.getGroupCommitMillis(), spool.tuning.checkpointIntervalMillis)
            : spool.tuning.checkpointIntervalMillis;
    long nextCheckpoint =
        System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(spool.tuning.checkpointIntervalMillis);
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
          writeCheckpoint(spool, false);
          nextCheckpoint =
              System.nanoTime()
                  + TimeUnit.MILLISECONDS.toNanos(spool.tuning.checkpointIntervalMillis);
        }
      } catch (RuntimeException e) {
        spool.health.noted(e);
      }
    }
  }

  /**
   * Writes {@code spool}'s checkpoint if anything changed since the last one (or when {@code
   * always}).
   */
  static void writeCheckpoint(Spool spool, boolean always) {
    Checkpoint cp;
    spool.lock.lock();
    try {
      if (!spool.checkpointDirty && !always) {
        return;
      }
      cp = SpoolRecovery.snapshot(spool);
      spool.checkpointDirty = false;
    } finally {
      spool.lock.unlock();
    }
    try {
      cp.write(spool.dir);
      spool.lock.lock();
      try {
        spool.checkpointBytes = cp.bytes();
      } finally {
        spool.lock.unlock();
      }
    } catch (IOException e) {
      spool.lock.lock();
      try {
        spool.checkpointDirty = true;
        if (spool.health.disabled()) {
          spool.health.noted(e); // the appenders' retry owns the back-off: do not postpone it
        } else if (!spool.closed) {
          spool.fail(e);
        }
      } finally {
        spool.lock.unlock();
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
