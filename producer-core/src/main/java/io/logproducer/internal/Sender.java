package io.logproducer.internal;

import io.logproducer.Compression;
import io.logproducer.SendResult;
import io.logproducer.internal.codec.Codec;
import io.logproducer.spi.ExportResult;
import io.logproducer.spi.Exporter;
import java.io.OutputStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The send pool: {@code sendThreads} threads take sealed batches from the {@link SendQueue}, frame
 * and compress each into the thread's reusable body buffer, export it, and act on the answer:
 * complete it, split it (too large), or schedule a retry with backoff on the {@link LingerTimer}.
 * After {@link #abort()} (close) nothing is retried: batches still pending complete as {@code
 * FAILED_AT_CLOSE}.
 *
 * <p>Nothing a batch meets kills a send thread: whatever the exporter, the codec or the JVM throws
 * (an {@code OutOfMemoryError}, a {@code NoClassDefFoundError}) fails that batch with the error as
 * its cause, and the thread goes on. A batch whose deadline or close came while it was in flight
 * already has its outcome ({@code TIMED_OUT}); its answer is then dropped and its memory released.
 */
final class Sender {

  private static final InternalLogger log = InternalLogger.get(Sender.class);

  private final SendQueue queue;
  private final Exporter exporter;
  private final Codec codec;
  private final Compression compression;
  private final RetryPolicy retryPolicy;
  private final BatchCompleter completer;
  private final LingerTimer timer;
  private final Metrics metrics;
  private final MemoryBudget budget;

  /**
   * A body buffer above this is dropped after use: the largest body a full batch makes, with slack.
   */
  private final int bodyKeepBytes;

  /** Final outcomes other than delivered (rejected, failed), at most one line per 5 s. */
  private final RateLimitedLog failures = new RateLimitedLog(log, 5_000);

  /**
   * Attempts that will be retried, at most one line per 5 s (so they never hide a final failure).
   */
  private final RateLimitedLog retrying = new RateLimitedLog(log, 5_000);

  private final RateLimitedLog errors = new RateLimitedLog(log, 5_000);
  private volatile boolean aborting;

  /** Writes each batch ahead of its first export, or null without a spool; set before start. */
  private SpoolWriter spoolWriter;

  /**
   * Gives the batches about to fail whose entry is not durable yet their outcome once it is, or
   * null without a spool; set before start.
   */
  private ExpirySpooler durableSettler;

  Sender(
      SendQueue queue,
      Exporter exporter,
      Codec codec,
      RetryPolicy retryPolicy,
      BatchCompleter completer,
      LingerTimer timer,
      Metrics metrics,
      MemoryBudget budget,
      int batchSizeInBytes) {
    this.queue = queue;
    this.exporter = exporter;
    this.codec = codec;
    this.compression = codec.compression();
    this.retryPolicy = retryPolicy;
    this.completer = completer;
    this.timer = timer;
    this.metrics = metrics;
    this.budget = budget;
    this.bodyKeepBytes = bodyKeepBytes(batchSizeInBytes);
  }

  /**
   * The most a send thread keeps of its body buffer between batches, in bytes: batch size + 1/8 +
   * 64 KiB.
   */
  static int bodyKeepBytes(int batchSizeInBytes) {
    return (int)
        Math.min(Integer.MAX_VALUE - 8, batchSizeInBytes + (batchSizeInBytes >> 3) + 65_536L);
  }

  /**
   * Writes each batch's request body to the spool before its first export; called once, before the
   * send threads start.
   */
  void writeAheadTo(SpoolWriter writer) {
    this.spoolWriter = writer;
  }

  /** Queues a sealed (or retry-due) batch. Never allocates. */
  void enqueue(ProducerBatch b) {
    queue.add(b);
  }

  /** The loop each send thread runs until {@link #stop()} and the queue is drained. */
  void runLoop() {
    ChunkWriter body = new ChunkWriter(bodyKeepBytes);
    while (true) {
      ProducerBatch b;
      try {
        b = queue.take();
      } catch (InterruptedException e) {
        continue; // close interrupts only to hurry the exit; the queue says when to stop
      }
      if (b == null) {
        return;
      }
      try {
        process(b, body, System.nanoTime());
      } catch (Throwable t) {
        if (t instanceof OutOfMemoryError) {
          body = new ChunkWriter(bodyKeepBytes); // let a large body buffer go first
        }
        failInFlight(b, t);
      } finally {
        queue.released(b);
      }
      if (body.capacity() > bodyKeepBytes) {
        body.trimTo(bodyKeepBytes);
      }
    }
  }

