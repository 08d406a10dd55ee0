package io.logproducer.appender;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The one owner of an appender's producer at JVM exit, in place of the producer's own shutdown hook
 * (which an appender turns off: it would close the producer concurrently with the logging
 * framework's stop, while the application still logs, and warn that the producer "was not closed
 * before the JVM exits").
 *
 * <p>At exit the hook asks whether the logging framework stops the appender itself (logback's
 * {@code <shutdownHook/>}, log4j2's shutdown hook, Spring Boot's logging shutdown handler). If it
 * does, the hook only waits, up to {@code graceMillis}, for that stop to begin, and stops the
 * appender itself if it never does (a framework hook that was announced but is not coming). If it
 * does not, the hook stops the appender at once: a normal stop, shipping what is buffered, with no
 * warning. Either way the producer is closed once, by one stop.
 *
 * <p>Thread-safe. The hook thread is named {@code <clientId>-exit-hook}, so that what is logged on
 * it stays out of the appender.
 */
public final class ExitHook {

  /** How often a waiting hook looks whether the framework's stop began: every 10 ms. */
  private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  private final Thread thread;

  private ExitHook(Thread thread) {
    this.thread = thread;
  }

  /**
   * Registers the hook with the JVM.
   *
   * @param name the hook thread's name ({@code <clientId>-exit-hook})
   * @param frameworkStops asked at exit: whether the logging framework will stop the appender
   * @param stopBegan whether the appender's stop has begun (by the framework or anyone)
   * @param stop stops the appender (ships what is buffered, closes the producer); must not throw
   * @param graceMillis how long to wait at exit for the framework's stop to begin, at least 0
   * @return the registered hook, or null when the JVM is already exiting
   */
  public static ExitHook register(
      String name,
      BooleanSupplier frameworkStops,
      BooleanSupplier stopBegan,
      Runnable stop,
      long graceMillis) {
    Thread t =
        new Thread(
            () -> {
              if (!frameworkStops.getAsBoolean() || !awaitStop(stopBegan, graceMillis)) {
                stop.run();
              }
            },
            name);
    t.setContextClassLoader(
        ExitHook.class.getClassLoader()); // a registered hook would pin the app's
    try {
      Runtime.getRuntime().addShutdownHook(t);
    } catch (IllegalStateException e) { // the JVM is exiting already
      return null;
    }
    return new ExitHook(t);
  }

  private static boolean awaitStop(BooleanSupplier stopBegan, long graceMillis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, graceMillis));
    while (!stopBegan.getAsBoolean()) {
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
    return true;
  }

  /**
   * Unregisters the hook (the appender stopped before the exit); a no-op on the hook's own thread
   * or while the JVM exits.
   */
  public void remove() {
    if (Thread.currentThread() == thread) {
      return;
    }
    try {
      Runtime.getRuntime().removeShutdownHook(thread);
    } catch (IllegalStateException e) {
      // the JVM is exiting: the hook runs and finds the appender stopping or stopped
    }
  }
}
