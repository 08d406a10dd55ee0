package io.logproducer.testing.appender;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * Application threads logging sequence numbers: each of {@code threads} daemon threads takes the
 * next number from one shared counter and hands it to {@code log} (which logs an event carrying
 * it), paced to a total rate or as fast as they can, until {@link #stop()} or until {@code
 * capacity} numbers are taken. With a {@link SequenceSet} on the receiving side a test checks that
 * numbers {@code [0, logged())} each arrived once. Thread-safe.
 */
public final class SequenceLoad {

  private final LongConsumer log;
  private final int threadCount;
  private final long capacity;
  private final long periodNanos; // per thread; 0: no pacing
  private final String name;
  private final AtomicLong next = new AtomicLong();
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final List<Thread> threads = new ArrayList<>();
  private final Object gate = new Object();
  private volatile long holdFrom = Long.MAX_VALUE;

  /**
   * A load, not started.
   *
   * @param name prefix of the threads' names
   * @param threads how many threads log, at least 1
   * @param ratePerSecond total events/s over all threads; 0 = as fast as they can
   * @param capacity how many numbers at most ({@code [0, capacity)})
   * @param log logs the event for one number; called on the load's threads
   * @throws IllegalArgumentException if {@code threads < 1}, {@code ratePerSecond < 0} or {@code
   *     capacity < 1}
   */
  public SequenceLoad(
      String name, int threads, int ratePerSecond, long capacity, LongConsumer log) {
    if (threads < 1 || ratePerSecond < 0 || capacity < 1) {
      throw new IllegalArgumentException(
          "threads >= 1, ratePerSecond >= 0, capacity >= 1; were "
              + threads
              + ", "
              + ratePerSecond
              + ", "
              + capacity);
    }
    this.name = name;
    this.threadCount = threads;
    this.capacity = capacity;
    this.log = log;
    this.periodNanos =
        ratePerSecond == 0 ? 0 : TimeUnit.SECONDS.toNanos(1) * threads / ratePerSecond;
  }

  /** Starts the threads. */
  public void start() {
    for (int i = 0; i < threadCount; i++) {
      Thread t = new Thread(this::run, name + "-" + i);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  private void run() {
    long due = System.nanoTime();
    while (running.get()) {
      long seq = next.getAndIncrement();
      if (seq >= capacity) {
        next.set(capacity);
        return;
      }
      if (seq >= holdFrom) {
        awaitRelease(seq);
      }
      log.accept(seq);
      if (periodNanos > 0) {
        due += periodNanos;
        long wait = due - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        }
      }
    }
  }

  /**
   * Makes the threads wait before logging number {@code seq} or a later one until {@link
   * #release()} (or {@link #stop()}): a test whose steps must all happen while the load still logs
   * holds its end back this way instead of hoping the machine is slow enough. Call before {@link
   * #start()}.
   *
   * @param seq the first number held back
   */
  public void holdFrom(long seq) {
    holdFrom = seq;
  }

  /** Lets the threads held by {@link #holdFrom} go on. */
  public void release() {
    synchronized (gate) {
      holdFrom = Long.MAX_VALUE;
      gate.notifyAll();
    }
  }

  private void awaitRelease(long seq) {
    synchronized (gate) {
      while (seq >= holdFrom && running.get()) {
        try {
          gate.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /**
   * Stops the threads and waits up to 30 s for each to finish its current event.
   *
   * @throws InterruptedException if interrupted while waiting
   */
  public void stop() throws InterruptedException {
    running.set(false);
    release();
    for (Thread t : threads) {
      t.join(30_000);
    }
  }

  /** {@return how many numbers were taken: those logged, or being logged until {@link #stop()}} */
  public long logged() {
    return Math.min(next.get(), capacity);
  }
}
