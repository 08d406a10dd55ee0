package io.logproducer.internal;

import io.logproducer.SendResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a batch's final outcome into its effects, once: metrics, the budget released, chunks recycled,
 * callbacks called, and waiters of {@code flush()}/{@code close()} signalled. The caller must have moved the
 * batch to COMPLETED (a compare-and-set), which is what makes each outcome happen exactly once. Thread-safe.
 */
final class BatchCompleter {

  private static final Logger log = LoggerFactory.getLogger(BatchCompleter.class);

  private final MemoryBudget budget;
  private final Metrics metrics;
  private final IncompleteBatches incomplete;
  private final RateLimitedLog callbackErrors = new RateLimitedLog(log, 10_000);

  BatchCompleter(MemoryBudget budget, Metrics metrics, IncompleteBatches incomplete) {
    this.budget = budget;
    this.metrics = metrics;
    this.incomplete = incomplete;
  }

  /**
   * Applies {@code result} to the COMPLETED batch {@code b}.
   *
   * @param wireBytes request body bytes of the delivering attempt (0 if not delivered)
   */
  void complete(ProducerBatch b, SendResult result, long wireBytes) {
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
      case REJECTED:
        metrics.recordsRejected.add(records);
        metrics.batchesFailed.increment();
        break;
      default:
        metrics.recordsFailed.add(records);
        metrics.batchesFailed.increment();
        break;
    }
    int size = b.sizeInBytes();
    b.releaseChunks();
    budget.release(size);
    b.invokeCallbacks(result, t -> callbackErrors.warn("a send callback threw; ignored", t));
    finish(b);
  }

  /** Completes a batch that was split into {@code children}: its outcome is theirs. */
  void completeSplit(ProducerBatch parent, ProducerBatch[] children) {
    parent.setPendingChildren(children.length);
    for (ProducerBatch c : children) {
      c.parent = parent;
      incomplete.add(c);
    }
    parent.forgetCallbacks();
    int size = parent.sizeInBytes();
    int childBytes = 0;
    for (ProducerBatch c : children) {
      childBytes += c.sizeInBytes();
    }
    parent.releaseChunks();
    budget.release(size - childBytes); // the children hold the rest
    incomplete.remove(parent);
  }

  private void finish(ProducerBatch b) {
    incomplete.remove(b);
    b.signalDone();
    ProducerBatch p = b.parent;
    while (p != null && p.childDone()) {
      p.signalDone();
      p = p.parent;
    }
  }
}
