package io.logproducer.internal;

import io.logproducer.Callback;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Holds one open batch per shard and appends encoded records to it. A batch is sealed before a
 * record that would take it past {@code batchSizeInBytes} (so a record larger than that travels
 * alone), as soon as it reaches {@code batchSizeInBytes} or {@code batchCountThreshold}, by the
 * {@link LingerTimer} when it is {@code lingerMillis} old, by {@link #sealAll()} for flush and
 * close, and by {@link #relievePressure(long)} when open batches hold much of the budget while a
 * sender would have to wait. Sealing compacts the batch ({@link ProducerBatch#compact}). Sealed
 * batches go to the send queue, outside the shard lock.
 *
 * <p>Thread-safe: each shard's open batch is guarded by that shard's {@link ReentrantLock} (not a
 * monitor: thousands of senders, virtual threads among them, queue for one shard, and a virtual
 * thread blocked on a monitor pins its carrier on Java 21); the shard map is concurrent. Appends
 * charge the budget only without waiting ({@link MemoryBudget#tryReserve}); a caller told to
 * reserve more waits outside every lock and tries again with the bytes as credit.
 */
final class Accumulator {

  /** A shard's slot for its open batch. */
  private static final class Shard {
    final ReentrantLock lock = new ReentrantLock();

    /** Guarded by {@link #lock}. */
    ProducerBatch open;
  }

  private final ConcurrentHashMap<Object, Shard> shards = new ConcurrentHashMap<>();
  private final ChunkPool pool;
  private final MemoryBudget budget;
  private final int batchSizeInBytes;
  private final int batchCountThreshold;
  private final long lingerNanos;
  private final long deliveryTimeoutNanos;
  private final IncompleteBatches incomplete;
  private final LingerTimer timer;
  private final Consumer<ProducerBatch> onSealed;

  /**
   * Set by {@link #closeAndSealAll()}; read under each shard's lock, so no append can follow the
   * final seal.
   */
  private volatile boolean closed;

  /**
   * Budget bytes charged to open batches (the sum of their {@link ProducerBatch#charged()}),
   * changed under the shard lock whenever an append changes an open batch's charge (once per chunk,
   * not per record) and when one is sealed, so {@link #relievePressure()} reads it without locking
   * every shard on each refused send.
   */
  private final LongAdder openCharged = new LongAdder();

  /**
   * Expected records per batch, from the last batch sealed by size: sizes new batches' offset
   * arrays.
   */
  private volatile int recordsPerBatchHint = 64;

  /**
   * @param onSealed receives each sealed batch, outside any lock (the send queue)
   */
  Accumulator(
      ChunkPool pool,
      MemoryBudget budget,
      int batchSizeInBytes,
      int batchCountThreshold,
      long lingerNanos,
      long deliveryTimeoutNanos,
      IncompleteBatches incomplete,
      LingerTimer timer,
      Consumer<ProducerBatch> onSealed) {
    this.pool = pool;
    this.budget = budget;
    this.batchSizeInBytes = batchSizeInBytes;
    this.batchCountThreshold = batchCountThreshold;
    this.lingerNanos = lingerNanos;
    this.deliveryTimeoutNanos = deliveryTimeoutNanos;
    this.incomplete = incomplete;
    this.timer = timer;
    this.onSealed = onSealed;
    ClassInit.initialize(ProducerBatch.class, Shard.class); // see ClassInit
  }

  /**
   * Appends one encoded record ({@code src[0, len)}) to the open batch of {@code shardKey},
   * charging the budget without waiting; {@code credit} bytes the caller already reserved are used
   * first.
   *
   * @return 0 if appended (the credit now belongs to the batch); otherwise the bytes still to
   *     reserve before calling again (the record was not appended and the credit is still the
   *     caller's)
   * @throws IllegalStateException if the accumulator was closed (the credit is still the caller's)
   */
  long append(Object shardKey, byte[] src, int len, Callback callback, long credit) {
    Shard shard = shards.get(shardKey);
    if (shard == null) {
      Shard created = new Shard();
      shard = shards.putIfAbsent(shardKey, created);
      if (shard == null) {
        shard = created;
      }
    }
    ProducerBatch full = null;
    ProducerBatch done = null;
    boolean grew;
    shard.lock.lock();
    try {
      try {
        if (closed) {
          throw new IllegalStateException("cannot send after the producer is closed");
        }
        ProducerBatch b = shard.open;
        if (b != null && b.sizeInBytes() + len > batchSizeInBytes) {
          recordsPerBatchHint = b.recordCount() + (b.recordCount() >> 3) + 16;
          shard.open = null;
          full = b;
          sealLocked(b);
          b = null;
        }
        boolean fresh = b == null;
        if (fresh) {
          // One clock read per batch, not per record.
          b =
              new ProducerBatch(
                  shardKey,
                  pool,
                  System.nanoTime(),
                  lingerNanos,
                  deliveryTimeoutNanos,
                  Math.min(batchCountThreshold, recordsPerBatchHint));
        }
        long chargedBefore = b.charged();
        long shortfall = b.tryAppend(src, len, callback, credit, budget);
        if (shortfall > 0) {
          return shortfall; // a fresh batch is dropped unregistered: it holds nothing
        }
        long chargeGrowth = b.charged() - chargedBefore;
        if (chargeGrowth != 0) {
          openCharged.add(chargeGrowth);
        }
        if (fresh) {
          incomplete.add(b); // neither allocates: a registered batch cannot be lost
          timer.track(b);
        }
        if (b.sizeInBytes() >= batchSizeInBytes || b.recordCount() >= batchCountThreshold) {
          shard.open = null;
          done = b;
          sealLocked(b);
        } else {
          shard.open = b;
        }
        grew = chargeGrowth > 0 && done == null;
      } finally {
        shard.lock.unlock();
      }
    } finally {
      if (full != null) {
        onSealed.accept(full);
      }
      if (done != null) {
        onSealed.accept(done);
      }
    }
    if (grew && budget.waitingThreads() > 0) {
      // Senders wait for budget while open batches grow into it (each waiter served adds a chunk,
      // and the senders that would fill it and find the budget short are all waiting): seal them
      // once they hold what the waiters wait for, not only at lingerMillis.
      relievePressure(budget.headWanted());
    }
    return 0;
  }

  /** Seals an open batch its shard just let go of (shard lock held). */
  private void sealLocked(ProducerBatch b) {
    openCharged.add(-b.charged());
    b.seal();
    timer.untrack(b);
    b.compact(budget);
  }

  /** Seals {@code b} if it is still its shard's open batch (the linger timer's call). */
  void sealIfOpen(ProducerBatch b) {
    Shard shard = shards.get(b.shardKey());
    if (shard == null) {
      return;
    }
    shard.lock.lock();
    try {
      if (shard.open != b) {
        return;
      }
      shard.open = null;
      sealLocked(b);
    } finally {
      shard.lock.unlock();
    }
    onSealed.accept(b);
  }

  /**
   * Refuses every later append and seals every open batch. Because appends check the flag under the
   * shard lock and this seals under the same lock, every record appended before it is in a sealed
   * batch afterwards.
   */
  int closeAndSealAll() {
    closed = true;
    return sealAll();
  }

  /** Seals every shard's open batch; returns how many were sealed. */
  int sealAll() {
    List<ProducerBatch> sealed = new ArrayList<>();
    try {
      for (Shard shard : shards.values()) {
        shard.lock.lock();
        try {
          ProducerBatch b = shard.open;
          if (b != null) {
            shard.open = null;
            sealed.add(b);
            sealLocked(b);
          }
        } finally {
          shard.lock.unlock();
        }
      }
    } finally {
      for (ProducerBatch b : sealed) {
        onSealed.accept(b);
      }
    }
    return sealed.size();
  }

  /**
   * Called when a sender would have to wait for {@code wanted} bytes: seals every open batch (which
   * compacts them and lets them ship) if open batches hold a quarter of the budget or more (many
   * shards each with a partly filled chunk: GSE with many dataids, say; or one shard's batch that
   * the budget cannot grow to {@code batchSizeInBytes}), or if what they hold is more than the
   * sender could ever get without them. So open batches can never hold the budget hostage: the
   * bytes a waiter waits for are always in batches that ship, not ones waiting for {@code
   * lingerMillis}.
   *
   * @param wanted the bytes the sender needs in all
   * @return true if it sealed
   */
  boolean relievePressure(long wanted) {
    long open = openCharged.sum(); // no shard lock: the refused path stays cheap in a flood
    if (open <= 0 || (open * 4 < budget.total() && open <= budget.total() - wanted)) {
      return false;
    }
    return sealAll() > 0;
  }

  /** Budget bytes charged to open batches now. */
  long openCharged() {
    return openCharged.sum();
  }

  int shardCount() {
    return shards.size();
  }
}
