package io.logproducer.internal;

/**
 * Loads and initialises the classes of the send path when a producer is built, on the thread that
 * builds it, rather than in the first {@code send()} calls: threads that find another thread
 * loading or initialising a class wait on a monitor (the class loader's lock, or the class's
 * initialisation lock), which pins a virtual thread's carrier. JFR reported it on JDK 25 for the
 * first senders of 10,000 virtual threads ({@code ProducerBatch} under the shard lock; {@code
 * ProducerEngine.Scratch} in {@code send}).
 */
final class ClassInit {

  private ClassInit() {}

  /**
   * Loads and initialises each of {@code classes} (a no-op for those already initialised).
   *
   * @throws IllegalStateException if a class cannot be found (a broken class path)
   */
  static void initialize(Class<?>... classes) {
    for (Class<?> c : classes) {
      try {
        Class.forName(c.getName(), true, c.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
    }
  }
}
