package io.logproducer.internal;

/**
 * A daemon thread owned by one producer, so the producer can recognise calls made from its own threads (from a
 * callback) and never wait for itself.
 */
final class ProducerThread extends Thread {

  private final Object owner;

  ProducerThread(Object owner, String name, Runnable task) {
    super(task, name);
    this.owner = owner;
    setDaemon(true);
  }

  /** Whether the calling thread belongs to {@code owner}. */
  static boolean isOwnedBy(Object owner) {
    Thread t = Thread.currentThread();
    return t instanceof ProducerThread && ((ProducerThread) t).owner == owner;
  }
}