  /**
   * The cause to log with its stack trace, or null: I/O failures (connection refused, timeouts,
   * resets) are expected when a receiver is down and their text is already in the message; anything
   * else is worth a trace.
   */
  /**
   * {@return the log line of batch {@code b}'s final failure: "failed to send N records (B bytes)
   * to destination: cause"}
   */
  static String failedToSend(ProducerBatch b, String destination, String cause) {
    return String.format(
        Locale.ROOT,
        "failed to send %,d records (%,d bytes) to %s: %s",
        b.recordCount(),
        b.sizeInBytes(),
        destination,
        cause);
  }

  private static Throwable traceWorthy(Throwable error) {
    return error instanceof java.io.IOException ? null : error;
  }

  /**
   * Gives a batch whose processing threw its outcome (FAILED), whatever state the throw left it in.
   */
  private void failInFlight(ProducerBatch b, Throwable t) {
    try {
      metrics.noteError(exporter.describe(), "the send thread failed: " + t);
      errors.warn(
          () -> "send thread " + Thread.currentThread().getName() + " failed on " + b + ": " + t,
          t);
    } catch (Throwable ignored) {
      // logging must not stop the outcome
    }
    SendResult r =
        new SendResult(
            aborting ? SendResult.Status.FAILED_AT_CLOSE : SendResult.Status.FAILED,
            b.attempt(),
            b.recordCount(),
            0,
            "the send thread failed: " + t,
            t);
    if (b.state() == ProducerBatch.IN_FLIGHT || b.state() == ProducerBatch.TIMED_OUT) {
      finish(b, r, 0);
    } else if (b.tryAbort()) {
      completer.complete(b, r, 0, true);
    }
  }

  /** Sends one batch once and acts on the answer. Package-private so tests can step it. */
  void process(ProducerBatch b, ChunkWriter body, long nowNanos) {
    if (!b.tryStartAttempt()) {
      return; // completed meanwhile (deadline or close)
    }
    if (aborting) {
      finish(
          b,
          new SendResult(
              SendResult.Status.FAILED_AT_CLOSE,
              b.attempt(),
              b.recordCount(),
              0,
              "producer closed before the batch was sent" + lastErrorSuffix(b),
              b.lastCause),
          0);
      return;
    }
    if (nowNanos - b.deliveryDeadlineNanos >= 0) {
      if (spoolWriter != null && b.spoolSequence < 0) {
        // The deadline passed before the timer could hand it to the expiry spooler (a starved
        // CPU): written now, it gets SPOOLED once durable, as the expiry spooler's would.
        writeExpired(b, body);
      }
      finish(
          b,
          new SendResult(
              SendResult.Status.FAILED,
              b.attempt(),
              b.recordCount(),
              0,
              "deliveryTimeoutMillis expired after "
                  + b.attempt()
                  + " attempt(s)"
                  + lastErrorSuffix(b),
              b.lastCause),
          0);
      return;
    }
    b.countAttempt();
    if (b.attempt() > 1) {
      metrics.retries.increment();
    }
    int length;
    try {
      length = buildBody(b, body);
    } catch (Exception | LinkageError e) {
      finish(
          b,
          new SendResult(
              SendResult.Status.FAILED,
              b.attempt(),
              b.recordCount(),
              0,
              "could not build the request: " + e,
              e),
          0);
      return;
    }
    if (spoolWriter != null) {
      spoolWriter.writeAhead(b, body.array(), length);
    }
    queue.released(b); // written: close may write the batches queued behind it
    ExportResult result;
    long start = System.nanoTime();
    try {
      result = exporter.export(b, body.array(), length, compression);
      if (result == null) {
        result = ExportResult.failed("exporter returned no result", null);
      }
    } catch (Exception | LinkageError e) {
      result = ExportResult.failed("exporter threw " + e, e);
    }
    metrics.recordRequest(System.nanoTime() - start);
    handle(b, result, length, System.nanoTime());
  }

  /** Frames and compresses {@code b}'s request body into {@code body}; returns its length. */
  private int buildBody(ProducerBatch b, ChunkWriter body) throws Exception {
    OutputStream out = null;
    try {
      body.reset();
      out = codec.compress(body);
      exporter.writeRequest(b, out);
      OutputStream o = out;
      out = null;
      o.close();
      return body.size();
    } finally {
      if (out != null) {
        closeQuietly(out); // frees the codec's native memory (zstd, deflate) after a failure
      }
    }
  }

