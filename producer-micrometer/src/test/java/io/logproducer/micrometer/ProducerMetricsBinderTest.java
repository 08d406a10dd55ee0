package io.logproducer.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.ProducerMetrics;
import io.logproducer.SpoolConfig;
import io.logproducer.SpoolDurability;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.testing.InMemoryExporter;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.logproducer.testing.otlp.Reply;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The binder on a real producer with the real OTLP exporter, to the test kit's OTLP receiver on
 * 127.0.0.1, read through a {@link SimpleMeterRegistry}.
 */
class ProducerMetricsBinderTest {

  private static final AtomicInteger IDS = new AtomicInteger();

  /** The meters of a producer without a spool, by name. */
  private static final Set<String> NAMES =
      Set.of(
          "logproducer.accepted",
          "logproducer.records",
          "logproducer.batches",
          "logproducer.sent.uncompressed",
          "logproducer.sent.wire",
          "logproducer.retries",
          "logproducer.send.blocked",
          "logproducer.buffer.used",
          "logproducer.buffer.peak",
          "logproducer.buffer.limit",
          "logproducer.send.waiting",
          "logproducer.requests",
          "logproducer.requests.max");

  private OtlpReceiver receiver;
  private MeterRegistry registry;
  private String clientId;

  @BeforeEach
  void start() throws Exception {
    receiver = OtlpReceiver.start();
    registry = new SimpleMeterRegistry();
    clientId = "mm-" + IDS.incrementAndGet();
  }

  @AfterEach
  void stop() {
    receiver.close();
    registry.close();
  }

  private ProducerConfig.Builder config() {
    return ProducerConfig.builder()
        .setClientId(clientId)
        .setJmxEnabled(false)
        .setLingerMillis(60_000)
        .setBatchCountThreshold(100)
        .setInitialRetryBackoffMillis(20)
        .setMaxRetryBackoffMillis(50);
  }

  private Producer producer(ProducerConfig config) {
    return new Producer(
        config,
        OtlpHttpExporter.builder()
            .setEndpoint(receiver.endpoint())
            .setTimeoutMillis(5_000)
            .build());
  }

  private static void send(Producer producer, int n) {
    for (int i = 0; i < n; i++) {
      producer.send(LogRecord.builder().setBody("r-" + i).build());
    }
    producer.flush();
  }

  private double counter(String name, String outcome) {
    return outcome == null
        ? registry.get(name).functionCounter().count()
        : registry.get(name).tag("outcome", outcome).functionCounter().count();
  }

  private double gauge(String name) {
    return registry.get(name).gauge().value();
  }

  private Set<String> meterNames() {
    Set<String> names = new TreeSet<>();
    for (Meter m : registry.getMeters()) {
      names.add(m.getId().getName());
    }
    return names;
  }

  @Test
  void runsOnTheExpectedMicrometer() {
    String expected = System.getProperty("expected.micrometer.version");
    assertNotNull(expected, "expected.micrometer.version is set by the pom");
    assertEquals(expected, MeterRegistry.class.getPackage().getImplementationVersion());
  }

  @Test
  void deliveredRecordsBatchesBytesAndLatencyAreTheProducersExactly() {
    try (Producer producer = producer(config().setTotalSizeInBytes(8L << 20).build());
        ProducerMetricsBinder binder =
            new ProducerMetricsBinder(producer, Tags.of("app", "checkout"))) {
      binder.bindTo(registry);
      send(producer, 250);
      ProducerMetrics m = producer.getMetrics();

      assertEquals(new TreeSet<>(NAMES), meterNames());
      for (Meter meter : registry.getMeters()) {
        assertEquals(clientId, meter.getId().getTag("client.id"), meter.getId().toString());
        assertEquals("otlp", meter.getId().getTag("exporter"), meter.getId().toString());
        assertEquals("checkout", meter.getId().getTag("app"), meter.getId().toString());
      }
      assertEquals(
          List.of(
              Tag.of("client.id", clientId), Tag.of("exporter", "otlp"), Tag.of("app", "checkout")),
          binder.getTags());
      assertEquals(250, counter("logproducer.accepted", null));
      assertEquals(250, counter("logproducer.records", "delivered"));
      assertEquals(0, counter("logproducer.records", "rejected"));
      assertEquals(0, counter("logproducer.records", "failed"));
      assertEquals(0, counter("logproducer.records", "dropped"));
      assertNull(registry.find("logproducer.records").tag("outcome", "spooled").meter());
      assertEquals(250, receiver.acceptedRecords());
      // 100 + 100 by batchCountThreshold, 50 sealed by flush: one shard (one sending thread)
      assertEquals(3, counter("logproducer.batches", "delivered"));
      assertEquals(3, receiver.acceptedRequests());
      assertEquals(0, counter("logproducer.batches", "failed"));
      assertTrue(m.getBytesSent() > 0, m.toString());
      assertEquals(m.getBytesSent(), counter("logproducer.sent.uncompressed", null));
      assertEquals(receiver.acceptedWireBytes(), counter("logproducer.sent.wire", null));
      assertEquals(m.getWireBytesSent(), counter("logproducer.sent.wire", null));
      assertEquals(0, counter("logproducer.retries", null));
      assertEquals(0, counter("logproducer.send.blocked", null));
      assertEquals(0, gauge("logproducer.buffer.used"));
      assertEquals(m.getPeakBufferedBytes(), gauge("logproducer.buffer.peak"));
      assertTrue(m.getPeakBufferedBytes() > 0, m.toString());
      assertEquals(8L << 20, gauge("logproducer.buffer.limit"));
      assertEquals(0, gauge("logproducer.send.waiting"));

      FunctionTimer requests = registry.get("logproducer.requests").functionTimer();
      assertEquals(3, requests.count());
      // through Micrometer's unit conversions (ns -> base unit -> ns): exact up to 1 ns
      assertEquals(m.getRequestLatencyNanosTotal(), requests.totalTime(TimeUnit.NANOSECONDS), 1.0);
      assertTrue(requests.totalTime(TimeUnit.NANOSECONDS) > 0);
      assertEquals(
          m.getRequestLatencyNanosMax(),
          registry.get("logproducer.requests.max").timeGauge().value(TimeUnit.NANOSECONDS),
          1.0);
      assertEquals("bytes", registry.get("logproducer.sent.wire").meter().getId().getBaseUnit());
      assertEquals(
          "seconds", registry.get("logproducer.send.blocked").meter().getId().getBaseUnit());
    }
  }

