package io.logproducer.internal;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Every batch created whose callbacks have not all run yet, in two lists: the batches still without
 * an outcome, oldest first, and the batches whose outcome is decided while their callbacks run.
 * Delivery deadlines are creation time plus one constant, so the oldest batch without an outcome is
 * always the next to expire: the {@link LingerTimer} looks only at {@link
 * #oldestNotExpirySpooling()} to enforce {@code deliveryTimeoutMillis}. {@code flush()} and {@code
 * close()} wait on a {@link #snapshot()} of both lists: a batch whose callbacks are still running
 * is one they must wait for ({@code flush()} promises that every record sent before it has its
 * outcome, callbacks run). Linked through the batches, so tracking never allocates. Thread-safe.
 */
final class IncompleteBatches {

  /** {@link ProducerBatch#incompleteList}: in no list. */
  static final byte NONE = 0;

  /** {@link ProducerBatch#incompleteList}: without an outcome yet. */
  static final byte WAITING = 1;

  /** {@link ProducerBatch#incompleteList}: outcome decided, callbacks running. */
  static final byte COMPLETING = 2;

  /**
   * Guards this object's state: a {@link ReentrantLock}, not a monitor, since senders on virtual
   * threads take it (a virtual thread blocked on a monitor pins its carrier on Java 21).
   */
  private final ReentrantLock lock = new ReentrantLock();

  /** The batches without an outcome, in deadline order. Guarded by {@link #lock}. */
  private final Chain waiting = new Chain(WAITING);

  /** The batches whose callbacks run, in the order they got their outcome. Guarded by lock. */
  private final Chain completing = new Chain(COMPLETING);

  /** Adds a new batch as the newest; no-op if it is already tracked. */
  void add(ProducerBatch b) {
    lock.lock();
    try {
      if (b.incompleteList == NONE) {
        waiting.linkAfter(waiting.tail, b);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds {@code b} right after {@code anchor} (a split's halves take their parent's place); at the
   * end if {@code anchor} is not waiting. No-op if {@code b} is already tracked.
   */
  void addAfter(ProducerBatch anchor, ProducerBatch b) {
    lock.lock();
    try {
      if (b.incompleteList == NONE) {
        waiting.linkAfter(
            anchor != null && anchor.incompleteList == WAITING ? anchor : waiting.tail, b);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * {@return the oldest batch without an outcome that the {@link ExpirySpooler} has not claimed, or
   * null} O(1) without a spool; otherwise it passes over the claimed batches waiting for the spool
   * (a group commit's worth, at most).
   */
  ProducerBatch oldestNotExpirySpooling() {
    lock.lock();
    try {
      ProducerBatch b = waiting.head;
      while (b != null && b.expirySpooling) {
        b = b.incompleteNext;
      }
      return b;
    } finally {
      lock.unlock();
    }
  }

  /**
   * {@code b} has its outcome and its callbacks are about to run: the deadline watchdog is done
   * with it, but {@link #snapshot()} keeps it until {@link #remove}. No-op if it is not waiting.
   */
  void completing(ProducerBatch b) {
    lock.lock();
    try {
      if (b.incompleteList == WAITING) {
        waiting.unlink(b);
        completing.linkAfter(completing.tail, b);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Removes {@code b} from whichever list holds it; no-op if none does. */
  void remove(ProducerBatch b) {
    lock.lock();
    try {
      if (b.incompleteList == WAITING) {
        waiting.unlink(b);
      } else if (b.incompleteList == COMPLETING) {
        completing.unlink(b);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * The tracked batches now: those without an outcome, oldest first, then those whose callbacks
   * run.
   */
  ProducerBatch[] snapshot() {
    lock.lock();
    try {
      ProducerBatch[] all = new ProducerBatch[waiting.size + completing.size];
      int i = waiting.copyTo(all, 0);
      completing.copyTo(all, i);
      return all;
    } finally {
      lock.unlock();
    }
  }

  /** {@return whether no batch is tracked} */
  boolean isEmpty() {
    return size() == 0;
  }

  /** {@return the number of batches tracked, in both lists} */
  int size() {
    lock.lock();
    try {
      return waiting.size + completing.size;
    } finally {
      lock.unlock();
    }
  }

  /** One doubly linked list through {@link ProducerBatch#incompleteNext}; guarded by the lock. */
  private static final class Chain {
    private final byte id;
    ProducerBatch head;
    ProducerBatch tail;
    int size;

    Chain(byte id) {
      this.id = id;
    }

    void linkAfter(ProducerBatch prev, ProducerBatch b) {
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
      b.incompleteList = id;
      size++;
    }

    void unlink(ProducerBatch b) {
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
      b.incompleteList = NONE;
      size--;
    }

    int copyTo(ProducerBatch[] out, int from) {
      int i = from;
      for (ProducerBatch b = head; b != null; b = b.incompleteNext) {
        out[i++] = b;
      }
      return i;
    }
  }
}
