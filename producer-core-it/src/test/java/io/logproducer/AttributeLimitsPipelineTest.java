package io.logproducer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.logproducer.testing.InMemoryExporter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code maxAttributesPerRecord} and {@code maxAttributeValueLength} applied by {@code send},
 * through a whole producer (the records the exporter receives, decoded).
 */
class AttributeLimitsPipelineTest {

  @Test
  void sendAppliesTheLimitsAndCountsWhatItDrops() {
    InMemoryExporter exporter = InMemoryExporter.create();
    ProducerConfig config =
        ProducerConfig.builder()
            .setMaxAttributesPerRecord(10)
            .setMaxAttributeValueLength(5)
            .setJmxEnabled(false)
            .setShutdownHookEnabled(false)
            .build();
    try (Producer producer = new Producer(config, exporter)) {
      LogRecord.Builder over = LogRecord.builder().setBody("over").setDroppedAttributesCount(2);
      for (int i = 0; i < 25; i++) {
        over.setAttribute("k" + i, "value-" + i);
      }
      producer.send(over.build());
      producer.send(
          LogRecord.builder()
              .setBody("within")
              .setAttribute("a", "12345")
              .setAttribute("b", 6L)
              .build());
      producer.flush();
    }
    List<LogRecord> records = exporter.records();
    assertEquals(2, records.size());
    LogRecord over = records.get(0);
    assertEquals("over", over.getBody().asString());
    assertEquals(10, over.getAttributeCount());
    assertEquals("k9", over.getAttributeKey(9));
    assertEquals("value", over.getAttributeValue(9).asString());
    assertEquals(2 + 15, over.getDroppedAttributesCount());
    LogRecord within = records.get(1);
    assertEquals(2, within.getAttributeCount());
    assertEquals("12345", within.getAttribute("a").asString());
    assertEquals(0, within.getDroppedAttributesCount());
  }

  @Test
  void theDefaultsKeep128AttributesOfAnyLength() {
    InMemoryExporter exporter = InMemoryExporter.create();
    String longValue = "x".repeat(100_000);
    try (Producer producer =
        new Producer(
            ProducerConfig.builder().setJmxEnabled(false).setShutdownHookEnabled(false).build(),
            exporter)) {
      LogRecord.Builder b = LogRecord.builder().setAttribute("long", longValue);
      for (int i = 1; i < 1000; i++) {
        b.setAttribute("k" + i, (long) i);
      }
      producer.send(b.build());
      producer.flush();
    }
    LogRecord r = exporter.records().get(0);
    assertEquals(ProducerConfig.DEFAULT_MAX_ATTRIBUTES_PER_RECORD, r.getAttributeCount());
    assertEquals(1000 - 128, r.getDroppedAttributesCount());
    assertEquals(longValue, r.getAttribute("long").asString());
  }

  @Test
  void aRecordTooLargeAfterTheLimitsIsStillRefused() {
    InMemoryExporter exporter = InMemoryExporter.create();
    exporter.setMaxBatchSizeInBytes(4096);
    try (Producer producer =
        new Producer(
            ProducerConfig.builder()
                .setMaxAttributeValueLength(10_000)
                .setBatchSizeInBytes(4096)
                .setJmxEnabled(false)
                .setShutdownHookEnabled(false)
                .build(),
            exporter)) {
      LogRecord tooLarge = LogRecord.builder().setAttribute("big", "y".repeat(50_000)).build();
      assertThrows(RecordTooLargeException.class, () -> producer.send(tooLarge));
    }
  }
}
