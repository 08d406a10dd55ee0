package io.logproducer.appender;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.ObjLongConsumer;

/**
 * The appenders' hand-off ({@code queueSize} &gt; 0, the default): logging threads put events into
 * a bounded lock-free queue and return; one worker thread maps and sends them. It moves mapping and
 * encoding off the logging thread, as logback's {@code AsyncAppender} or OpenTelemetry's batch
 * processor do, but a full queue never loses an event: {@link #put} waits for room while the worker
 * makes progress (the logging thread then waits for a core, never for the network: the worker only
 * maps and encodes into the producer's buffer), and returns false if the worker stalls for {@value
 * #STALL_MILLIS} ms, so that the caller maps and sends the event itself. {@link #offer} never
 * waits.
 *
 * <p>Each event travels with a {@code long} tag and an optional attachment that the worker receives
 * with it (the appenders pass the logging thread's id, which logback's events do not record, and
 * the OpenTelemetry span current at the logging call).
 *
 * <p>The queue is a multi-producer, single-consumer ring of {@code capacity} slots (a power of
 * two): producers claim a slot with one compare-and-set and publish the event into it; the worker
 * takes slots in order. When the queue runs empty the worker naps for 1 ms at a time, so that
 * steady traffic never makes a logging thread wake it (an unpark is a system call); after 20 ms
 * without an event it parks without a timeout and the next offer wakes it, so an idle appender uses
 * no CPU. Threads waiting in {@link #put} are woken once half the queue is free again (one wake-up
 * per half queue, not one per event). Memory: up to {@code capacity} events are held outside the
 * producer's {@code totalSizeInBytes}; the appenders keep large events (long messages, exceptions,
 * large contexts) out of the queue, so that this stays small.
 *
 * <p>Thread-safe: {@link #offer} and {@link #put} from any number of threads; {@link #stop} once,
 * from the framework's lifecycle.
 *
 * @param <E> the framework's event type, already safe to read on another thread (logback: after
 *     {@code prepareForDeferredProcessing()}; log4j2: an immutable copy)
 */
public final class HandOff<E> {

  /**
   * How long an idle worker naps before it looks again: the most an event waits while events keep
   * coming.
   */
  static final long NAP_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  /**
   * Naps without an event before the worker sleeps until woken (20 ms): then an idle appender costs
   * no CPU.
   */
  static final int NAPS_BEFORE_SLEEP = 20;

  /**
   * How long {@link #put} waits without the worker taking a single event before it gives up and
   * lets the caller map the event itself: 50 ms (a worker that maps and encodes takes microseconds
   * an event; only a stalled one, e.g. blocked by {@code bufferFullPolicy=BLOCK}, takes this long).
   */
  public static final long STALL_MILLIS = 50;

  private static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(STALL_MILLIS);

  private final AtomicReferenceArray<E> slots;

  /**
   * Each slot's tag: written before the slot's event is published (a volatile write), read after it
   * is taken.
   */
  private final long[] tags;

  /** Each slot's attachment, published and taken like {@link #tags}; cleared when taken. */
  private final Object[] attachments;

  private final int mask;

  /** Next slot to claim; written by producers (its own cache line: see {@link PaddedLong}). */
  private final PaddedLong tail = new PaddedLong();

  /** Next slot to take; written by the worker only. */
  private final PaddedLong head = new PaddedLong();

  /** Events the consumer has finished with; written by the worker only. */
  private final PaddedLong done = new PaddedLong();

  /**
   * Producers' cached bound: slots below it are known free (head + capacity as last read).
   * Refreshed from {@link #head} only when a claim reaches it, so producers do not read the
   * worker's counter on every offer.
   */
  private final PaddedLong limit = new PaddedLong();

  private volatile boolean sleeping;

  /** Times a producer had to wake the worker (for tests: steady traffic should not need it). */
  private final AtomicLong wakeUps = new AtomicLong();

  /** Threads waiting in {@link #put} for room; the worker wakes them through {@link #room}. */
  private final AtomicInteger waiters = new AtomicInteger();

  private final ReentrantLock roomLock = new ReentrantLock();

  /**
   * Signalled once half the queue is free, or at stop. A {@link Condition}, not a monitor's wait: a
   * virtual thread waiting in {@code Object.wait} pins its carrier on Java 21.
   */
  private final Condition room = roomLock.newCondition();

  /**
   * Threads waiting in {@link #awaitDrained}; while there are any, the worker signals {@link
   * #drained} every {@value #DRAIN_SIGNAL_EVERY} events and whenever the queue runs empty.
   */
  private final AtomicInteger drainWaiters = new AtomicInteger();

