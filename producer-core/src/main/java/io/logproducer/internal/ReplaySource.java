package io.logproducer.internal;

import io.logproducer.internal.spool.Spool;
import io.logproducer.internal.spool.SpoolCursor;
import io.logproducer.internal.spool.SpoolEntry;
import io.logproducer.spi.ExportResult;
import io.logproducer.spi.Exporter;
import java.nio.ByteBuffer;

/**
 * Replay: sends the spool's entries that no live batch holds — entries of previous runs and entries
 * of this run whose records got SPOOLED — oldest first, through {@link Exporter#export} with the
 * stored body as it is (nothing re-encoded), beside new traffic. One reader ({@link #run()}) reads
 * entries in sequence order into {@link ReplayLanes}; {@code workers} workers ({@link #worker()})
 * export them, so at most {@code workers} replay exports are in flight and at most that many bodies
 * are in memory. Per shard, one entry at a time in sequence order: the stored order is kept;
 * entries of different shards pass each other and are acknowledged in any order. An entry whose
 * shard holds a batch already (one being retried, or slow) is passed over with only its sequence
 * kept, and read again through a second cursor ({@link SpoolCursor#seekAfter}) once its shard is
 * free: a batch that keeps failing holds back its own shard only. A retryable answer is retried
 * with the {@link RetryPolicy}'s backoff, without a limit of attempts or time (a stored entry
 * leaves only when delivered, refused for good, or expired by maxAge), and is noted as the
 * producer's last error so that a stalled drain says why; any other answer acknowledges the entry
 * and is counted. Thread-safe: {@link #run()} and each {@link #worker()} on their own threads,
 * {@link #stop()} from any.
 */
final class ReplaySource implements Runnable {

  private static final InternalLogger log = InternalLogger.get(ReplaySource.class);

  /** How long the reader waits for work or room before looking again, in ms. */
  private static final long IDLE_MILLIS = 100;

  private final Spool spool;
  private final SpoolWriter writer;
  private final Exporter exporter;
  private final RetryPolicy retryPolicy;
  private final SpoolMetrics metrics;
  private final RateLimitedLog failures = new RateLimitedLog(log, 5_000);
  private volatile ReplayLanes lanes = new ReplayLanes(1);
  private volatile ErrorSink errors = (source, message) -> {};
  private volatile boolean stopped;

  ReplaySource(
      Spool spool,
      SpoolWriter writer,
      Exporter exporter,
      RetryPolicy retryPolicy,
      SpoolMetrics metrics) {
    this.spool = spool;
    this.writer = writer;
    this.exporter = exporter;
    this.retryPolicy = retryPolicy;
    this.metrics = metrics;
  }

  /**
   * Sets the most exports in flight at once ({@code workers}, each with its own {@link #worker()}
   * thread) and where failures are noted; called once, before the threads start.
   */
  void configure(int workers, ErrorSink errors) {
    this.lanes = new ReplayLanes(workers);
    this.errors = errors;
  }

  /** {@return the most exports in flight at once} */
  int workers() {
    return lanes.capacity();
  }

  /**
   * The reader: while there is room, reads the oldest passed-over entry whose shard is free, else
   * the next entry in sequence order, until {@link #stop()}.
   */
  @Override
  public void run() {
    ReplayLanes l = lanes;
    try (SpoolCursor cursor = spool.cursor();
        SpoolCursor revisits = spool.cursor()) {
      while (!stopped) {
        try {
          readNext(cursor, revisits, l);
        } catch (InterruptedException ignored) {
          // stop() interrupts only to hurry; the flag says when to leave
        }
      }
    }
    for (ReplayLanes.Job job : l.waiting()) {
      ended(job.sequence, job.meta.recordCount); // stopped: stays in the spool for the next one
    }
  }

  /** Reads the next entry into {@code l} when there is room and one; else waits a little. */
  private void readNext(SpoolCursor cursor, SpoolCursor revisits, ReplayLanes l)
      throws InterruptedException {
    if (!l.awaitRoom(IDLE_MILLIS)) {
      return;
    }
    long revisit = l.nextRevisit();
    if (revisit >= 0) {
      revisits.seekAfter(revisit - 1);
      SpoolEntry e = revisits.next(revisit); // null when expired, dropped or damaged meanwhile
      if (e != null) {
        read(e, null, l);
      }
      return;
    }
    SpoolEntry e = cursor.next(writer.replayBound());
    if (e == null) {
      writer.awaitHandOver(IDLE_MILLIS);
      return;
    }
    read(e, l, l);
  }

  /**
   * Replay lets go of entry {@code sequence} without settling it (the producer stopped, or a drop
   * took it before its export). When a drop removed it meanwhile and left its report to replay, the
   * drop is reported now: the entry is gone, so its records will not be replayed.
   */
  private void ended(long sequence, int recordCount) {
    if (writer.replayEnded(sequence)) {
      metrics.droppedOldest(sequence, recordCount);
    }
  }

  /** {@return a worker's task: exports the entries the reader read until {@link #stop()}} */
  Runnable worker() {
    return this::work;
  }

