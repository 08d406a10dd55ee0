package io.logproducer.internal;

/**
 * The queue of sealed (and retry-due) batches the send threads take from: FIFO, blocking, linked
 * through the batches themselves so that adding never allocates (an {@code OutOfMemoryError} cannot
 * lose a batch between the accumulator and the send threads). Idle send threads block in {@link
 * #take()} instead of polling. Thread-safe.
 */
final class SendQueue {

  /** Guarded by this. */
  private ProducerBatch head;

  /** Guarded by this. */
  private ProducerBatch tail;

  /** Guarded by this. */
  private int size;

  /** Guarded by this. */
  private boolean stopped;

  /** Appends {@code b}; a batch already queued is not queued twice. */
  synchronized void add(ProducerBatch b) {
    if (b.queued) {
      return;
    }
    b.queued = true;
    b.queueNext = null;
    if (tail == null) {
      head = b;
    } else {
      tail.queueNext = b;
    }
    tail = b;
    size++;
    notify();
  }

  /**
   * The oldest batch, waiting for one while the queue is running; null once {@link #stop()} was
   * called and the queue is empty.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  synchronized ProducerBatch take() throws InterruptedException {
    while (head == null) {
      if (stopped) {
        return null;
      }
      wait();
    }
    return poll();
  }

  /** The oldest batch or null, without waiting. */
  synchronized ProducerBatch poll() {
    ProducerBatch b = head;
    if (b == null) {
      return null;
    }
    head = b.queueNext;
    if (head == null) {
      tail = null;
    }
    b.queueNext = null;
    b.queued = false;
    size--;
    return b;
  }

  /** Threads waiting in {@link #take()} return null once the queue is empty. */
  synchronized void stop() {
    stopped = true;
    notifyAll();
  }

  synchronized int size() {
    return size;
  }
}