  @Test
  void recordsRejectedBy500AreCountedExactly() {
    receiver.respond(r -> Reply.status(500));
    try (Producer producer = producer(config().build());
        ProducerMetricsBinder binder = new ProducerMetricsBinder(producer)) {
      binder.bindTo(registry);
      send(producer, 120);
      assertEquals(120, counter("logproducer.accepted", null));
      assertEquals(120, counter("logproducer.records", "rejected"));
      assertEquals(0, counter("logproducer.records", "delivered"));
      assertEquals(0, counter("logproducer.records", "failed"));
      assertEquals(2, counter("logproducer.batches", "failed"));
      assertEquals(0, counter("logproducer.batches", "delivered"));
      assertEquals(0, counter("logproducer.sent.wire", null));
      assertEquals(0, counter("logproducer.retries", null));
      assertEquals(2, registry.get("logproducer.requests").functionTimer().count());
    }
  }

  @Test
  void recordsFailedWithTheReceiverDownAreCountedExactly() {
    receiver.refuse();
    try (Producer producer = producer(config().setRetries(2).build());
        ProducerMetricsBinder binder = new ProducerMetricsBinder(producer)) {
      binder.bindTo(registry);
      send(producer, 150);
      ProducerMetrics m = producer.getMetrics();
      assertEquals(150, counter("logproducer.records", "failed"), m.toString());
      assertEquals(0, counter("logproducer.records", "delivered"));
      assertEquals(0, counter("logproducer.records", "rejected"));
      assertEquals(2, counter("logproducer.batches", "failed"));
      // two batches, each tried once and retried twice
      assertEquals(4, counter("logproducer.retries", null));
      assertEquals(m.getRequests(), registry.get("logproducer.requests").functionTimer().count());
    }
  }

  @Test
  void closeRemovesEveryMeterAndLaterBindsNothing() {
    try (Producer producer = producer(config().build())) {
      ProducerMetricsBinder binder = new ProducerMetricsBinder(producer);
      registry.counter("app.requests").increment();
      binder.bindTo(registry);
      assertEquals(NAMES.size() + 1, meterNames().size());
      binder.close();
      assertEquals(Set.of("app.requests"), meterNames());
      binder.close();
      binder.bindTo(registry);
      assertEquals(Set.of("app.requests"), meterNames());
    }
  }

  @Test
  void aReplacedProducersMetersGiveWayAndItsBinderLeavesTheNewOnes() {
    try (Producer old = producer(config().build())) {
      ProducerMetricsBinder oldBinder = new ProducerMetricsBinder(old);
      oldBinder.bindTo(registry);
      send(old, 10);
      try (Producer replacement = producer(config().build());
          ProducerMetricsBinder binder = new ProducerMetricsBinder(replacement)) {
        binder.bindTo(registry);
        assertEquals(0, counter("logproducer.accepted", null), "the new producer's meter");
        send(replacement, 7);
        assertEquals(7, counter("logproducer.records", "delivered"));
        oldBinder.close();
        assertEquals(new TreeSet<>(NAMES), meterNames());
        assertEquals(7, counter("logproducer.records", "delivered"));
      }
    }
  }

