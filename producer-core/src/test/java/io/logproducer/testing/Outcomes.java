package io.logproducer.testing;

import io.logproducer.Callback;
import io.logproducer.SendResult;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Collects the outcome of each record (by id), so tests can assert "exactly one outcome per accepted record". */
public final class Outcomes {

  private final Map<Integer, List<SendResult>> byId = new ConcurrentHashMap<>();
  private final AtomicInteger total = new AtomicInteger();

  /** A callback recording the outcome of record {@code id}. */
  public Callback callback(int id) {
    return result -> {
      byId.computeIfAbsent(id, k -> new CopyOnWriteArrayList<>()).add(result);
      total.incrementAndGet();
    };
  }

  public int total() {
    return total.get();
  }

  /** Ids that got more than one outcome. */
  public long duplicates() {
    return byId.values().stream().filter(l -> l.size() > 1).count();
  }

  public int distinctIds() {
    return byId.size();
  }

  public SendResult get(int id) {
    List<SendResult> l = byId.get(id);
    return l == null ? null : l.get(0);
  }

  /** Ids whose (first) outcome has {@code status}. */
  public java.util.Set<Integer> idsWith(SendResult.Status status) {
    java.util.Set<Integer> ids = new java.util.TreeSet<>();
    byId.forEach((id, l) -> {
      if (l.get(0).getStatus() == status) {
        ids.add(id);
      }
    });
    return ids;
  }

  public Map<SendResult.Status, Integer> statusCounts() {
    Map<SendResult.Status, Integer> counts = new EnumMap<>(SendResult.Status.class);
    byId.values().forEach(l -> l.forEach(r -> counts.merge(r.getStatus(), 1, Integer::sum)));
    return counts;
  }

  /** Waits until {@code n} outcomes arrived or {@code timeoutMillis} passed; returns whether they did. */
  public boolean await(int n, long timeoutMillis) {
    return until(() -> total.get() >= n, timeoutMillis);
  }

  /** Polls {@code condition} until true or the deadline; returns its last value. */
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
}
