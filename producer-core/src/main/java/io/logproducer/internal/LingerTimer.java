package io.logproducer.internal;

import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The producer's one timer thread: it seals batches when they are {@code lingerMillis} old and hands batches
 * waiting for a retry back to the send queue when their backoff has passed.
 *
 * <p>Linger deadlines are creation time plus a constant, so batches are tracked in a FIFO in creation order and
 * only the head is ever examined: no shard is scanned per tick. Batches sealed early (by size or count) are
 * skipped when they reach the head. Retries are few and kept in a priority queue by due time.
 * {@link #runOnce(long)} does one pass at a given time, for tests that step time instead of sleeping.
 */
final class LingerTimer implements Runnable {

  /** Linger candidates in creation order; producers add, only the timer thread removes. */
  private final ConcurrentLinkedQueue<ProducerBatch> lingering = new ConcurrentLinkedQueue<>();
  /** Batches in RETRY_WAIT, by due time. Guarded by this. */
  private final PriorityQueue<ProducerBatch> retries =
      new PriorityQueue<>((a, b) -> Long.compare(a.retryAtNanos - b.retryAtNanos, 0));
  private final Consumer<ProducerBatch> sealer;
  private final Consumer<ProducerBatch> retryReady;
  private volatile Thread thread;
  private volatile boolean stopped;

  /**
   * @param sealer seals a batch whose linger time has come, if it is still open
   * @param retryReady receives a batch whose retry is due
   */
  LingerTimer(Consumer<ProducerBatch> sealer, Consumer<ProducerBatch> retryReady) {
    this.sealer = sealer;
    this.retryReady = retryReady;
  }

  /** Tracks a new open batch for sealing at its linger deadline. */
  void track(ProducerBatch b) {
    boolean wasEmpty = lingering.isEmpty();
    lingering.offer(b);
    if (wasEmpty) {
      wake();
    }
  }

  /** Hands {@code b} (in RETRY_WAIT) back to the send queue at its {@code retryAtNanos}. */
  void scheduleRetry(ProducerBatch b) {
    synchronized (this) {
      retries.add(b);
    }
    wake();
  }

  private void wake() {
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  /**
   * One pass at time {@code nowNanos}: seals due batches, releases due retries.
   *
   * @return nanoseconds until the next deadline, or {@code Long.MAX_VALUE} when nothing is pending
   */
  long runOnce(long nowNanos) {
    long next = Long.MAX_VALUE;
    ProducerBatch b;
    while ((b = lingering.peek()) != null) {
      if (b.state() != ProducerBatch.OPEN) {
        lingering.poll();
        continue;
      }
      long wait = b.lingerDeadlineNanos - nowNanos;
      if (wait > 0) {
        next = wait;
        break;
      }
      lingering.poll();
      sealer.accept(b);
    }
    while (true) {
      ProducerBatch due;
      synchronized (this) {
        ProducerBatch head = retries.peek();
        if (head == null) {
          break;
        }
        long wait = head.retryAtNanos - nowNanos;
        if (wait > 0) {
          next = Math.min(next, wait);
          break;
        }
        due = retries.poll();
      }
      retryReady.accept(due);
    }
    return next;
  }

  @Override
  public void run() {
    thread = Thread.currentThread();
    while (!stopped) {
      long wait = runOnce(System.nanoTime());
      if (stopped) {
        break;
      }
      LockSupport.parkNanos(this, Math.min(wait, 1_000_000_000L));
    }
  }

  /** Stops the loop; the thread ends after its current pass. */
  void stop() {
    stopped = true;
    wake();
  }

  /** Batches waiting for a retry, removed from the timer (for abort at close). */
  synchronized ProducerBatch[] drainRetries() {
    ProducerBatch[] all = retries.toArray(new ProducerBatch[0]);
    retries.clear();
    return all;
  }

  synchronized int pendingRetries() {
    return retries.size();
  }

  int lingering() {
    return lingering.size();
  }
}
