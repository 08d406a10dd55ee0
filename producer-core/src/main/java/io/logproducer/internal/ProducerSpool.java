package io.logproducer.internal;

import io.logproducer.Compression;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolOpenException;
import io.logproducer.internal.spool.Spool;
import io.logproducer.spi.Exporter;
import java.util.ArrayList;
import java.util.List;

/**
 * A producer's spool and the parts around it, as the {@link ProducerEngine} sees them: opened with
 * the producer ({@link #open}), the {@link SpoolWriter} the send threads write ahead with, the
 * {@link SpoolOutcomes} the completer settles with, the {@link ReplaySource} task, and the steps of
 * close ({@link #beforeAbort}, {@link #close}). Thread-safe.
 */
final class ProducerSpool {

  private static final InternalLogger log = InternalLogger.get(ProducerSpool.class);

  private final Spool spool;
  private final SpoolConfig config;
  private final SpoolMetrics metrics;
  private final SpoolWriter writer;
  private final SpoolOutcomes outcomes;
  private final ReplaySource replay;

  /**
   * The parts around {@code spool}, opened by the caller with {@code metrics} as its events: {@link
   * #open}, and tests that open a spool with storage timings of their own.
   */
  ProducerSpool(
      Spool spool,
      SpoolConfig config,
      SpoolMetrics metrics,
      Exporter exporter,
      Compression compression,
      RetryPolicy retryPolicy) {
    this.spool = spool;
    this.config = config;
    this.metrics = metrics;
    this.writer =
        new SpoolWriter(
            spool,
            exporter,
            compression,
            metrics,
            Math.min(900, 2 * config.getGroupCommitMillis() + 100));
    spool.claimDrops(writer::droppedByStorage);
    this.outcomes = new SpoolOutcomes(writer, metrics);
    this.replay = new ReplaySource(spool, writer, exporter, retryPolicy, metrics);
  }

  /**
   * Opens (and locks) the spool of {@code config} for {@code exporter}, whose kind is its class
   * name.
   *
   * @param compression the codec request bodies are compressed with (stored beside each body)
   * @throws io.logproducer.SpoolLockedException when another producer owns the directory (the
   *     message names the directory and the owner's pid)
   * @throws SpoolOpenException when the directory cannot be opened (unreadable, another kind)
   */
  static ProducerSpool open(
      SpoolConfig config, Exporter exporter, Compression compression, RetryPolicy retryPolicy) {
    SpoolMetrics metrics = new SpoolMetrics(config.getListener());
    String kind = exporter.getClass().getName();
    Spool spool = Spool.open(config, kind, metrics);
    long backlog = spool.pendingEntries();
    if (backlog > 0) {
      log.info(
          "spool {}: {} batches from earlier runs ({} bytes) will be replayed",
          config.getDirectory(),
          backlog,
          spool.bytesUsed());
    }
    return new ProducerSpool(spool, config, metrics, exporter, compression, retryPolicy);
  }

  /**
   * {@return a new {@link ExpirySpooler} writing through {@code sender}, which also settles the
   * send threads' batches about to fail with an entry not yet durable} A batch it settles waits for
   * durability up to twice the group-commit interval + {@link ExpirySpooler#DURABLE_SLACK_MILLIS}.
   */
  ExpirySpooler expirySpooler(Sender sender) {
    ExpirySpooler s =
        new ExpirySpooler(
            sender, spool, 2 * config.getGroupCommitMillis() + ExpirySpooler.DURABLE_SLACK_MILLIS);
    sender.settleDurableWith(s);
    return s;
  }

  /**
   * {@return whether batch {@code b}, at its delivery deadline, is in flight and its outcome is the
   * spool's to give, not the timer's} So it is when the {@link ExpirySpooler} holds it: a send
   * thread ending it handed it over to wait for its entry's group commit ({@link
   * ExpirySpooler#settleWhenDurable}), possibly after the timer picked it; timed out now, its entry
   * not durable yet would be acknowledged and the batch FAILED. So it is too, for at most {@link
   * ExpirySpooler#DURABLE_SLACK_MILLIS} past its deadline, when a send thread holds it and has not
   * written it to the spool yet (nor been refused), or has written it but the entry is not durable
   * yet (the committer is late: a busy CPU, a slow disk). Its outcome then waits for the write and
   * the group commit, which make it SPOOLED, not FAILED.
   */
  boolean outcomeAwaitsDurability(ProducerBatch b) {
    if (b.state() != ProducerBatch.IN_FLIGHT) {
      return false;
    }
    if (b.expirySpooling) {
      return true; // the expiry spooler gives its outcome (bounded by its own durable wait)
    }
    return ((b.spoolSequence < 0 && !b.spoolRefused) || writer.awaitingDurability(b))
        && System.nanoTime() - b.deliveryDeadlineNanos
            < java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(
                ExpirySpooler.DURABLE_SLACK_MILLIS);
  }

  SpoolWriter writer() {
    return writer;
  }

  SpoolOutcomes outcomes() {
    return outcomes;
  }

  SpoolMetrics metrics() {
    return metrics;
  }

  Spool spool() {
    return spool;
  }

  /**
   * {@return the replay threads' tasks: the reader, then {@code max(1, floor(replayShare ×
   * sendThreads))} workers}; replay's failures are noted in {@code metrics}' last error, refused
   * writes and failed fsyncs in its last error and its last spool error. Called once, before the
   * threads start.
   */
  List<Runnable> replayTasks(int sendThreads, Metrics metrics) {
    int workers = config.getReplayExports(sendThreads);
    replay.configure(workers, metrics::noteError);
    writer.reportErrorsTo(metrics::noteSpoolError);
    this.metrics.reportErrorsTo(metrics::noteSpoolError);
    List<Runnable> tasks = new ArrayList<>(workers + 1);
    tasks.add(replay);
    for (int i = 0; i < workers; i++) {
      tasks.add(replay.worker());
    }
    return tasks;
  }

  /**
   * Close, before the batches still without an outcome are aborted: stops replay and waits (up to
   * twice the group-commit interval + 100 ms, at most 900 ms) until everything written is durable,
   * so that those batches get SPOOLED.
   */
  void beforeAbort() {
    replay.stop();
    try {
      spool.awaitDurable(
          spool.nextSequence() - 1, Math.min(900, 2 * config.getGroupCommitMillis() + 100));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Close, after every thread stopped: closes the spool (forces, checkpoints, unlocks). */
  void close() {
    replay.stop();
    try {
      spool.close();
    } catch (Throwable t) {
      log.warn("closing spool {} failed", config.getDirectory(), t);
    }
  }
}
