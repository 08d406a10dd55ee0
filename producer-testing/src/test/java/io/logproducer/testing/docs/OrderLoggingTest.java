package io.logproducer.testing.docs;

// begin docs/testing.md
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.logproducer.Callback;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.Severity;
import io.logproducer.spi.ExportResult;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import java.util.Collections;
import org.junit.jupiter.api.Test;

class OrderLoggingTest {

  /** The code under test: it logs through the Producer it is given. */
  static final class OrderService {
    private final Producer producer;

    OrderService(Producer producer) {
      this.producer = producer;
    }

    void placeOrder(long orderId, Callback callback) {
      producer.send(
          LogRecord.builder()
              .setSeverity(Severity.INFO)
              .setBody("order placed")
              .setAttribute("order.id", orderId)
              .build(),
          callback);
    }
  }

  @Test
  void logsEachOrderOnceEvenWhenTheReceiverFailsTwice() {
    InMemoryExporter exporter = InMemoryExporter.create();
    exporter.failNext(2, ExportResult.retryable("HTTP 503", null, -1)); // then success
    Outcomes outcomes = new Outcomes();
    try (Producer producer = new Producer(ProducerConfig.defaults(), exporter)) {
      new OrderService(producer).placeOrder(42, outcomes);
      producer.flush(); // returns once the record has its outcome
    }
    assertEquals(Collections.singletonMap(SendResult.Status.DELIVERED, 1), outcomes.statusCounts());
    assertEquals(3, outcomes.all().get(0).getAttempts());
    assertEquals(3, exporter.exportCalls());
    LogRecord logged = exporter.records().get(0);
    assertEquals("order placed", logged.getBody().asString());
    assertEquals(Severity.INFO.number(), logged.getSeverityNumber());
    assertEquals(42, logged.getAttribute("order.id").asLong());
  }
}
// end docs/testing.md
