package com.example.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Producer;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One producer per logging system: a reconfiguration of the logging system keeps exactly one
 * starter appender on the same producer, and a second application started in the same JVM shares
 * the first one's producer instead of starting another.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StarterSharingTest {

  @Test
  void aReconfigurationOfTheLoggingSystemKeepsOneAppenderOnTheSameProducer() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      ConfigurableApplicationContext context = Apps.start(Apps.baseProperties(receiver.endpoint()));
      int port = Apps.port(context);
      Producer producer = context.getBean(Producer.class);
      Set<String> threads = Apps.producerThreads();
      for (int round = 0; round < 3; round++) {
        LoggingSystems.reconfigure();
        List<Object> appenders = LoggingSystems.rootLogproducerAppenders();
        assertEquals(1, appenders.size(), "one starter appender after reconfiguration " + round);
        assertSame(producer, LoggingSystems.producerOf(appenders.get(0)));
        assertEquals("200", Apps.get(port, "/log?id=" + round + "&lines=5")[0]);
      }
      assertEquals(threads, Apps.producerThreads(), "the same producer's threads, no second one");
      producer.flush();
      assertEquals(15, appLines(receiver), "every line logged after each reconfiguration");
      context.close();
      assertEquals(Set.of(), Apps.producerThreads());
    }
  }

  @Test
  void aSecondApplicationInTheSameJvmSharesTheFirstOnesProducer() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      ConfigurableApplicationContext first = Apps.start(Apps.baseProperties(receiver.endpoint()));
      Producer producer = first.getBean(Producer.class);
      Set<String> threads = Apps.producerThreads();
      List<String> secondProperties = Apps.baseProperties(receiver.endpoint());
      secondProperties.add("spring.main.web-application-type=none");
      ConfigurableApplicationContext second = Apps.start(secondProperties);
      assertSame(producer, second.getBean(Producer.class), "one producer per logging system");
      assertEquals(threads, Apps.producerThreads());
      assertEquals(1, LoggingSystems.rootLogproducerAppenders().size());
      second.close();
      assertFalse(producer.isClosed(), "the second application does not own it");
      assertEquals(1, LoggingSystems.rootLogproducerAppenders().size());

      int port = Apps.port(first);
      assertEquals("200", Apps.get(port, "/log?id=7&lines=5")[0]);
      producer.flush();
      assertEquals(5, appLines(receiver));
      first.close();
      assertTrue(producer.isClosed());
      assertEquals(Set.of(), Apps.producerThreads());
    }
  }

  private static long appLines(OtlpReceiver receiver) {
    long n = 0;
    for (ReceivedLogRecord r : receiver.deliveredRecords()) {
      if (SampleApplication.LogController.class.getName().equals(r.scopeName())) {
        n++;
      }
    }
    return n;
  }
}
