package com.example.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Producer;
import io.logproducer.testing.otlp.OtlpReceiver;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The receiver is down when the application shuts down: every record still buffered fails at close,
 * and the appender's last report (on the logging system's status channel) and its counts include
 * every one of them, whether the starter owns the appender (it closes the producer after stopping
 * the appender) or the user's XML declares it (the logging system stops it).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StarterLossReportTest {

  private static final int REQUESTS = 100;
  private static final int LINES = 5;
  private static final Pattern IN_ALL = Pattern.compile("\\(([0-9,]+) and ([0-9,]+) in all\\)");

  @Test
  @Order(1)
  void theStartersAppenderReportsEveryRecordItsProducersCloseFailed() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      receiver.refuse(); // connections refused: the producer retries until its close
      List<String> properties = Apps.baseProperties(receiver.endpoint());
      properties.add("logproducer.shutdown-timeout=1s");
      ConfigurableApplicationContext context = Apps.start(properties);
      List<String> status = LoggingSystems.captureStatus();
      int port = Apps.port(context);
      Producer producer = context.getBean(Producer.class);
      List<Object> appenders = LoggingSystems.rootLogproducerAppenders();
      assertEquals(1, appenders.size(), "the starter's appender");
      Object appender = appenders.get(0);
      for (int i = 0; i < REQUESTS; i++) {
        assertEquals("200", Apps.get(port, "/log?id=" + i + "&lines=" + LINES)[0]);
      }

      context.close();

      assertTrue(producer.isClosed());
      assertEquals(Set.of(), Apps.producerThreads());
      long accepted = producer.getMetrics().getRecordsAccepted();
      assertTrue(accepted >= REQUESTS * LINES, "accepted " + accepted);
      assertEquals(0, producer.getMetrics().getRecordsSent(), "nothing delivered");
      assertEquals(accepted, producer.getMetrics().getRecordsFailed(), "every record failed");
      assertEquals(accepted, count(appender, "failedCount"), "the appender's count");
      assertEquals(0L, count(appender, "droppedCount"));
      assertLastReport(status, "LOGPRODUCER", accepted);
    }
  }

  /** Last: it stops the logging system, as Spring Boot's shutdown handler does at JVM exit. */
  @Test
  @Order(2)
  void anAppenderDeclaredInXmlReportsEveryRecordItsCloseFailedWhenTheLoggingSystemStops()
      throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      receiver.refuse();
      System.setProperty("lp.test.endpoint", receiver.endpoint());
      // Every record fails at the stop, after the appender's stop timeout: 2 s, not the default 10.
      System.setProperty("lp.test.stop-timeout-millis", "2000");
      List<String> properties = Apps.baseProperties("http://127.0.0.1:9");
      properties.add("logging.config=" + LoggingSystems.xmlControlConfig());
      ConfigurableApplicationContext context = Apps.start(properties);
      List<String> status = LoggingSystems.captureStatus();
      int port = Apps.port(context);
      Producer producer = context.getBean(Producer.class);
      Object appender = LoggingSystems.rootLogproducerAppenders().get(0);
      for (int i = 0; i < REQUESTS; i++) {
        assertEquals("200", Apps.get(port, "/log?id=" + i + "&lines=" + LINES)[0]);
      }
      context.close();
      assertFalse(producer.isClosed(), "the logging system owns the XML appender's producer");

      LoggingSystem.get(SampleApplication.class.getClassLoader()).getShutdownHandler().run();

      assertTrue(producer.isClosed());
      long accepted = producer.getMetrics().getRecordsAccepted();
      assertTrue(accepted >= REQUESTS * LINES, "accepted " + accepted);
      assertEquals(0, producer.getMetrics().getRecordsSent(), "nothing delivered");
      assertEquals(accepted, producer.getMetrics().getRecordsFailed(), "every record failed");
      assertEquals(accepted, count(appender, "failedCount"), "the appender's count");
      assertLastReport(status, "XML", accepted);
    } finally {
      System.clearProperty("lp.test.endpoint");
      System.clearProperty("lp.test.stop-timeout-millis");
    }
  }

  /**
   * The appender's last report counts {@code failed} failures and no drop in all, the last of them
   * failed at close.
   */
  private static void assertLastReport(List<String> status, String appender, long failed) {
    List<String> reports = new ArrayList<>();
    synchronized (status) {
      for (String s : status) {
        if (s.startsWith("logproducer appender '" + appender + "': ")) {
          reports.add(s);
        }
      }
    }
    assertFalse(reports.isEmpty(), "no report among " + status);
    String last = reports.get(reports.size() - 1);
    Matcher m = IN_ALL.matcher(last);
    assertTrue(m.find(), last);
    assertEquals("0", m.group(1).replace(",", ""), last);
    assertEquals(Long.toString(failed), m.group(2).replace(",", ""), last);
    assertTrue(last.contains("last cause: FAILED_AT_CLOSE"), last);
  }

  private static long count(Object appender, String method) throws Exception {
    return (Long) appender.getClass().getMethod(method).invoke(appender);
  }
}
