package io.logproducer.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

  /** Batches taken by a send thread and not yet written ahead to the spool. Guarded by this. */
  private int handedOut;

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
    ProducerBatch b = poll();
    b.handedOut = true;
    handedOut++;
    return b;
  }

  /**
   * The send thread that took {@code b} has written it ahead to the spool (or will not): close may
   * now write the batches queued behind it ({@link #drainAfterHandedOut}). Idempotent.
   */
  synchronized void released(ProducerBatch b) {
    if (b.handedOut) {
      b.handedOut = false;
      if (--handedOut == 0) {
        notifyAll();
      }
    }
  }

  /**
   * Close: waits until every batch a send thread took is written ahead (or {@code deadlineNanos}
   * passes), then takes every queued batch, oldest first, so that batches of a shard reach the
   * spool in the order the send threads took them.
   *
   * @return the batches that were queued, oldest first
   */
  synchronized List<ProducerBatch> drainAfterHandedOut(long deadlineNanos) {
    long left;
    while (handedOut > 0 && (left = deadlineNanos - System.nanoTime()) > 0) {
      try {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    List<ProducerBatch> out = new ArrayList<>(size);
    for (ProducerBatch b = poll(); b != null; b = poll()) {
      out.add(b);
    }
    return out;
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
