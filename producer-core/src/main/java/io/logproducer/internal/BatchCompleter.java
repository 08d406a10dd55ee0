package io.logproducer.internal;

import io.logproducer.SendResult;

/**
 * Turns a batch's final outcome into its effects, once: metrics, the batch's memory released
 * (unless a send thread still holds it), callbacks called, and waiters of {@code flush()}/{@code
 * close()} signalled. The caller must have moved the batch to COMPLETED or TIMED_OUT (a
 * compare-and-set), which is what makes each outcome happen exactly once. Each effect runs even if
 * an earlier one threw (an {@code OutOfMemoryError}, say): waiters are always signalled.
 * Thread-safe.
 */
final class BatchCompleter {

  private static final InternalLogger log = InternalLogger.get(BatchCompleter.class);

  private final Object owner;
  private final MemoryBudget budget;
  private final Metrics metrics;
  private final IncompleteBatches incomplete;
  private final SpoolOutcomes spoolOutcomes;
  private final RateLimitedLog callbackErrors = new RateLimitedLog(log, 10_000);

  /**
   * @param owner the producer whose callbacks these are (see {@link CallbackContext})
   */
  BatchCompleter(Object owner, MemoryBudget budget, Metrics metrics, IncompleteBatches incomplete) {
    this(owner, budget, metrics, incomplete, SpoolOutcomes.NONE);
  }

  /**
   * @param owner the producer whose callbacks these are (see {@link CallbackContext})
   * @param spoolOutcomes turns failures of batches durable in the spool into SPOOLED
   */
  BatchCompleter(
      Object owner,
      MemoryBudget budget,
      Metrics metrics,
      IncompleteBatches incomplete,
      SpoolOutcomes spoolOutcomes) {
    this.owner = owner;
    this.spoolOutcomes = spoolOutcomes;
    this.budget = budget;
    this.metrics = metrics;
    this.incomplete = incomplete;
  }

  /**
   * Applies {@code result} to the batch {@code b}, which the caller just moved to COMPLETED ({@code
   * releaseMemory} true) or TIMED_OUT (false: the send thread holding it releases the memory when
   * it returns).
   *
   * @param wireBytes request body bytes of the delivering attempt (0 if not delivered)
   * @return the outcome applied: {@code chosen}, or SPOOLED for a failure the spool holds
   */
  SendResult complete(ProducerBatch b, SendResult chosen, long wireBytes, boolean releaseMemory) {
    SendResult result = chosen;
    try {
      result = spoolOutcomes.settle(b, chosen);
    } catch (Throwable t) {
      callbackErrors.warn("settling a batch's spool entry failed; its outcome stays " + chosen, t);
    }
    complete0(b, result, wireBytes, releaseMemory);
    return result;
  }

  private void complete0(
      ProducerBatch b, SendResult result, long wireBytes, boolean releaseMemory) {
    try {
      count(b, result, wireBytes);
    } finally {
      try {
        // The outcome is decided: the deadline watchdog has nothing more to do with it, but flush()
        // and close() still wait for it until its callbacks have run.
        incomplete.completing(b);
        if (releaseMemory) {
          b.releaseMemory(budget);
        }
      } finally {
        try {
          Object previous = CallbackContext.enter(owner);
          try {
            b.invokeCallbacks(
                result, t -> callbackErrors.warn("a send callback threw; ignored", t));
          } finally {
            CallbackContext.exit(previous);
          }
        } finally {
          signal(b);
        }
      }
    }
  }

  private void count(ProducerBatch b, SendResult result, long wireBytes) {
    int records = b.recordCount();
    switch (result.getStatus()) {
      case DELIVERED:
        metrics.recordsSent.add(records);
        metrics.bytesSent.add(b.sizeInBytes());
        metrics.wireBytesSent.add(wireBytes);
        metrics.batchesSent.increment();
        break;
      case PARTIALLY_REJECTED:
        long rejected = Math.min(records, result.getRejectedCount());
        metrics.recordsSent.add(records - rejected);
        metrics.recordsRejected.add(rejected);
        metrics.bytesSent.add(b.sizeInBytes());
        metrics.wireBytesSent.add(wireBytes);
        metrics.batchesSent.increment();
        break;
      case SPOOLED:
        break; // counted by SpoolOutcomes: the spool has the records now
      case REJECTED:
        metrics.recordsRejected.add(records);
        metrics.batchesFailed.increment();
        break;
      default:
        metrics.recordsFailed.add(records);
        metrics.batchesFailed.increment();
        break;
    }
  }

  /**
   * Releases the memory of a batch whose outcome was given while a send thread held it (TIMED_OUT).
   */
  void releaseAfterTimeout(ProducerBatch b) {
    try {
      spoolOutcomes.released(b);
    } finally {
      b.releaseMemory(budget);
    }
  }

  /**
   * The exporter answered {@code b} with a final failure: its spool entry, if any, is acknowledged
   * so that its outcome stays FAILED (a stored copy would fail the same way).
   */
  void finalFailure(ProducerBatch b) {
    spoolOutcomes.discard(b);
  }

  /**
   * A batch that had its outcome (TIMED_OUT) was delivered after all, {@code rejected} of its
   * records refused: its spool entry is done.
   */
  void deliveredAfterTimeout(ProducerBatch b, long rejected) {
    spoolOutcomes.lateDelivery(b, rejected);
  }

  /**
   * Completes a batch that was split into {@code children} (already charged): its outcome is
   * theirs. The children take its place among the incomplete batches, so they keep its deadline.
   */
  void completeSplit(ProducerBatch parent, ProducerBatch[] children) {
    spoolOutcomes.split(parent);
    parent.setPendingChildren(children.length);
    ProducerBatch anchor = parent;
    for (ProducerBatch c : children) {
      c.parent = parent;
      incomplete.addAfter(anchor, c);
      anchor = c;
    }
    incomplete.remove(parent);
    parent.forgetCallbacks();
    parent.releaseMemory(budget);
  }

  private void signal(ProducerBatch b) {
    incomplete.remove(b); // after its callbacks: a flush that snapshots now need not wait for it
    b.signalDone();
    ProducerBatch p = b.parent;
    while (p != null && p.childDone()) {
      p.signalDone();
      p = p.parent;
    }
  }
}
