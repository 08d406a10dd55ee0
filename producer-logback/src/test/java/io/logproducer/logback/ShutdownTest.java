package io.logproducer.logback;

import io.logproducer.testing.appender.ExitCheck;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A real JVM exit with events still buffered (lingerMillis 60 s): a child JVM logs and returns from
 * main. With logback's {@code <shutdownHook/>} logback's hook stops the appender; without it the
 * appender's own exit hook does. Either way one owner closes the producer: every event arrives at
 * the receiver in this JVM, and nothing is printed at WARN or above (neither the producer's "was
 * not closed before the JVM exits" nor any logback status warning).
 */
class ShutdownTest {

  static final int EVENTS = 2_000;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"exit-hook.xml", "exit-nohook.xml"})
  void oneOwnerClosesTheProducerAtExitWithoutAWarning(String config) throws Exception {
    ExitCheck.assertEveryEventDeliveredOnceAtExit(
        ExitMain.class, EVENTS, "-Dlogback.configurationFile=" + config);
  }
}
