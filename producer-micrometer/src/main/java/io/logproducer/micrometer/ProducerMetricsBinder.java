package io.logproducer.micrometer;

import io.logproducer.Producer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Publishes a {@link Producer}'s metrics ({@link io.logproducer.ProducerMetrics}) to Micrometer
 * registries, with or without Spring:
 *
 * <pre>{@code
 * ProducerMetricsBinder binder = new ProducerMetricsBinder(producer, Tags.of("app", "checkout"));
 * binder.bindTo(registry);
 * ...
 * binder.close();   // removes the meters; then producer.close()
 * }</pre>
 *
 * <p><b>Meters.</b> Every meter carries the tags {@code client.id} (the producer's {@link
 * io.logproducer.ProducerConfig#getClientId()}) and {@code exporter} ({@link
 * Producer#getExporterName()}: {@code otlp}, {@code gse}, {@code kafka}), then the extra tags.
 * Counters are Micrometer {@code FunctionCounter}s over the producer's cumulative counters; levels
 * are gauges. The names in Prometheus's form are those Micrometer's Prometheus registry derives.
 *
 * <table>
 *   <caption>Meters</caption>
 *   <tr><th>Name</th><th>Type</th><th>Base unit</th><th>Extra tag</th><th>Value</th></tr>
 *   <tr><td>{@code logproducer.accepted}</td><td>counter</td><td>records</td><td></td>
 *       <td>records accepted by {@code send}</td></tr>
 *   <tr><td>{@code logproducer.records}</td><td>counter</td><td>records</td>
 *       <td>{@code outcome}: {@code delivered}, {@code rejected}, {@code failed}, {@code dropped},
 *       {@code spooled} (with a spool)</td>
 *       <td>records by final outcome; {@code dropped} records were never accepted (buffer full
 *       under {@code DROP})</td></tr>
 *   <tr><td>{@code logproducer.batches}</td><td>counter</td><td>batches</td>
 *       <td>{@code outcome}: {@code delivered}, {@code failed}, {@code spooled} (with a
 *       spool)</td><td>batches by outcome ({@code failed}: rejected or failed)</td></tr>
 *   <tr><td>{@code logproducer.sent.uncompressed}</td><td>counter</td><td>bytes</td><td></td>
 *       <td>encoded record bytes of delivered batches, before compression</td></tr>
 *   <tr><td>{@code logproducer.sent.wire}</td><td>counter</td><td>bytes</td><td></td>
 *       <td>request body bytes of delivered batches, after compression</td></tr>
 *   <tr><td>{@code logproducer.retries}</td><td>counter</td><td></td><td></td>
 *       <td>export attempts that were retries</td></tr>
 *   <tr><td>{@code logproducer.send.blocked}</td><td>counter</td><td>seconds</td><td></td>
 *       <td>time {@code send} callers spent blocked waiting for buffer space</td></tr>
 *   <tr><td>{@code logproducer.buffer.used}</td><td>gauge</td><td>bytes</td><td></td>
 *       <td>bytes of the budget the batches hold now</td></tr>
 *   <tr><td>{@code logproducer.buffer.peak}</td><td>gauge</td><td>bytes</td><td></td>
 *       <td>highest use of the budget seen</td></tr>
 *   <tr><td>{@code logproducer.buffer.limit}</td><td>gauge</td><td>bytes</td><td></td>
 *       <td>the budget, {@code totalSizeInBytes}</td></tr>
 *   <tr><td>{@code logproducer.send.waiting}</td><td>gauge</td><td>threads</td><td></td>
 *       <td>threads blocked in {@code send} now</td></tr>
 *   <tr><td>{@code logproducer.requests}</td><td>function timer</td><td>seconds</td><td></td>
 *       <td>count: export requests (retries included); total: their latency</td></tr>
 *   <tr><td>{@code logproducer.requests.max}</td><td>time gauge</td><td>seconds</td><td></td>
 *       <td>longest export request latency since the producer started</td></tr>
 *   <tr><td>{@code logproducer.spool.disk.used}</td><td>gauge</td><td>bytes</td><td></td>
 *       <td>spool only: bytes the spool's files take on disk</td></tr>
 *   <tr><td>{@code logproducer.spool.pending}</td><td>gauge</td><td>batches</td><td></td>
 *       <td>spool only: stored batches not yet acknowledged</td></tr>
 *   <tr><td>{@code logproducer.spool.replayed}</td><td>counter</td><td>records</td><td></td>
 *       <td>spool only: records of stored batches replayed (each batch once)</td></tr>
 *   <tr><td>{@code logproducer.spool.records}</td><td>counter</td><td>records</td>
 *       <td>{@code outcome}: {@code delivered}, {@code refused}, {@code expired}, {@code
 *       dropped}</td><td>spool only: stored records by final outcome</td></tr>
 *   <tr><td>{@code logproducer.spool.corrupt}</td><td>counter</td><td>batches</td><td></td>
 *       <td>spool only: stored batches found damaged and skipped</td></tr>
 *   <tr><td>{@code logproducer.spool.lost}</td><td>counter</td><td>batches</td><td></td>
 *       <td>spool only: stored batches lost with a segment file found missing, emptied or cut
 *       short</td></tr>
 *   <tr><td>{@code logproducer.spool.unwritten}</td><td>counter</td><td>batches</td><td></td>
 *       <td>spool only: batches the spool did not store</td></tr>
 * </table>
 *
 * <p>{@code accepted} is its own meter, not an {@code outcome} of {@code logproducer.records}: the
 * outcomes partition the records offered to {@code send}, so their sum is meaningful (records
 * accepted plus dropped, less those still in memory), which it would not be with {@code accepted}
 * among them. Likewise {@code spool.replayed} is apart from {@code spool.records}. The producer's
 * last error and the spool's last problem are text, not meters: read {@link
 * io.logproducer.ProducerMetrics#getLastError()} and {@link
 * io.logproducer.ProducerMetrics#getLastSpoolError()}.
 *
 * <p><b>References and lifetime.</b> The binder and its meters hold the producer through weak
 * references (as Micrometer's own binders hold their objects): a closed and forgotten producer is
 * collected; its meters then read as Micrometer's function meters read a collected object (counters
 * and timers their last value, gauges NaN) until {@link #close()} removes them. Each reading takes
 * one {@link Producer#getMetrics()} snapshot, which sums the producer's lock-free counters; the
 * binder takes no lock of its own there. {@link #close()} removes from every registry the meters
 * this binder registered, so a closed or replaced producer (a Spring context or DevTools restart)
 * leaves no stale meters. A registry that already has a meter of the same name and tags (a replaced
 * producer whose binder was not closed) gets this binder's meter in its place.
 *
 * <p>Thread-safe: {@link #bindTo} and {@link #close} may be called from any thread.
 */
public final class ProducerMetricsBinder implements MeterBinder, AutoCloseable {

  /** The tag naming the producer's client id. */
  public static final String CLIENT_ID_TAG = "client.id";

  /** The tag naming the producer's exporter ({@link Producer#getExporterName()}). */
  public static final String EXPORTER_TAG = "exporter";

  private final WeakReference<Producer> producer;
  private final List<Tag> tags;
  private final boolean spool;
  private final List<Registration> registrations = new ArrayList<>();
  private boolean closed;

  /**
   * A binder for {@code producer}'s metrics with only the {@code client.id} and {@code exporter}
   * tags.
   *
   * @param producer the producer, not null; held weakly
   * @throws IllegalArgumentException if {@code producer} is null
   */
  public ProducerMetricsBinder(Producer producer) {
    this(producer, Collections.<Tag>emptyList());
  }

  /**
   * A binder for {@code producer}'s metrics.
   *
   * @param producer the producer, not null; held weakly
   * @param extraTags tags added to every meter after {@code client.id} and {@code exporter}, not
   *     null; read once, here
   * @throws IllegalArgumentException if {@code producer} or {@code extraTags} is null, or {@code
   *     extraTags} has a {@code client.id} or {@code exporter} tag (the binder sets them)
   */
  public ProducerMetricsBinder(Producer producer, Iterable<Tag> extraTags) {
    if (producer == null) {
      throw new IllegalArgumentException("producer must not be null");
    }
    if (extraTags == null) {
      throw new IllegalArgumentException("extraTags must not be null");
    }
    List<Tag> all = new ArrayList<>();
    all.add(Tag.of(CLIENT_ID_TAG, producer.getConfig().getClientId()));
    all.add(Tag.of(EXPORTER_TAG, producer.getExporterName()));
    for (Tag t : extraTags) {
      if (CLIENT_ID_TAG.equals(t.getKey()) || EXPORTER_TAG.equals(t.getKey())) {
        throw new IllegalArgumentException(
            "extraTags must not have a " + t.getKey() + " tag: the binder sets it");
      }
      all.add(t);
    }
    this.producer = new WeakReference<>(producer);
    this.tags = Collections.unmodifiableList(all);
    this.spool = producer.getConfig().getSpool() != null;
  }

  /**
   * Registers the producer's meters (see the table above) in {@code registry}. Does nothing once
   * the binder is closed or the producer was collected. Binding to the same registry twice
   * registers the meters again in place of the first ones.
   *
   * @param registry the registry, not null
   */
  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    Producer p = producer.get();
    if (closed || p == null) {
      return;
    }
    Set<Meter> before = Collections.newSetFromMap(new IdentityHashMap<>());
    before.addAll(registry.getMeters());
    for (Function<MeterRegistry, Meter> meter : ProducerMeters.of(p, tags, spool)) {
      Meter m = meter.apply(registry);
      if (before.contains(m)) {
        // a meter with this id was there before us (a replaced producer's): take its place
        registry.remove(m);
        m = meter.apply(registry);
      }
      registrations.add(new Registration(registry, m));
    }
  }

  /**
   * {@return the tags every meter of this binder has: {@code client.id}, {@code exporter}, then the
   * extra tags; unmodifiable}
   */
  public List<Tag> getTags() {
    return tags;
  }

  /**
   * Removes the meters this binder registered from every registry it was bound to (a meter that
   * another binder has since put in their place is left), and stops further {@link #bindTo}.
   * Idempotent. Does not close the producer.
   */
  @Override
  public synchronized void close() {
    closed = true;
    for (Registration r : registrations) {
      for (Meter m : r.registry.find(r.meter.getId().getName()).meters()) {
        if (m == r.meter) {
          r.registry.remove(m);
        }
      }
    }
    registrations.clear();
  }

  /** A meter and the registry it was registered in. */
  private static final class Registration {
    final MeterRegistry registry;
    final Meter meter;

    Registration(MeterRegistry registry, Meter meter) {
      this.registry = registry;
      this.meter = meter;
    }
  }
}
