package io.logproducer.internal;

import io.logproducer.Compression;
import io.logproducer.SendResult;
import io.logproducer.internal.codec.Codec;
import io.logproducer.spi.ExportResult;
import io.logproducer.spi.Exporter;
import java.io.OutputStream;
import java.util.Locale;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The send pool: {@code sendThreads} threads take sealed batches from one queue, frame and compress each into the
 * thread's reusable body buffer, export it, and act on the answer: complete it, split it (too large), or schedule
 * a retry with backoff on the {@link LingerTimer}. After {@link #abort()} (close timeout reached) nothing is
 * retried: batches still pending complete as {@code FAILED_AT_CLOSE}.
 */
final class Sender {

  private static final Logger log = LoggerFactory.getLogger(Sender.class);
  /** Body buffers above this are dropped after use, so one huge batch does not pin memory. */
  private static final int BODY_BUFFER_KEEP_BYTES = 32 * 1024 * 1024;

  private final LinkedBlockingQueue<ProducerBatch> queue = new LinkedBlockingQueue<>();
  private final Exporter exporter;
  private final Codec codec;
  private final Compression compression;
  private final RetryPolicy retryPolicy;
  private final BatchCompleter completer;
  private final LingerTimer timer;
  private final Metrics metrics;
  private final RateLimitedLog failures = new RateLimitedLog(log, 5_000);
  private volatile boolean running = true;
  private volatile boolean aborting;

  Sender(Exporter exporter, Codec codec, RetryPolicy retryPolicy, BatchCompleter completer, LingerTimer timer,
      Metrics metrics) {
    this.exporter = exporter;
    this.codec = codec;
    this.compression = codec.compression();
    this.retryPolicy = retryPolicy;
    this.completer = completer;
    this.timer = timer;
    this.metrics = metrics;
  }

  /** Queues a sealed (or retry-due) batch. */
  void enqueue(ProducerBatch b) {
    queue.add(b);
  }

  /** The loop each send thread runs until {@link #stop()} and the queue is drained. */
  void runLoop() {
    ChunkWriter body = new ChunkWriter();
    while (running || !queue.isEmpty()) {
      ProducerBatch b;
      try {
        b = queue.poll(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        continue; // close interrupts only to hurry the exit; the loop condition decides
      }
      if (b != null) {
        process(b, body, System.nanoTime());
        if (body.capacity() > BODY_BUFFER_KEEP_BYTES) {
          body.trimTo(BODY_BUFFER_KEEP_BYTES);
        }
      }
    }
  }

  /** Sends one batch once and acts on the answer. Package-private so tests can step it. */
  void process(ProducerBatch b, ChunkWriter body, long nowNanos) {
    if (!b.tryStartAttempt()) {
      return; // aborted at close while queued
    }
    if (aborting) {
      finish(b, new SendResult(SendResult.Status.FAILED_AT_CLOSE, b.attempt(), b.recordCount(), 0,
          "producer closed before the batch was sent" + lastErrorSuffix(b), b.lastCause), 0);
      return;
    }
    if (nowNanos - b.deliveryDeadlineNanos >= 0) {
      finish(b, new SendResult(SendResult.Status.FAILED, b.attempt(), b.recordCount(), 0,
          "deliveryTimeoutMillis expired after " + b.attempt() + " attempt(s)" + lastErrorSuffix(b), b.lastCause), 0);
      return;
    }
    ExportResult result;
    int length;
    b.countAttempt();
    if (b.attempt() > 1) {
      metrics.retries.increment();
    }
    try {
      body.reset();
      OutputStream out = codec.compress(body);
      exporter.writeRequest(b, out);
      out.close();
      length = body.size();
    } catch (Throwable t) {
      rethrowIfFatal(t);
      finish(b, new SendResult(SendResult.Status.FAILED, b.attempt(), b.recordCount(), 0,
          "could not build the request: " + t, t), 0);
      return;
    }
    long start = System.nanoTime();
    try {
      result = exporter.export(b, body.array(), length, compression);
      if (result == null) {
        result = ExportResult.failed("exporter returned no result", null);
      }
    } catch (Throwable t) {
      rethrowIfFatal(t);
      result = ExportResult.failed("exporter threw " + t, t);
    }
    metrics.recordRequest(System.nanoTime() - start);
    handle(b, result, length, System.nanoTime());
  }

  private void handle(ProducerBatch b, ExportResult r, int wireBytes, long nowNanos) {
    switch (r.kind()) {
      case SUCCESS:
        finish(b, new SendResult(SendResult.Status.DELIVERED, b.attempt(), b.recordCount(), 0, null, null),
            wireBytes);
        return;
      case PARTIAL_SUCCESS:
        failures.warn(String.format(Locale.ROOT, "%s rejected %,d of %,d records: %s", exporter.describe(),
            r.rejectedCount(), b.recordCount(), r.message()), null);
        finish(b, new SendResult(SendResult.Status.PARTIALLY_REJECTED, b.attempt(), b.recordCount(),
            r.rejectedCount(), r.message(), null), wireBytes);
        return;
      case REJECTED:
        failures.warn(String.format(Locale.ROOT, "%s rejected %,d records (%,d bytes): %s", exporter.describe(),
            b.recordCount(), b.sizeInBytes(), r.message()), null);
        finish(b, new SendResult(SendResult.Status.REJECTED, b.attempt(), b.recordCount(), b.recordCount(),
            r.message(), r.error()), 0);
        return;
      case TOO_LARGE:
        if (b.recordCount() > 1 && !aborting) {
          split(b);
          return;
        }
        finish(b, new SendResult(aborting ? SendResult.Status.FAILED_AT_CLOSE : SendResult.Status.REJECTED,
            b.attempt(), b.recordCount(), b.recordCount(), "request too large for the receiver: " + r.message(),
            r.error()), 0);
        return;
      case RETRYABLE:
        retryOrFail(b, r, nowNanos);
        return;
      case FAILED:
      default:
        failures.warn(String.format(Locale.ROOT, "failed to send %,d records (%,d bytes) to %s: %s",
            b.recordCount(), b.sizeInBytes(), exporter.describe(), r.message()), r.error());
        finish(b, new SendResult(aborting ? SendResult.Status.FAILED_AT_CLOSE : SendResult.Status.FAILED,
            b.attempt(), b.recordCount(), 0, r.message(), r.error()), 0);
    }
  }

  private void retryOrFail(ProducerBatch b, ExportResult r, long nowNanos) {
    b.lastError = r.message();
    b.lastCause = r.error();
    int attempt = b.attempt();
    if (aborting) {
      finish(b, new SendResult(SendResult.Status.FAILED_AT_CLOSE, attempt, b.recordCount(), 0,
          "producer closed while retrying" + lastErrorSuffix(b), r.error()), 0);
      return;
    }
    if (!retryPolicy.mayRetry(attempt)) {
      failures.warn(String.format(Locale.ROOT, "failed to send %,d records (%,d bytes) to %s after %d attempt(s): %s",
          b.recordCount(), b.sizeInBytes(), exporter.describe(), attempt, r.message()), r.error());
      finish(b, new SendResult(SendResult.Status.FAILED, attempt, b.recordCount(), 0,
          "retries exhausted after " + attempt + " attempt(s)" + lastErrorSuffix(b), r.error()), 0);
      return;
    }
    long backoffMillis = retryPolicy.backoffMillis(attempt, r.retryAfterMillis());
    long retryAt = nowNanos + TimeUnit.MILLISECONDS.toNanos(backoffMillis);
    if (retryAt - b.deliveryDeadlineNanos >= 0) {
      failures.warn(String.format(Locale.ROOT,
          "failed to send %,d records (%,d bytes) to %s: %s; next retry in %d ms would pass deliveryTimeoutMillis",
          b.recordCount(), b.sizeInBytes(), exporter.describe(), r.message(), backoffMillis), r.error());
      finish(b, new SendResult(SendResult.Status.FAILED, attempt, b.recordCount(), 0,
          "deliveryTimeoutMillis would expire before the next retry (in " + backoffMillis + " ms)"
              + lastErrorSuffix(b), r.error()), 0);
      return;
    }
    String retries = retryPolicy.retries() == Integer.MAX_VALUE ? "" : "/" + retryPolicy.retries();
    failures.warn(String.format(Locale.ROOT, "failed to send %,d records (%,d bytes) to %s: %s, retry %d%s in %d ms",
        b.recordCount(), b.sizeInBytes(), exporter.describe(), r.message(), attempt, retries, backoffMillis),
        null);
    b.awaitRetry(retryAt);
    timer.scheduleRetry(b);
  }

  private void split(ProducerBatch b) {
    int mid = b.recordCount() / 2;
    ProducerBatch[] halves = {b.copyRange(0, mid), b.copyRange(mid, b.recordCount())};
    b.markCompleted();
    completer.completeSplit(b, halves);
    log.debug("{} answered 'too large' for {} records ({} bytes); sending them as two batches",
        exporter.describe(), b.recordCount(), b.sizeInBytes());
    for (ProducerBatch h : halves) {
      enqueue(h);
    }
  }

  private void finish(ProducerBatch b, SendResult result, long wireBytes) {
    b.markCompleted();
    completer.complete(b, result, wireBytes);
  }

  private static String lastErrorSuffix(ProducerBatch b) {
    return b.lastError == null ? "" : "; last error: " + b.lastError;
  }

  private static void rethrowIfFatal(Throwable t) {
    if (t instanceof VirtualMachineError || t instanceof ThreadDeath || t instanceof LinkageError) {
      throw (Error) t;
    }
  }

  /** Applies an outcome to a batch that close already moved to COMPLETED. */
  void completeAborted(ProducerBatch b, SendResult result) {
    completer.complete(b, result, 0);
  }

  /** From now on nothing is retried; pending batches fail at close. */
  void abort() {
    aborting = true;
  }

  /** Threads leave their loop once the queue is empty. */
  void stop() {
    running = false;
  }

  int queued() {
    return queue.size();
  }

  /** Batches still queued, removed (for abort at close). */
  ProducerBatch[] drain() {
    java.util.List<ProducerBatch> all = new java.util.ArrayList<>();
    queue.drainTo(all);
    return all.toArray(new ProducerBatch[0]);
  }
}
