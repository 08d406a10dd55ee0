package io.logproducer.internal;

/**
 * Every batch created and not yet given its outcome, oldest first. Delivery deadlines are creation
 * time plus one constant, so the oldest batch is always the next to expire: the {@link LingerTimer}
 * looks only at {@link #oldestNotExpirySpooling()} to enforce {@code deliveryTimeoutMillis}, and
 * {@code flush()}/{@code close()} wait on a {@link #snapshot()}. Linked through the batches, so
 * tracking never allocates. Thread-safe.
 */
final class IncompleteBatches {

  /** Guarded by this. */
  private ProducerBatch head;

  /** Guarded by this. */
  private ProducerBatch tail;

  /** Guarded by this. */
  private int size;

  /** Adds a new batch as the newest. */
  synchronized void add(ProducerBatch b) {
    if (b.incompleteLinked) {
      return;
    }
    linkAfter(tail, b);
  }

  /**
   * Adds {@code b} right after {@code anchor} (a split's halves take their parent's place); at the
   * end if absent.
   */
  synchronized void addAfter(ProducerBatch anchor, ProducerBatch b) {
    if (b.incompleteLinked) {
      return;
    }
    linkAfter(anchor != null && anchor.incompleteLinked ? anchor : tail, b);
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
  synchronized ProducerBatch oldestNotExpirySpooling() {
    ProducerBatch b = head;
    while (b != null && b.expirySpooling) {
      b = b.incompleteNext;
    }
    return b;
  }

  /** Removes {@code b}; no-op if absent. */
  synchronized void remove(ProducerBatch b) {
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
  }

  /** The incomplete batches now, oldest first. */
  synchronized ProducerBatch[] snapshot() {
    ProducerBatch[] all = new ProducerBatch[size];
    int i = 0;
    for (ProducerBatch b = head; b != null; b = b.incompleteNext) {
      all[i++] = b;
    }
    return all;
  }

  synchronized boolean isEmpty() {
    return size == 0;
  }

  synchronized int size() {
    return size;
  }
}
