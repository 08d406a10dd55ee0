package io.logproducer.internal;

/**
 * A daemon thread owned by one producer, so the producer can recognise calls made from its own
 * threads (from a callback) and never wait for itself. If its task ends by throwing (it should not:
 * the loops catch everything), {@code onDeath} is told, so the producer can replace it.
 */
final class ProducerThread extends Thread {

  /** Told when a producer thread's task threw. */
  interface DeathHandler {
    void onDeath(ProducerThread thread, Throwable cause);
  }

  private final Object owner;
  private final Runnable task;
  private final DeathHandler onDeath;

  ProducerThread(Object owner, String name, Runnable task, DeathHandler onDeath) {
    super(name);
    this.owner = owner;
    this.task = task;
    this.onDeath = onDeath;
    setDaemon(true);
    // Not the creating thread's: a finished thread keeps its context class loader, and a closed
    // producer still referenced would pin an application's class loader (DevTools restarts).
    setContextClassLoader(ProducerThread.class.getClassLoader());
  }

  Runnable task() {
    return task;
  }

  @Override
  public void run() {
    try {
      task.run();
    } catch (Throwable t) {
      if (onDeath != null) {
        onDeath.onDeath(this, t);
      }
    }
  }

  /** Whether the calling thread belongs to {@code owner}. */
  static boolean isOwnedBy(Object owner) {
    Thread t = Thread.currentThread();
    return t instanceof ProducerThread && ((ProducerThread) t).owner == owner;
  }
}
