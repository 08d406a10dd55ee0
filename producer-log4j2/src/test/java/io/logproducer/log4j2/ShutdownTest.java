package io.logproducer.log4j2;

import io.logproducer.testing.appender.ExitCheck;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A real JVM exit with events still buffered (lingerMillis 60 s): a child JVM logs and returns from
 * main, and log4j2's own shutdown hook (on by default) stops the LoggerContext. One owner closes
 * the producer: every event arrives at the receiver in this JVM, and nothing is printed at WARN or
 * above (neither the producer's "was not closed before the JVM exits", which its own hook printed
 * when it raced log4j2's, nor any log4j2 status warning).
 */
class ShutdownTest {

  static final int EVENTS = 2_000;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"exit.xml"})
  void oneOwnerClosesTheProducerAtExitWithoutAWarning(String config) throws Exception {
    ExitCheck.assertEveryEventDeliveredOnceAtExit(
        ExitMain.class, EVENTS, "-Dlog4j2.configurationFile=" + config);
  }
}
