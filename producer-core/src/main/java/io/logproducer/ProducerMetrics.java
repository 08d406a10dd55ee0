package io.logproducer;

/**
 * A point-in-time snapshot of a producer's counters; immutable. Counters are cumulative since the
 * producer was created. "Bytes" are encoded record bytes (before compression) unless named "wire".
 *
 * <p>Every accepted record ends in exactly one of {@code recordsSent}, {@code recordsRejected},
 * {@code recordsFailed}, {@code recordsSpooled}; so {@code recordsAccepted - recordsSent -
 * recordsRejected - recordsFailed - recordsSpooled} is the number still in the producer's memory.
 * What becomes of spooled records later is counted by the {@code spool…} counters. {@code
 * recordsDropped} counts records that were never accepted.
 */
public final class ProducerMetrics {
  private final long recordsAccepted;
  private final long recordsSent;
  private final long bytesSent;
  private final long wireBytesSent;
  private final long recordsRejected;
  private final long recordsFailed;
  private final long recordsDropped;
  private final long batchesSent;
  private final long batchesFailed;
  private final long retries;
  private final long bufferedBytes;
  private final long peakBufferedBytes;
  private final long totalSizeInBytes;
  private final int waitingThreads;
  private final long sendBlockedNanos;
  private final long requests;
  private final long requestLatencyNanosTotal;
  private final long requestLatencyNanosMax;
  private final String lastError;
  private final long recordsSpooled;
  private final long batchesSpooled;
  private final long spoolBytesOnDisk;
  private final long spoolPendingBatches;
  private final long spoolRecordsReplayed;
  private final long spoolRecordsDelivered;
  private final long spoolRecordsRefused;
  private final long spoolRecordsExpired;
  private final long spoolRecordsDropped;
  private final long spoolBatchesCorrupt;
  private final long spoolBatchesLost;
  private final long spoolRecordsLost;
  private final long spoolBatchesNotWritten;
  private final String lastSpoolError;

  /**
   * Creates a snapshot; used by the producer ({@link Producer#getMetrics()}). Each argument is the
   * value of the getter of the same name.
   *
   * @param recordsAccepted records accepted by {@code send}
   * @param recordsSent records delivered
   * @param bytesSent encoded bytes of delivered batches
   * @param wireBytesSent request body bytes (after compression) of delivered batches
   * @param recordsRejected records the receiver rejected
   * @param recordsFailed records that failed
   * @param recordsDropped records dropped under {@link BufferFullPolicy#DROP}
   * @param batchesSent batches delivered
   * @param batchesFailed batches rejected or failed
   * @param retries export attempts that were retries
   * @param bufferedBytes bytes of the budget the batches hold now
   * @param peakBufferedBytes highest use of the budget seen, bytes
   * @param totalSizeInBytes the configured budget, bytes
   * @param waitingThreads threads blocked in {@code send} now
   * @param sendBlockedNanos total time {@code send} callers spent blocked, nanoseconds
   * @param requests export requests made
   * @param requestLatencyNanosTotal sum of export request latencies, nanoseconds
   * @param requestLatencyNanosMax longest export request latency, nanoseconds
   * @param lastError the most recent export failure as text (see {@link #getLastError()}), or null
   */
  public ProducerMetrics(
      long recordsAccepted,
      long recordsSent,
      long bytesSent,
      long wireBytesSent,
      long recordsRejected,
      long recordsFailed,
      long recordsDropped,
      long batchesSent,
      long batchesFailed,
      long retries,
      long bufferedBytes,
      long peakBufferedBytes,
      long totalSizeInBytes,
      int waitingThreads,
      long sendBlockedNanos,
      long requests,
      long requestLatencyNanosTotal,
      long requestLatencyNanosMax,
      String lastError) {
    this(
        recordsAccepted,
        recordsSent,
        bytesSent,
        wireBytesSent,
        recordsRejected,
        recordsFailed,
        recordsDropped,
        batchesSent,
        batchesFailed,
        retries,
        bufferedBytes,
        peakBufferedBytes,
        totalSizeInBytes,
        waitingThreads,
        sendBlockedNanos,
        requests,
        requestLatencyNanosTotal,
        requestLatencyNanosMax,
        lastError,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0);
  }

