package io.logproducer.micrometer;

import io.logproducer.Producer;
import io.logproducer.ProducerMetrics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.TimeGauge;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The definitions of the producer's meters (names, types, units, tags, and the {@link
 * ProducerMetrics} getter each reads); the table is in {@link ProducerMetricsBinder}. Every meter
 * holds the producer weakly (Micrometer's function meters keep a {@link
 * java.lang.ref.WeakReference} to their object) and reads it through {@link Producer#getMetrics()},
 * which takes no lock of the binder's and sums the producer's counters.
 */
final class ProducerMeters {

  static final String PREFIX = "logproducer.";
  static final String OUTCOME = "outcome";
  private static final String BYTES = "bytes";
  private static final String RECORDS = "records";
  private static final String BATCHES = "batches";

  private ProducerMeters() {}

  /**
   * The meters of {@code producer}, each as a function that registers it in a registry and returns
   * the registered meter. The list holds the producer strongly: it is meant to be used at once and
   * dropped.
   *
   * @param producer the producer, not null
   * @param tags the tags every meter gets
   * @param spool whether to add the spool's meters
   * @return the registering functions, in the binder's table order
   */
  static List<Function<MeterRegistry, Meter>> of(Producer producer, List<Tag> tags, boolean spool) {
    List<Function<MeterRegistry, Meter>> m = new ArrayList<>();
    addOutcomes(m, producer, tags, spool);
    addTraffic(m, producer, tags);
    addLevels(m, producer, tags);
    addRequests(m, producer, tags);
    if (spool) {
      SpoolMeters.add(m, producer, tags);
    }
    return m;
  }

  private static void addOutcomes(
      List<Function<MeterRegistry, Meter>> m, Producer producer, List<Tag> tags, boolean spool) {
    m.add(
        counter(
            producer,
            tags,
            "accepted",
            RECORDS,
            null,
            "Records accepted by send",
            ProducerMetrics::getRecordsAccepted));
    String records = "Records by final outcome (dropped: never accepted, buffer full)";
    m.add(
        counter(
            producer,
            tags,
            RECORDS,
            RECORDS,
            "delivered",
            records,
            ProducerMetrics::getRecordsSent));
    m.add(
        counter(
            producer,
            tags,
            RECORDS,
            RECORDS,
            "rejected",
            records,
            ProducerMetrics::getRecordsRejected));
    m.add(
        counter(
            producer,
            tags,
            RECORDS,
            RECORDS,
            "failed",
            records,
            ProducerMetrics::getRecordsFailed));
    m.add(
        counter(
            producer,
            tags,
            RECORDS,
            RECORDS,
            "dropped",
            records,
            ProducerMetrics::getRecordsDropped));
    if (spool) {
      m.add(
          counter(
              producer,
              tags,
              RECORDS,
              RECORDS,
              "spooled",
              records,
              ProducerMetrics::getRecordsSpooled));
    }
    String batches = "Batches by outcome";
    m.add(
        counter(
            producer,
            tags,
            BATCHES,
            BATCHES,
            "delivered",
            batches,
            ProducerMetrics::getBatchesSent));
    m.add(
        counter(
            producer,
            tags,
            BATCHES,
            BATCHES,
            "failed",
            batches,
            ProducerMetrics::getBatchesFailed));
    if (spool) {
      m.add(
          counter(
              producer,
              tags,
              BATCHES,
              BATCHES,
              "spooled",
              batches,
              ProducerMetrics::getBatchesSpooled));
    }
  }

  private static void addTraffic(
      List<Function<MeterRegistry, Meter>> m, Producer producer, List<Tag> tags) {
    m.add(
        counter(
            producer,
            tags,
            "sent.uncompressed",
            BYTES,
            null,
            "Encoded record bytes of delivered batches, before compression",
            ProducerMetrics::getBytesSent));
    m.add(
        counter(
            producer,
            tags,
            "sent.wire",
            BYTES,
            null,
            "Request body bytes of delivered batches, after compression",
            ProducerMetrics::getWireBytesSent));
    m.add(
        counter(
            producer,
            tags,
            "retries",
            null,
            null,
            "Export attempts that were retries",
            ProducerMetrics::getRetries));
    m.add(
        counter(
            producer,
            tags,
            "send.blocked",
            "seconds",
            null,
            "Time send callers spent blocked waiting for buffer space",
            r -> r.getSendBlockedNanos() / 1e9));
  }

  private static void addLevels(
      List<Function<MeterRegistry, Meter>> m, Producer producer, List<Tag> tags) {
    m.add(
        gauge(
            producer,
            tags,
            "buffer.used",
            BYTES,
            "Bytes of the budget the batches hold now",
            ProducerMetrics::getBufferedBytes));
    m.add(
        gauge(
            producer,
            tags,
            "buffer.peak",
            BYTES,
            "Highest use of the budget seen, pooled chunks included",
            ProducerMetrics::getPeakBufferedBytes));
    m.add(
        gauge(
            producer,
            tags,
            "buffer.limit",
            BYTES,
            "The budget (totalSizeInBytes)",
            ProducerMetrics::getTotalSizeInBytes));
    m.add(
        gauge(
            producer,
            tags,
            "send.waiting",
            "threads",
            "Threads blocked in send waiting for buffer space now",
            ProducerMetrics::getWaitingThreads));
  }

  private static void addRequests(
      List<Function<MeterRegistry, Meter>> m, Producer producer, List<Tag> tags) {
    m.add(
        registry ->
            FunctionTimer.builder(
                    PREFIX + "requests",
                    producer,
                    p -> p.getMetrics().getRequests(),
                    p -> p.getMetrics().getRequestLatencyNanosTotal(),
                    TimeUnit.NANOSECONDS)
                .tags(tags)
                .description("Export requests (attempts, retries included) and their latency")
                .register(registry));
    m.add(
        registry ->
            TimeGauge.builder(
                    PREFIX + "requests.max",
                    producer,
                    TimeUnit.NANOSECONDS,
                    p -> p.getMetrics().getRequestLatencyNanosMax())
                .tags(tags)
                .description("Longest export request latency since the producer started")
                .register(registry));
  }

  /**
   * A {@link FunctionCounter} {@code logproducer.<name>}.
   *
   * @param outcome the {@code outcome} tag's value, or null for none
   */
  static Function<MeterRegistry, Meter> counter(
      Producer producer,
      List<Tag> tags,
      String name,
      String baseUnit,
      String outcome,
      String description,
      ToDoubleFunction<ProducerMetrics> read) {
    return registry -> {
      FunctionCounter.Builder<Producer> b =
          FunctionCounter.builder(PREFIX + name, producer, p -> read.applyAsDouble(p.getMetrics()))
              .tags(tags)
              .baseUnit(baseUnit)
              .description(description);
      if (outcome != null) {
        b.tag(OUTCOME, outcome);
      }
      return b.register(registry);
    };
  }

  /** A {@link Gauge} {@code logproducer.<name>}. */
  static Function<MeterRegistry, Meter> gauge(
      Producer producer,
      List<Tag> tags,
      String name,
      String baseUnit,
      String description,
      ToDoubleFunction<ProducerMetrics> read) {
    return registry ->
        Gauge.builder(PREFIX + name, producer, p -> read.applyAsDouble(p.getMetrics()))
            .tags(tags)
            .baseUnit(baseUnit)
            .description(description)
            .register(registry);
  }
}
