package io.logproducer;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Collects callback outcomes; a test helper. Thread-safe. */
final class Outcomes implements Callback {

  private final List<SendResult> results = new ArrayList<>();

  @Override
  public synchronized void onCompletion(SendResult result) {
    results.add(result);
    notifyAll();
  }

  synchronized int count() {
    return results.size();
  }

  synchronized List<SendResult> all() {
    return new ArrayList<>(results);
  }

  synchronized Map<SendResult.Status, Integer> byStatus() {
    Map<SendResult.Status, Integer> m = new EnumMap<>(SendResult.Status.class);
    for (SendResult r : results) {
      m.merge(r.getStatus(), 1, Integer::sum);
    }
    return m;
  }

  /** Waits until at least {@code n} outcomes arrived; fails after 20 s. */
  synchronized void awaitCount(int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (results.size() < n) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        throw new AssertionError("expected " + n + " outcomes, got " + results.size() + ": " + byStatus());
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }
}
