package io.logproducer.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.logproducer.appender.QueueBudget;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.UUID;

/**
 * Whether a queued event's message may be formatted on the hand-off's worker instead of the logging
 * thread: only when every argument is of an immutable JDK type ({@link String}, the boxed
 * primitives, {@link BigInteger}, {@link BigDecimal}, {@link UUID}), so that the worker's {@code
 * toString()} gives what the logging thread's would have. Any other argument (an application
 * object, an array, an enum, a {@code Date}) may change after the call returns; such events are
 * formatted on the logging thread, as logback's {@code AsyncAppender} formats every event. The
 * message logback builds later from the pattern and the arguments is then the one {@link
 * ILoggingEvent#getFormattedMessage()} would have returned at the call: that method formats lazily
 * and keeps the result, and the event's arguments no longer change.
 *
 * <p>The one case this cannot see: a caller that passes its own {@code Object[]} to a varargs
 * logging method and writes into that array after the call. SLF4J's own two-argument methods build
 * a fresh array; logback's {@code AsyncAppender}, OpenTelemetry's appender and this one format such
 * an event with whatever the array holds when they read it. Stateless.
 */
final class DeferredFormat {

  /** The most characters an immutable argument other than a {@code String} prints: 64. */
  private static final int OTHER_ARGUMENT_CHARS = 64;

  /**
   * Loaded with this class, not at a first large argument: a virtual thread loading a class is
   * pinned to its carrier (EventPipeline initialises this class when the appender starts).
   */
  private static final Class<?> BIG_INTEGER = BigInteger.class;

  private static final Class<?> BIG_DECIMAL = BigDecimal.class;

  private DeferredFormat() {}

  /** Initialises this class (its caller's thread loads what it needs). */
  static void initialize() {}

  /**
   * The most characters {@code event}'s formatted message can have, if it can be formatted later on
   * another thread; else -1 (the caller formats it now).
   *
   * @param event an event not yet formatted (or formatted: then it is its message's length)
   * @return an upper bound of the message's length in chars, at most {@link
   *     QueueBudget#SMALL_MESSAGE_CHARS}; or -1: format now (an argument of another type, a bound
   *     above {@link QueueBudget#SMALL_MESSAGE_CHARS}, a {@code BigDecimal} or {@code BigInteger}
   *     too long to bound cheaply)
   */
  static int boundedChars(ILoggingEvent event) {
    String pattern = event.getMessage();
    Object[] arguments = event.getArgumentArray();
    if (pattern == null || arguments == null || arguments.length == 0) {
      return -1; // nothing to format, or nothing to save: the caller reads it as it is
    }
    long chars = pattern.length();
    for (Object argument : arguments) {
      if (argument == null) {
        chars += 4; // "null"
        continue;
      }
      Class<?> type = argument.getClass();
      if (type == String.class) {
        chars += ((String) argument).length();
      } else if (isImmutableValue(type)) {
        chars += OTHER_ARGUMENT_CHARS;
        if ((type == BIG_INTEGER && ((BigInteger) argument).bitLength() > 128)
            || (type == BIG_DECIMAL && ((BigDecimal) argument).precision() > 38)) {
          return -1; // digits beyond the fixed bound
        }
      } else {
        return -1;
      }
      if (chars > QueueBudget.SMALL_MESSAGE_CHARS) {
        return -1;
      }
    }
    return (int) chars;
  }

  /**
   * Whether instances of {@code type} never change and print in at most 64 chars ({@link
   * BigInteger} and {@link BigDecimal} only up to the digits {@link #boundedChars} checks).
   */
  private static boolean isImmutableValue(Class<?> type) {
    return type == Integer.class
        || type == Long.class
        || type == Boolean.class
        || type == Double.class
        || type == Float.class
        || type == Short.class
        || type == Byte.class
        || type == Character.class
        || type == UUID.class
        || type == BIG_INTEGER
        || type == BIG_DECIMAL;
  }
}