  @Test
  void spoolMetersOnlyWithASpool(@TempDir Path dir) {
    SpoolConfig spool =
        SpoolConfig.builder(dir.resolve("spool"))
            .setSegmentBytes(64 * 1024)
            .setMaxBytes(8L << 20)
            .build();
    try (Producer producer =
            producer(config().setBatchSizeInBytes(32 * 1024).setSpool(spool).build());
        ProducerMetricsBinder binder = new ProducerMetricsBinder(producer)) {
      binder.bindTo(registry);
      send(producer, 30);
      ProducerMetrics m = producer.getMetrics();
      Set<String> expected = new TreeSet<>(NAMES);
      expected.addAll(
          List.of(
              "logproducer.spool.disk.used",
              "logproducer.spool.pending",
              "logproducer.spool.replayed",
              "logproducer.spool.records",
              "logproducer.spool.corrupt",
              "logproducer.spool.lost",
              "logproducer.spool.unwritten"));
      assertEquals(expected, meterNames());
      assertEquals(30, counter("logproducer.records", "delivered"));
      assertEquals(0, counter("logproducer.records", "spooled"));
      assertEquals(0, counter("logproducer.batches", "spooled"));
      assertTrue(m.getSpoolBytesOnDisk() > 0, m.toString());
      assertEquals(m.getSpoolBytesOnDisk(), gauge("logproducer.spool.disk.used"));
      assertEquals(m.getSpoolPendingBatches(), gauge("logproducer.spool.pending"));
      for (String outcome : List.of("delivered", "refused", "expired", "dropped")) {
        assertEquals(0, counter("logproducer.spool.records", outcome), outcome);
      }
      assertEquals(0, counter("logproducer.spool.replayed", null));
      assertEquals(0, counter("logproducer.spool.corrupt", null));
      assertEquals(0, counter("logproducer.spool.lost", null));
      assertEquals(m.getSpoolBatchesNotWritten(), counter("logproducer.spool.unwritten", null));
    }
  }

  @Test
  void spooledRecordsAndTheirReplayAreCountedExactly(@TempDir Path dir) throws Exception {
    SpoolConfig spool =
        SpoolConfig.builder(dir.resolve("spool"))
            .setSegmentBytes(64 * 1024)
            .setMaxBytes(8L << 20)
            // durable once written: the retries (about 100 ms) end before a 200 ms group commit
            // would
            .setDurability(SpoolDurability.NONE)
            .build();
    receiver.refuse();
    try (Producer producer =
            producer(
                config()
                    .setBatchCountThreshold(30)
                    .setBatchSizeInBytes(32 * 1024)
                    .setRetries(2)
                    .setSpool(spool)
                    .build());
        ProducerMetricsBinder binder = new ProducerMetricsBinder(producer)) {
      binder.bindTo(registry);
      send(producer, 60);
      // two batches of 30, out of retries with the receiver down: stored in the spool
      assertEquals(60, counter("logproducer.records", "spooled"), producer.getMetrics().toString());
      assertEquals(2, counter("logproducer.batches", "spooled"));
      assertEquals(0, counter("logproducer.records", "failed"));
      assertEquals(0, counter("logproducer.records", "delivered"));
      assertTrue(gauge("logproducer.spool.disk.used") > 0);

      receiver.resume();
      assertTrue(
          Outcomes.until(() -> counter("logproducer.spool.records", "delivered") == 60, 30_000),
          () -> producer.getMetrics().toString());
      assertTrue(
          Outcomes.until(() -> gauge("logproducer.spool.pending") == 0, 30_000),
          () -> producer.getMetrics().toString());
      assertEquals(60, receiver.acceptedRecords());
      assertEquals(60, counter("logproducer.spool.replayed", null));
      for (String outcome : List.of("refused", "expired", "dropped")) {
        assertEquals(0, counter("logproducer.spool.records", outcome), outcome);
      }
      assertEquals(0, counter("logproducer.spool.corrupt", null));
      assertEquals(0, counter("logproducer.spool.lost", null));
      assertEquals(0, counter("logproducer.spool.unwritten", null));
      assertEquals(60, counter("logproducer.records", "spooled"));
    }
  }

  @Test
  void theExporterTagOfACustomExporterIsItsClassName() {
    try (Producer producer = new Producer(config().build(), InMemoryExporter.create());
        ProducerMetricsBinder binder = new ProducerMetricsBinder(producer)) {
      assertEquals("inmemory", producer.getExporterName());
      assertEquals(Tag.of("exporter", "inmemory"), binder.getTags().get(1));
    }
  }

  @Test
  void extraTagsMustNotSetTheBindersOwn() {
    try (Producer producer = producer(config().build())) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> new ProducerMetricsBinder(producer, Tags.of("client.id", "x")));
      assertEquals("extraTags must not have a client.id tag: the binder sets it", e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> new ProducerMetricsBinder(null));
    }
  }
}
