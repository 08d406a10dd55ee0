package io.logproducer.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.logproducer.LogRecord;
import io.logproducer.Producer;
import io.logproducer.ProducerConfig;
import io.logproducer.SpoolConfig;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.testing.otlp.OtlpReceiver;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Prometheus names docs/micrometer.md lists, from Micrometer's Prometheus registry. */
class PrometheusNamesTest {

  @Test
  void theScrapeHasTheDocumentedNames(@TempDir Path dir) throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (OtlpReceiver receiver = OtlpReceiver.start();
        Producer producer =
            new Producer(
                ProducerConfig.builder()
                    .setClientId("mm-prometheus")
                    .setJmxEnabled(false)
                    .setBatchSizeInBytes(32 * 1024) // requests fit the 64 KiB segments
                    .setSpool(
                        SpoolConfig.builder(dir)
                            .setSegmentBytes(64 * 1024)
                            .setMaxBytes(8L << 20)
                            .build())
                    .build(),
                OtlpHttpExporter.builder().setEndpoint(receiver.endpoint()).build());
        ProducerMetricsBinder binder = new ProducerMetricsBinder(producer)) {
      binder.bindTo(registry);
      producer.send(LogRecord.builder().setBody("one").build());
      producer.flush();
      Set<String> names = new TreeSet<>();
      String scrape = registry.scrape();
      for (String line : scrape.split("\n")) {
        if (!line.startsWith("#") && !line.isEmpty()) {
          names.add(line.substring(0, line.indexOf('{')));
        }
      }
      assertEquals(
          new TreeSet<>(
              Set.of(
                  "logproducer_accepted_records_total",
                  "logproducer_records_total",
                  "logproducer_batches_total",
                  "logproducer_sent_uncompressed_bytes_total",
                  "logproducer_sent_wire_bytes_total",
                  "logproducer_retries_total",
                  "logproducer_send_blocked_seconds_total",
                  "logproducer_buffer_used_bytes",
                  "logproducer_buffer_peak_bytes",
                  "logproducer_buffer_limit_bytes",
                  "logproducer_send_waiting_threads",
                  "logproducer_requests_seconds_count",
                  "logproducer_requests_seconds_sum",
                  "logproducer_requests_max_seconds",
                  "logproducer_spool_disk_used_bytes",
                  "logproducer_spool_pending_batches",
                  "logproducer_spool_replayed_records_total",
                  "logproducer_spool_records_total",
                  "logproducer_spool_corrupt_batches_total",
                  "logproducer_spool_lost_batches_total",
                  "logproducer_spool_unwritten_batches_total")),
          names,
          scrape);
      assertTrue(
          scrape.contains(
              "logproducer_records_total{client_id=\"mm-prometheus\",exporter=\"otlp\","
                  + "outcome=\"delivered\",} 1.0"),
          scrape);
    } finally {
      registry.close();
    }
  }
}