  /**
   * Creates a snapshot with the spool's counters; used by the producer ({@link
   * Producer#getMetrics()}). Each argument is the value of the getter of the same name.
   *
   * @param recordsAccepted see {@link #getRecordsAccepted()}
   * @param recordsSent see {@link #getRecordsSent()}
   * @param bytesSent see {@link #getBytesSent()}
   * @param wireBytesSent see {@link #getWireBytesSent()}
   * @param recordsRejected see {@link #getRecordsRejected()}
   * @param recordsFailed see {@link #getRecordsFailed()}
   * @param recordsDropped see {@link #getRecordsDropped()}
   * @param batchesSent see {@link #getBatchesSent()}
   * @param batchesFailed see {@link #getBatchesFailed()}
   * @param retries see {@link #getRetries()}
   * @param bufferedBytes see {@link #getBufferedBytes()}
   * @param peakBufferedBytes see {@link #getPeakBufferedBytes()}
   * @param totalSizeInBytes see {@link #getTotalSizeInBytes()}
   * @param waitingThreads see {@link #getWaitingThreads()}
   * @param sendBlockedNanos see {@link #getSendBlockedNanos()}
   * @param requests see {@link #getRequests()}
   * @param requestLatencyNanosTotal see {@link #getRequestLatencyNanosTotal()}
   * @param requestLatencyNanosMax see {@link #getRequestLatencyNanosMax()}
   * @param lastError see {@link #getLastError()}
   * @param recordsSpooled see {@link #getRecordsSpooled()}
   * @param batchesSpooled see {@link #getBatchesSpooled()}
   * @param spoolBytesOnDisk see {@link #getSpoolBytesOnDisk()}
   * @param spoolPendingBatches see {@link #getSpoolPendingBatches()}
   * @param spoolRecordsReplayed see {@link #getSpoolRecordsReplayed()}
   * @param spoolRecordsDelivered see {@link #getSpoolRecordsDelivered()}
   * @param spoolRecordsRefused see {@link #getSpoolRecordsRefused()}
   * @param spoolRecordsExpired see {@link #getSpoolRecordsExpired()}
   * @param spoolRecordsDropped see {@link #getSpoolRecordsDropped()}
   * @param spoolBatchesCorrupt see {@link #getSpoolBatchesCorrupt()}
   * @param spoolBatchesNotWritten see {@link #getSpoolBatchesNotWritten()}
   */
  public ProducerMetrics(
      long recordsAccepted,
      long recordsSent,
      long bytesSent,
      long wireBytesSent,
      long recordsRejected,
      long recordsFailed,
      long recordsDropped,
      long batchesSent,
      long batchesFailed,
      long retries,
      long bufferedBytes,
      long peakBufferedBytes,
      long totalSizeInBytes,
      int waitingThreads,
      long sendBlockedNanos,
      long requests,
      long requestLatencyNanosTotal,
      long requestLatencyNanosMax,
      String lastError,
      long recordsSpooled,
      long batchesSpooled,
      long spoolBytesOnDisk,
      long spoolPendingBatches,
      long spoolRecordsReplayed,
      long spoolRecordsDelivered,
      long spoolRecordsRefused,
      long spoolRecordsExpired,
      long spoolRecordsDropped,
      long spoolBatchesCorrupt,
      long spoolBatchesNotWritten) {
    this(
        recordsAccepted,
        recordsSent,
        bytesSent,
        wireBytesSent,
        recordsRejected,
        recordsFailed,
        recordsDropped,
        batchesSent,
        batchesFailed,
        retries,
        bufferedBytes,
        peakBufferedBytes,
        totalSizeInBytes,
        waitingThreads,
        sendBlockedNanos,
        requests,
        requestLatencyNanosTotal,
        requestLatencyNanosMax,
        lastError,
        recordsSpooled,
        batchesSpooled,
        spoolBytesOnDisk,
        spoolPendingBatches,
        spoolRecordsReplayed,
        spoolRecordsDelivered,
        spoolRecordsRefused,
        spoolRecordsExpired,
        spoolRecordsDropped,
        spoolBatchesCorrupt,
        0,
        0,
        spoolBatchesNotWritten,
        null);
  }

