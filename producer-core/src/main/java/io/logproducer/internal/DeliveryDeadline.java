package io.logproducer.internal;

import io.logproducer.SendResult;
import io.logproducer.spi.Exporter;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The linger timer's call at a batch's delivery deadline ({@link LingerTimer}'s expirer): gives the
 * batch FAILED (SPOOLED when the spool holds it durably), hands it to the {@link ExpirySpooler}, or
 * answers "not yet" (false) while its outcome waits for the spool. The expiry becomes the metrics'
 * last error, and a FAILED outcome (not SPOOLED) is logged, a WARN at most once per 5 s as the send
 * threads log theirs: an application whose batches time out between attempts sees why, as one whose
 * retries run out does. Runs on the timer thread only; package-private so that tests can step it
 * against a send thread's steps.
 */
final class DeliveryDeadline implements Predicate<ProducerBatch> {

  private final long deliveryTimeoutMillis;
  private final Consumer<ProducerBatch> sealIfOpen;
  private final BatchCompleter completer;
  private final ProducerSpool spool;
  private final ExpirySpooler expirySpooler;
  private final ErrorSink errors;
  private final Exporter exporter;
  private final RateLimitedLog failures =
      new RateLimitedLog(InternalLogger.get(DeliveryDeadline.class), 5_000);

  /**
   * @param sealIfOpen seals a batch still open at its deadline
   * @param spool the producer's spool, or null
   * @param expirySpooler the spool's expiry spooler, or null without a spool
   * @param errors where the expiry's text goes (the metrics' last error)
   * @param exporter the exporter, whose description the log and the last error name
   */
  DeliveryDeadline(
      long deliveryTimeoutMillis,
      Consumer<ProducerBatch> sealIfOpen,
      BatchCompleter completer,
      ProducerSpool spool,
      ExpirySpooler expirySpooler,
      ErrorSink errors,
      Exporter exporter) {
    this.deliveryTimeoutMillis = deliveryTimeoutMillis;
    this.errors = errors;
    this.exporter = exporter;
    this.sealIfOpen = sealIfOpen;
    this.completer = completer;
    this.spool = spool;
    this.expirySpooler = expirySpooler;
  }

  /** {@return true if batch {@code b}, at its deadline, got its outcome or went to the spooler} */
  @Override
  public boolean test(ProducerBatch b) {
    if (b.state() == ProducerBatch.OPEN) {
      sealIfOpen.accept(b);
    }
    String where;
    switch (b.state()) {
      case ProducerBatch.IN_FLIGHT:
        where = "while its request was in flight (attempt " + b.attempt() + ")";
        break;
      case ProducerBatch.RETRY_WAIT:
        where = "while waiting to retry, after " + b.attempt() + " attempt(s)";
        break;
      default:
        where =
            b.attempt() == 0 ? "before it could be sent" : "after " + b.attempt() + " attempt(s)";
    }
    String last = b.lastError == null ? "" : "; last error: " + b.lastError;
    SendResult r =
        new SendResult(
            SendResult.Status.FAILED,
            b.attempt(),
            b.recordCount(),
            0,
            "deliveryTimeoutMillis (" + deliveryTimeoutMillis + " ms) expired " + where + last,
            b.lastCause);
    if (expirySpooler != null && expirySpooler.offer(b, r)) {
      return true; // written now unless stored already; SPOOLED once durable
    }
    if (b.tryAbort()) {
      complete(b, r, true);
      return true;
    }
    if (spool != null && spool.outcomeAwaitsDurability(b)) {
      // in flight, not yet durable in the spool: SPOOLED once it is (back in 1 ms), or with the
      // expiry spooler (which the timer passes over from now on)
      return false;
    }
    if (b.tryTimeOutInFlight()) {
      complete(b, r, false);
      return true;
    }
    return false;
  }

  /**
   * Notes the expiry as the last error (before the callbacks see the outcome), completes batch
   * {@code b} with {@code failed}, and logs the outcome if it stayed FAILED (not SPOOLED: the spool
   * holds it).
   */
  private void complete(ProducerBatch b, SendResult failed, boolean releaseMemory) {
    errors.noteError(exporter.describe(), failed.getMessage());
    SendResult r = completer.complete(b, failed, 0, releaseMemory);
    if (r.getStatus() == SendResult.Status.FAILED) {
      failures.warn(() -> Sender.failedToSend(b, exporter.describe(), r.getMessage()), null);
    }
  }
}
