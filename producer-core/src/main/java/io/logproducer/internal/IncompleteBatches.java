package io.logproducer.internal;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Every batch created and not yet given its outcome, oldest first. Delivery deadlines are creation
 * time plus one constant, so the oldest batch is always the next to expire: the {@link LingerTimer}
 * looks only at {@link #oldestNotExpirySpooling()} to enforce {@code deliveryTimeoutMillis}, and
 * {@code flush()}/{@code close()} wait on a {@link #snapshot()}. Linked through the batches, so
 * tracking never allocates. Thread-safe.
 */
final class IncompleteBatches {

  /**
   * Guards this object's state: a {@link ReentrantLock}, not a monitor, since senders on virtual
   * threads take it (a virtual thread blocked on a monitor pins its carrier on Java 21).
   */
  private final ReentrantLock lock = new ReentrantLock();

  /** Guarded by {@link #lock}. */
  private ProducerBatch head;

  /** Guarded by {@link #lock}. */
  private ProducerBatch tail;

  /** Guarded by {@link #lock}. */
  private int size;

  /** Adds a new batch as the newest. */
  void add(ProducerBatch b) {
    lock.lock();
    try {
      if (b.incompleteLinked) {
        return;
      }
      linkAfter(tail, b);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds {@code b} right after {@code anchor} (a split's halves take their parent's place); at the
   * end if absent.
   */
  void addAfter(ProducerBatch anchor, ProducerBatch b) {
    lock.lock();
    try {
      if (b.incompleteLinked) {
        return;
      }
      linkAfter(anchor != null && anchor.incompleteLinked ? anchor : tail, b);
    } finally {
      lock.unlock();
    }
  }

  private void linkAfter(ProducerBatch prev, ProducerBatch b) {
    ProducerBatch next = prev == null ? head : prev.incompleteNext;
    b.incompletePrev = prev;
    b.incompleteNext = next;
    if (prev == null) {
      head = b;
    } else {
      prev.incompleteNext = b;
    }
    if (next == null) {
      tail = b;
    } else {
      next.incompletePrev = b;
    }
    b.incompleteLinked = true;
    size++;
  }

  /**
   * {@return the oldest batch the {@link ExpirySpooler} has not claimed, or null} O(1) without a
   * spool; otherwise it passes over the claimed batches waiting for the spool (a group commit's
   * worth, at most).
   */
  ProducerBatch oldestNotExpirySpooling() {
    lock.lock();
    try {
      ProducerBatch b = head;
      while (b != null && b.expirySpooling) {
        b = b.incompleteNext;
      }
      return b;
    } finally {
      lock.unlock();
    }
  }

  /** Removes {@code b}; no-op if absent. */
  void remove(ProducerBatch b) {
    lock.lock();
    try {
      if (!b.incompleteLinked) {
        return;
      }
      ProducerBatch prev = b.incompletePrev;
      ProducerBatch next = b.incompleteNext;
      if (prev == null) {
        head = next;
      } else {
        prev.incompleteNext = next;
      }
      if (next == null) {
        tail = prev;
      } else {
        next.incompletePrev = prev;
      }
      b.incompletePrev = null;
      b.incompleteNext = null;
      b.incompleteLinked = false;
      size--;
    } finally {
      lock.unlock();
    }
  }

  /** The incomplete batches now, oldest first. */
  ProducerBatch[] snapshot() {
    lock.lock();
    try {
      ProducerBatch[] all = new ProducerBatch[size];
      int i = 0;
      for (ProducerBatch b = head; b != null; b = b.incompleteNext) {
        all[i++] = b;
      }
      return all;
    } finally {
      lock.unlock();
    }
  }

  boolean isEmpty() {

    lock.lock();

    try {
      return size == 0;
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