  private void work() {
    ReplayLanes l = lanes;
    while (true) {
      ReplayLanes.Job job;
      try {
        job = l.take();
      } catch (InterruptedException e) {
        if (stopped) {
          return;
        }
        continue;
      }
      if (job == null) {
        return;
      }
      long backoff = -1;
      try {
        backoff = attempt(job);
      } finally {
        if (backoff >= 0 && !stopped) {
          l.retryLater(job, backoff); // this worker serves other shards meanwhile
        } else {
          ended(job.sequence, job.meta.recordCount);
          l.done(job);
          writer.wake(); // the reader may come back to the shard's passed-over entries now
        }
      }
    }
  }

  /**
   * Adds entry {@code e} to {@code l} as a job (its body copied), unless it is unreadable (then
   * acknowledged and counted corrupt) or {@code deferTo} is set and its shard is busy there (then
   * only its sequence is kept, to come back to).
   */
  private void read(SpoolEntry e, ReplayLanes deferTo, ReplayLanes l) {
    StoredBatch batch;
    StoredBatchMeta meta;
    try {
      meta = StoredBatchMeta.decode(e.meta());
      batch =
          new StoredBatch(
              exporter.spoolShardKey(meta.shardKey),
              meta.recordCount,
              meta.sizeInBytes,
              meta.recordSizes);
    } catch (RuntimeException ex) {
      failures.warn(() -> "spool entry #" + e.sequence() + " is unreadable; dropped: " + ex, null);
      if (spool.acknowledge(e.sequence())) {
        metrics.corrupt(e.sequence(), e.recordCount());
      }
      return;
    }
    if (deferTo != null && deferTo.deferIfBusy(ByteBuffer.wrap(meta.shardKey), e.sequence())) {
      return;
    }
    writer.replayStarted(e.sequence());
    if (!spool.isPending(e.sequence())) {
      ended(e.sequence(), meta.recordCount); // a drop took it after the cursor read it
      return;
    }
    ByteBuffer payload = e.payload();
    byte[] body = new byte[payload.remaining()];
    payload.duplicate().get(body);
    l.add(new ReplayLanes.Job(e.sequence(), meta, batch, body));
  }

  /**
   * Exports one entry once. {@return the backoff before its next attempt, in ms, after a retryable
   * answer; -1 when it is done: delivered, refused for good, or the producer closes}
   */
  private long attempt(ReplayLanes.Job job) {
    StoredBatch batch = job.batch;
    StoredBatchMeta meta = job.meta;
    long seq = job.sequence;
    if (stopped) {
      return -1;
    }
    if (batch.attempt() == 0) {
      metrics.batchesReplayed.increment(); // once per entry, however many attempts
      metrics.recordsReplayed.add(meta.recordCount);
    }
    batch.nextAttempt();
    ExportResult r = export(job);
    switch (r.kind()) {
      case SUCCESS:
      case PARTIAL_SUCCESS:
        if (settled(seq)) {
          metrics.delivered(seq, meta.recordCount, Math.min(meta.recordCount, r.rejectedCount()));
        }
        return -1;
      case RETRYABLE:
        long backoff =
            retryPolicy.backoffMillis(Math.min(batch.attempt(), 30), r.retryAfterMillis());
        errors.noteError(
            exporter.describe(),
            "spool replay of batch #"
                + seq
                + " ("
                + meta.recordCount
                + " records): "
                + r.message()
                + ", retry "
                + batch.attempt()
                + " in "
                + backoff
                + " ms");
        return backoff;
      default:
        if (!stopped) { // the exporter closing under us is not an answer: keep the entry
          refused(seq, meta, r);
        }
        return -1;
    }
  }

  private void refused(long seq, StoredBatchMeta meta, ExportResult r) {
    String reason = r.kind() + ": " + r.message();
    failures.warn(
        () ->
            "spooled batch #"
                + seq
                + " of "
                + meta.recordCount
                + " records refused by "
                + exporter.describe()
                + " ("
                + reason
                + ")",
        null);
    errors.noteError(
        exporter.describe(), "spool replay: batch #" + seq + " refused for good (" + reason + ")");
    if (settled(seq)) {
      metrics.refused(seq, meta.recordCount, reason);
    }
  }

  /**
   * Acknowledges entry {@code seq}. {@return whether its fate is replay's to report}: true unless
   * the storage dropped it before replay read it (the drop was reported then).
   */
  private boolean settled(long seq) {
    boolean acked = spool.acknowledge(seq);
    return writer.replayEnded(seq) || acked;
  }

  private ExportResult export(ReplayLanes.Job job) {
    try {
      ExportResult r = exporter.export(job.batch, job.body, job.body.length, job.meta.compression);
      return r == null ? ExportResult.failed("exporter returned no result", null) : r;
    } catch (Exception | LinkageError ex) {
      return ExportResult.failed("exporter threw " + ex, ex);
    }
  }

  /** Makes the threads leave after their current export; entries not delivered stay spooled. */
  void stop() {
    stopped = true;
    lanes.stop();
    writer.wake();
  }
}
