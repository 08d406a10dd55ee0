package io.logproducer.micrometer;

import io.logproducer.Producer;
import io.logproducer.ProducerMetrics;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import java.util.List;
import java.util.function.Function;

/**
 * The definitions of the disk spool's meters ({@code logproducer.spool.*}), added only for a
 * producer configured with a spool ({@link io.logproducer.ProducerConfig#getSpool()} not null).
 */
final class SpoolMeters {

  private static final String RECORDS = "records";
  private static final String BATCHES = "batches";

  private SpoolMeters() {}

  static void add(List<Function<MeterRegistry, Meter>> m, Producer producer, List<Tag> tags) {
    m.add(
        ProducerMeters.gauge(
            producer,
            tags,
            "spool.disk.used",
            "bytes",
            "Bytes the spool's files take on disk now",
            ProducerMetrics::getSpoolBytesOnDisk));
    m.add(
        ProducerMeters.gauge(
            producer,
            tags,
            "spool.pending",
            BATCHES,
            "Batches stored in the spool and not yet acknowledged",
            ProducerMetrics::getSpoolPendingBatches));
    m.add(
        ProducerMeters.counter(
            producer,
            tags,
            "spool.replayed",
            RECORDS,
            null,
            "Records of stored batches replayed from the spool (each batch counted once)",
            ProducerMetrics::getSpoolRecordsReplayed));
    String stored = "Records stored in the spool, by final outcome";
    m.add(
        ProducerMeters.counter(
            producer,
            tags,
            "spool.records",
            RECORDS,
            "delivered",
            stored,
            ProducerMetrics::getSpoolRecordsDelivered));
    m.add(
        ProducerMeters.counter(
            producer,
            tags,
            "spool.records",
            RECORDS,
            "refused",
            stored,
            ProducerMetrics::getSpoolRecordsRefused));
    m.add(
        ProducerMeters.counter(
            producer,
            tags,
            "spool.records",
            RECORDS,
            "expired",
            stored,
            ProducerMetrics::getSpoolRecordsExpired));
    m.add(
        ProducerMeters.counter(
            producer,
            tags,
            "spool.records",
            RECORDS,
            "dropped",
            stored,
            ProducerMetrics::getSpoolRecordsDropped));
    m.add(
        ProducerMeters.counter(
            producer,
            tags,
            "spool.corrupt",
            BATCHES,
            null,
            "Stored batches found damaged and skipped",
            ProducerMetrics::getSpoolBatchesCorrupt));
    m.add(
        ProducerMeters.counter(
            producer,
            tags,
            "spool.lost",
            BATCHES,
            null,
            "Stored batches lost with a missing, emptied or shortened segment file",
            ProducerMetrics::getSpoolBatchesLost));
    m.add(
        ProducerMeters.counter(
            producer,
            tags,
            "spool.unwritten",
            BATCHES,
            null,
            "Batches the spool did not store (full, disk failed, too large)",
            ProducerMetrics::getSpoolBatchesNotWritten));
  }
}
