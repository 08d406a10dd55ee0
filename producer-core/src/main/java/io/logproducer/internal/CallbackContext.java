package io.logproducer.internal;

/**
 * Marks the threads running a producer's callbacks, so that {@code send}, {@code flush} and {@code
 * close} called from a callback — on a producer thread, on an application thread (a DROPPED
 * outcome), or in a future's dependent stage — never wait for the producer, which would wait for
 * the callback: a deadlock.
 *
 * <p>The thread-local holds the producer only while its callbacks run and is removed afterwards, so
 * it pins nothing (no class loader) once they return.
 */
final class CallbackContext {

  private static final ThreadLocal<Object> RUNNING = new ThreadLocal<>();

  private CallbackContext() {}

  /**
   * Marks the calling thread as running {@code owner}'s callbacks; returns the previous mark for
   * {@link #exit}.
   */
  static Object enter(Object owner) {
    Object previous = RUNNING.get();
    RUNNING.set(owner);
    return previous;
  }

  /** Restores the mark {@link #enter} returned. */
  static void exit(Object previous) {
    if (previous == null) {
      RUNNING.remove();
    } else {
      RUNNING.set(previous);
    }
  }

  /**
   * Whether the calling thread belongs to {@code owner}: one of its threads, or running its
   * callbacks.
   */
  static boolean isOwnedBy(Object owner) {
    return ProducerThread.isOwnedBy(owner) || RUNNING.get() == owner;
  }
}
