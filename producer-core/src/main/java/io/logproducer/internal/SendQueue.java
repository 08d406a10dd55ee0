package io.logproducer.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The queue of sealed (and retry-due) batches the send threads take from: FIFO, blocking, linked
 * through the batches themselves so that adding never allocates (an {@code OutOfMemoryError} cannot
 * lose a batch between the accumulator and the send threads). Idle send threads block in {@link
 * #take()} instead of polling. Thread-safe: guarded by a {@link ReentrantLock}, not a monitor,
 * since senders on virtual threads add to it (a virtual thread blocked on a monitor pins its
 * carrier on Java 21).
 */
final class SendQueue {

  private final ReentrantLock lock = new ReentrantLock();

  /** Signalled when a batch is added or the queue stops. */
  private final Condition nonEmpty = lock.newCondition();

  /** Signalled when no batch is handed out any more. */
  private final Condition allReleased = lock.newCondition();

  /** Guarded by {@link #lock}. */
  private ProducerBatch head;

  /** Guarded by {@link #lock}. */
  private ProducerBatch tail;

  /** Guarded by {@link #lock}. */
  private int size;

  /** Guarded by {@link #lock}. */
  private boolean stopped;

  /**
   * Batches taken by a send thread and not yet written ahead to the spool. Guarded by {@link
   * #lock}.
   */
  private int handedOut;

  /** Appends {@code b}; a batch already queued is not queued twice. */
  void add(ProducerBatch b) {
    lock.lock();
    try {
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
      nonEmpty.signal();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The oldest batch, waiting for one while the queue is running; null once {@link #stop()} was
   * called and the queue is empty.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  ProducerBatch take() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      while (head == null) {
        if (stopped) {
          return null;
        }
        nonEmpty.await();
      }
      ProducerBatch b = poll();
      b.handedOut = true;
      handedOut++;
      return b;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The send thread that took {@code b} has written it ahead to the spool (or will not): close may
   * now write the batches queued behind it ({@link #drainAfterHandedOut}). Idempotent.
   */
  void released(ProducerBatch b) {
    lock.lock();
    try {
      if (b.handedOut) {
        b.handedOut = false;
        if (--handedOut == 0) {
          allReleased.signalAll();
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Close: waits until every batch a send thread took is written ahead (or {@code deadlineNanos}
   * passes), then takes every queued batch, oldest first, so that batches of a shard reach the
   * spool in the order the send threads took them.
   *
   * @return the batches that were queued, oldest first
   */
  List<ProducerBatch> drainAfterHandedOut(long deadlineNanos) {
    lock.lock();
    try {
      long left;
      while (handedOut > 0 && (left = deadlineNanos - System.nanoTime()) > 0) {
        try {
          allReleased.awaitNanos(left);
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
    } finally {
      lock.unlock();
    }
  }

  /** The oldest batch or null, without waiting. */
  ProducerBatch poll() {
    lock.lock();
    try {
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
    } finally {
      lock.unlock();
    }
  }

  /** Threads waiting in {@link #take()} return null once the queue is empty. */
  void stop() {
    lock.lock();
    try {
      stopped = true;
      nonEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }

  int size() {
    lock.lock();
    try {
      return size;
    } finally {
      lock.unlock();
    }
  }
}