  /**
   * Signalled for {@link #awaitDrained} (guarded by {@link #roomLock}). Waiters block on it instead
   * of spinning with {@code Thread.yield}/{@code parkNanos}: on JDK 21 (21.0.8) dozens of virtual
   * threads flushing through such a spin were found parked for good, never rescheduled, with the
   * worker idle; a signal from the worker does not depend on the scheduler's timers.
   */
  private final Condition drained = roomLock.newCondition();

  /** How many events the worker takes between two signals of {@link #drained} (a power of two). */
  static final int DRAIN_SIGNAL_EVERY = 64;

  /**
   * The longest a drain waiter blocks between two looks at {@link #done}: a bound on a missed
   * signal only (10 ms).
   */
  static final long DRAIN_RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  /** Times a thread in {@link #put} found the queue full and waited (for tests and reports). */
  private final AtomicLong waits = new AtomicLong();

  private volatile boolean stopping;
  private volatile boolean abandoned;
  private final Receiver<E> consumer;
  private final Thread worker;

  /**
   * Receives each event with its tag and attachment, on the worker.
   *
   * @param <E> the event type
   */
  public interface Receiver<E> {
    /**
     * Maps and sends one event; must not throw (see {@link HandOff#HandOff(String, int,
     * Consumer)}).
     *
     * @param event the event, not null
     * @param tag the tag it was queued with
     * @param attachment the attachment it was queued with, or null
     */
    void accept(E event, long tag, Object attachment);
  }

  /**
   * A counter alone on its cache line, so that the producers' and the worker's writes do not
   * contend.
   */
  @SuppressWarnings("unused")
  static final class PaddedLong extends AtomicLong {
    private static final long serialVersionUID = 1L;
    long p1;
    long p2;
    long p3;
    long p4;
    long p5;
    long p6;
    long p7;
  }

  /**
   * Starts the worker.
   *
   * @param threadName the worker's name; give it the producer's {@code <clientId>-} prefix so that
   *     events it logs itself are kept out of the appender (see {@link
   *     AppenderProducer#enter(String)})
   * @param capacity the most events waiting, rounded up to a power of two; at least 1, at most 2^20
   * @param consumer maps and sends one event; runs on the worker; must not throw: the appenders
   *     pass {@link AppenderProducer#mapAndSend}, which counts any failure as a drop (a throw would
   *     still be caught, the worker going on, but the event lost uncounted)
   * @throws IllegalArgumentException if {@code capacity} is out of range
   */
  public HandOff(String threadName, int capacity, Consumer<E> consumer) {
    this(threadName, capacity, (ObjLongConsumer<E>) (e, tag) -> consumer.accept(e));
  }

  /**
   * Starts the worker, which receives each event with the tag it was queued with.
   *
   * @param threadName the worker's name; give it the producer's {@code <clientId>-} prefix
   * @param capacity the most events waiting, rounded up to a power of two; at least 1, at most 2^20
   * @param consumer maps and sends one event and its tag; runs on the worker; must not throw (see
   *     {@link #HandOff(String, int, Consumer)})
   * @throws IllegalArgumentException if {@code capacity} is out of range
   */
  public HandOff(String threadName, int capacity, ObjLongConsumer<E> consumer) {
    this(threadName, capacity, (Receiver<E>) (e, tag, attachment) -> consumer.accept(e, tag));
  }

  /**
   * Starts the worker, which receives each event with the tag and attachment it was queued with.
   *
   * @param threadName the worker's name; give it the producer's {@code <clientId>-} prefix
   * @param capacity the most events waiting, rounded up to a power of two; at least 1, at most 2^20
   * @param consumer maps and sends one event; runs on the worker; must not throw (see {@link
   *     #HandOff(String, int, Consumer)})
   * @throws IllegalArgumentException if {@code capacity} is out of range
   */
  public HandOff(String threadName, int capacity, Receiver<E> consumer) {
    if (capacity < 1 || capacity > 1 << 20) {
      throw new IllegalArgumentException("queueSize must be in [1, 1048576], was " + capacity);
    }
    int size = Integer.highestOneBit(capacity);
    size = size == capacity ? size : size << 1;
    this.slots = new AtomicReferenceArray<>(size);
    this.tags = new long[size];
    this.attachments = new Object[size];
    this.mask = size - 1;
    limit.set(size);
    this.consumer = consumer;
    this.worker = new Thread(this::work, threadName);
    worker.setDaemon(true);
    worker.setContextClassLoader(HandOff.class.getClassLoader()); // not the application's
    worker.start();
  }

  /** {@return the number of slots (the capacity rounded up to a power of two)} */
  public int capacity() {
    return mask + 1;
  }

