package io.logproducer.internal;

import io.logproducer.internal.spool.Spool;
import io.logproducer.internal.spool.SpoolCursor;
import io.logproducer.internal.spool.SpoolEntry;
import io.logproducer.spi.ExportResult;
import io.logproducer.spi.Exporter;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

/**
 * Replay: one thread sends the spool's entries that no live batch holds — entries of previous runs
 * and entries of this run whose records got SPOOLED — oldest first, through {@link Exporter#export}
 * with the stored body as it is (nothing re-encoded), beside new traffic. One export at a time: at
 * most one of the {@code sendThreads + 1} concurrent exports is a replay, so per shard the stored
 * order is kept. A retryable answer is retried with the {@link RetryPolicy}'s backoff, without a
 * limit of attempts or time (a stored entry leaves only when delivered, refused for good, or
 * expired by maxAge); any other answer acknowledges the entry and is counted. Thread-safe: {@link
 * #run()} on its own thread, {@link #stop()} from any.
 */
final class ReplaySource implements Runnable {

  private static final InternalLogger log = InternalLogger.get(ReplaySource.class);

  /** How long the thread waits for work before looking again, in ms. */
  private static final long IDLE_MILLIS = 100;

  private final Spool spool;
  private final SpoolWriter writer;
  private final Exporter exporter;
  private final RetryPolicy retryPolicy;
  private final SpoolMetrics metrics;
  private final RateLimitedLog failures = new RateLimitedLog(log, 5_000);
  private final Object pause = new Object();
  private volatile boolean stopped;
  private byte[] body = new byte[64 * 1024];

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

  @Override
  public void run() {
    try (SpoolCursor cursor = spool.cursor()) {
      while (!stopped) {
        SpoolEntry e = cursor.next(writer.replayBound());
        if (e == null) {
          try {
            writer.awaitHandOver(IDLE_MILLIS);
          } catch (InterruptedException ignored) {
            // stop() interrupts only to hurry; the flag says when to leave
          }
          continue;
        }
        replay(e);
      }
    }
  }

  /** Sends one entry until it is delivered, refused for good, or the producer closes. */
  private void replay(SpoolEntry e) {
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
      metrics.corrupt(e.sequence(), e.recordCount());
      spool.acknowledge(e.sequence());
      return;
    }
    ByteBuffer payload = e.payload();
    int length = payload.remaining();
    if (body.length < length) {
      body = new byte[length];
    }
    payload.duplicate().get(body, 0, length);
    metrics.batchesReplayed.increment();
    metrics.recordsReplayed.add(meta.recordCount);
    while (!stopped) {
      batch.nextAttempt();
      ExportResult r = export(batch, length, meta);
      switch (r.kind()) {
        case SUCCESS:
        case PARTIAL_SUCCESS:
          spool.acknowledge(e.sequence());
          metrics.delivered(
              e.sequence(), meta.recordCount, Math.min(meta.recordCount, r.rejectedCount()));
          return;
        case RETRYABLE:
          long backoff =
              retryPolicy.backoffMillis(Math.min(batch.attempt(), 30), r.retryAfterMillis());
          pause(backoff);
          break;
        default:
          if (stopped) {
            return; // the exporter closing under us is not an answer: keep the entry
          }
          failures.warn(
              () ->
                  "spooled batch #"
                      + e.sequence()
                      + " of "
                      + meta.recordCount
                      + " records refused by "
                      + exporter.describe()
                      + " ("
                      + r.kind()
                      + "): "
                      + r.message(),
              null);
          spool.acknowledge(e.sequence());
          metrics.refused(e.sequence(), meta.recordCount, r.kind() + ": " + r.message());
          return;
      }
    }
  }

  private ExportResult export(StoredBatch batch, int length, StoredBatchMeta meta) {
    try {
      ExportResult r = exporter.export(batch, body, length, meta.compression);
      return r == null ? ExportResult.failed("exporter returned no result", null) : r;
    } catch (Exception | LinkageError ex) {
      return ExportResult.failed("exporter threw " + ex, ex);
    }
  }

  private void pause(long millis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    synchronized (pause) {
      long left;
      while (!stopped && (left = deadline - System.nanoTime()) > 0) {
        try {
          TimeUnit.NANOSECONDS.timedWait(pause, left);
        } catch (InterruptedException ignored) {
          // the flag says when to leave
        }
      }
    }
  }

  /** Makes the thread leave after its current export; entries not delivered stay in the spool. */
  void stop() {
    stopped = true;
    synchronized (pause) {
      pause.notifyAll();
    }
    writer.wake();
  }
}
