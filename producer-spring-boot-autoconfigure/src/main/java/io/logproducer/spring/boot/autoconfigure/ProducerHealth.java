package io.logproducer.spring.boot.autoconfigure;

import io.logproducer.Producer;
import io.logproducer.ProducerMetrics;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The health rule, apart from any Spring Boot version's health API:
 *
 * <ul>
 *   <li><b>OUT_OF_SERVICE</b> once the producer is closed;
 *   <li><b>DOWN</b> when records wait (buffered in memory or pending in the disk spool) and none
 *       was delivered for {@code logproducer.health.stall-timeout} (default 60 s): the receiver is
 *       unreachable or refuses everything, and logs pile up;
 *   <li><b>DOWN</b> when the last {@code logproducer.health.failed-batches} (default 10) batch
 *       outcomes were all failures (after their retries), even if nothing waits now: logs are being
 *       lost;
 *   <li><b>UP</b> otherwise, idle included.
 * </ul>
 *
 * The rule reads the producer's metrics each time it is asked and keeps what it saw last; delivery
 * progress is seen between two checks. Details: the receiver, buffered bytes and their bound,
 * records delivered / failed / dropped, milliseconds since the last delivery seen, spool pending
 * batches, the last error, and the spool's own last problem ({@code lastSpoolError}: a batch it did
 * not store, a failed fsync), which a later export error does not replace.
 *
 * <p>Thread-safe: {@link #check()} is synchronized (health checks are rare).
 */
final class ProducerHealth {

  /** A health result: the status's code and the details. */
  static final class Result {
    final String status;
    final Map<String, Object> details;

    Result(String status, Map<String, Object> details) {
      this.status = status;
      this.details = details;
    }
  }

  static final String UP = "UP";
  static final String DOWN = "DOWN";
  static final String OUT_OF_SERVICE = "OUT_OF_SERVICE";

  private final Producer producer;
  private final String receiver;
  private final long stallNanos;
  private final int failedBatches;
  private final LongSupplier clock;

  private long lastDelivered;
  private long lastBatchesSent;
  private long lastBatchesFailed;
  private long failedInARow;
  private long lastProgressNanos;

  /**
   * @param producer the producer
   * @param receiver where records go (a detail)
   * @param health the rule's settings
   * @param clock {@link System#nanoTime()} or a test's
   * @throws InvalidPropertyException if the settings are out of range
   */
  ProducerHealth(Producer producer, String receiver, HealthProperties health, LongSupplier clock) {
    if (health.getStallTimeout() == null || health.getStallTimeout().toMillis() < 1) {
      throw new InvalidPropertyException(
          "logproducer.health.stall-timeout", health.getStallTimeout(), "must be at least 1ms");
    }
    if (health.getFailedBatches() < 1) {
      throw new InvalidPropertyException(
          "logproducer.health.failed-batches", health.getFailedBatches(), "must be at least 1");
    }
    this.producer = producer;
    this.receiver = receiver;
    this.stallNanos = TimeUnit.MILLISECONDS.toNanos(health.getStallTimeout().toMillis());
    this.failedBatches = health.getFailedBatches();
    this.clock = clock;
    ProducerMetrics m = producer.getMetrics();
    this.lastDelivered = m.getRecordsSent();
    this.lastBatchesSent = m.getBatchesSent();
    this.lastBatchesFailed = m.getBatchesFailed();
    this.lastProgressNanos = clock.getAsLong();
  }

  /** {@return the status now, with its details} */
  synchronized Result check() {
    long now = clock.getAsLong();
    ProducerMetrics m = producer.getMetrics();
    long delivered = m.getRecordsSent();
    long sent = m.getBatchesSent();
    long failed = m.getBatchesFailed();
    long waitingBytes = m.getBufferedBytes();
    long spoolPending = m.getSpoolPendingBatches();
    boolean waiting = waitingBytes > 0 || spoolPending > 0;
    if (delivered != lastDelivered || !waiting) {
      lastProgressNanos = now;
    }
    if (sent != lastBatchesSent) {
      failedInARow = 0; // a success since the last check: count the failures after it
    }
    failedInARow += failed - lastBatchesFailed;
    lastDelivered = delivered;
    lastBatchesSent = sent;
    lastBatchesFailed = failed;

    Map<String, Object> details = new LinkedHashMap<String, Object>();
    details.put("receiver", receiver);
    details.put("clientId", producer.getConfig().getClientId());
    details.put("bufferedBytes", waitingBytes);
    details.put("totalSizeInBytes", m.getTotalSizeInBytes());
    details.put("recordsDelivered", delivered);
    details.put("recordsFailed", m.getRecordsFailed());
    details.put("recordsDropped", m.getRecordsDropped());
    details.put("millisSinceDelivery", TimeUnit.NANOSECONDS.toMillis(now - lastProgressNanos));
    if (producer.getConfig().getSpool() != null) {
      details.put("spoolPendingBatches", spoolPending);
    }
    String error = m.getLastError();
    if (error != null) {
      details.put("lastError", error);
    }
    String spoolError = m.getLastSpoolError();
    if (spoolError != null) {
      details.put("lastSpoolError", spoolError);
    }
    String status;
    if (producer.isClosed()) {
      status = OUT_OF_SERVICE;
    } else if (waiting && now - lastProgressNanos >= stallNanos) {
      status = DOWN;
      details.put(
          "reason",
          "records wait and none was delivered for "
              + TimeUnit.NANOSECONDS.toMillis(now - lastProgressNanos)
              + " ms (logproducer.health.stall-timeout)");
    } else if (failedInARow >= failedBatches) {
      status = DOWN;
      details.put(
          "reason",
          failedInARow
              + " batches in a row failed after their retries (logproducer.health.failed-batches)");
    } else {
      status = UP;
    }
    return new Result(status, details);
  }
}