  /**
   * Whether an {@link #offer} now would find the queue full: a hint (it may change at once), for a
   * caller that can skip costly preparation of an event that would be dropped anyway. Reads what
   * {@link #offer} reads; never writes.
   *
   * @return true if the queue is full
   */
  public boolean looksFull() {
    long t = tail.get();
    return t >= limit.get() && t >= head.get() + mask + 1;
  }

  /**
   * Queues {@code event} for the worker with the tag 0; never waits.
   *
   * @param event the event, not null
   * @return false if the queue is full or stopping
   */
  public boolean offer(E event) {
    return offer(event, 0L);
  }

  /**
   * Queues {@code event} for the worker, waiting for room while the queue is full and the worker
   * makes progress: at most until the worker has taken no event for {@value #STALL_MILLIS} ms, or
   * the hand-off stops. Never loses the event: when it returns false the caller still has it.
   *
   * @param event the event, not null
   * @param tag passed to the consumer with the event
   * @return true if queued; false if the hand-off is stopping or its worker stalled (the caller
   *     then maps and sends the event itself)
   */
  public boolean put(E event, long tag) {
    return put(event, tag, null);
  }

  /**
   * {@link #put(Object, long)} with an attachment the consumer receives with the event.
   *
   * @param event the event, not null
   * @param tag passed to the consumer with the event
   * @param attachment passed to the consumer with the event, or null
   * @return true if queued; false if the hand-off is stopping or its worker stalled
   */
  public boolean put(E event, long tag, Object attachment) {
    return offer(event, tag, attachment) || awaitRoom(event, tag, attachment);
  }