  /**
   * Creates a snapshot with the spool's counters and its last problem; used by the producer ({@link
   * Producer#getMetrics()}). Each argument is the value of the getter of the same name.
   *
   * @param recordsAccepted see {@link #getRecordsAccepted()}
   * @param recordsSent see {@link #getRecordsSent()}
   * @param bytesSent see {@link #getBytesSent()}
   * @param wireBytesSent see {@link #getWireBytesSent()}
   * @param recordsRejected see {@link #getRecordsRejected()}
   * @param recordsFailed see {@link #getRecordsFailed()}
   * @param recordsDropped see {@link #getRecordsDropped()}
   * @param batchesSent see {@link #getBatchesSent()}
   * @param batchesFailed see {@link #getBatchesFailed()}
   * @param retries see {@link #getRetries()}
   * @param bufferedBytes see {@link #getBufferedBytes()}
   * @param peakBufferedBytes see {@link #getPeakBufferedBytes()}
   * @param totalSizeInBytes see {@link #getTotalSizeInBytes()}
   * @param waitingThreads see {@link #getWaitingThreads()}
   * @param sendBlockedNanos see {@link #getSendBlockedNanos()}
   * @param requests see {@link #getRequests()}
   * @param requestLatencyNanosTotal see {@link #getRequestLatencyNanosTotal()}
   * @param requestLatencyNanosMax see {@link #getRequestLatencyNanosMax()}
   * @param lastError see {@link #getLastError()}
   * @param recordsSpooled see {@link #getRecordsSpooled()}
   * @param batchesSpooled see {@link #getBatchesSpooled()}
   * @param spoolBytesOnDisk see {@link #getSpoolBytesOnDisk()}
   * @param spoolPendingBatches see {@link #getSpoolPendingBatches()}
   * @param spoolRecordsReplayed see {@link #getSpoolRecordsReplayed()}
   * @param spoolRecordsDelivered see {@link #getSpoolRecordsDelivered()}
   * @param spoolRecordsRefused see {@link #getSpoolRecordsRefused()}
   * @param spoolRecordsExpired see {@link #getSpoolRecordsExpired()}
   * @param spoolRecordsDropped see {@link #getSpoolRecordsDropped()}
   * @param spoolBatchesCorrupt see {@link #getSpoolBatchesCorrupt()}
   * @param spoolBatchesLost see {@link #getSpoolBatchesLost()}
   * @param spoolRecordsLost see {@link #getSpoolRecordsLost()}
   * @param spoolBatchesNotWritten see {@link #getSpoolBatchesNotWritten()}
   * @param lastSpoolError see {@link #getLastSpoolError()}
   */
  public ProducerMetrics(
      long recordsAccepted,
      long recordsSent,
      long bytesSent,
      long wireBytesSent,
      long recordsRejected,
      long recordsFailed,
      long recordsDropped,
      long batchesSent,
      long batchesFailed,
      long retries,
      long bufferedBytes,
      long peakBufferedBytes,
      long totalSizeInBytes,
      int waitingThreads,
      long sendBlockedNanos,
      long requests,
      long requestLatencyNanosTotal,
      long requestLatencyNanosMax,
      String lastError,
      long recordsSpooled,
      long batchesSpooled,
      long spoolBytesOnDisk,
      long spoolPendingBatches,
      long spoolRecordsReplayed,
      long spoolRecordsDelivered,
      long spoolRecordsRefused,
      long spoolRecordsExpired,
      long spoolRecordsDropped,
      long spoolBatchesCorrupt,
      long spoolBatchesLost,
      long spoolRecordsLost,
      long spoolBatchesNotWritten,
      String lastSpoolError) {
    this.recordsAccepted = recordsAccepted;
    this.recordsSent = recordsSent;
    this.bytesSent = bytesSent;
    this.wireBytesSent = wireBytesSent;
    this.recordsRejected = recordsRejected;
    this.recordsFailed = recordsFailed;
    this.recordsDropped = recordsDropped;
    this.batchesSent = batchesSent;
    this.batchesFailed = batchesFailed;
    this.retries = retries;
    this.bufferedBytes = bufferedBytes;
    this.peakBufferedBytes = peakBufferedBytes;
    this.totalSizeInBytes = totalSizeInBytes;
    this.waitingThreads = waitingThreads;
    this.sendBlockedNanos = sendBlockedNanos;
    this.requests = requests;
    this.requestLatencyNanosTotal = requestLatencyNanosTotal;
    this.requestLatencyNanosMax = requestLatencyNanosMax;
    this.lastError = lastError;
    this.recordsSpooled = recordsSpooled;
    this.batchesSpooled = batchesSpooled;
    this.spoolBytesOnDisk = spoolBytesOnDisk;
    this.spoolPendingBatches = spoolPendingBatches;
    this.spoolRecordsReplayed = spoolRecordsReplayed;
    this.spoolRecordsDelivered = spoolRecordsDelivered;
    this.spoolRecordsRefused = spoolRecordsRefused;
    this.spoolRecordsExpired = spoolRecordsExpired;
    this.spoolRecordsDropped = spoolRecordsDropped;
    this.spoolBatchesCorrupt = spoolBatchesCorrupt;
    this.spoolBatchesLost = spoolBatchesLost;
    this.spoolRecordsLost = spoolRecordsLost;
    this.spoolBatchesNotWritten = spoolBatchesNotWritten;
    this.lastSpoolError = lastSpoolError;
  }

