package io.logproducer;

import io.logproducer.internal.ProducerEngine;
import io.logproducer.spi.Exporter;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Ships log records to a receiver through an {@link Exporter} (OTLP/HTTP, a GSE agent, Kafka…),
 * batching them under a byte budget, compressing, retrying, and reporting one outcome per record.
 *
 * <pre>{@code
 * try (Producer producer = new Producer(ProducerConfig.defaults(),
 *     OtlpHttpExporter.builder().setEndpoint("http://127.0.0.1:4318").build())) {
 *   producer.send(LogRecord.builder().setSeverity(Severity.INFO).setBody("hello").build(),
 *       result -> { if (!result.isSuccess()) System.err.println(result); });
 * }
 * }</pre>
 *
 * <p><b>Data path.</b> {@code send} encodes the record once, in the exporter's wire form, reserves
 * its encoded bytes from {@code totalSizeInBytes}, and appends it to its shard's open batch. A
 * batch is sealed by size ({@code batchSizeInBytes}), count ({@code batchCountThreshold}) or age
 * ({@code lingerMillis}); one of {@code sendThreads} threads compresses and exports it, retrying
 * transient failures with exponential backoff and jitter within {@code retries} and {@code
 * deliveryTimeoutMillis}.
 *
 * <p><b>Outcomes.</b> Every record {@code send} accepts gets exactly one {@link SendResult} —
 * delivered, partially rejected, rejected, failed, or failed at close — through its callback or
 * future and in {@link #getMetrics()}, at the latest {@code deliveryTimeoutMillis} after its batch
 * was created (plus the time other callbacks take on the timer thread, normally well under 100 ms),
 * whatever the exporter does (hangs, throws, returns nothing) and whatever the JVM throws in a send
 * thread ({@code OutOfMemoryError}, {@code NoClassDefFoundError}: the batch fails with it as cause
 * and the thread goes on). A {@code send} that throws did not accept its record.
 *
 * <p><b>Memory.</b> {@code totalSizeInBytes} bounds the heap the producer's batches hold — chunks
 * charged whole, bookkeeping, pooled chunks — not only record bytes. Outside it: per send thread a
 * request body buffer of at most {@code batchSizeInBytes} + 1/8 + 64 KiB, and per application
 * thread, while a {@code send} runs, one encode buffer (released at the next GC). A record larger
 * than the largest batch is refused while it is encoded, before a buffer of its size is allocated.
 *
 * <p><b>Threads.</b> All methods are thread-safe. The producer runs one linger thread and {@code
 * sendThreads} send threads, all daemon threads named {@code <clientId>-…}, which block when idle;
 * none outlives {@link #close}. Calling {@code send}, {@code flush} or {@code close} from a
 * callback — on any thread, including a future's dependent stage — never deadlocks: {@code send}
 * then does not wait for buffer space, {@code flush} seals without waiting, and {@code close}
 * closes without a grace period and returns at once. Callbacks should be quick: they run on the
 * producer's threads. Unless disabled ({@link ProducerConfig.Builder#setShutdownHookEnabled}), a
 * JVM shutdown hook closes a producer the application did not close, with {@code
 * shutdownHookTimeoutMillis}.
 */
public final class Producer implements AutoCloseable {

  private final ProducerEngine engine;
  private final String exporterName;
  private final CopyOnWriteArrayList<Upstream> upstreams = new CopyOnWriteArrayList<Upstream>();

  /**
   * A stage in front of a producer that holds records it has not sent to it yet: a logging
   * appender's hand-off queue, whose worker thread sends them. Registered with {@link
   * #addUpstream}, it makes {@link #flush()} and {@link #close(long)} cover what it holds.
   */
  public interface Upstream {

    /**
     * Waits until what this stage held when called has been sent to the producer.
     *
     * @param timeoutMillis the most to wait, at least 0
     * @return false if the time ran out first
     */
    boolean awaitDrained(long timeoutMillis);
  }

  /**
   * Starts a producer; it owns {@code exporter} and closes it on {@link #close}.
   *
   * @param config the settings, not null
   * @param exporter the exporter to ship through, not null; started here ({@link Exporter#start}),
   *     and used by this producer only
   * @throws IllegalArgumentException if {@code config} or {@code exporter} is null
   * @throws IllegalArgumentException if the exporter cannot honour {@code config} (e.g. an
   *     unsupported compression, or a batchSizeInBytes above the exporter's maximum)
   * @throws IllegalArgumentException if {@code deliveryTimeoutMillis} is below {@code lingerMillis}
   *     plus the exporter's request timeout
   * @throws IllegalStateException if the configured compression's library is not on the classpath
   *     or cannot load here (it is tried once, so a broken native library fails the constructor,
   *     not the first batch)
   */
  public Producer(ProducerConfig config, Exporter exporter) {
    // Read before the engine starts threads, so that an exporter whose name() throws leaks none.
    this.exporterName = exporter == null ? null : exporter.name();
    this.engine = new ProducerEngine(config, exporter);
  }

  /**
   * Sends {@code record} without a callback; its outcome is counted in the metrics only. Waits and
   * throws as {@link #send(LogRecord, Callback)} does.
   *
   * @param record the record, not null
   */
  public void send(LogRecord record) {
    engine.send(record, null);
  }

  /**
   * Encodes {@code record} and adds it to a batch. Returns as soon as the record is buffered;
   * delivery is asynchronous and its outcome goes to {@code callback} (on a producer thread; for
   * DROPPED, on this thread before this method returns).
   *
   * <p>If the buffer is full, waits up to {@code maxBlockMillis} (longest waiter first) under
   * {@link BufferFullPolicy#BLOCK}, or reports the record DROPPED under {@link
   * BufferFullPolicy#DROP}. Called from a callback it never waits.
   *
   * @param record the record, not null
   * @param callback receives the outcome; may be null
   * @throws IllegalArgumentException if {@code record} is null or the exporter cannot encode it
   * @throws RecordTooLargeException if the encoded record exceeds the largest allowed record: the
   *     exporter's maximum batch size, and {@code totalSizeInBytes} less room for its batch's
   *     bookkeeping (see the README)
   * @throws BufferExhaustedException if no buffer space became free within {@code maxBlockMillis}
   * @throws ProducerInterruptedException if interrupted while waiting for buffer space
   * @throws IllegalStateException if the producer is closed
   */
  public void send(LogRecord record, Callback callback) {
    engine.send(record, callback);
  }

  /**
   * Like {@link #send(LogRecord, Callback)}, with the outcome as a future. One rule for futures and
   * results: the future completes normally exactly when {@link SendResult#isSuccess()} is true
   * ({@link SendResult.Status#DELIVERED}), and exceptionally with a {@link DeliveryException}
   * holding the {@link SendResult} otherwise — including {@link
   * SendResult.Status#PARTIALLY_REJECTED}, where the receiver accepted the request but refused some
   * of its records without saying which, so this record is not known to be delivered. Allocates a
   * future and a callback per call; prefer the callback form on hot paths.
   *
   * @param record the record to send; not null
   * @return a future completed once with the record's outcome (on a producer thread; for DROPPED,
   *     before this method returns)
   * @throws IllegalArgumentException if {@code record} is null or the exporter cannot encode it
   * @throws RecordTooLargeException if the encoded record exceeds the largest allowed record
   * @throws BufferExhaustedException if no buffer space became free within {@code maxBlockMillis}
   * @throws ProducerInterruptedException if interrupted while waiting for buffer space
   * @throws IllegalStateException if the producer is closed
   */
  public CompletableFuture<SendResult> sendAsync(LogRecord record) {
    CompletableFuture<SendResult> future = new CompletableFuture<>();
    engine.send(
        record,
        result -> {
          if (result.isSuccess()) {
            future.complete(result);
          } else {
            future.completeExceptionally(new DeliveryException(result));
          }
        });
    return future;
  }

  /**
   * Seals every open batch and waits until every record sent before this call has its outcome
   * (callbacks run), which {@code deliveryTimeoutMillis} bounds. It first waits, up to {@code
   * deliveryTimeoutMillis} in all, until every {@linkplain #addUpstream upstream} stage has sent
   * what it held (the records an appender's queue held are then sent, and covered). From a callback
   * (on a producer thread) it seals without waiting.
   *
   * @throws ProducerInterruptedException if interrupted while waiting
   */
  public void flush() {
    if (!onOwnThread()) {
      drainUpstreams(engine.config().getDeliveryTimeoutMillis());
    }
    engine.flush();
  }

  /**
   * Registers a stage that sends records to this producer from a queue of its own, so that {@link
   * #flush()} and {@link #close(long)} first wait for what it holds (each bounded by its own
   * timeout). The appenders register their hand-off queue while they run.
   *
   * @param upstream the stage, not null; called on the thread that flushes or closes
   * @throws IllegalArgumentException if {@code upstream} is null
   */
  public void addUpstream(Upstream upstream) {
    if (upstream == null) {
      throw new IllegalArgumentException("upstream must not be null");
    }
    upstreams.add(upstream);
  }

  /**
   * Unregisters a stage added with {@link #addUpstream}; nothing if it is not registered.
   *
   * @param upstream the stage
   */
  public void removeUpstream(Upstream upstream) {
    upstreams.remove(upstream);
  }

  /** Waits for the upstream stages, at most {@code timeoutMillis} in all. */
  private void drainUpstreams(long timeoutMillis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    for (Upstream u : upstreams) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      try {
        u.awaitDrained(Math.max(0, left));
      } catch (RuntimeException e) { // a stage that fails to drain: its records are its own
        // nothing to report here: the stage accounts for the records it holds
      }
    }
  }

  /** Whether this is one of the producer's threads (a callback): no waiting there. */
  private boolean onOwnThread() {
    return Thread.currentThread().getName().startsWith(engine.config().getClientId() + "-");
  }

  /**
   * Stops accepting records, ships everything buffered, and waits until all have an outcome or
   * {@code timeoutMillis} passed; records still undelivered then (queued, retrying or in flight)
   * are reported {@link SendResult.Status#FAILED_AT_CLOSE} through their callbacks. Then stops
   * every producer thread, closes the exporter, unregisters the MBean and removes the shutdown
   * hook. Returns within {@code timeoutMillis} + 1 s ({@code CLOSE_SLACK_MILLIS}), from any thread:
   * the closing work runs on a {@code <clientId>-closer} thread, so a callback that blocks delays
   * only that thread (it ends when the callback returns). Idempotent: a second call waits for the
   * first up to its own timeout. From a callback it behaves as {@code close(0)} and returns at
   * once.
   *
   * <p>An interrupt does not shorten the grace period (records that could be delivered are not
   * failed because the closing thread happened to be interrupted); the thread's interrupt status is
   * kept and set on return.
   *
   * @param timeoutMillis grace period in ms, at least 0
   * @throws IllegalArgumentException if {@code timeoutMillis} is negative
   */
  public void close(long timeoutMillis) {
    if (timeoutMillis < 0) {
      throw new IllegalArgumentException("timeoutMillis must be >= 0, was " + timeoutMillis);
    }
    engine.close(drainBeforeClose(timeoutMillis));
  }

  /**
   * Lets the upstream stages send what they hold within the grace period ({@code
   * deliveryTimeoutMillis} at most), unless called from a callback or already closed.
   *
   * @return what is left of the grace period
   */
  private long drainBeforeClose(long timeoutMillis) {
    if (upstreams.isEmpty() || engine.isClosed() || onOwnThread()) {
      return timeoutMillis;
    }
    long start = System.nanoTime();
    drainUpstreams(Math.min(timeoutMillis, engine.config().getDeliveryTimeoutMillis()));
    long spent = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    return Math.max(0, timeoutMillis - spent);
  }

  /**
   * {@link #close(long)} with a {@link Duration}.
   *
   * @param timeout grace period, not negative; truncated to whole milliseconds
   * @throws IllegalArgumentException if {@code timeout} is negative
   */
  public void close(Duration timeout) {
    close(timeout.toMillis());
  }

  /**
   * Closes with no time limit of its own: returns when every buffered record has its outcome, which
   * {@code deliveryTimeoutMillis} bounds (plus 1 s).
   */
  @Override
  public void close() {
    close(Long.MAX_VALUE / 2_000_000L);
  }

  /** {@return a snapshot of the producer's counters} They are also exported over JMX. */
  public ProducerMetrics getMetrics() {
    return engine.metrics();
  }

  /** {@return the configuration this producer runs with} */
  public ProducerConfig getConfig() {
    return engine.config();
  }

  /**
   * {@return the short name of this producer's exporter ({@link Exporter#name()}): {@code "otlp"},
   * {@code "gse"}, {@code "kafka"}, or a custom exporter's name} Metrics tag their meters with it.
   */
  public String getExporterName() {
    return exporterName;
  }

  /** {@return whether {@link #close} has been called} */
  public boolean isClosed() {
    return engine.isClosed();
  }
}