  private boolean awaitRoom(E event, long tag, Object attachment) {
    waits.incrementAndGet();
    waiters.incrementAndGet(); // a volatile write before the re-checks below: no lost wake-up
    LockSupport.unpark(worker); // a full queue: a napping worker must not wait out its nap
    try {
      long seenHead = head.get();
      long progress = System.nanoTime();
      boolean interrupted = false;
      while (!stopping) {
        if (offer(event, tag, attachment)) {
          if (interrupted) {
            Thread.currentThread().interrupt();
          }
          return true;
        }
        long h = head.get();
        long now = System.nanoTime();
        if (h != seenHead) {
          seenHead = h;
          progress = now;
        } else if (now - progress > STALL_NANOS) {
          break;
        }
        roomLock.lock();
        try {
          if (!stopping && looksFull()) {
            // the worker signals once half the queue is free; 1 ms bounds a miss
            room.awaitNanos(NAP_NANOS);
          }
        } catch (InterruptedException e) {
          interrupted = true; // the logging call keeps its interrupt, after the event is queued
        } finally {
          roomLock.unlock();
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      return false;
    } finally {
      waiters.decrementAndGet();
    }
  }

  /**
   * Queues {@code event} for the worker with {@code tag}; never waits.
   *
   * @param event the event, not null
   * @param tag passed to the consumer with the event
   * @return false if the queue is full or stopping
   */
  public boolean offer(E event, long tag) {
    return offer(event, tag, null);
  }

  /**
   * {@link #offer(Object, long)} with an attachment the consumer receives with the event.
   *
   * @param event the event, not null
   * @param tag passed to the consumer with the event
   * @param attachment passed to the consumer with the event, or null
   * @return false if the queue is full or stopping
   */
  public boolean offer(E event, long tag, Object attachment) {
    if (stopping) {
      return false;
    }
    long t;
    do {
      t = tail.get();
      if (t >= limit.get()) {
        long fresh = head.get() + mask + 1;
        if (t >= fresh) {
          return false; // full
        }
        limit.lazySet(
            fresh); // racing producers may write an older bound: only costs an extra refresh
      }
    } while (!tail.compareAndSet(t, t + 1));
    int i = (int) t & mask;
    tags[i] = tag; // published by the volatile write of the slot below
    attachments[i] = attachment;
    slots.set(i, event); // a volatile write: ordered before the read of sleeping below
    if (sleeping) {
      sleeping = false;
      wakeUps.incrementAndGet();
      LockSupport.unpark(worker);
    }
    return true;
  }

  /**
   * Takes the next event and hands it with its tag to the consumer, then wakes waiting producers if
   * half the queue is free.
   *
   * @return false if the queue was empty
   */
  private boolean takeOne() {
    long h = head.get();
    int i = (int) h & mask;
    E e = slots.get(i);
    if (e == null) {
      return false;
    }
    long tag = tags[i];
    Object attachment = attachments[i];
    attachments[i] = null; // not kept alive by the ring; before the head lets a producer reuse it
    slots.lazySet(i, null);
    head.set(h + 1); // after the slot is cleared: a producer that sees the new head may reuse it
    try {
      consumer.accept(e, tag, attachment);
    } catch (Throwable t) { // the consumer counts its own failures; the worker must go on
      // lost: nothing safe to log from here (logging would come back to this appender)
    }
    // A volatile write: ordered before the read of drainWaiters below (an awaitDrained that
    // registered after it reads this count; one that registered before is signalled).
    done.set(h + 1);
    long queued = tail.get() - (h + 1);
    boolean signalRoom = waiters.get() > 0 && queued <= (mask + 1) / 2;
    boolean signalDrained =
        drainWaiters.get() > 0 && (queued == 0 || ((h + 1) & (DRAIN_SIGNAL_EVERY - 1)) == 0);
    if (signalRoom || signalDrained) {
      roomLock.lock();
      try {
        if (signalRoom) {
          room.signalAll();
        }
        if (signalDrained) {
          drained.signalAll();
        }
      } finally {
        roomLock.unlock();
      }
    }
    return true;
  }

  private void work() {
    int naps = 0;
    while (!abandoned) {
      if (takeOne()) {
        naps = 0;
        continue;
      }
      if (stopping && tail.get() == head.get()) {
        return;
      }
      if (naps < NAPS_BEFORE_SLEEP) {
        // Short naps while events keep coming: producers then need not wake the worker (an unpark
        // is a system call
        // on the logging thread); an event waits at most NAP_NANOS.
        naps++;
        LockSupport.parkNanos(this, NAP_NANOS);
        continue;
      }
      naps = 0;
      sleeping = true; // a volatile write, then the re-check below reads the slot: no lost wake-up
      if (takeOne()) {
        sleeping = false;
        continue;
      }
      if (stopping && tail.get() == head.get()) {
        return;
      }
      LockSupport.park(this);
      sleeping = false;
    }
  }

  /**
   * Stops accepting, lets the worker send what is queued for up to {@code timeoutMillis}, and ends
   * it (returns within {@code timeoutMillis} + 1 s).
   *
   * @param timeoutMillis how long to wait for the queue to drain, at least 0
   * @return the events still queued when the time ran out (lost; the caller counts them as dropped)
   * @throws IllegalArgumentException if {@code timeoutMillis} is negative
   */
  public long stop(long timeoutMillis) {
    if (timeoutMillis < 0) {
      throw new IllegalArgumentException("timeoutMillis must be >= 0, was " + timeoutMillis);
    }
    stopping = true;
    LockSupport.unpark(worker);
    roomLock.lock();
    try {
      room.signalAll(); // waiting producers give up: their callers keep their events
      drained.signalAll();
    } finally {
      roomLock.unlock();
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    boolean interrupted = false;
    while (worker.isAlive()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        break;
      }
      try {
        worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    abandoned = true; // out of time: the worker ends after the event it is sending
    LockSupport.unpark(worker);
    try {
      worker.join(1_000);
    } catch (InterruptedException e) {
      interrupted = true;
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return Math.max(0, tail.get() - head.get());
  }

  /**
   * Waits until the worker has handed every event queued before this call to the consumer, at most
   * {@code timeoutMillis}: for a flush (the events are then in the producer), and for a logging
   * thread about to send an event itself, so that its earlier queued events go first. Returns at
   * once when the queue is empty.
   *
   * @param timeoutMillis the most to wait, at least 0
   * @return true if they were all handed over; false if the time ran out or the worker ended
   * @throws IllegalArgumentException if {@code timeoutMillis} is negative
   */
  public boolean awaitDrained(long timeoutMillis) {
    if (timeoutMillis < 0) {
      throw new IllegalArgumentException("timeoutMillis must be >= 0, was " + timeoutMillis);
    }
    long target = tail.get();
    if (done.get() >= target) {
      return true; // the usual case for a logging thread: the worker keeps up
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    drainWaiters.incrementAndGet(); // a volatile write before the re-checks: no lost signal
    LockSupport.unpark(worker); // a napping worker looks at once
    boolean interrupted = false;
    try {
      roomLock.lock();
      try {
        while (done.get() < target) {
          long left = deadline - System.nanoTime();
          if (!worker.isAlive() || left <= 0) {
            return false;
          }
          try {
            drained.awaitNanos(Math.min(left, DRAIN_RECHECK_NANOS));
          } catch (InterruptedException e) {
            interrupted = true; // the caller keeps its interrupt; the wait goes on
          }
        }
        return true;
      } finally {
        roomLock.unlock();
      }
    } finally {
      drainWaiters.decrementAndGet();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** {@return how many times a {@link #put} found the queue full and waited for room} */
  public long waitCount() {
    return waits.get();
  }

  /** {@return how many offers had to wake the sleeping worker} */
  long wakeUps() {
    return wakeUps.get();
  }

  /** {@return whether the worker thread still runs} */
  public boolean isAlive() {
    return worker.isAlive();
  }
}