  /**
   * {@return records accepted by {@code send}} A {@code send} counts its record here when it starts
   * to append it, and takes it off again if it then drops or refuses it (a full buffer with {@link
   * BufferFullPolicy#DROP}, a record too large, a closed producer): so this count never trails the
   * outcomes, and a reading taken while such a {@code send} is under way includes its record.
   */
  public long getRecordsAccepted() {
    return recordsAccepted;
  }

  /**
   * {@return records delivered (for a partial success: the batch's records minus the rejected
   * ones)}
   */
  public long getRecordsSent() {
    return recordsSent;
  }

  /** {@return encoded bytes of delivered batches} */
  public long getBytesSent() {
    return bytesSent;
  }

  /** {@return request body bytes (after compression) of delivered batches} */
  public long getWireBytesSent() {
    return wireBytesSent;
  }

  /** {@return records the receiver rejected (final HTTP errors, partial success)} */
  public long getRecordsRejected() {
    return recordsRejected;
  }

  /**
   * {@return records that failed after retries, by delivery timeout, by a non-retryable error, or
   * at close}
   */
  public long getRecordsFailed() {
    return recordsFailed;
  }

  /**
   * {@return records not accepted because the buffer was full under {@link BufferFullPolicy#DROP}}
   */
  public long getRecordsDropped() {
    return recordsDropped;
  }

  /** {@return batches delivered (including partial successes)} */
  public long getBatchesSent() {
    return batchesSent;
  }

  /** {@return batches rejected or failed} */
  public long getBatchesFailed() {
    return batchesFailed;
  }

  /** {@return export attempts that were retries} */
  public long getRetries() {
    return retries;
  }

  /**
   * {@return bytes of the budget the batches hold now (open, sealed, in flight, retrying)} That is
   * their records' chunks, charged whole, and bookkeeping; 0 when nothing is buffered. Chunks
   * pooled for reuse are not counted here.
   */
  public long getBufferedBytes() {
    return bufferedBytes;
  }

  /**
   * {@return the highest use of the budget seen, in bytes, pooled chunks included} At most {@link
   * #getTotalSizeInBytes()} (a batch split on a send thread may pass it briefly by the size of its
   * halves' bookkeeping).
   */
  public long getPeakBufferedBytes() {
    return peakBufferedBytes;
  }

  /** {@return the configured budget ({@code totalSizeInBytes}), bytes} */
  public long getTotalSizeInBytes() {
    return totalSizeInBytes;
  }

  /** {@return threads blocked in {@code send} waiting for buffer space now} */
  public int getWaitingThreads() {
    return waitingThreads;
  }

  /**
   * {@return the total time {@code send} callers spent blocked waiting for buffer space,
   * nanoseconds}
   */
  public long getSendBlockedNanos() {
    return sendBlockedNanos;
  }

  /** {@return export requests made (attempts, including retries)} */
  public long getRequests() {
    return requests;
  }

  /** {@return the sum of export request latencies (compression excluded), nanoseconds} */
  public long getRequestLatencyNanosTotal() {
    return requestLatencyNanosTotal;
  }

  /** {@return the longest export request latency, nanoseconds} */
  public long getRequestLatencyNanosMax() {
    return requestLatencyNanosMax;
  }

  /** {@return the mean export request latency in milliseconds, 0 when no request was made} */
  public double getRequestLatencyAvgMillis() {
    return requests == 0 ? 0 : requestLatencyNanosTotal / 1e6 / requests;
  }

  /**
   * The most recent export failure — a retried attempt, a rejection, a partial rejection or a
   * failure — as {@code "<ISO-8601 time> <exporter>: <message>"} (e.g. {@code
   * "2026-11-22T19:40:01.123Z OTLP/HTTP http://127.0.0.1:4318/v1/logs: Connection refused, retry 3
   * in 400 ms"}), or null if every attempt so far succeeded. Visible without any logging set up,
   * here and over JMX ({@code LastError}).
   *
   * @return the last failure's text, or null
   */
  public String getLastError() {
    return lastError;
  }

  /**
   * The spool's own most recent problem — a batch it did not store (the free-disk guard, full, disk
   * failed, too large) or a failed fsync — as {@code "<ISO-8601 time> spool <directory>:
   * <message>"}, or null if it had none. It is the last error too when it happens, but unlike
   * {@link #getLastError()} a later export failure does not replace it. Also over JMX ({@code
   * LastSpoolError}).
   *
   * @return the spool's last problem's text, or null (always null without a spool)
   */
  public String getLastSpoolError() {
    return lastSpoolError;
  }

  /** {@return records whose outcome was {@link SendResult.Status#SPOOLED}} */
  public long getRecordsSpooled() {
    return recordsSpooled;
  }

