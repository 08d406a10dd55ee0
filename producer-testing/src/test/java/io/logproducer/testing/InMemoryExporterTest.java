package io.logproducer.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SendResult;
import io.logproducer.Severity;
import io.logproducer.spi.ExportResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class InMemoryExporterTest {

  private static ProducerConfig.Builder config() {
    return ProducerConfig.builder()
        .setJmxEnabled(false)
        .setShutdownHookEnabled(false)
        .setLingerMillis(5)
        .setInitialRetryBackoffMillis(1)
        .setMaxRetryBackoffMillis(5);
  }

  private static LogRecord full() {
    Map<String, AnyValue> kv = new LinkedHashMap<>();
    kv.put("k", AnyValue.of("v"));
    kv.put("n", AnyValue.ofArray(AnyValue.of(1L), AnyValue.of(2.5), AnyValue.of(false)));
    return LogRecord.builder()
        .setTimeUnixNano(1_700_000_000_123_456_789L)
        .setObservedTimeUnixNano(42L)
        .setSeverity(Severity.WARN)
        .setSeverityText("WARNING")
        .setBody(AnyValue.ofKeyValueList(kv))
        .setAttribute("s", "日志")
        .setAttribute("b", true)
        .setAttribute("l", -7L)
        .setAttribute("d", 0.25)
        .setAttribute("bytes", new byte[] {0, 1, (byte) 255})
        .setTraceId("0102030405060708090a0b0c0d0e0f10")
        .setSpanId("1112131415161718")
        .setFlags(1)
        .setEventName("order.placed")
        .setInstrumentationScopeName("shop")
        .setDestination("audit")
        .build();
  }

  @Test
  void everyFieldSurvivesTheRoundTripWithEveryCompression() {
    for (Compression c : Compression.values()) {
      InMemoryExporter exporter = InMemoryExporter.create();
      LogRecord sent = full();
      try (Producer p = new Producer(config().setCompression(c).build(), exporter)) {
        p.send(sent);
        p.send(
            LogRecord.builder()
                .setObservedTimeUnixNano(1L)
                .build()); // no body, no attributes, no ids
        p.flush();
      }
      List<LogRecord> got = exporter.records();
      assertEquals(2, got.size(), c.toString());
      LogRecord r = got.get(0).getDestination() == null ? got.get(1) : got.get(0);
      assertEquals(sent.getTimeUnixNano(), r.getTimeUnixNano());
      assertEquals(42L, r.getObservedTimeUnixNano());
      assertEquals(Severity.WARN.number(), r.getSeverityNumber());
      assertEquals("WARNING", r.getSeverityText());
      assertEquals(sent.getBody(), r.getBody());
      assertEquals(5, r.getAttributeCount());
      for (int i = 0; i < 5; i++) {
        assertEquals(sent.getAttributeKey(i), r.getAttributeKey(i));
        assertEquals(sent.getAttributeValue(i), r.getAttributeValue(i));
      }
      assertArrayEquals(sent.getTraceId(), r.getTraceId());
      assertArrayEquals(sent.getSpanId(), r.getSpanId());
      assertEquals(1, r.getFlags());
      assertEquals("order.placed", r.getEventName());
      assertEquals("shop", r.getInstrumentationScopeName());
      assertEquals("audit", r.getDestination());
      LogRecord empty = r == got.get(0) ? got.get(1) : got.get(0);
      assertNull(empty.getBody());
      assertNull(empty.getTraceId());
      assertEquals(0, empty.getAttributeCount());
      assertEquals(2, exporter.batches().size(), "one batch per shard");
      assertEquals(c, exporter.batches().get(0).compression());
    }
  }

  @Test
  void scriptedAnswersComeFirstThenTheResponder() {
    InMemoryExporter exporter = InMemoryExporter.builder().setBodiesOnly(true).build();
    exporter.answerNext(
        ExportResult.retryable("HTTP 503", null, -1), ExportResult.retryable("HTTP 429", null, 1));
    exporter.respondWith(
        b ->
            b.attempt() < 4 ? ExportResult.retryable("not yet", null, -1) : ExportResult.success());
    Outcomes outcomes = new Outcomes();
    try (Producer p = new Producer(config().build(), exporter)) {
      p.send(LogRecord.builder().setBody("x").build(), outcomes);
      p.flush();
    }
    assertEquals(4, exporter.exportCalls());
    List<ExportedBatch> batches = exporter.batches();
    assertEquals(4, batches.size());
    assertEquals("HTTP 503", batches.get(0).result().message());
    assertEquals("HTTP 429", batches.get(1).result().message());
    assertEquals("not yet", batches.get(2).result().message());
    assertEquals(ExportResult.Kind.SUCCESS, batches.get(3).result().kind());
    for (int i = 0; i < 4; i++) {
      assertEquals(i + 1, batches.get(i).attempt());
      assertEquals(5, batches.get(i).sizeInBytes(), "4-byte length + 1 byte");
      assertEquals("default", batches.get(i).shardKey());
    }
    assertEquals(1, exporter.records().size(), "only the delivered call's records");
    assertEquals(1, exporter.recordsDelivered());
    assertEquals(4, outcomes.all().get(0).getAttempts());
  }

  @Test
  void aRejectionFailsTheRecordsAtOnce() {
    InMemoryExporter exporter = InMemoryExporter.create();
    exporter.failNext(1, ExportResult.rejected("HTTP 400"));
    Outcomes outcomes = new Outcomes();
    try (Producer p = new Producer(config().build(), exporter)) {
      p.send(LogRecord.builder().setBody("bad").build(), outcomes);
      p.flush();
    }
    assertEquals(SendResult.Status.REJECTED, outcomes.all().get(0).getStatus());
    assertEquals(1, exporter.exportCalls());
    assertTrue(exporter.records().isEmpty());
    assertEquals(1, exporter.batches().size(), "the refused call is kept");
    assertFalse(exporter.batches().get(0).isDelivered());
  }

  @Test
  void holdBlocksCallsUntilReleasedAndCloseReleasesThem() throws Exception {
    InMemoryExporter exporter = InMemoryExporter.create();
    exporter.hold();
    Outcomes outcomes = new Outcomes();
    Producer p = new Producer(config().build(), exporter);
    p.send(LogRecord.builder().setBody("held").build(), outcomes);
    assertTrue(Outcomes.until(() -> exporter.heldCalls() == 1, 30_000), "one call held");
    assertEquals(0, outcomes.total());
    exporter.release();
    outcomes.awaitCount(1, 30_000);
    assertEquals(0, exporter.heldCalls());
    assertEquals(SendResult.Status.DELIVERED, outcomes.all().get(0).getStatus());

    exporter.hold();
    p.send(LogRecord.builder().setBody("held at close").build(), outcomes);
    assertTrue(Outcomes.until(() -> exporter.heldCalls() == 1, 30_000));
    p.close(200);
    outcomes.awaitCount(2, 30_000);
    assertTrue(exporter.isClosed());
    assertEquals(SendResult.Status.FAILED_AT_CLOSE, outcomes.all().get(1).getStatus());
    assertEquals(0, exporter.heldCalls());
  }

  @Test
  void aDelayHoldsEachCallThatLong() {
    InMemoryExporter exporter = InMemoryExporter.create();
    exporter.setDelayMillis(100);
    long start = System.nanoTime();
    try (Producer p = new Producer(config().build(), exporter)) {
      p.send(LogRecord.builder().setBody("slow").build());
      p.flush();
    }
    assertTrue(System.nanoTime() - start >= 100_000_000L);
    assertEquals(1, exporter.records().size());
  }

  @Test
  void withoutRetainingOnlyCountsAreKept() {
    InMemoryExporter exporter = InMemoryExporter.builder().setRetaining(false).build();
    try (Producer p = new Producer(config().setBatchCountThreshold(10).build(), exporter)) {
      for (int i = 0; i < 25; i++) {
        p.send(LogRecord.builder().setBody("r" + i).build());
      }
      p.flush();
    }
    assertEquals(3, exporter.exportCalls());
    assertEquals(25, exporter.recordsDelivered());
    assertTrue(exporter.batches().isEmpty());
    assertTrue(exporter.records().isEmpty());
  }

  @Test
  void resetForgetsBatchesCountsAndScripts() {
    InMemoryExporter exporter = InMemoryExporter.create();
    ProducerConfig config = config().build();
    try (Producer p = new Producer(config, exporter)) {
      p.send(LogRecord.builder().setBody("before").build());
      p.flush();
      exporter.failNext(5, ExportResult.rejected("no"));
      exporter.respondWith(b -> ExportResult.rejected("no"));
      exporter.reset();
      assertEquals(0, exporter.exportCalls());
      assertEquals(0, exporter.recordsDelivered());
      assertTrue(exporter.batches().isEmpty());
      p.send(LogRecord.builder().setBody("after").build());
      p.flush();
    }
    assertEquals(1, exporter.bodies().size());
    assertEquals("after", exporter.bodies().get(0));
    assertSame(config, exporter.startedWith());
    assertTrue(exporter.awaitRecords(1, 0));
  }

  @Test
  void declaredCapabilitiesAndSettersValidate() {
    InMemoryExporter exporter = InMemoryExporter.create();
    assertEquals(Compression.NONE, exporter.capabilities().defaultCompression());
    assertEquals(
        InMemoryExporter.DEFAULT_MAX_BATCH_SIZE_IN_BYTES,
        exporter.capabilities().maxBatchSizeInBytes());
    assertEquals(0, exporter.capabilities().requestTimeoutMillis());
    assertEquals("memory://in-memory", exporter.describe());
    exporter.setMaxBatchSizeInBytes(1000);
    exporter.setRequestTimeoutMillis(50);
    assertEquals(1000, exporter.capabilities().maxBatchSizeInBytes());
    assertEquals(50, exporter.capabilities().requestTimeoutMillis());
    assertEquals(
        "maxBatchSizeInBytes must be at least 1, was 0",
        assertThrows(IllegalArgumentException.class, () -> exporter.setMaxBatchSizeInBytes(0))
            .getMessage());
    assertEquals(
        "requestTimeoutMillis must be at least 0, was -1",
        assertThrows(IllegalArgumentException.class, () -> exporter.setRequestTimeoutMillis(-1))
            .getMessage());
    assertEquals(
        "delayMillis must be at least 0, was -5",
        assertThrows(IllegalArgumentException.class, () -> exporter.setDelayMillis(-5))
            .getMessage());
    assertEquals(
        "times must be at least 0, was -1",
        assertThrows(
                IllegalArgumentException.class, () -> exporter.failNext(-1, ExportResult.success()))
            .getMessage());
    assertEquals(
        "answers must not contain null",
        assertThrows(IllegalArgumentException.class, () -> exporter.answerNext((ExportResult) null))
            .getMessage());
    assertEquals(
        "responder must not be null",
        assertThrows(IllegalArgumentException.class, () -> exporter.respondWith(null))
            .getMessage());
  }
}
