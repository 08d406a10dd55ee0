package io.logproducer.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.testing.Outcomes;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.ref.Reference;
import java.lang.ref.WeakReference;
import org.junit.jupiter.api.Test;

/** Neither the binder nor its meters keep a closed producer reachable. */
class ProducerMetricsBinderReferenceTest {

  @Test
  void aClosedProducerIsCollectedWhileItsBinderAndMetersLive() throws Exception {
    try (OtlpReceiver receiver = OtlpReceiver.start()) {
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      ProducerMetricsBinder[] binder = new ProducerMetricsBinder[1];
      WeakReference<Producer> ref = closedProducer(receiver, registry, binder);

      boolean collected =
          Outcomes.until(
              () -> {
                System.gc();
                return ref.get() == null;
              },
              20_000);
      assertTrue(collected, "the producer is still reachable");
      // the meters are still registered and can be read (last value, or NaN for gauges)
      for (Meter m : registry.getMeters()) {
        m.measure().forEach(measurement -> measurement.getValue());
      }
      SimpleMeterRegistry later = new SimpleMeterRegistry();
      binder[0].bindTo(later);
      assertEquals(0, later.getMeters().size(), "nothing to bind once the producer is gone");
      binder[0].close();
      assertEquals(0, registry.getMeters().size());
      Reference.reachabilityFence(binder);
    }
  }

  /** A producer that sent 5 records and was closed, bound to {@code registry}; held weakly. */
  private static WeakReference<Producer> closedProducer(
      OtlpReceiver receiver, SimpleMeterRegistry registry, ProducerMetricsBinder[] binder) {
    Producer producer =
        new Producer(
            ProducerConfig.builder().setClientId("mm-ref").setJmxEnabled(false).build(),
            OtlpHttpExporter.builder().setEndpoint(receiver.endpoint()).build());
    binder[0] = new ProducerMetricsBinder(producer);
    binder[0].bindTo(registry);
    for (int i = 0; i < 5; i++) {
      producer.send(LogRecord.builder().setBody("r-" + i).build());
    }
    producer.close();
    assertEquals(
        5,
        registry.get("logproducer.records").tag("outcome", "delivered").functionCounter().count());
    return new WeakReference<>(producer);
  }
}