  /** {@return batches whose outcome was {@link SendResult.Status#SPOOLED}} */
  public long getBatchesSpooled() {
    return batchesSpooled;
  }

  /**
   * {@return bytes the spool's files take on disk now (segments as preallocated, checkpoint, lock,
   * meta); 0 without a spool}
   */
  public long getSpoolBytesOnDisk() {
    return spoolBytesOnDisk;
  }

  /**
   * {@return batches stored in the spool and not yet acknowledged (delivered, refused or discarded)
   * now}
   */
  public long getSpoolPendingBatches() {
    return spoolPendingBatches;
  }

  /**
   * {@return records of stored batches replayed from the spool (each replayed batch counted once,
   * however many attempts)}
   */
  public long getSpoolRecordsReplayed() {
    return spoolRecordsReplayed;
  }

  /**
   * {@return records delivered from the spool: by replay, or by the late answer of the export that
   * was in flight when they got SPOOLED}
   */
  public long getSpoolRecordsDelivered() {
    return spoolRecordsDelivered;
  }

  /**
   * {@return records of replayed batches the receiver refused for good (rejected, too large,
   * failed), acknowledged and gone}
   */
  public long getSpoolRecordsRefused() {
    return spoolRecordsRefused;
  }

  /** {@return records of stored batches expired by {@code maxAgeMillis} before delivery} */
  public long getSpoolRecordsExpired() {
    return spoolRecordsExpired;
  }

  /**
   * {@return records of stored batches deleted undelivered to make room ({@link
   * SpoolFullPolicy#DROP_OLDEST})}
   */
  public long getSpoolRecordsDropped() {
    return spoolRecordsDropped;
  }

  /**
   * {@return stored batches found damaged (bad checksum, torn, unreadable) and skipped; their
   * record count may be unknown}
   */
  public long getSpoolBatchesCorrupt() {
    return spoolBatchesCorrupt;
  }

  /**
   * {@return batches the spool did not store (full under DROP_NEWEST or BLOCK, disk failed, too
   * large): they kept the in-memory path only; each batch counted once, at its outcome, however
   * many of its attempts the spool refused}
   */
  public long getSpoolBatchesNotWritten() {
    return spoolBatchesNotWritten;
  }

  /**
   * {@return stored batches found lost: their segment file was missing, emptied or shorter than
   * what was written into it (found at open from the checkpoint and the journal, or when replay
   * found the file deleted); each range is also told to {@link SpoolListener#onLost} and logged}
   */
  public long getSpoolBatchesLost() {
    return spoolBatchesLost;
  }

  /**
   * {@return records of the stored batches found lost, where known (see {@link
   * #getSpoolBatchesLost()}; a batch whose record count the damage hid adds none)}
   */
  public long getSpoolRecordsLost() {
    return spoolRecordsLost;
  }

  @Override
  public String toString() {
    return "ProducerMetrics{accepted="
        + recordsAccepted
        + ", sent="
        + recordsSent
        + ", rejected="
        + recordsRejected
        + ", failed="
        + recordsFailed
        + ", dropped="
        + recordsDropped
        + ", bytesSent="
        + bytesSent
        + ", wireBytesSent="
        + wireBytesSent
        + ", batchesSent="
        + batchesSent
        + ", batchesFailed="
        + batchesFailed
        + ", retries="
        + retries
        + ", bufferedBytes="
        + bufferedBytes
        + ", peakBufferedBytes="
        + peakBufferedBytes
        + ", waitingThreads="
        + waitingThreads
        + ", sendBlockedMs="
        + sendBlockedNanos / 1_000_000
        + ", requests="
        + requests
        + ", requestLatencyAvgMs="
        + String.format(java.util.Locale.ROOT, "%.2f", getRequestLatencyAvgMillis())
        + (spoolBytesOnDisk == 0 && recordsSpooled == 0
            ? ""
            : ", spooled="
                + recordsSpooled
                + ", spoolBytesOnDisk="
                + spoolBytesOnDisk
                + ", spoolPendingBatches="
                + spoolPendingBatches
                + ", spoolDelivered="
                + spoolRecordsDelivered
                + ", spoolExpired="
                + spoolRecordsExpired
                + ", spoolDropped="
                + spoolRecordsDropped
                + ", spoolCorrupt="
                + spoolBatchesCorrupt
                + ", spoolLost="
                + spoolBatchesLost)
        + (lastError == null ? "" : ", lastError=" + lastError)
        + (lastSpoolError == null ? "" : ", lastSpoolError=" + lastSpoolError)
        + "}";
  }
}