  /**
   * Close, before its grace period: writes every queued batch that is not in the spool yet to the
   * spool (framed and compressed as it would be shipped), then queues them again in their order, so
   * that the send threads may still deliver them during the grace period and, when they cannot,
   * their final outcome is SPOOLED. Stops writing once {@code deadlineNanos} has passed (the
   * batches left stay memory-only). Runs on the closing thread; a batch is claimed (IN_FLIGHT)
   * while it is written, so neither a send thread nor the deadline watchdog gives it an outcome
   * meanwhile.
   *
   * @return how many batches were written
   */
  int spoolQueued(long deadlineNanos) {
    if (spoolWriter == null) {
      return 0;
    }
    // after the batches send threads hold are written, so that a shard's batches are stored in
    // order
    List<ProducerBatch> taken = queue.drainAfterHandedOut(deadlineNanos);
    int written = 0;
    ChunkWriter body = new ChunkWriter(bodyKeepBytes);
    try {
      for (ProducerBatch b : taken) {
        if (b.spoolSequence >= 0 || System.nanoTime() - deadlineNanos >= 0) {
          continue;
        }
        if (spoolAtClose(b, body, deadlineNanos)) {
          written++;
        }
      }
    } finally {
      for (ProducerBatch b : taken) {
        if (b.state() == ProducerBatch.SEALED || b.state() == ProducerBatch.RETRY_WAIT) {
          queue.add(b);
        }
      }
    }
    return written;
  }

  private boolean spoolAtClose(ProducerBatch b, ChunkWriter body, long deadlineNanos) {
    if (b.state() != ProducerBatch.SEALED || !b.tryStartAttempt()) {
      return false;
    }
    try {
      int length = buildBody(b, body);
      long left = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
      spoolWriter.writeAhead(b, body.array(), length, Math.max(0, left));
    } catch (Exception | LinkageError e) {
      errors.warn(() -> "could not write a queued batch to the spool at close: " + e, null);
    } finally {
      if (!b.tryReturnToSealed()) {
        finish(b, null, 0); // its deadline gave it an outcome meanwhile: release its memory
      }
    }
    return b.spoolSequence >= 0;
  }

  /** {@return a body buffer for a thread that frames batches outside the send loop} */
  ChunkWriter newBodyWriter() {
    return new ChunkWriter(bodyKeepBytes);
  }

  /**
   * The {@link ExpirySpooler}'s write: frames and compresses batch {@code b} (claimed IN_FLIGHT at
   * its delivery deadline, never exported) as a send thread would, and writes it to the spool,
   * blocking per the full policy. Never throws.
   *
   * @return whether the spool stored it
   */
  boolean writeExpired(ProducerBatch b, ChunkWriter body) {
    if (spoolWriter == null || b.state() != ProducerBatch.IN_FLIGHT) {
      return false; // close gave it its outcome meanwhile: nothing to store
    }
    try {
      int length = buildBody(b, body);
      spoolWriter.writeAhead(b, body.array(), length);
    } catch (Exception | LinkageError e) {
      errors.warn(() -> "could not write an expired batch to the spool: " + e, null);
    } finally {
      if (body.capacity() > bodyKeepBytes) {
        body.trimTo(bodyKeepBytes);
      }
    }
    return b.spoolSequence >= 0;
  }

  /**
   * Gives batch {@code b}, claimed by the {@link ExpirySpooler}, its outcome {@code failed} (which
   * {@link SpoolOutcomes} turns into SPOOLED when its entry is durable), or, if close gave it an
   * outcome meanwhile, releases its memory.
   */
  void finishExpired(ProducerBatch b, SendResult failed) {
    finish0(b, failed, 0);
  }

  /**
   * A batch about to get FAILED (delivery timeout, retries, a failure of this thread) whose entry
   * was written to the spool but is not durable yet goes to {@code settler}, which gives it its
   * outcome once the group commit passed its entry (SPOOLED), however late the committer runs; set
   * before start.
   */
  void settleDurableWith(ExpirySpooler settler) {
    this.durableSettler = settler;
  }

  private static void closeQuietly(OutputStream out) {
    try {
      out.close();
    } catch (Throwable ignored) {
      // the request already failed; this only frees resources
    }
  }

