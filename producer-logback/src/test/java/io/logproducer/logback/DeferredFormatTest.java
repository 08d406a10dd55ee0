package io.logproducer.logback;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.logproducer.appender.QueueBudget;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Date;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Which events the worker may format: only those whose arguments are all of immutable JDK types,
 * with a bound on the message's length no larger than a small event's.
 */
class DeferredFormatTest {

  private final Logger logger = new LoggerContext().getLogger("t");

  private LoggingEvent event(String pattern, Object... arguments) {
    return new LoggingEvent("fqcn", logger, Level.INFO, pattern, null, arguments);
  }

  enum Color {
    RED
  }

  @Test
  void immutableArgumentsAreBoundedByTheirLengthOrSixtyFourChars() {
    assertEquals(7 + 3 + 4, DeferredFormat.boundedChars(event("a {} {}", "abc", null)));
    assertEquals(
        2 + 64 * 11,
        DeferredFormat.boundedChars(
            event(
                "{}",
                1,
                2L,
                true,
                1.5d,
                2.5f,
                (short) 3,
                (byte) 4,
                'c',
                new UUID(1, 2),
                BigInteger.TEN,
                new BigDecimal("1.25"))));
  }

  @Test
  void anythingThatMayChangeOrPrintLongIsFormattedNow() {
    assertEquals(-1, DeferredFormat.boundedChars(event("{}", new StringBuilder("x"))));
    assertEquals(-1, DeferredFormat.boundedChars(event("{}", (Object) new int[] {1})));
    assertEquals(-1, DeferredFormat.boundedChars(event("{}", Color.RED)));
    assertEquals(-1, DeferredFormat.boundedChars(event("{}", new Date(0))));
    assertEquals(-1, DeferredFormat.boundedChars(event("{}", BigInteger.ONE.shiftLeft(128))));
    assertEquals(
        -1, DeferredFormat.boundedChars(event("{}", new BigDecimal("1e-39").add(BigDecimal.ONE))));
    String longest = "x".repeat(QueueBudget.SMALL_MESSAGE_CHARS - 2);
    assertEquals(
        QueueBudget.SMALL_MESSAGE_CHARS, DeferredFormat.boundedChars(event("{}", longest)));
    assertEquals(-1, DeferredFormat.boundedChars(event("{}", longest + "y")));
  }

  @Test
  void eventsWithoutArgumentsHaveNothingToDefer() {
    assertEquals(-1, DeferredFormat.boundedChars(event("plain")));
    assertEquals(-1, DeferredFormat.boundedChars(event("plain", (Object[]) null)));
  }
}
