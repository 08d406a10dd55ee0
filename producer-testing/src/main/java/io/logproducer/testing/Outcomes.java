package io.logproducer.testing;

import io.logproducer.Callback;
import io.logproducer.SendResult;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Collects the outcomes {@link io.logproducer.Producer#send} reports, so a test can assert "exactly
 * one outcome per accepted record" and wait for them without sleeping. Use it as the callback of
 * every send ({@code producer.send(record, outcomes)}), or give each record an id with {@link
 * #callback(int)} to check outcomes per record ({@link #get}, {@link #idsWith}, {@link
 * #duplicates()}).
 *
 * <pre>{@code
 * Outcomes outcomes = new Outcomes();
 * producer.send(record, outcomes);
 * outcomes.awaitCount(1, 5_000);
 * assertEquals(SendResult.Status.DELIVERED, outcomes.all().get(0).getStatus());
 * }</pre>
 *
 * <p>Thread-safe: callbacks may arrive on any thread, concurrently with the queries.
 */
public final class Outcomes implements Callback {

  /** Every outcome in arrival order; guarded by this. */
  private final List<SendResult> all = new ArrayList<>();

  /** Outcomes of the records sent with {@link #callback(int)}, by id; guarded by this. */
  private final Map<Integer, List<SendResult>> byId = new HashMap<>();

  /** Records {@code result} (an outcome without id) and wakes waiters. */
  @Override
  public synchronized void onCompletion(SendResult result) {
    all.add(result);
    notifyAll();
  }

  /**
   * {@return a callback that records the outcome of record {@code id}} Use one id per record.
   *
   * @param id the record's id
   */
  public Callback callback(int id) {
    return result -> {
      synchronized (Outcomes.this) {
        List<SendResult> l = byId.get(id);
        if (l == null) {
          l = new ArrayList<>(1);
          byId.put(id, l);
        }
        l.add(result);
        onCompletion(result);
      }
    };
  }

  /** {@return the number of outcomes so far, with or without id} */
  public synchronized int total() {
    return all.size();
  }

  /** {@return every outcome so far, in arrival order (a copy)} */
  public synchronized List<SendResult> all() {
    return new ArrayList<>(all);
  }

  /** {@return the number of outcomes so far by status (statuses without outcomes are absent)} */
  public synchronized Map<SendResult.Status, Integer> statusCounts() {
    Map<SendResult.Status, Integer> counts = new EnumMap<>(SendResult.Status.class);
    for (SendResult r : all) {
      counts.merge(r.getStatus(), 1, Integer::sum);
    }
    return counts;
  }

  /** {@return the number of ids that got more than one outcome: a bug in the producer if not 0} */
  public synchronized long duplicates() {
    long n = 0;
    for (List<SendResult> l : byId.values()) {
      if (l.size() > 1) {
        n++;
      }
    }
    return n;
  }

  /** {@return the number of ids that got at least one outcome} */
  public synchronized int distinctIds() {
    return byId.size();
  }

  /**
   * {@return the (first) outcome of record {@code id}, or null if none arrived yet}
   *
   * @param id the record's id
   */
  public synchronized SendResult get(int id) {
    List<SendResult> l = byId.get(id);
    return l == null ? null : l.get(0);
  }

  /**
   * {@return the ids whose (first) outcome has {@code status}, ascending}
   *
   * @param status the status
   */
  public synchronized Set<Integer> idsWith(SendResult.Status status) {
    Set<Integer> ids = new TreeSet<>();
    for (Map.Entry<Integer, List<SendResult>> e : byId.entrySet()) {
      if (e.getValue().get(0).getStatus() == status) {
        ids.add(e.getKey());
      }
    }
    return ids;
  }

  /**
   * Waits until at least {@code n} outcomes arrived.
   *
   * @param n the number of outcomes
   * @param timeoutMillis the longest wait, in ms
   * @return whether they arrived in time
   * @throws IllegalStateException if interrupted (the interrupt flag is set again)
   */
  public synchronized boolean await(int n, long timeoutMillis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (all.size() < n) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      try {
        TimeUnit.NANOSECONDS.timedWait(this, left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + n + " outcomes", e);
      }
    }
    return true;
  }

  /**
   * Waits until at least {@code n} outcomes arrived, or fails.
   *
   * @param n the number of outcomes
   * @param timeoutMillis the longest wait, in ms
   * @throws AssertionError if fewer arrived in time, naming how many of each status did
   * @throws IllegalStateException if interrupted
   */
  public synchronized void awaitCount(int n, long timeoutMillis) {
    if (!await(n, timeoutMillis)) {
      throw new AssertionError(
          "expected "
              + n
              + " outcomes within "
              + timeoutMillis
              + " ms, got "
              + all.size()
              + ": "
              + statusCounts());
    }
  }

  /**
   * Polls {@code condition} every 5 ms until it holds or {@code timeoutMillis} passed.
   *
   * @param condition the condition, thread-safe
   * @param timeoutMillis the longest wait, in ms
   * @return whether the condition held in time (its last value)
   */
  public static boolean until(BooleanSupplier condition, long timeoutMillis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        return condition.getAsBoolean();
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
    return true;
  }

  /**
   * Polls {@code condition} every 5 ms until it holds, for as long as {@code progress} keeps
   * changing: the bound runs from the last change, not from the start, so a machine that is slow
   * (saturated by other work) is waited for and only one that is stuck fails.
   *
   * @param condition the condition, thread-safe
   * @param progress a measure of progress (a count of records, outcomes, bytes), thread-safe
   * @param idleMillis the longest time without progress, in ms
   * @return whether the condition held (false: {@code progress} stood still for {@code idleMillis}
   *     without it)
   */
  public static boolean whileProgressing(
      BooleanSupplier condition, LongSupplier progress, long idleMillis) {
    long idleNanos = TimeUnit.MILLISECONDS.toNanos(idleMillis);
    long last = progress.getAsLong();
    long since = System.nanoTime();
    while (!condition.getAsBoolean()) {
      long now = progress.getAsLong();
      if (now != last) {
        last = now;
        since = System.nanoTime();
      } else if (System.nanoTime() - since > idleNanos) {
        return condition.getAsBoolean();
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
    }
    return true;
  }
}
