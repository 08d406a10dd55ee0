package io.logproducer.internal;

import java.util.PriorityQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The producer's one timer thread. It seals open batches when they are {@code lingerMillis} old,
 * hands batches waiting for a retry back to the send queue when their backoff has passed, and
 * enforces {@code deliveryTimeoutMillis}: a batch without an outcome at its deadline is expired,
 * whatever state it is in (queued, waiting to retry, or in flight in a hung export), so every
 * record gets its outcome in time.
 *
 * <p>Linger and delivery deadlines are creation time plus a constant, so open batches are kept in
 * creation order in a list linked through the batches (a batch sealed early unlinks itself at once:
 * nothing completed stays referenced here) and only the oldest is examined; the same holds for
 * {@link IncompleteBatches}. Retries are few and kept in a priority queue by due time. When nothing
 * is due the thread parks until the next deadline, or indefinitely when there is none: an idle
 * producer costs no CPU. {@link #runOnce(long)} does one pass at a given time, for tests that step
 * time instead of sleeping.
 */
final class LingerTimer implements Runnable {

  /**
   * Guards this object's state: a {@link ReentrantLock}, not a monitor, since senders on virtual
   * threads take it (a virtual thread blocked on a monitor pins its carrier on Java 21).
   */
  private final ReentrantLock lock = new ReentrantLock();

  /**
   * Pause before looking again at a batch that could not be expired yet (a race with its sender).
   */
  private static final long RETRY_EXPIRE_NANOS = 1_000_000L;

  /** Open batches in creation order. Guarded by {@link #lock}. */
  private ProducerBatch openHead;

  private ProducerBatch openTail;

  /** Batches in RETRY_WAIT, by due time. Guarded by {@link #lock}. */
  private final PriorityQueue<ProducerBatch> retries =
      new PriorityQueue<>(16, (a, b) -> Long.compare(a.retryAtNanos - b.retryAtNanos, 0));

  private final IncompleteBatches incomplete;
  private final Consumer<ProducerBatch> sealer;
  private final Consumer<ProducerBatch> retryReady;
  private final Predicate<ProducerBatch> expirer;
  private volatile Thread thread;
  private volatile boolean stopped;

  /**
   * @param sealer seals a batch whose linger time has come, if it is still open
   * @param retryReady receives a batch whose retry is due
   * @param expirer gives a batch at its delivery deadline its outcome; false if it could not (yet)
   */
  LingerTimer(
      IncompleteBatches incomplete,
      Consumer<ProducerBatch> sealer,
      Consumer<ProducerBatch> retryReady,
      Predicate<ProducerBatch> expirer) {
    this.incomplete = incomplete;
    this.sealer = sealer;
    this.retryReady = retryReady;
    this.expirer = expirer;
  }

  /** Tracks a new open batch for sealing at its linger deadline. Never allocates. */
  void track(ProducerBatch b) {
    boolean wasEmpty;
    lock.lock();
    try {
      if (b.lingerLinked) {
        return;
      }
      wasEmpty = openHead == null;
      b.lingerPrev = openTail;
      b.lingerNext = null;
      if (openTail == null) {
        openHead = b;
      } else {
        openTail.lingerNext = b;
      }
      openTail = b;
      b.lingerLinked = true;
    } finally {
      lock.unlock();
    }
    if (wasEmpty) {
      wake();
    }
  }

  /** Stops tracking {@code b} (sealed); no-op if not tracked. */
  void untrack(ProducerBatch b) {
    lock.lock();
    try {
      if (!b.lingerLinked) {
        return;
      }
      ProducerBatch prev = b.lingerPrev;
      ProducerBatch next = b.lingerNext;
      if (prev == null) {
        openHead = next;
      } else {
        prev.lingerNext = next;
      }
      if (next == null) {
        openTail = prev;
      } else {
        next.lingerPrev = prev;
      }
      b.lingerPrev = null;
      b.lingerNext = null;
      b.lingerLinked = false;
    } finally {
      lock.unlock();
    }
  }

  /** Hands {@code b} (in RETRY_WAIT) back to the send queue at its {@code retryAtNanos}. */
  void scheduleRetry(ProducerBatch b) {
    lock.lock();
    try {
      retries.add(b);
    } finally {
      lock.unlock();
    }
    wake();
  }

  void wake() {
    Thread t = thread;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  /**
   * One pass at time {@code nowNanos}: seals due batches, releases due retries, expires batches at
   * their delivery deadline.
   *
   * @return nanoseconds until the next deadline, or {@code Long.MAX_VALUE} when nothing is pending
   */
  long runOnce(long nowNanos) {
    long next = Long.MAX_VALUE;
    while (true) {
      ProducerBatch b;
      lock.lock();
      try {
        b = openHead;
        if (b == null) {
          break;
        }
        long wait = b.lingerDeadlineNanos - nowNanos;
        if (wait > 0) {
          next = wait;
          break;
        }
        untrack(b);
      } finally {
        lock.unlock();
      }
      sealer.accept(b);
    }
    while (true) {
      ProducerBatch due;
      lock.lock();
      try {
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
      } finally {
        lock.unlock();
      }
      retryReady.accept(due);
    }
    while (true) {
      ProducerBatch oldest = incomplete.oldestNotExpirySpooling();
      if (oldest == null) {
        break;
      }
      long wait = oldest.deliveryDeadlineNanos - nowNanos;
      if (wait > 0) {
        next = Math.min(next, wait);
        break;
      }
      if (!expirer.test(oldest) && incomplete.oldestNotExpirySpooling() == oldest) {
        next = Math.min(next, RETRY_EXPIRE_NANOS);
        break;
      }
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
      if (wait == Long.MAX_VALUE) {
        LockSupport.park(this);
      } else {
        LockSupport.parkNanos(this, wait);
      }
    }
  }

  /** Stops the loop; the thread ends after its current pass. */
  void stop() {
    stopped = true;
    wake();
  }

  /** Batches waiting for a retry, removed from the timer (for abort at close). */
  ProducerBatch[] drainRetries() {
    lock.lock();
    try {
      ProducerBatch[] all = retries.toArray(new ProducerBatch[0]);
      retries.clear();
      return all;
    } finally {
      lock.unlock();
    }
  }

  int pendingRetries() {

    lock.lock();

    try {
      return retries.size();
    } finally {

      lock.unlock();
    }
  }

  /** Open batches tracked now. */
  int lingering() {
    lock.lock();
    try {
      int n = 0;
      for (ProducerBatch b = openHead; b != null; b = b.lingerNext) {
        n++;
      }
      return n;
    } finally {
      lock.unlock();
    }
  }
}
