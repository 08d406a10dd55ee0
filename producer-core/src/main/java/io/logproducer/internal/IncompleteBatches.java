package io.logproducer.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every batch created and not yet completed, for {@code flush()} and {@code close()}. Thread-safe.
 */
final class IncompleteBatches {

  private final Set<ProducerBatch> batches = ConcurrentHashMap.newKeySet();

  void add(ProducerBatch b) {
    batches.add(b);
  }

  void remove(ProducerBatch b) {
    batches.remove(b);
  }

  ProducerBatch[] snapshot() {
    return batches.toArray(new ProducerBatch[0]);
  }

  boolean isEmpty() {
    return batches.isEmpty();
  }

  int size() {
    return batches.size();
  }
}
