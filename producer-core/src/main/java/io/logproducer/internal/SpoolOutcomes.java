package io.logproducer.internal;

import io.logproducer.SendResult;

/**
 * Decides a spooled batch's final outcome: a batch about to fail ({@code FAILED} or {@code
 * FAILED_AT_CLOSE}: its delivery timeout, its retries or the producer's close ran out) whose entry
 * is durable in the spool gets {@link SendResult.Status#SPOOLED} instead, and its entry goes to
 * replay; any other final outcome acknowledges the entry. Without a spool ({@link #NONE}) outcomes
 * pass unchanged. Thread-safe.
 */
final class SpoolOutcomes {

  /** No spool: every outcome stays as it is. */
  static final SpoolOutcomes NONE = new SpoolOutcomes(null, null);

  private final SpoolWriter writer;
  private final SpoolMetrics metrics;

  SpoolOutcomes(SpoolWriter writer, SpoolMetrics metrics) {
    this.writer = writer;
    this.metrics = metrics;
  }

  /**
   * {@return the outcome batch {@code b} gets, given the one the data path chose} Called once per
   * batch, by {@link BatchCompleter}, before its effects.
   */
  SendResult settle(ProducerBatch b, SendResult chosen) {
    if (writer == null) {
      return chosen;
    }
    if (b.spoolSequence < 0) {
      if (b.spoolRefused) {
        metrics.batchesNotWritten.increment(); // once per batch, however many attempts refused
      }
      return chosen;
    }
    SendResult.Status s = chosen.getStatus();
    if ((s == SendResult.Status.FAILED || s == SendResult.Status.FAILED_AT_CLOSE)
        && writer.handOver(
            b,
            b.state() == ProducerBatch.TIMED_OUT,
            // the expiry spooler waited for the group commit already
            s == SendResult.Status.FAILED && !b.expirySpooling)) {
      metrics.batchesSpooled.increment();
      metrics.recordsSpooled.add(b.recordCount());
      return new SendResult(
          SendResult.Status.SPOOLED,
          chosen.getAttempts(),
          chosen.getBatchRecordCount(),
          0,
          "stored in spool " + writer.spool().directory() + " (" + chosen.getMessage() + ")",
          null);
    }
    writer.acknowledge(b);
    return chosen;
  }

  /** A batch that was split: its halves carry its records, so its own entry is acknowledged. */
  void split(ProducerBatch parent) {
    if (writer != null) {
      writer.acknowledge(parent);
    }
  }

  /** The batch's entry will not be delivered: acknowledged now; the batch gets its own outcome. */
  void discard(ProducerBatch b) {
    if (writer != null) {
      writer.acknowledge(b);
      b.spoolSequence = -1;
    }
  }

  /**
   * A late answer delivered a batch that already had its outcome: its entry is acknowledged, and if
   * its records had got SPOOLED their delivery is counted (and told to the listener) as the
   * spool's, as replay's would be: each SPOOLED record ends delivered, refused or dropped, once.
   *
   * @param rejected records the receiver refused in that answer (a partial success), else 0
   */
  void lateDelivery(ProducerBatch b, long rejected) {
    if (writer != null && writer.deliveredLate(b)) {
      int records = b.recordCount();
      metrics.delivered(b.spoolSequence, records, Math.min(records, rejected));
    }
  }

  /**
   * The send thread let go of a batch that got its outcome while in flight (after its late answer,
   * if any): an entry its late answer did not deliver goes to replay now.
   */
  void released(ProducerBatch b) {
    if (writer != null) {
      writer.release(b);
    }
  }
}
