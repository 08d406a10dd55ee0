package io.logproducer.internal;

import io.logproducer.BufferExhaustedException;
import io.logproducer.ProducerInterruptedException;
import java.util.LinkedList;
import java.util.ListIterator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The global {@code totalSizeInBytes} budget: a hard bound on the heap the producer's batches hold
 * (open, sealed, in-flight and retrying batches, and pooled chunks), charged by what is allocated
 * ({@link Footprint}).
 *
 * <p>A caller that finds enough free bytes takes them with a single CAS, without queueing. Callers
 * that do not queue in arrival order (longest waiter first, as Kafka's {@code BufferPool}); only
 * the head of the queue takes bytes, and it <em>accumulates</em> whatever is released until its
 * reservation is complete, so a large reservation is not starved by a stream of small ones. No
 * other waiter holds bytes of this budget while it waits: a waiter that is no longer the head (an
 * earlier arrival came back, see {@link #reserve(long, long, long)}) gives back what it took, and
 * callers must not wait while they hold bytes reserved earlier (they give them back and wait for
 * the sum): waiters that each hold part of the budget while they wait for more can between them
 * hold all of it with nothing in a batch to release, and then wait until they time out. (Refusing
 * the fast path to newcomers while anyone waits would be stricter, but turns a saturated budget
 * into a convoy: every reservation then needs a lock hand-off and a wake-up, and throughput
 * collapses to the context-switch rate.) Releases signal the head. {@link #close()} wakes every
 * waiter, which then fails with {@link IllegalStateException}. Thread-safe.
 */
public final class MemoryBudget {

  private final long total;
  private final AtomicLong used = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();

  /** Guards {@link #waiters}. */
  private final ReentrantLock lock = new ReentrantLock();

  /**
   * A waiting thread: its condition, the bytes it waits for, and when it started to wait for the
   * bytes of this send.
   */
  private static final class Waiter {
    final Condition condition;
    final long bytes;
    final long arrivalNanos;

    Waiter(Condition condition, long bytes, long arrivalNanos) {
      this.condition = condition;
      this.bytes = bytes;
      this.arrivalNanos = arrivalNanos;
    }
  }

  /** Waiting threads by arrival, head = longest waiter. Guarded by {@link #lock}. */
  private final LinkedList<Waiter> waiters = new LinkedList<>();

  /** Number of queued waiters; read without the lock on the fast paths. */
  private volatile int waiterCount;

  /** Bytes the longest waiter reserves in all, 0 when none waits; read without the lock. */
  private volatile long headWanted;

  private volatile boolean closed;
  private final AtomicLong blockedNanos = new AtomicLong();

  /** Whether memory charged here but reusable is in reserve (pooled chunks); may be null. */
  private volatile BooleanSupplier reusable;

  /**
   * @param totalBytes the bound, in bytes, at least 1
   */
  public MemoryBudget(long totalBytes) {
    if (totalBytes < 1) {
      throw new IllegalArgumentException("totalBytes must be >= 1, was " + totalBytes);
    }
    this.total = totalBytes;
    ClassInit.initialize(Waiter.class); // not in the first sender's wait: see ClassInit
  }

  /**
   * Sets the test for reusable memory in reserve (the chunk pool has chunks): the longest waiter in
   * {@link #reserve} returns {@code false} when it holds, so the caller reuses that memory instead
   * of waiting for bytes (as Kafka's {@code BufferPool} hands pooled buffers to waiters). Whoever
   * puts memory in reserve while callers wait calls {@link #wakeWaiters()}.
   */
  public void setReusable(BooleanSupplier reusable) {
    this.reusable = reusable;
  }

  /** Wakes the longest waiter (bytes were released, or memory was put in reserve). */
  public void wakeWaiters() {
    if (waiterCount > 0) {
      lock.lock();
      try {
        Waiter head = waiters.peekFirst();
        if (head != null) {
          head.condition.signal();
        }
      } finally {
        lock.unlock();
      }
    }
  }

  /**
   * Reserves {@code bytes} without waiting.
   *
   * @return true if reserved; false if that would exceed the budget
   */
  public boolean tryReserve(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("cannot reserve " + bytes + " bytes");
    }
    return casReserve(bytes);
  }

  /**
   * Reserves {@code bytes} even past the bound (used only where waiting is impossible and the bytes
   * replace ones about to be released, such as splitting a batch on a send thread): {@link #used()}
   * may exceed {@link #total()} by that much until the release.
   */
  public void forceReserve(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("cannot reserve " + bytes + " bytes");
    }
    raisePeak(used.addAndGet(bytes));
  }

  /**
   * Raises {@link #peak} to {@code next} if higher: a compare-and-set loop rather than a method
   * reference, whose call site a virtual thread would link on first use (under a class-loading
   * monitor, which pins its carrier).
   */
  private void raisePeak(long next) {
    long p;
    while (next > (p = peak.get()) && !peak.compareAndSet(p, next)) {
      // another thread raised it meanwhile: look again
    }
  }

  /**
   * Reserves {@code bytes}, waiting up to {@code maxWaitMillis} behind those that started waiting
   * earlier.
   *
   * @return true if reserved; false, having reserved nothing, if reusable memory is in reserve (see
   *     {@link #setReusable}): the caller tries again with it
   * @throws BufferExhaustedException if the bytes could not be reserved in time
   * @throws ProducerInterruptedException if interrupted while waiting (interrupt status is
   *     restored)
   * @throws IllegalStateException if the budget is closed
   */
  public boolean reserve(long bytes, long maxWaitMillis) {
    return reserve(bytes, maxWaitMillis, System.nanoTime());
  }

  /**
   * Reserves {@code bytes}, waiting up to {@code maxWaitMillis} behind the callers that started
   * waiting before {@code arrivalNanos}: a caller that waited, got bytes, and must wait again in
   * the same {@code send} (its shard's batch was sealed meanwhile, or pooled chunks it was woken
   * for were taken) passes the time of its first wait and keeps its place instead of queueing
   * behind everyone who came later. The caller must hold no bytes of this budget while it calls
   * this.
   *
   * @param arrivalNanos {@code System.nanoTime()} when the caller first waited; for a first wait,
   *     now
   * @return true if reserved; false, having reserved nothing, if reusable memory is in reserve (see
   *     {@link #setReusable}): the caller tries again with it
   * @throws BufferExhaustedException if the bytes could not be reserved in time
   * @throws ProducerInterruptedException if interrupted while waiting (interrupt status is
   *     restored)
   * @throws IllegalStateException if the budget is closed
   */
  public boolean reserve(long bytes, long maxWaitMillis, long arrivalNanos) {
    checkSize(bytes);
    if (tryReserve(bytes)) {
      return true;
    }
    if (closed) {
      throw new IllegalStateException("producer is closed");
    }
    long start = System.nanoTime();
    long remaining = TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
    long taken = 0;
    boolean done = false;
    lock.lock();
    try {
      Waiter me = new Waiter(lock.newCondition(), bytes, arrivalNanos);
      Waiter displaced = enqueue(me);
      if (displaced != null) {
        displaced.condition.signal(); // no longer the head: it gives back what it took
      }
      queueChanged();
      try {
        while (true) {
          if (closed) {
            throw new IllegalStateException("producer is closed");
          }
          boolean head = waiters.peekFirst() == me;
          if (head) {
            taken += takeUpTo(bytes - taken);
            if (taken == bytes) {
              done = true;
              return true;
            }
          } else if (taken > 0) {
            // An earlier arrival is the head now: only the head may hold bytes while it waits.
            used.addAndGet(-taken);
            taken = 0;
            waiters.peekFirst().condition.signal();
          }
          BooleanSupplier spare = reusable;
          if (spare != null && head && spare.getAsBoolean()) {
            return false; // memory the caller can reuse is in reserve (pooled chunks): it retries
            // with that
          }
          if (remaining <= 0) {
            throw new BufferExhaustedException(
                String.format(
                    java.util.Locale.ROOT,
                    "failed to reserve %,d bytes within %d ms: budget %,d, in use %,d, waiting threads %d",
                    bytes,
                    maxWaitMillis,
                    total,
                    used.get() - taken,
                    waiters.size()));
          }
          try {
            remaining = me.condition.awaitNanos(remaining);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ProducerInterruptedException(
                "interrupted while waiting for " + bytes + " bytes of buffer", e);
          }
        }
      } finally {
        if (!done && taken > 0) {
          used.addAndGet(-taken); // give back a partial reservation
        }
        waiters.remove(me);
        queueChanged();
        Waiter next = waiters.peekFirst();
        if (next != null) {
          next.condition.signal(); // the new head may fit now, or must start its own wait
        }
        blockedNanos.addAndGet(System.nanoTime() - start);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Publishes the queue's head and size (lock held), the head first: a reader that sees the new
   * size (a volatile read after the head's volatile write) sees that head or a newer one.
   */
  private void queueChanged() {
    Waiter head = waiters.peekFirst();
    headWanted = head == null ? 0 : head.bytes;
    waiterCount = waiters.size();
  }

  /**
   * Queues {@code w} behind every waiter that arrived no later (lock held); returns the former head
   * if {@code w} took its place, else null. A first wait goes last at once; a caller waiting again
   * in the same send belongs near the head, so the scan starts there.
   */
  private Waiter enqueue(Waiter w) {
    Waiter last = waiters.peekLast();
    if (last == null || last.arrivalNanos - w.arrivalNanos <= 0) {
      waiters.addLast(w);
      return null;
    }
    ListIterator<Waiter> it = waiters.listIterator();
    while (it.hasNext()) {
      Waiter o = it.next();
      if (o.arrivalNanos - w.arrivalNanos > 0) {
        it.previous();
        boolean first = !it.hasPrevious();
        it.add(w);
        return first ? o : null;
      }
    }
    waiters.addLast(w); // unreachable: the last waiter arrived later
    return null;
  }

  /** Takes up to {@code wanted} free bytes; returns how many were taken (0 when none are free). */
  private long takeUpTo(long wanted) {
    while (true) {
      long u = used.get();
      long take = Math.min(wanted, total - u);
      if (take <= 0) {
        return 0;
      }
      long next = u + take;
      if (used.compareAndSet(u, next)) {
        raisePeak(next);
        return take;
      }
    }
  }

  /** Returns {@code bytes} to the budget and wakes the longest waiter. */
  public void release(long bytes) {
    long now = used.addAndGet(-bytes);
    if (now < 0) {
      throw new IllegalStateException("released more than reserved: in use " + now);
    }
    wakeWaiters();
  }

  /** Fails every current and future waiter with {@link IllegalStateException}. Idempotent. */
  public void close() {
    closed = true;
    lock.lock();
    try {
      for (Waiter w : waiters) {
        w.condition.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  private boolean casReserve(long bytes) {
    while (true) {
      long u = used.get();
      long next = u + bytes;
      if (next > total) {
        return false;
      }
      if (used.compareAndSet(u, next)) {
        raisePeak(next);
        return true;
      }
    }
  }

  private void checkSize(long bytes) {
    if (bytes < 0 || bytes > total) {
      throw new IllegalArgumentException(
          "cannot reserve " + bytes + " bytes from a budget of " + total);
    }
  }

  /** The bound, in bytes. */
  public long total() {
    return total;
  }

  /** Bytes reserved now. */
  public long used() {
    return used.get();
  }

  /** Highest {@link #used()} seen. */
  public long peak() {
    return peak.get();
  }

  /**
   * Bytes the longest waiter reserves in all (what it holds included), 0 when no one waits: with
   * {@link #total()} less this held elsewhere, it cannot be served before some of that is released.
   */
  public long headWanted() {
    return headWanted;
  }

  /** Threads waiting now. */
  public int waitingThreads() {
    return waiterCount;
  }

  /** Total nanoseconds callers spent waiting in {@link #reserve}. */
  public long blockedNanos() {
    return blockedNanos.get();
  }
}
