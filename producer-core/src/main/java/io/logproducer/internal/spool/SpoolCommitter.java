package io.logproducer.internal.spool;

import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
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
  private volatile boolean checkpointSoon;

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
    boolean forceJournal = c.getDurability() != SpoolDurability.NONE;
    long tick =
        forceJournal
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
          commit(spool);
        }
        if (forceJournal) {
          spool.journals.force(spool.lock);
        }
        if (checkpointSoon || System.nanoTime() - nextCheckpoint >= 0) {
          checkpointSoon = false;
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

  /** Asks for a checkpoint at the next tick (the journal is full or failed). */
  void checkpointSoon() {
    checkpointSoon = true;
    LockSupport.unpark(this);
  }

  /**
   * Writes {@code spool}'s checkpoint if anything changed since the last one (or when {@code
   * always}). Under the lock it takes the snapshot and starts the next journal, so that every fact
   * after the snapshot is in a journal the checkpoint names; once the checkpoint is on disk, the
   * older journals are deleted.
   */
  static void writeCheckpoint(Spool spool, boolean always) {
    Checkpoint cp;
    spool.lock.lock();
    try {
      if (!spool.checkpointDirty && !always) {
        return;
      }
      long previous = spool.journals.generation();
      long gen = spool.journals.rotate();
      if (gen < 0) {
        gen = previous < 0 ? 0 : previous; // no new journal: the old ones still apply
      }
      cp = SpoolRecovery.snapshot(spool, gen);
      spool.checkpointDirty = false;
    } finally {
      spool.lock.unlock();
    }
    try {
      cp.write(spool.dir);
      spool.lock.lock();
      try {
        spool.journals.deleteBelow(cp.journalGeneration);
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

  /**
   * Forces what was written since the last commit (GROUP_COMMIT's committer; EVERY_BATCH's
   * appender) and advances the durable watermark. {@return null, or the force's failure (then
   * reported)}
   */
  static IOException commit(Spool spool) {
    FileChannel ch;
    long target;
    long from;
    DurableWatermark.Failure earlier;
    Path forced;
    long end;
    spool.lock.lock();
    try {
      earlier = spool.durable.takeFailure();
      target = spool.written;
      from = spool.durable.value() + 1;
      ch = spool.active == null ? null : spool.active.channel;
      forced = spool.active == null ? null : spool.active.path();
      end = spool.active == null ? 0 : spool.active.dataEnd();
    } finally {
      spool.lock.unlock();
    }
    report(spool, earlier);
    if (target < from) {
      return null;
    }
    IOException failure = null;
    if (ch != null && spool.config.getDurability() != SpoolDurability.NONE) {
      try {
        ch.force(false);
        FsyncLog.forced(forced, end);
      } catch (ClosedChannelException e) {
        failure = afterClosedChannel(spool, ch);
      } catch (IOException e) {
        failure = e;
        spool.lock.lock();
        try {
          if (spool.active != null && spool.active.channel == ch) {
            spool.fail(e);
          }
        } finally {
          spool.lock.unlock();
        }
        report(spool, new DurableWatermark.Failure(from, target, e));
      }
    }
    spool.durable.advance(target);
    if (failure == null) {
      Discard.safely(() -> spool.events.onDurable(target));
    }
    return failure;
  }

  /**
   * The active channel was closed under a force: by a roll (which forced it when sealing), by an
   * abandon (which forced it or queued a failure), or by an interrupt (then it is abandoned now).
   * {@return the failure reported, or null when the entries are durable}
   */
  private static IOException afterClosedChannel(Spool spool, FileChannel ch) {
    DurableWatermark.Failure f;
    spool.lock.lock();
    try {
      if (spool.active != null && spool.active.channel == ch) {
        spool.abandonActive();
      }
      f = spool.durable.takeFailure();
    } finally {
      spool.lock.unlock();
    }
    report(spool, f);
    return f == null ? null : f.cause;
  }

  private static void report(Spool spool, DurableWatermark.Failure f) {
    if (f != null) {
      Discard.safely(() -> spool.events.onDurabilityFailed(f.from, f.to, f.cause));
    }
  }
}
