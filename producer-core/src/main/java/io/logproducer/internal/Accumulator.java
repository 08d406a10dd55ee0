package io.logproducer.internal;

import io.logproducer.Callback;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Holds one open batch per shard and appends encoded records to it. A batch is sealed before a record that would
 * take it past {@code batchSizeInBytes} (so a record larger than that travels alone), as soon as it reaches
 * {@code batchSizeInBytes} or {@code batchCountThreshold}, by the {@link LingerTimer} when it is
 * {@code lingerMillis} old, and by {@link #sealAll()} for flush and close. Sealed batches go to the send queue,
 * outside the shard lock.
 *
 * <p>Thread-safe: each shard's open batch is guarded by that shard's monitor; the shard map is concurrent. The
 * memory budget is reserved by the caller before {@link #append}, so nothing here ever waits under a lock.
 */
final class Accumulator {

  /** A shard's slot for its open batch; the monitor of this object guards {@link #open}. */
  private static final class Shard {
    /** Guarded by this. */
    ProducerBatch open;
  }

  private final ConcurrentHashMap<Object, Shard> shards = new ConcurrentHashMap<>();
  private final ChunkPool pool;
  private final int batchSizeInBytes;
  private final int batchCountThreshold;
  private final long lingerNanos;
  private final long deliveryTimeoutNanos;
  private final IncompleteBatches incomplete;
  private final Consumer<ProducerBatch> onNewBatch;
  private final Consumer<ProducerBatch> onSealed;
  /** Set by {@link #closeAndSealAll()}; read under each shard's lock, so no append can follow the final seal. */
  private volatile boolean closed;
  /** Expected records per batch, from the last batch sealed by size: sizes new batches' offset arrays. */
  private volatile int recordsPerBatchHint = 64;

  /**
   * @param onNewBatch told of each new batch, under the shard lock (the linger timer tracks it)
   * @param onSealed receives each sealed batch, outside any lock (the send queue)
   */
  Accumulator(ChunkPool pool, int batchSizeInBytes, int batchCountThreshold, long lingerNanos,
      long deliveryTimeoutNanos, IncompleteBatches incomplete, Consumer<ProducerBatch> onNewBatch,
      Consumer<ProducerBatch> onSealed) {
    this.pool = pool;
    this.batchSizeInBytes = batchSizeInBytes;
    this.batchCountThreshold = batchCountThreshold;
    this.lingerNanos = lingerNanos;
    this.deliveryTimeoutNanos = deliveryTimeoutNanos;
    this.incomplete = incomplete;
    this.onNewBatch = onNewBatch;
    this.onSealed = onSealed;
  }

  /**
   * Appends one encoded record ({@code src[0, len)}) to the open batch of {@code shardKey}.
   *
   * @throws IllegalStateException if the accumulator was closed (the caller still owns the record's bytes)
   */
  void append(Object shardKey, byte[] src, int len, Callback callback) {
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
    synchronized (shard) {
      if (closed) {
        throw new IllegalStateException("cannot send after the producer is closed");
      }
      ProducerBatch b = shard.open;
      if (b != null && b.sizeInBytes() + len > batchSizeInBytes) {
        b.seal();
        recordsPerBatchHint = b.recordCount() + (b.recordCount() >> 3) + 16;
        full = b;
        b = null;
      }
      if (b == null) {
        // One clock read per batch, not per record.
        b = new ProducerBatch(shardKey, pool, System.nanoTime(), lingerNanos, deliveryTimeoutNanos,
            Math.min(batchCountThreshold, recordsPerBatchHint));
        incomplete.add(b);
        onNewBatch.accept(b);
      }
      b.append(src, len, callback);
      if (b.sizeInBytes() >= batchSizeInBytes || b.recordCount() >= batchCountThreshold) {
        b.seal();
        done = b;
        shard.open = null;
      } else {
        shard.open = b;
      }
    }
    if (full != null) {
      onSealed.accept(full);
    }
    if (done != null) {
      onSealed.accept(done);
    }
  }

  /** Seals {@code b} if it is still its shard's open batch (the linger timer's call). */
  void sealIfOpen(ProducerBatch b) {
    Shard shard = shards.get(b.shardKey());
    if (shard == null) {
      return;
    }
    synchronized (shard) {
      if (shard.open != b) {
        return;
      }
      b.seal();
      shard.open = null;
    }
    onSealed.accept(b);
  }

  /**
   * Refuses every later append and seals every open batch. Because appends check the flag under the shard lock
   * and this seals under the same lock, every record appended before it is in a sealed batch afterwards.
   */
  int closeAndSealAll() {
    closed = true;
    return sealAll();
  }

  /** Seals every shard's open batch; returns how many were sealed. */
  int sealAll() {
    List<ProducerBatch> sealed = new ArrayList<>();
    for (Shard shard : shards.values()) {
      synchronized (shard) {
        ProducerBatch b = shard.open;
        if (b != null) {
          b.seal();
          shard.open = null;
          sealed.add(b);
        }
      }
    }
    for (ProducerBatch b : sealed) {
      onSealed.accept(b);
    }
    return sealed.size();
  }

  int shardCount() {
    return shards.size();
  }
}
