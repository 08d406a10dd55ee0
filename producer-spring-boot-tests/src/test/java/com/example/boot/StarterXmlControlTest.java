package com.example.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Producer;
import io.logproducer.spring.boot.autoconfigure.InvalidPropertyException;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A user's logging configuration that declares the logproducer appender keeps full control: the
 * starter adds no second appender and builds no second producer; the {@code Producer} bean is the
 * XML appender's.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class StarterXmlControlTest {

  @Test
  void anAppenderDeclaredInTheUsersXmlIsTheOnlyOneAndItsProducerIsTheBean() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      System.setProperty("lp.test.endpoint", receiver.endpoint());
      List<String> properties = Apps.baseProperties("http://127.0.0.1:9");
      properties.add("logging.config=" + LoggingSystems.xmlControlConfig());
      ConfigurableApplicationContext context = Apps.start(properties);
      int port = Apps.port(context);

      List<Object> appenders = LoggingSystems.rootLogproducerAppenders();
      assertEquals(1, appenders.size(), "one logproducer appender on the root logger");
      Producer producer = context.getBean(Producer.class);
      assertSame(LoggingSystems.producerOf(appenders.get(0)), producer);
      assertEquals("logproducer-xml", producer.getConfig().getClientId());
      assertEquals(Set.of(), Apps.producerThreads(), "the starter started no producer of its own");

      for (int i = 0; i < 20; i++) {
        assertEquals("200", Apps.get(port, "/log?id=" + i + "&lines=5")[0]);
      }
      producer.flush();
      Set<String> bodies = new HashSet<>();
      int lines = 0;
      for (ReceivedLogRecord r : receiver.deliveredRecords()) {
        if (SampleApplication.LogController.class.getName().equals(r.scopeName())) {
          lines++;
          bodies.add(r.bodyString());
          assertEquals("from-xml", r.resourceAttributes().get("service.name"));
        }
      }
      assertEquals(100, lines, "each line once: no second appender");
      assertEquals(100, bodies.size());
      context.close();
      assertFalse(producer.isClosed(), "the logging system owns the XML appender's producer");
      // The logging system stops it (here: now, while the receiver still answers).
      appenders.get(0).getClass().getMethod("stop").invoke(appenders.get(0));
      assertTrue(producer.isClosed());
    } finally {
      System.clearProperty("lp.test.endpoint");
    }
  }

  /**
   * The starter's own {@code logproducer.producer.*} properties are not used with an appender
   * declared in XML, but they are still checked before anything starts: an invalid one stops the
   * start, naming it.
   */
  @Test
  void anInvalidPropertyStopsTheStartEvenWhenTheXmlDeclaresTheAppender() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      System.setProperty("lp.test.endpoint", receiver.endpoint());
      List<String> properties = Apps.baseProperties("http://127.0.0.1:9");
      properties.add("logging.config=" + LoggingSystems.xmlControlConfig());
      properties.add("logproducer.producer.linger=-5s");
      Throwable thrown = assertThrows(Throwable.class, () -> Apps.start(properties).close());
      InvalidPropertyException cause = null;
      for (Throwable t = thrown; t != null; t = t.getCause()) {
        if (t instanceof InvalidPropertyException) {
          cause = (InvalidPropertyException) t;
        }
      }
      assertTrue(cause != null, "not an InvalidPropertyException: " + thrown);
      assertEquals("logproducer.producer.linger", cause.getProperty(), cause.getMessage());
      assertEquals(Set.of(), Apps.producerThreads(), "the starter started no producer");
      // The logging system owns the XML appender: stop it as it would.
      for (Object a : LoggingSystems.rootLogproducerAppenders()) {
        a.getClass().getMethod("stop").invoke(a);
      }
    } finally {
      System.clearProperty("lp.test.endpoint");
    }
  }

  @Test
  void enabledFalseTurnsTheStarterOff() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      List<String> properties = Apps.baseProperties(receiver.endpoint());
      properties.add("logproducer.enabled=false");
      ConfigurableApplicationContext context = Apps.start(properties);
      int port = Apps.port(context);
      assertEquals(0, context.getBeanNamesForType(Producer.class).length, "no Producer bean");
      assertEquals(List.of(), LoggingSystems.rootLogproducerAppenders());
      assertEquals(Set.of(), Apps.producerThreads());
      String health = Apps.get(port, "/actuator/health")[1];
      assertEquals(null, Apps.componentStatus(health, "logproducer"), health);
      assertEquals("200", Apps.get(port, "/log?id=1&lines=5")[0]);
      context.close();
      assertEquals(0, receiver.acceptedRecords());
      assertTrue(receiver.requests().isEmpty());
    }
  }
}
