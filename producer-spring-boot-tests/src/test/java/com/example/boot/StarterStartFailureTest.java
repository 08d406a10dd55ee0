package com.example.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Producer;
import io.logproducer.spring.boot.autoconfigure.InvalidPropertyException;
import io.logproducer.spring.boot.autoconfigure.LogproducerApplicationListener;
import io.logproducer.spring.boot.autoconfigure.LogproducerFailureAnalyzer;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import io.logproducer.testing.otlp.Reply;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.event.ApplicationFailedEvent;
import org.springframework.boot.context.event.ApplicationPreparedEvent;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

/**
 * How the starter fails at start, and when it does not: an exporter whose module is missing, a
 * blank {@code spring.application.name}, an invalid property that is read late by Spring, and a
 * refresh that fails after the producer started.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StarterStartFailureTest {

  @Test
  void kafkaWithoutProducerKafkaIsAFailureAnalysisNamingThePropertyAndTheModule() {
    assertThrows(
        ClassNotFoundException.class,
        () -> Class.forName("io.logproducer.kafka.KafkaExporter"),
        "this module's class path has no producer-kafka, as an application that did not add it");
    List<String> properties = Apps.baseProperties("http://127.0.0.1:9");
    properties.add("logproducer.exporter=kafka");
    properties.add("logproducer.kafka.bootstrap-servers=127.0.0.1:9");
    properties.add("logproducer.kafka.topic=app-logs");
    Throwable thrown = assertThrows(Throwable.class, () -> Apps.start(properties).close());
    InvalidPropertyException cause = invalidProperty(thrown);
    assertNotNull(cause, "not an InvalidPropertyException: " + thrown);
    assertMissingModule(
        "kafka", "producer-kafka", cause.getProperty(), cause.getMessage(), analysis(thrown));
    assertEquals(Set.of(), Apps.producerThreads(), "no producer left behind");
  }

  @Test
  void otlpWithoutProducerOtlpIsAFailureAnalysisNamingThePropertyAndTheModule() throws Exception {
    List<String> properties = Apps.baseProperties("http://127.0.0.1:9");
    String[] d = WithoutModule.start("producer-otlp", properties);
    assertEquals("false", d[5], "io.logproducer.otlp is not on the isolated class path");
    assertMissingModule("otlp", "producer-otlp", d[1], d[2], new String[] {d[3], d[4]});
    assertEquals(Set.of(), Apps.producerThreads(), "no producer left behind");
  }

  @Test
  void gseWithoutProducerGseIsAFailureAnalysisNamingThePropertyAndTheModule() throws Exception {
    List<String> properties = Apps.baseProperties("http://127.0.0.1:9");
    properties.add("logproducer.exporter=gse");
    properties.add("logproducer.gse.tcp-endpoint=127.0.0.1:9");
    properties.add("logproducer.gse.data-id=1500001");
    String[] d = WithoutModule.start("producer-gse", properties);
    assertEquals("false", d[6], "io.logproducer.gse is not on the isolated class path");
    assertEquals("true", d[5], "producer-otlp is");
    assertMissingModule("gse", "producer-gse", d[1], d[2], new String[] {d[3], d[4]});
    assertEquals(Set.of(), Apps.producerThreads(), "no producer left behind");
  }

  @Test
  void aBlankApplicationNameIsUnsetTheServiceNameAndClientIdAreTheDefaults() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      List<String> properties = Apps.baseProperties(receiver.endpoint());
      properties.remove("spring.application.name=sample");
      properties.add("spring.application.name="); // SPRING_APPLICATION_NAME=
      var context = Apps.start(properties);
      Producer producer = context.getBean(Producer.class);
      assertEquals("logproducer", producer.getConfig().getClientId());
      assertEquals("200", Apps.get(Apps.port(context), "/log?id=7&lines=3")[0]);
      producer.flush();
      int lines = 0;
      for (ReceivedLogRecord r : receiver.deliveredRecords()) {
        assertEquals("unknown_service:java", r.resourceAttributes().get("service.name"));
        if (SampleApplication.LogController.class.getName().equals(r.scopeName())) {
          lines++;
        }
      }
      assertEquals(3, lines, "the application's lines");
      context.close();
      assertTrue(producer.isClosed());
    }
  }

  /**
   * {@code logproducer.health.stall-timeout} was checked only when the health indicator was
   * created, during the refresh, after the producer had started and shipped the first lines; every
   * property is now checked before the producer starts: the receiver never hears from it.
   */
  @Test
  void aPropertyReadLateBySpringIsCheckedBeforeTheProducerStarts() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      List<String> properties = Apps.baseProperties(receiver.endpoint());
      properties.add("logproducer.health.stall-timeout=-5s");
      Throwable thrown = assertThrows(Throwable.class, () -> Apps.start(properties).close());
      InvalidPropertyException cause = invalidProperty(thrown);
      assertNotNull(cause, "not an InvalidPropertyException: " + thrown);
      assertEquals("logproducer.health.stall-timeout", cause.getProperty());
      assertTrue(
          cause.getMessage().startsWith("Invalid value 'PT-5S' for property"), cause.getMessage());
      assertNotNull(analysis(thrown)[0]);
      assertEquals(List.of(), receiver.requests(), "no producer ever ran");
      assertEquals(Set.of(), Apps.producerThreads());
    }
  }

  /**
   * The refresh fails after the producer started (the web server's port is taken) while the
   * receiver holds every request unanswered, and the shutdown timeout is 10 minutes (the requests'
   * timeout too): a graceful close would wait for those requests, up to the timeout, before Spring
   * Boot reports the failure. The failed start abandons them instead: when Spring Boot publishes
   * the failure (which it reports right after), the producer is closed and every record it took has
   * failed at close, counted and in the appender's last report.
   */
  @Test
  void aRefreshThatFailsAfterTheProducerStartedClosesItAtOnceBeforeTheFailureReport()
      throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      Throwable thrown =
          startHeld(
              properties -> {
                properties.remove("server.port=0");
                properties.add("server.port=" + taken.getLocalPort());
              });
      assertTrue(chain(thrown).contains("PortInUseException"), chain(thrown));
    }
  }

  /** The same when a runner throws, after the refresh (Spring Boot closes the context then). */
  @Test
  void aRunnerThatFailsClosesTheProducerAtOnceBeforeTheFailureReport() throws Exception {
    Throwable thrown = startHeld(properties -> properties.add("sample.fail-in-runner=true"));
    assertTrue(chain(thrown).contains("the runner failed"), chain(thrown));
  }

  /**
   * Starts the application, which must fail, against a receiver that holds every request unanswered
   * until the test ends, with a 10-minute shutdown timeout; asserts that when Spring Boot published
   * the failure the producer was closed with every record it took failed at close, and that the
   * appender's last report counts them.
   *
   * @return what the start threw
   */
  private static Throwable startHeld(Consumer<List<String>> change) throws Exception {
    CountDownLatch hold = new CountDownLatch(1);
    ExecutorService starter = Executors.newSingleThreadExecutor();
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      try {
        return heldStart(receiver, change, hold, starter);
      } finally {
        hold.countDown(); // before the receiver closes
      }
    } finally {
      hold.countDown();
      starter.shutdownNow();
    }
  }

  private static Throwable heldStart(
      OtlpReceiver receiver,
      Consumer<List<String>> change,
      CountDownLatch hold,
      ExecutorService starter)
      throws Exception {
    receiver.respond(
        request -> {
          try {
            hold.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return Reply.ok(request);
        });
    List<String> properties = Apps.baseProperties(receiver.endpoint());
    change.accept(properties);
    properties.add("logproducer.shutdown-timeout=10m");
    properties.add("logproducer.otlp.timeout=10m");
    properties.add("logproducer.producer.delivery-timeout=30m");
    AtomicReference<Producer> producer = new AtomicReference<>();
    AtomicReference<List<String>> status = new AtomicReference<>();
    List<String> atFailure = new ArrayList<>();
    ApplicationListener<ApplicationEvent> observer =
        event -> {
          try {
            if (event instanceof ApplicationEnvironmentPreparedEvent) {
              status.compareAndSet(null, LoggingSystems.captureStatus());
            } else if (event instanceof ApplicationPreparedEvent) {
              producer.set(
                  (Producer)
                      ((ApplicationPreparedEvent) event)
                          .getApplicationContext()
                          .getBeanFactory()
                          .getSingleton(LogproducerApplicationListener.PRODUCER_BEAN));
            } else if (event instanceof ApplicationFailedEvent) {
              Producer p = producer.get();
              if (p == null) {
                atFailure.add("no producer");
                return;
              }
              atFailure.add("closed=" + p.isClosed());
              atFailure.add("delivered=" + p.getMetrics().getRecordsSent());
              atFailure.add(
                  "failed="
                      + (p.getMetrics().getRecordsFailed() == p.getMetrics().getRecordsAccepted()));
            }
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        };
    Future<Throwable> failure =
        starter.submit(
            () -> {
              try {
                new SpringApplicationBuilder(SampleApplication.class)
                    .properties(properties.toArray(new String[0]))
                    .listeners(observer)
                    .run()
                    .close();
                return null;
              } catch (Throwable t) {
                return t;
              }
            });
    // Graceful, this would wait 10 minutes (the held requests, the shutdown timeout).
    Throwable thrown = failure.get(2, TimeUnit.MINUTES);
    assertNotNull(thrown, "the start did not fail");
    assertEquals(List.of("closed=true", "delivered=0", "failed=true"), atFailure);
    Producer p = producer.get();
    long accepted = p.getMetrics().getRecordsAccepted();
    assertTrue(accepted > 0, "the producer took Spring Boot's first lines");
    assertEquals(accepted, p.getMetrics().getRecordsFailed());
    assertEquals(Set.of(), Apps.producerThreads());
    String last = null;
    for (String s : new ArrayList<>(status.get())) {
      if (s.startsWith("logproducer appender 'LOGPRODUCER': ")) {
        last = s;
      }
    }
    assertNotNull(last, "no report: " + status.get());
    assertTrue(
        last.contains("(0 and " + String.format(Locale.ROOT, "%,d", accepted) + " in all)"), last);
    assertTrue(last.contains("last cause: FAILED_AT_CLOSE"), last);
    return thrown;
  }

  private static void assertMissingModule(
      String exporter, String module, String property, String message, String[] analysis) {
    assertEquals("logproducer.exporter", property, message);
    assertTrue(
        message.startsWith(
            "Invalid value '"
                + exporter
                + "' for property 'logproducer.exporter': its module is not on the class path"
                + " (add io.logproducer:"
                + module
                + ")"),
        message);
    assertEquals(message, analysis[0], "Spring Boot's failure analysis: the starter's analyzer");
    assertTrue(analysis[1].contains("'logproducer.exporter'"), analysis[1]);
  }

  /** {@return every throwable of the cause chain, one a line} */
  private static String chain(Throwable thrown) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      b.append(t).append('\n');
    }
    return b.toString();
  }

  private static InvalidPropertyException invalidProperty(Throwable thrown) {
    InvalidPropertyException cause = null;
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (t instanceof InvalidPropertyException) {
        cause = (InvalidPropertyException) t;
      }
    }
    return cause;
  }

  private static String[] analysis(Throwable thrown) {
    FailureAnalysis a = new LogproducerFailureAnalyzer().analyze(thrown);
    return a == null ? new String[2] : new String[] {a.getDescription(), a.getAction()};
  }
}