  private void handle(ProducerBatch b, ExportResult r, int wireBytes, long nowNanos) {
    if (b.state() == ProducerBatch.TIMED_OUT) {
      if (r.kind() == ExportResult.Kind.SUCCESS || r.kind() == ExportResult.Kind.PARTIAL_SUCCESS) {
        completer.deliveredAfterTimeout(b, r.rejectedCount()); // a spooled copy is not re-sent
      }
      finish(b, null, 0); // its outcome was given while in flight; this answer comes too late
      return;
    }
    switch (r.kind()) {
      case SUCCESS:
        finish(
            b,
            new SendResult(
                SendResult.Status.DELIVERED, b.attempt(), b.recordCount(), 0, null, null),
            wireBytes);
        return;
      case PARTIAL_SUCCESS:
        partiallyRejected(b, r, wireBytes);
        return;
      case REJECTED:
        rejected(b, r);
        return;
      case TOO_LARGE:
        tooLarge(b, r);
        return;
      case RETRYABLE:
        retryOrFail(b, r, nowNanos);
        return;
      case FAILED:
      default:
        failed(b, r);
    }
  }

  /** The receiver took the request but refused some of its records (OTLP partial success). */
  private void partiallyRejected(ProducerBatch b, ExportResult r, int wireBytes) {
    metrics.noteError(
        exporter.describe(),
        "rejected " + r.rejectedCount() + " of " + b.recordCount() + " records: " + r.message());
    failures.warn(
        () ->
            String.format(
                Locale.ROOT,
                "%s rejected %,d of %,d records: %s",
                exporter.describe(),
                r.rejectedCount(),
                b.recordCount(),
                r.message()),
        null);
    finish(
        b,
        new SendResult(
            SendResult.Status.PARTIALLY_REJECTED,
            b.attempt(),
            b.recordCount(),
            r.rejectedCount(),
            r.message(),
            null),
        wireBytes);
  }

  /** The receiver refused the whole request for good. */
  private void rejected(ProducerBatch b, ExportResult r) {
    metrics.noteError(
        exporter.describe(), "rejected " + b.recordCount() + " records: " + r.message());
    failures.warn(
        () ->
            String.format(
                Locale.ROOT,
                "%s rejected %,d records (%,d bytes): %s",
                exporter.describe(),
                b.recordCount(),
                b.sizeInBytes(),
                r.message()),
        null);
    finish(
        b,
        new SendResult(
            SendResult.Status.REJECTED,
            b.attempt(),
            b.recordCount(),
            b.recordCount(),
            r.message(),
            r.error()),
        0);
  }

  /**
   * The request was too large for the receiver: split in halves, or refused when one record or
   * closing.
   */
  private void tooLarge(ProducerBatch b, ExportResult r) {
    if (b.recordCount() > 1 && !aborting) {
      split(b);
      return;
    }
    finish(
        b,
        new SendResult(
            aborting ? SendResult.Status.FAILED_AT_CLOSE : SendResult.Status.REJECTED,
            b.attempt(),
            b.recordCount(),
            b.recordCount(),
            "request too large for the receiver: " + r.message(),
            r.error()),
        0);
  }

  /** A final local or transport failure. */
  private void failed(ProducerBatch b, ExportResult r) {
    if (!aborting) {
      completer.finalFailure(b); // the exporter's final answer: replaying the body would not help
    }
    metrics.noteError(exporter.describe(), "failed: " + r.message());
    failures.warn(() -> failedToSend(b, exporter.describe(), r.message()), traceWorthy(r.error()));
    finish(
        b,
        new SendResult(
            aborting ? SendResult.Status.FAILED_AT_CLOSE : SendResult.Status.FAILED,
            b.attempt(),
            b.recordCount(),
            0,
            r.message(),
            r.error()),
        0);
  }

