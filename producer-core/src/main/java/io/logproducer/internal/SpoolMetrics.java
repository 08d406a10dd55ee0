package io.logproducer.internal;

import io.logproducer.internal.spool.DiscardReason;
import io.logproducer.internal.spool.SpoolEvents;
import java.util.concurrent.atomic.LongAdder;

/**
 * The spool's counters: records and batches whose outcome was SPOOLED, batches written ahead,
 * replayed and delivered from the spool, and stored batches that left it undelivered (expired by
 * maxAge, dropped when full, corrupt, refused by the receiver). Also the storage's {@link
 * SpoolEvents}: each discard is counted here. Every stored batch leaving the spool (a discard, or
 * replay's {@link #delivered} / {@link #refused}) is also told to the user's {@link
 * io.logproducer.SpoolListener}, whose exceptions are caught and logged (rate-limited).
 * Thread-safe.
 */
final class SpoolMetrics implements SpoolEvents {

  private static final InternalLogger log = InternalLogger.get(SpoolMetrics.class);

  final LongAdder recordsSpooled = new LongAdder();
  final LongAdder batchesSpooled = new LongAdder();
  final LongAdder batchesWritten = new LongAdder();
  final LongAdder batchesNotWritten = new LongAdder();
  final LongAdder batchesReplayed = new LongAdder();
  final LongAdder recordsReplayed = new LongAdder();
  final LongAdder recordsDeliveredFromSpool = new LongAdder();
  final LongAdder recordsRefusedFromSpool = new LongAdder();
  final LongAdder batchesExpired = new LongAdder();
  final LongAdder recordsExpired = new LongAdder();
  final LongAdder batchesDropped = new LongAdder();
  final LongAdder recordsDropped = new LongAdder();
  final LongAdder batchesCorrupt = new LongAdder();
  final LongAdder batchesLost = new LongAdder();
  final LongAdder recordsLost = new LongAdder();
  private final io.logproducer.SpoolListener user;
  private volatile String lossAtOpen;
  private volatile ErrorSink errors = (source, message) -> {};
  private final RateLimitedLog listenerErrors = new RateLimitedLog(log, 10_000);

  /**
   * @param user the application's listener, or null
   */
  SpoolMetrics(io.logproducer.SpoolListener user) {
    this.user = user;
  }

  /**
   * Where the storage's fsync failures and losses go: the producer's last (spool) error. A loss
   * found while the spool opened, before this is set, is passed on now.
   */
  void reportErrorsTo(ErrorSink sink) {
    this.errors = sink;
    String atOpen = lossAtOpen;
    if (atOpen != null) {
      sink.noteError("spool", atOpen);
    }
  }

  @Override
  public void onDurabilityFailed(long from, long to, java.io.IOException cause) {
    errors.noteError(
        "spool",
        "fsync of stored batches #" + from + "..#" + to + " failed (" + cause + "); memory only");
  }

  @Override
  public void onLost(String file, long fromSequence, long toSequence, int batches, long records) {
    batchesLost.add(batches);
    recordsLost.add(Math.max(0, records));
    String what =
        batches
            + " stored batches ("
            + (records < 0 ? "record count unknown" : records + " records")
            + ", sequences "
            + fromSequence
            + ".."
            + toSequence
            + ") lost: segment file "
            + file
            + " is missing, empty or shorter than what was written into it";
    log.warn("spool: {}", what);
    lossAtOpen = what;
    errors.noteError("spool", what);
    if (user != null) {
      try {
        user.onLost(fromSequence, toSequence, batches, records);
      } catch (Throwable t) {
        listenerThrew("onLost", t);
      }
    }
  }

  @Override
  public void onNotice(String message) {
    log.warn("{}", message);
  }

  /** Replay delivered stored batch {@code sequence}; {@code rejected} of its records refused. */
  void delivered(long sequence, int recordCount, long rejected) {
    recordsDeliveredFromSpool.add(recordCount - rejected);
    recordsRefusedFromSpool.add(rejected);
    if (user != null) {
      try {
        user.onDelivered(sequence, recordCount);
      } catch (Throwable t) {
        listenerThrew("onDelivered", t);
      }
    }
  }

  /** The receiver refused replayed batch {@code sequence} for good. */
  void refused(long sequence, int recordCount, String reason) {
    recordsRefusedFromSpool.add(recordCount);
    if (user != null) {
      try {
        user.onRefused(sequence, recordCount, reason);
      } catch (Throwable t) {
        listenerThrew("onRefused", t);
      }
    }
  }

  /**
   * Stored batch {@code sequence}, whose records got SPOOLED, was dropped under DROP_OLDEST while
   * the data path had claimed its fate (its late answer pending, or replay about to export it) and
   * it will not be delivered: counted and told as the storage's drop would have been.
   */
  void droppedOldest(long sequence, int recordCount) {
    onDiscarded(DiscardReason.DROPPED_OLDEST, sequence, recordCount, null);
  }

  /** Replay found stored batch {@code sequence} unreadable. */
  void corrupt(long sequence, int recordCount) {
    onDiscarded(DiscardReason.CORRUPT, sequence, recordCount, null);
  }

  private void listenerThrew(String method, Throwable t) {
    listenerErrors.warn("the spool listener's " + method + " threw; ignored", t);
  }

  @Override
  public void onDiscarded(DiscardReason reason, long sequence, int recordCount, byte[] meta) {
    long records = Math.max(0, recordCount);
    switch (reason) {
      case EXPIRED:
        batchesExpired.increment();
        recordsExpired.add(records);
        break;
      case DROPPED_OLDEST:
        batchesDropped.increment();
        recordsDropped.add(records);
        break;
      case CORRUPT:
      default:
        batchesCorrupt.increment();
        break;
    }
    if (user != null) {
      tell(reason, sequence, recordCount);
    }
  }

  private void tell(DiscardReason reason, long sequence, int recordCount) {
    try {
      switch (reason) {
        case EXPIRED:
          user.onExpired(sequence, recordCount);
          break;
        case DROPPED_OLDEST:
          user.onDropped(sequence, recordCount);
          break;
        case CORRUPT:
        default:
          user.onCorrupt(sequence, recordCount);
          break;
      }
    } catch (Throwable t) {
      listenerThrew("on" + reason, t);
    }
  }
}
