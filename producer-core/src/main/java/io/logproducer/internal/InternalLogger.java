package io.logproducer.internal;

import java.io.PrintStream;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.ILoggerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.FormattingTuple;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPLoggerFactory;

/**
 * The producer's own logging: SLF4J when the application has an SLF4J provider (binding), else — so
 * that failures are never silent — warnings and errors on {@code System.err}, one line each (errors
 * with their stack trace), after one line saying what to add. An application that chose SLF4J's
 * no-operation provider ({@code slf4j-nop}) stays silent, as does one that sets {@value
 * #STDERR_PROPERTY}{@code =false}. Debug and info messages go to SLF4J only.
 *
 * <p>Messages use SLF4J's {@code {}} placeholders; a last {@link Throwable} argument is the cause.
 * Works with slf4j-api 1.7 and 2.x. Thread-safe.
 */
public final class InternalLogger {

  /** System property: {@code false} turns the stderr fallback off. */
  public static final String STDERR_PROPERTY = "io.logproducer.stderrFallback";

  private static final AtomicBoolean EXPLAINED = new AtomicBoolean();
  private static volatile Boolean slf4jRoutes;

  private final Logger slf4j;
  private final String name;

  private InternalLogger(Class<?> owner) {
    this.slf4j = LoggerFactory.getLogger(owner);
    this.name = owner.getName();
  }

  /**
   * A logger named after {@code owner}.
   *
   * @param owner the class that logs
   * @return its logger
   */
  public static InternalLogger get(Class<?> owner) {
    return new InternalLogger(owner);
  }

  /**
   * Debug message, SLF4J only.
   *
   * @param format SLF4J message pattern
   * @param args arguments; a last {@link Throwable} is the cause
   */
  public void debug(String format, Object... args) {
    slf4j.debug(format, args);
  }

  /**
   * Info message, SLF4J only.
   *
   * @param format SLF4J message pattern
   * @param args arguments; a last {@link Throwable} is the cause
   */
  public void info(String format, Object... args) {
    slf4j.info(format, args);
  }

  /**
   * Warning: SLF4J, or stderr when no SLF4J provider is present.
   *
   * @param format SLF4J message pattern
   * @param args arguments; a last {@link Throwable} is the cause
   */
  public void warn(String format, Object... args) {
    if (routesToSlf4j()) {
      slf4j.warn(format, args);
    } else {
      printToStderr("WARN", format, args);
    }
  }

  /**
   * Error: SLF4J, or stderr when no SLF4J provider is present.
   *
   * @param format SLF4J message pattern
   * @param args arguments; a last {@link Throwable} is the cause
   */
  public void error(String format, Object... args) {
    if (routesToSlf4j()) {
      slf4j.error(format, args);
    } else {
      printToStderr("ERROR", format, args);
    }
  }

  /**
   * Whether warnings go to SLF4J (true) or to stderr (false). Decided once per class loader.
   *
   * @return true when SLF4J has a provider, the application chose slf4j-nop, or the fallback is
   *     turned off
   */
  public static boolean routesToSlf4j() {
    Boolean routes = slf4jRoutes;
    if (routes == null) {
      routes = decide();
      slf4jRoutes = routes;
    }
    return routes;
  }

  private static boolean decide() {
    if ("false".equalsIgnoreCase(System.getProperty(STDERR_PROPERTY, "true").trim())) {
      return true;
    }
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof NOPLoggerFactory)) {
      return true; // a real provider
    }
    // No-operation: chosen (slf4j-nop 2.x or 1.7 on the class path) or a fallback because no
    // provider was found.
    return present("org.slf4j.nop.NOPServiceProvider")
        || present("org.slf4j.impl.StaticLoggerBinder");
  }

  private static boolean present(String className) {
    try {
      Class.forName(className, false, InternalLogger.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** Keeps one message's lines together on stderr. */
  private static final java.util.concurrent.locks.ReentrantLock STDERR =
      new java.util.concurrent.locks.ReentrantLock();

  private void printToStderr(String level, String format, Object[] args) {
    FormattingTuple t = MessageFormatter.arrayFormat(format, args);
    StringBuilder line =
        new StringBuilder(160)
            .append(Instant.now())
            .append(' ')
            .append(level)
            .append(" [")
            .append(Thread.currentThread().getName())
            .append("] ")
            .append(name)
            .append(" - ")
            .append(t.getMessage());
    boolean trace =
        "ERROR".equals(level); // warnings stay one line: the cause's text, not its stack
    if (!trace && t.getThrowable() != null) {
      line.append(" (").append(t.getThrowable()).append(')');
    }
    PrintStream err = System.err;
    STDERR.lock(); // not a monitor: a virtual thread may write (and block) here
    try {
      if (EXPLAINED.compareAndSet(false, true)) {
        err.println(
            "logproducer: no SLF4J provider found, so its warnings and errors are printed here. Add one"
                + " (e.g. org.slf4j:slf4j-simple or ch.qos.logback:logback-classic) to route them to your logs, or set -D"
                + STDERR_PROPERTY
                + "=false to silence them.");
      }
      err.println(line);
      if (trace && t.getThrowable() != null) {
        t.getThrowable().printStackTrace(err);
      }
    } finally {
      STDERR.unlock();
    }
  }
}
