package io.logproducer.internal;

import io.logproducer.ProducerMetrics;
import io.logproducer.ProducerMetricsMXBean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The producer's live counters. Per-record counters are updated once per batch, not per record, so
 * the {@code send} path touches none of them except {@link #recordsAccepted}. Thread-safe.
 */
public final class Metrics implements ProducerMetricsMXBean {
  final LongAdder recordsAccepted = new LongAdder();
  final LongAdder recordsSent = new LongAdder();
  final LongAdder bytesSent = new LongAdder();
  final LongAdder wireBytesSent = new LongAdder();
  final LongAdder recordsRejected = new LongAdder();
  final LongAdder recordsFailed = new LongAdder();
  final LongAdder recordsDropped = new LongAdder();
  final LongAdder batchesSent = new LongAdder();
  final LongAdder batchesFailed = new LongAdder();
  final LongAdder retries = new LongAdder();
  final LongAdder requests = new LongAdder();
  final LongAdder requestLatencyNanos = new LongAdder();
  final AtomicLong requestLatencyMax = new AtomicLong();
  private final MemoryBudget budget;
  private final ChunkPool pool;

  Metrics(MemoryBudget budget, ChunkPool pool) {
    this.budget = budget;
    this.pool = pool;
  }

  /** Bytes held by batches: the budget in use less the chunks pooled for reuse. */
  long bufferedBytes() {
    return Math.max(0, budget.used() - pool.pooledBytes());
  }

  void recordRequest(long latencyNanos) {
    requests.increment();
    requestLatencyNanos.add(latencyNanos);
    if (latencyNanos > requestLatencyMax.get()) {
      requestLatencyMax.accumulateAndGet(latencyNanos, Math::max);
    }
  }

  private volatile String lastError;
  private volatile String lastSpoolError;

  /**
   * Remembers the most recent export failure for {@link #getLastError()}: a retry, a rejection, a
   * failure.
   *
   * @param source the exporter's description
   * @param message what went wrong
   */
  void noteError(String source, String message) {
    lastError = java.time.Instant.now() + " " + source + ": " + message;
  }

  @Override
  public String getLastError() {
    return lastError;
  }

  /**
   * Remembers a problem of the spool itself (a batch it did not store, a failed fsync) for {@link
   * #getLastSpoolError()}, and as the last error too.
   *
   * @param source the spool's description
   * @param message what went wrong
   */
  void noteSpoolError(String source, String message) {
    String text = java.time.Instant.now() + " " + source + ": " + message;
    lastSpoolError = text;
    lastError = text;
  }

  @Override
  public String getLastSpoolError() {
    return lastSpoolError;
  }

  /** Counts one dropped record. */
  public void recordDropped() {
    recordsDropped.increment();
  }

  /** Counts one accepted record. */
  public void recordAccepted() {
    recordsAccepted.increment();
  }

  /** A consistent-enough snapshot (each counter read once). */
  public ProducerMetrics snapshot() {
    return new ProducerMetrics(
        recordsAccepted.sum(),
        recordsSent.sum(),
        bytesSent.sum(),
        wireBytesSent.sum(),
        recordsRejected.sum(),
        recordsFailed.sum(),
        recordsDropped.sum(),
        batchesSent.sum(),
        batchesFailed.sum(),
        retries.sum(),
        bufferedBytes(),
        budget.peak(),
        budget.total(),
        budget.waitingThreads(),
        budget.blockedNanos(),
        requests.sum(),
        requestLatencyNanos.sum(),
        requestLatencyMax.get(),
        lastError,
        getRecordsSpooled(),
        getBatchesSpooled(),
        getSpoolBytesOnDisk(),
        getSpoolPendingBatches(),
        getSpoolRecordsReplayed(),
        getSpoolRecordsDelivered(),
        getSpoolRecordsRefused(),
        getSpoolRecordsExpired(),
        getSpoolRecordsDropped(),
        getSpoolBatchesCorrupt(),
        getSpoolBatchesLost(),
        getSpoolRecordsLost(),
        getSpoolBatchesNotWritten(),
        lastSpoolError);
  }

  @Override
  public long getRecordsAccepted() {
    return recordsAccepted.sum();
  }

  @Override
  public long getRecordsSent() {
    return recordsSent.sum();
  }

  @Override
  public long getBytesSent() {
    return bytesSent.sum();
  }

  @Override
  public long getWireBytesSent() {
    return wireBytesSent.sum();
  }

  @Override
  public long getRecordsRejected() {
    return recordsRejected.sum();
  }

  @Override
  public long getRecordsFailed() {
    return recordsFailed.sum();
  }

  @Override
  public long getRecordsDropped() {
    return recordsDropped.sum();
  }

  @Override
  public long getBatchesSent() {
    return batchesSent.sum();
  }

  @Override
  public long getBatchesFailed() {
    return batchesFailed.sum();
  }

  @Override
  public long getRetries() {
    return retries.sum();
  }

  @Override
  public long getBufferedBytes() {
    return bufferedBytes();
  }

  @Override
  public long getPeakBufferedBytes() {
    return budget.peak();
  }

  @Override
  public long getTotalSizeInBytes() {
    return budget.total();
  }

  @Override
  public int getWaitingThreads() {
    return budget.waitingThreads();
  }

  @Override
  public long getSendBlockedNanos() {
    return budget.blockedNanos();
  }

  @Override
  public long getRequests() {
    return requests.sum();
  }

  @Override
  public double getRequestLatencyAvgMillis() {
    long n = requests.sum();
    return n == 0 ? 0 : requestLatencyNanos.sum() / 1e6 / n;
  }

  @Override
  public long getRequestLatencyNanosMax() {
    return requestLatencyMax.get();
  }

  private volatile ProducerSpool spool;

  /** Reads the spool's counters from now on; called once, by the producer's constructor. */
  void useSpool(ProducerSpool spool) {
    this.spool = spool;
  }

  @Override
  public long getRecordsSpooled() {
    ProducerSpool sp = spool;
    if (sp == null) {
      return 0;
    }
    SpoolMetrics s = sp.metrics();
    return s.recordsSpooled.sum();
  }

  @Override
  public long getBatchesSpooled() {
    ProducerSpool sp = spool;
    if (sp == null) {
      return 0;
    }
    SpoolMetrics s = sp.metrics();
    return s.batchesSpooled.sum();
  }

  @Override
  public long getSpoolBytesOnDisk() {
    ProducerSpool sp = spool;
    if (sp == null) {
      return 0;
    }
    SpoolMetrics s = sp.metrics();
    return sp.spool().bytesOnDisk();
  }

  @Override
  public long getSpoolPendingBatches() {
    ProducerSpool sp = spool;
    if (sp == null) {
      return 0;
    }
    SpoolMetrics s = sp.metrics();
    return sp.spool().pendingEntries();
  }

  @Override
  public long getSpoolRecordsReplayed() {
    ProducerSpool sp = spool;
    if (sp == null) {
      return 0;
    }
    SpoolMetrics s = sp.metrics();
    return s.recordsReplayed.sum();
  }

  @Override
  public long getSpoolRecordsDelivered() {
    ProducerSpool sp = spool;
    if (sp == null) {
      return 0;
    }
    SpoolMetrics s = sp.metrics();
    return s.recordsDeliveredFromSpool.sum();
  }

  @Override
  public long getSpoolRecordsRefused() {
    ProducerSpool sp = spool;
    if (sp == null) {
      return 0;
    }
    SpoolMetrics s = sp.metrics();
    return s.recordsRefusedFromSpool.sum();
  }

  @Override
  public long getSpoolRecordsExpired() {
    ProducerSpool sp = spool;
    if (sp == null) {
      return 0;
    }
    SpoolMetrics s = sp.metrics();
    return s.recordsExpired.sum();
  }

  @Override
  public long getSpoolRecordsDropped() {
    ProducerSpool sp = spool;
    if (sp == null) {
      return 0;
    }
    SpoolMetrics s = sp.metrics();
    return s.recordsDropped.sum();
  }

  @Override
  public long getSpoolBatchesCorrupt() {
    ProducerSpool sp = spool;
    if (sp == null) {
      return 0;
    }
    SpoolMetrics s = sp.metrics();
    return s.batchesCorrupt.sum();
  }

  @Override
  public long getSpoolBatchesLost() {
    ProducerSpool sp = spool;
    return sp == null ? 0 : sp.metrics().batchesLost.sum();
  }

  @Override
  public long getSpoolRecordsLost() {
    ProducerSpool sp = spool;
    return sp == null ? 0 : sp.metrics().recordsLost.sum();
  }

  @Override
  public long getSpoolBatchesNotWritten() {
    ProducerSpool sp = spool;
    if (sp == null) {
      return 0;
    }
    SpoolMetrics s = sp.metrics();
    return s.batchesNotWritten.sum();
  }
}
