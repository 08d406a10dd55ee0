package io.logproducer.benchmark.soak;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The soak's time bound: a hang ends the run with a thread dump on stderr and exit code 1 instead
 * of hanging the caller. Before halting it runs {@code beforeHalt} (the soak kills its receiver's
 * process there).
 */
final class SoakWatchdog extends Thread {

  private final long deadlineNanos;
  private final Runnable beforeHalt;
  private volatile boolean done;

  /**
   * A watchdog that halts the JVM {@code seconds} from now unless {@link #done()} is called first.
   */
  SoakWatchdog(double seconds, Runnable beforeHalt) {
    super("soak-watchdog");
    setDaemon(true);
    this.deadlineNanos = System.nanoTime() + (long) (seconds * 1e9);
    this.beforeHalt = beforeHalt;
  }

  /** The run finished in time: stops watching. */
  void done() {
    done = true;
    interrupt();
  }

  @Override
  public void run() {
    while (!done) {
      long left = deadlineNanos - System.nanoTime();
      if (left <= 0) {
        System.err.println("SOAK FAIL: the run did not finish within its time bound; thread dump:");
        for (ThreadInfo ti : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
          System.err.print(ti);
        }
        System.err.flush();
        beforeHalt.run();
        Runtime.getRuntime().halt(1);
      }
      LockSupport.parkNanos(Math.min(left, TimeUnit.SECONDS.toNanos(1)));
    }
  }
}
