package io.logproducer;

/**
 * The JMX view of {@link ProducerMetrics}, registered as {@code
 * io.logproducer:type=Producer,clientId=<clientId>} unless {@code jmxEnabled} is false. Attributes
 * read live values.
 */
public interface ProducerMetricsMXBean {
  /**
   * {@return records accepted by {@code send}, including the record of a {@code send} under way
   * (see {@link ProducerMetrics#getRecordsAccepted()})}
   */
  long getRecordsAccepted();

  /** {@return records delivered} */
  long getRecordsSent();

  /** {@return encoded bytes (before compression) of delivered batches} */
  long getBytesSent();

  /** {@return request body bytes (after compression) of delivered batches} */
  long getWireBytesSent();

  /** {@return records the receiver rejected} */
  long getRecordsRejected();

  /**
   * {@return records that failed (retries exhausted, delivery timeout, non-retryable error, close)}
   */
  long getRecordsFailed();

  /** {@return records dropped because the buffer was full under {@link BufferFullPolicy#DROP}} */
  long getRecordsDropped();

  /** {@return batches delivered (including partial successes)} */
  long getBatchesSent();

  /** {@return batches rejected or failed} */
  long getBatchesFailed();

  /** {@return export attempts that were retries} */
  long getRetries();

  /** {@return bytes of the budget the batches hold now, pooled chunks excluded} */
  long getBufferedBytes();

  /** {@return the highest use of the budget seen, in bytes, pooled chunks included} */
  long getPeakBufferedBytes();

  /** {@return the configured budget ({@code totalSizeInBytes}), bytes} */
  long getTotalSizeInBytes();

  /** {@return threads blocked in {@code send} waiting for buffer space now} */
  int getWaitingThreads();

  /**
   * {@return the total time {@code send} callers spent blocked waiting for buffer space,
   * nanoseconds}
   */
  long getSendBlockedNanos();

  /** {@return export requests made (attempts, including retries)} */
  long getRequests();

  /** {@return the mean export request latency in milliseconds, 0 when no request was made} */
  double getRequestLatencyAvgMillis();

  /** {@return the longest export request latency, nanoseconds} */
  long getRequestLatencyNanosMax();

  /**
   * The most recent export failure as text, or null; see {@link ProducerMetrics#getLastError()}.
   *
   * @return the last failure's text, or null
   */
  String getLastError();

  /**
   * The spool's own most recent problem as text, or null; see {@link
   * ProducerMetrics#getLastSpoolError()}.
   *
   * @return the spool's last problem's text, or null
   */
  String getLastSpoolError();

  /** {@return records whose outcome was {@link SendResult.Status#SPOOLED}} */
  long getRecordsSpooled();

  /** {@return batches whose outcome was {@link SendResult.Status#SPOOLED}} */
  long getBatchesSpooled();

  /**
   * {@return bytes the spool's files take on disk now (segments as preallocated, checkpoint, lock,
   * meta); 0 without a spool}
   */
  long getSpoolBytesOnDisk();

  /**
   * {@return batches stored in the spool and not yet acknowledged (delivered, refused or discarded)
   * now}
   */
  long getSpoolPendingBatches();

  /**
   * {@return records of stored batches replayed from the spool (each replayed batch counted once,
   * however many attempts)}
   */
  long getSpoolRecordsReplayed();

  /**
   * {@return records delivered from the spool: by replay, or by the late answer of the export that
   * was in flight when they got SPOOLED}
   */
  long getSpoolRecordsDelivered();

  /**
   * {@return records of replayed batches the receiver refused for good (rejected, too large,
   * failed), acknowledged and gone}
   */
  long getSpoolRecordsRefused();

  /** {@return records of stored batches expired by {@code maxAgeMillis} before delivery} */
  long getSpoolRecordsExpired();

  /**
   * {@return records of stored batches deleted undelivered to make room ({@link
   * SpoolFullPolicy#DROP_OLDEST})}
   */
  long getSpoolRecordsDropped();

  /**
   * {@return stored batches found damaged (bad checksum, torn, unreadable) and skipped; their
   * record count may be unknown}
   */
  long getSpoolBatchesCorrupt();

  /**
   * {@return batches the spool did not store (full under DROP_NEWEST or BLOCK, disk failed, too
   * large): they kept the in-memory path only; each batch counted once, at its outcome, however
   * many of its attempts the spool refused}
   */
  long getSpoolBatchesNotWritten();

  /**
   * {@return stored batches found lost: segment files missing, emptied or shorter than what was
   * written into them}
   */
  long getSpoolBatchesLost();

  /** {@return records of the stored batches found lost, where known} */
  long getSpoolRecordsLost();
}
