package io.logproducer.internal;

import io.logproducer.Compression;
import io.logproducer.internal.spool.AppendResult;
import io.logproducer.internal.spool.Spool;
import io.logproducer.internal.spool.SpoolStatus;
import io.logproducer.spi.Exporter;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Write-ahead: a send thread writes each batch's request body, as shipped, to the spool before its
 * first export ({@link #writeAhead}), and the batch's final outcome either acknowledges the entry
 * ({@link #acknowledge}) or hands it over to replay ({@link #handOver}). It knows which entries are
 * still held in memory by a live batch, so that replay never sends one of those ({@link
 * #replayBound()}). Thread-safe.
 */
final class SpoolWriter {

  private static final InternalLogger log = InternalLogger.get(SpoolWriter.class);

  private final Spool spool;
  private final Exporter exporter;
  private final Compression compression;
  private final SpoolMetrics metrics;
  private volatile ErrorSink errors = (source, message) -> {};
  private final RateLimitedLog refusals = new RateLimitedLog(log, 10_000);

  /** Sequences of entries whose batch is still in memory, without its outcome. */
  private final ConcurrentSkipListSet<Long> held = new ConcurrentSkipListSet<>();

  /**
   * Sequences of entries handed over (their records got SPOOLED) while their batch's export was
   * still in flight: replay waits for that export's late answer ({@link #release}). The value says
   * whether the storage dropped the entry meanwhile (then the late answer reports its records).
   */
  private final ConcurrentSkipListMap<Long, Boolean> answering = new ConcurrentSkipListMap<>();

  /** Sequences of entries replay has read and is exporting now. */
  private final ConcurrentHashMap<Long, Boolean> replaying = new ConcurrentHashMap<>();

  /** Lower bounds of sequences being appended now (the spool's next sequence before each). */
  private final ConcurrentSkipListMap<Long, AtomicInteger> appending =
      new ConcurrentSkipListMap<>();

  /** Notified when an entry is handed over to replay. */
  private final Object handedOver = new Object();

  /**
   * How long a batch about to fail waits for its entry's group commit (twice the interval + 100 ms,
   * at most 900 ms: close's bound too).
   */
  private final long durableWaitMillis;

  SpoolWriter(
      Spool spool,
      Exporter exporter,
      Compression compression,
      SpoolMetrics metrics,
      long durableWaitMillis) {
    this.spool = spool;
    this.exporter = exporter;
    this.compression = compression;
    this.metrics = metrics;
    this.durableWaitMillis = durableWaitMillis;
  }

  Spool spool() {
    return spool;
  }

  /**
   * Writes {@code body[0, length)} of {@code b} to the spool unless it is there already (a retry).
   * Never throws for a disk problem: a batch the spool refuses (full, disk failed) stays on the
   * in-memory path only. Blocks for the write, and per the durability and full policies.
   */
  void writeAhead(ProducerBatch b, byte[] body, int length) {
    writeAhead(b, body, length, -1);
  }

  /**
   * {@link #writeAhead(ProducerBatch, byte[], int)}, blocking per the full policy at most {@code
   * maxBlockMillis} (close's bound; negative: the configured maxBlockMillis).
   */
  void writeAhead(ProducerBatch b, byte[] body, int length, long maxBlockMillis) {
    if (b.spoolSequence >= 0) {
      return;
    }
    byte[] key;
    try {
      key = exporter.spoolShardKey(b.shardKey());
    } catch (RuntimeException e) {
      notWritten(b, "the exporter could not store shard key " + b.shardKey() + ": " + e);
      return;
    }
    if (key == null) {
      notWritten(b, "the exporter cannot store shard key " + b.shardKey());
      return;
    }
    byte[] meta =
        StoredBatchMeta.of(compression, b, key, exporter.exportNeedsRecordSizes()).encode();
    Long floor = spool.nextSequence();
    appending.computeIfAbsent(floor, f -> new AtomicInteger()).incrementAndGet();
    try {
      ByteBuffer payload = ByteBuffer.wrap(body, 0, length);
      long now = System.currentTimeMillis();
      AppendResult r =
          maxBlockMillis < 0
              ? spool.append(now, b.recordCount(), meta, payload)
              : spool.append(now, b.recordCount(), meta, payload, maxBlockMillis);
      if (r.stored()) {
        held.add(r.sequence());
        b.spoolSequence = r.sequence();
        metrics.batchesWritten.increment();
      } else {
        notWritten(b, r.toString());
      }
    } finally {
      appending.computeIfPresent(floor, (f, n) -> n.decrementAndGet() == 0 ? null : n);
    }
  }

  /**
   * {@return whether batch {@code b} has an entry in the spool that is not durable yet} Its outcome
   * should then wait for the group commit: a late committer (a starved CPU) must not turn a stored
   * batch into a failure.
   */
  boolean awaitingDurability(ProducerBatch b) {
    long seq = b.spoolSequence;
    return seq >= 0 && spool.durableSequence() < seq && held.contains(seq);
  }

  /** Where refusals go besides the log: the producer's last error; set before the threads start. */
  void reportErrorsTo(ErrorSink sink) {
    this.errors = sink;
  }

  /**
   * The spool refused batch {@code b}: noted (last error, last spool error, a rate-limited log) at
   * its first refusal only, and counted once, at its outcome ({@link SpoolOutcomes#settle}).
   */
  private void notWritten(ProducerBatch b, String why) {
    if (b.spoolRefused) {
      return; // its retries try again, but it is one batch, noted once
    }
    b.spoolRefused = true;
    errors.noteError(
        "spool " + spool.directory(),
        "did not store a batch of " + b.recordCount() + " records (" + why + "); memory only");
    refusals.warn(
        () ->
            "spool "
                + spool.directory()
                + " did not store a batch of "
                + b.recordCount()
                + " records ("
                + why
                + "); it stays in memory only",
        null);
  }

  /** The batch's entry is no longer needed (delivered, refused for good, or failed): acked. */
  void acknowledge(ProducerBatch b) {
    long seq = b.spoolSequence;
    if (seq >= 0) {
      spool.acknowledge(seq);
      held.remove(seq);
      answering.remove(seq);
    }
  }

  /**
   * Batch {@code b}, which had its outcome while in flight, was delivered by that export's late
   * answer: its entry is acknowledged. {@return whether its records had got SPOOLED} (its entry was
   * handed over in flight): the delivery is then the spool's to count, even when the storage
   * dropped the entry meanwhile (that drop was left to this answer).
   */
  boolean deliveredLate(ProducerBatch b) {
    long seq = b.spoolSequence;
    if (seq < 0) {
      return false;
    }
    spool.acknowledge(seq); // first: a drop is decided under the spool's lock, before or after
    held.remove(seq);
    return answering.remove(seq) != null;
  }

  /**
   * {@return whether the batch's entry is durable per the policy and now belongs to replay (its
   * records' outcome is then SPOOLED)} When the batch is not in the spool, its entry is not yet
   * durable, or the storage dropped it while the batch held it ({@link #droppedByStorage}), false
   * (and the entry, if any, is acknowledged: the caller gives the in-memory outcome).
   *
   * @param inFlight whether a send thread is exporting the batch now (it timed out in flight):
   *     replay then leaves the entry alone until that export's answer, so that one copy is sent at
   *     a time: a late delivery acknowledges it ({@link #acknowledge}), any other answer hands it
   *     to replay ({@link #release})
   * @param mayWait whether this thread may wait (bounded) for the entry's group commit: a send
   *     thread ending a batch whose retries ran out; not the close, which waited once for all, nor
   *     the expiry spooler, which waited for its batches already
   */
  boolean handOver(ProducerBatch b, boolean inFlight, boolean mayWait) {
    long seq = b.spoolSequence;
    if (seq < 0) {
      return false;
    }
    if (inFlight) {
      answering.put(seq, Boolean.FALSE); // before leaving held: replay's bound never passes it
      if (b.spoolReleased) {
        answering.remove(seq); // the send thread let go before this add: replay owns it already
      }
    } else if (mayWait
        && spool.durableSequence() < seq
        && held.contains(seq)
        && spool.status() == SpoolStatus.ENABLED) {
      // A send thread ends the batch (its retries ran out soon after it was written): its entry
      // waits for the next group commit, not dropped with an outcome of FAILED. The deadline
      // watchdog never comes here (its batches are in flight, or go to the expiry spooler), so the
      // timer never waits.
      awaitDurable(seq);
    }
    if (spool.durableSequence() < seq || !held.remove(seq)) {
      acknowledge(b);
      return false;
    }
    if (!inFlight) {
      synchronized (handedOver) {
        handedOver.notifyAll();
      }
    }
    return true;
  }

  private void awaitDurable(long seq) {
    try {
      spool.awaitDurable(seq, durableWaitMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the close: what is durable now decides
    }
  }

  /**
   * The send thread let go of batch {@code b} after its outcome was given in flight: unless its
   * late answer delivered it (then acknowledged already), its entry now belongs to replay.
   */
  void release(ProducerBatch b) {
    long seq = b.spoolSequence;
    b.spoolReleased = true; // before the remove: a hand-over adding later sees it (and removes)
    Boolean dropped = seq >= 0 ? answering.remove(seq) : null;
    if (Boolean.TRUE.equals(dropped)) {
      metrics.droppedOldest(seq, b.recordCount()); // replay cannot have it: the drop is reported
    } else if (dropped != null) {
      synchronized (handedOver) {
        handedOver.notifyAll();
      }
    }
  }

  /**
   * The storage is dropping entry {@code sequence} (full policy DROP_OLDEST); called under the
   * spool's lock ({@link Spool#claimDrops}). {@return true when a live batch still held it (no
   * outcome yet)}: that batch then goes on in memory only and never gets SPOOLED ({@link #handOver}
   * says false), so the drop is not a spooled batch's and must not be counted or reported as one.
   * Also true while replay exports the entry ({@link #replayStarted}) or its batch's in-flight
   * export has not answered yet ({@link #deliveredLate}, {@link #release}): they report its fate.
   * False for an entry handed over to replay and waiting on disk (its records got SPOOLED: the drop
   * is theirs). Whichever of this and {@link #handOver} removes the sequence from the held set
   * first decides.
   */
  boolean droppedByStorage(long sequence) {
    return held.remove(sequence)
        || replaying.replace(sequence, Boolean.TRUE) != null
        || answering.replace(sequence, Boolean.TRUE) != null;
  }

  /**
   * Replay took entry {@code sequence} into memory to export it: a drop of its disk copy meanwhile
   * is not a drop of its records (replay still delivers or refuses them, and says so).
   */
  void replayStarted(long sequence) {
    replaying.put(sequence, Boolean.FALSE);
  }

  /**
   * Replay is done with entry {@code sequence} (after acknowledging it, or at stop). {@return
   * whether the storage dropped it meanwhile (then replay reports its fate, not the drop)}
   */
  boolean replayEnded(long sequence) {
    return Boolean.TRUE.equals(replaying.remove(sequence));
  }

  /**
   * {@return the highest sequence replay may read now: below every entry still held in memory and
   * every append under way}
   */
  long replayBound() {
    long bound = spool.nextSequence() - 1;
    Long lowestAppending = firstKey(appending);
    if (lowestAppending != null) {
      bound = Math.min(bound, lowestAppending - 1);
    }
    Long lowestHeld = first(held);
    if (lowestHeld != null) {
      bound = Math.min(bound, lowestHeld - 1);
    }
    Long lowestAnswering = firstKey(answering);
    if (lowestAnswering != null) {
      bound = Math.min(bound, lowestAnswering - 1);
    }
    return bound;
  }

  private static Long firstKey(ConcurrentSkipListMap<Long, ?> map) {
    try {
      return map.firstKey();
    } catch (java.util.NoSuchElementException e) {
      return null;
    }
  }

  private static Long first(ConcurrentSkipListSet<Long> set) {
    try {
      return set.first();
    } catch (java.util.NoSuchElementException e) {
      return null;
    }
  }

  /** Waits up to {@code millis} for an entry to be handed over to replay. */
  void awaitHandOver(long millis) throws InterruptedException {
    synchronized (handedOver) {
      handedOver.wait(millis);
    }
  }

  /** Wakes a replay thread waiting in {@link #awaitHandOver}. */
  void wake() {
    synchronized (handedOver) {
      handedOver.notifyAll();
    }
  }
}
