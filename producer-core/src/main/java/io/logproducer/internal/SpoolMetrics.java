package io.logproducer.internal;

import io.logproducer.internal.spool.DiscardReason;
import io.logproducer.internal.spool.SpoolListener;
import java.util.concurrent.atomic.LongAdder;

/**
 * The spool's counters: records and batches whose outcome was SPOOLED, batches written ahead,
 * replayed and delivered from the spool, and stored batches that left it undelivered (expired by
 * maxAge, dropped when full, corrupt, refused by the receiver). Also the spool's {@link
 * SpoolListener}: each discard is counted here. Thread-safe.
 */
final class SpoolMetrics implements SpoolListener {
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
  }
}
