package com.example.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.Producer;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.ReceivedLogRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A real web application started with the starter and only properties: every line it logs, its own
 * and Spring's, reaches the receiver once, mapped as the README says; the producer is a bean; the
 * actuator shows its metrics and health; the context's close ships the shutdown lines and leaves no
 * producer thread.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class StarterWebAppTest {

  private static final int REQUESTS = 1_000;
  private static final int LINES = 5;

  @Test
  void everyLineOfARealWebApplicationIsShippedOnceAndTheCloseLeavesNothingBehind()
      throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      ConfigurableApplicationContext context = Apps.start(Apps.baseProperties(receiver.endpoint()));
      int port = Apps.port(context);
      Producer producer = context.getBean(Producer.class);
      assertSame(producer, context.getBean(Producer.class));
      assertTrue(!Apps.producerThreads().isEmpty(), "the producer runs");

      ExecutorService clients = Executors.newFixedThreadPool(4);
      List<Future<String[]>> replies = new ArrayList<>();
      for (int i = 0; i < REQUESTS; i++) {
        int id = i;
        replies.add(clients.submit(() -> Apps.get(port, "/log?id=" + id + "&lines=" + LINES)));
      }
      for (Future<String[]> r : replies) {
        assertEquals("200", r.get(60, TimeUnit.SECONDS)[0]);
      }
      clients.shutdown();
      producer.flush();

      String health = Apps.get(port, "/actuator/health")[1];
      assertEquals("UP", Apps.componentStatus(health, "logproducer"), health);
      assertTrue(health.contains("\"receiver\":\"otlp " + receiver.endpoint()), health);

      String delivered =
          Apps.get(port, "/actuator/metrics/logproducer.records?tag=outcome:delivered")[1];
      long deliveredBefore = producer.getMetrics().getRecordsSent();
      assertTrue(
          Apps.jsonNumber(delivered, "value") >= REQUESTS * LINES
              && Apps.jsonNumber(delivered, "value") <= deliveredBefore,
          delivered + " vs " + deliveredBefore);
      String scrape = Apps.get(port, "/actuator/prometheus")[1];
      assertTrue(
          scrape.contains(
                  "logproducer_records_total{client_id=\""
                      + Apps.CLIENT_ID
                      + "\",exporter=\"otlp\",outcome=\"delivered\"")
              || scrape.contains(
                  "logproducer_records_total{client_id=\""
                      + Apps.CLIENT_ID
                      + "\",exporter=\"otlp\",outcome=\"delivered\","),
          "the Prometheus scrape has the producer's meters");

      // The close returns (the class's @Timeout catches one that does not) having shipped
      // everything: asserted below by what the receiver got, not by how long it took here.
      context.close();
      assertEquals(Set.of(), Apps.producerThreads(), "producer threads after the close");
      assertEquals(
          List.of(), LoggingSystems.knownLogproducerAppenders(), "appenders after the close");
      assertTrue(producer.isClosed());

      List<ReceivedLogRecord> records = receiver.deliveredRecords();
      assertEquals(
          producer.getMetrics().getRecordsAccepted(), records.size(), "every accepted record");
      assertEquals(
          0, producer.getMetrics().getRecordsFailed() + producer.getMetrics().getRecordsDropped());

      Set<String> appLines = new HashSet<>();
      int appRecords = 0;
      for (ReceivedLogRecord r : records) {
        if (!SampleApplication.LogController.class.getName().equals(r.scopeName())) {
          continue;
        }
        appRecords++;
        String id = String.valueOf(r.attribute("request.id"));
        assertTrue(r.bodyString().startsWith("request " + id + " line "), r.toString());
        appLines.add(r.bodyString());
        assertEquals(9, r.severityNumber(), "INFO");
        assertEquals(SampleApplication.traceId(Integer.parseInt(id)), r.traceId());
        assertEquals(SampleApplication.spanId(Integer.parseInt(id)), r.spanId());
        assertEquals(null, r.attribute("traceId"), "the trace keys are not attributes");
        assertEquals("sample", r.resourceAttributes().get("service.name"));
      }
      assertEquals(REQUESTS * LINES, appRecords, "the application's lines");
      assertEquals(REQUESTS * LINES, appLines.size(), "each once");
      assertTrue(
          records.stream().anyMatch(r -> r.bodyString().startsWith("Started ")),
          "Spring Boot's start-up line");
      assertTrue(
          records.stream().anyMatch(r -> r.bodyString().equals(SampleApplication.SHUTDOWN_LINE)),
          "the line logged while the context shut down");
    }
  }
}