  private void retryOrFail(ProducerBatch b, ExportResult r, long nowNanos) {
    b.lastError = r.message();
    b.lastCause = r.error();
    int attempt = b.attempt();
    if (aborting) {
      finish(
          b,
          new SendResult(
              SendResult.Status.FAILED_AT_CLOSE,
              attempt,
              b.recordCount(),
              0,
              "producer closed while retrying" + lastErrorSuffix(b),
              r.error()),
          0);
      return;
    }
    if (!retryPolicy.mayRetry(attempt)) {
      metrics.noteError(
          exporter.describe(),
          r.message() + "; retries exhausted after " + attempt + " attempt(s)");
      failures.warn(
          () ->
              String.format(
                  Locale.ROOT,
                  "failed to send %,d records (%,d bytes) to %s after %d attempt(s): %s",
                  b.recordCount(),
                  b.sizeInBytes(),
                  exporter.describe(),
                  attempt,
                  r.message()),
          traceWorthy(r.error()));
      finish(
          b,
          new SendResult(
              SendResult.Status.FAILED,
              attempt,
              b.recordCount(),
              0,
              "retries exhausted after " + attempt + " attempt(s)" + lastErrorSuffix(b),
              r.error()),
          0);
      return;
    }
    long backoffMillis = retryPolicy.backoffMillis(attempt, r.retryAfterMillis());
    long retryAt = nowNanos + TimeUnit.MILLISECONDS.toNanos(backoffMillis);
    if (retryAt - b.deliveryDeadlineNanos >= 0) {
      metrics.noteError(
          exporter.describe(),
          r.message() + "; deliveryTimeoutMillis would expire before the next retry");
      failures.warn(
          () ->
              String.format(
                  Locale.ROOT,
                  "failed to send %,d records (%,d bytes) to %s: %s; next retry in %d ms would pass deliveryTimeoutMillis",
                  b.recordCount(),
                  b.sizeInBytes(),
                  exporter.describe(),
                  r.message(),
                  backoffMillis),
          traceWorthy(r.error()));
      finish(
          b,
          new SendResult(
              SendResult.Status.FAILED,
              attempt,
              b.recordCount(),
              0,
              "deliveryTimeoutMillis would expire before the next retry (in "
                  + backoffMillis
                  + " ms)"
                  + lastErrorSuffix(b),
              r.error()),
          0);
      return;
    }
    String retries = retryPolicy.retries() == Integer.MAX_VALUE ? "" : "/" + retryPolicy.retries();
    metrics.noteError(
        exporter.describe(),
        r.message() + ", retry " + attempt + retries + " in " + backoffMillis + " ms");
    retrying.warn(
        () ->
            String.format(
                Locale.ROOT,
                "failed to send %,d records (%,d bytes) to %s: %s, retry %d%s in %d ms",
                b.recordCount(),
                b.sizeInBytes(),
                exporter.describe(),
                r.message(),
                attempt,
                retries,
                backoffMillis),
        null);
    if (!b.tryAwaitRetry(retryAt)) {
      finish(b, null, 0); // timed out meanwhile: it has its outcome
      return;
    }
    timer.scheduleRetry(b);
  }

  private void split(ProducerBatch b) {
    int mid = b.recordCount() / 2;
    ProducerBatch first = b.copyRange(0, mid, budget);
    ProducerBatch second;
    try {
      second = b.copyRange(mid, b.recordCount(), budget);
    } catch (Throwable t) {
      first.releaseMemory(budget);
      throw t;
    }
    ProducerBatch[] halves = {first, second};
    if (!b.tryComplete()) { // its deadline or close came meanwhile: it has its outcome
      for (ProducerBatch h : halves) {
        h.releaseMemory(budget);
      }
      finish(b, null, 0);
      return;
    }
    completer.completeSplit(b, halves);
    log.debug(
        "{} answered 'too large' for {} records ({} bytes); sending them as two batches",
        exporter.describe(),
        b.recordCount(),
        b.sizeInBytes());
    for (ProducerBatch h : halves) {
      enqueue(h);
    }
  }

  /**
   * Ends the send thread's hold on an IN_FLIGHT batch: gives it {@code result} if it has no outcome
   * yet, or, if its deadline or close gave it one meanwhile (TIMED_OUT), only releases its memory.
   */
  private void finish(ProducerBatch b, SendResult result, long wireBytes) {
    ExpirySpooler settler = durableSettler;
    if (result != null
        && result.getStatus() == SendResult.Status.FAILED
        && settler != null
        // not b.expirySpooling: this thread holds the batch; a flag set now is the timer's offer
        // that lost its claim to this thread and clears it again
        && b.state() == ProducerBatch.IN_FLIGHT
        && spoolWriter.awaitingDurability(b)
        && settler.settleWhenDurable(b, result)) {
      return; // the settler holds it now, and gives it its outcome once its entry is durable
    }
    finish0(b, result, wireBytes);
  }

  private void finish0(ProducerBatch b, SendResult result, long wireBytes) {
    if (result != null && b.tryComplete()) {
      completer.complete(b, result, wireBytes, true);
      return;
    }
    if (b.tryFinishTimedOut()) {
      completer.releaseAfterTimeout(b);
      return;
    }
    if (result == null) {
      // cannot happen; the batch is still IN_FLIGHT, and the send loop's failInFlight gives it
      // FAILED
      throw new IllegalStateException("expected a timed-out batch: " + b);
    }
  }

  private static String lastErrorSuffix(ProducerBatch b) {
    return b.lastError == null ? "" : "; last error: " + b.lastError;
  }

  /** From now on nothing is retried; pending batches fail at close. */
  void abort() {
    aborting = true;
  }

  /** Threads leave their loop once the queue is empty. */
  void stop() {
    queue.stop();
  }

  int queued() {
    return queue.size();
  }
}
