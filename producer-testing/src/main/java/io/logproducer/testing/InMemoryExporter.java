package io.logproducer.testing;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import io.logproducer.spi.Batch;
import io.logproducer.spi.ExportResult;
import io.logproducer.spi.Exporter;
import io.logproducer.spi.ExporterCapabilities;
import io.logproducer.spi.RecordEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * An {@link Exporter} that keeps what it is given in memory, for unit tests of code that logs
 * through a {@link io.logproducer.Producer} — the test double of a receiver, as OpenTelemetry's
 * in-memory exporter or Kafka's {@code MockProducer}. Records go through the producer's whole data
 * path (encoding at {@code send}, the memory budget, batching, compression, retries, callbacks);
 * each export call is decompressed and decoded back into {@link LogRecord}s, kept as an {@link
 * ExportedBatch}, and answered as scripted:
 *
 * <pre>{@code
 * InMemoryExporter exporter = InMemoryExporter.create();
 * exporter.failNext(2, ExportResult.retryable("HTTP 503", null, -1)); // two retryable failures, then success
 * try (Producer producer = new Producer(ProducerConfig.defaults(), exporter)) {
 *   producer.send(LogRecord.builder().setBody("hello").build());
 *   producer.flush();
 * }
 * assertEquals(Arrays.asList("hello"), exporter.bodies());
 * assertEquals(3, exporter.exportCalls());
 * }</pre>
 *
 * <p><b>Answers.</b> Each export call is answered by the first that applies: {@link #close()
 * closed} (retryable {@code "exporter closed"}); the next of the {@link #answerNext scripted
 * answers}; the {@link #respondWith responder} (default: success). Before answering, a call waits
 * {@link #setDelayMillis delayMillis} and, while the exporter is {@link #hold() held}, until {@link
 * #release()} or {@link #close()}.
 *
 * <p><b>Encoding.</b> By default a record is encoded with every field (see {@link #batches()});
 * with {@link Builder#setBodiesOnly(boolean)} as a 4-byte big-endian length and its body's UTF-8
 * (so a record costs exactly 4 + that many bytes, for tests that count bytes), and decoded with
 * only its body. A custom {@link Builder#setEncoder encoder} disables decoding.
 *
 * <p><b>Capabilities.</b> Default compression {@link Compression#NONE}; every compression is
 * supported; the shard is the record's {@link LogRecord#getDestination() destination} ({@code
 * "default"} when null); largest batch {@value #DEFAULT_MAX_BATCH_SIZE_IN_BYTES} bytes and request
 * timeout 0 unless set.
 *
 * <p>Thread-safe: every method may be called from any thread while a producer exports through it.
 */
public final class InMemoryExporter implements Exporter {

  /**
   * The largest batch in bytes {@link #capabilities()} declares until {@link
   * #setMaxBatchSizeInBytes}.
   */
  public static final int DEFAULT_MAX_BATCH_SIZE_IN_BYTES = 1 << 24;

  private static final String DEFAULT_SHARD = "default";

  private final RecordEncoder encoder;

  /** Null when records are not decoded (a custom encoder). */
  private final RecordFormat format;

  private final boolean retaining;

  /** Every export call, in arrival order, when retaining; guarded by itself. */
  private final List<ExportedBatch> batches = new ArrayList<>();

  /** Guarded by itself. */
  private final Deque<ExportResult> scripted = new ArrayDeque<>();

  private final AtomicInteger exportCalls = new AtomicInteger();
  private final AtomicInteger heldCalls = new AtomicInteger();
  private final AtomicLong recordsDelivered = new AtomicLong();
  private volatile Function<ExportedBatch, ExportResult> responder = b -> ExportResult.success();

  /** Non-null while held; export calls wait on it. */
  private volatile CountDownLatch gate;

  private volatile long delayMillis;
  private volatile boolean closed;
  private volatile int maxBatchSizeInBytes = DEFAULT_MAX_BATCH_SIZE_IN_BYTES;
  private volatile long requestTimeoutMillis;
  private volatile ProducerConfig startedWith;

  private InMemoryExporter(Builder b) {
    this.format = b.encoder != null ? null : new RecordFormat(b.bodiesOnly);
    this.encoder = b.encoder != null ? b.encoder : format;
    this.retaining = b.retaining && format != null;
  }

  /** {@return a new exporter that encodes every field, keeps every batch and answers success} */
  public static InMemoryExporter create() {
    return builder().build();
  }

  /** {@return a builder of an exporter with the defaults of {@link #create()}} */
  public static Builder builder() {
    return new Builder();
  }

  /** Options fixed at construction. Not thread-safe. */
  public static final class Builder {
    private boolean bodiesOnly;
    private boolean retaining = true;
    private RecordEncoder encoder;

    private Builder() {}

    /**
     * Encodes each record as a 4-byte big-endian length and its body's UTF-8 (a string body; other
     * bodies as their {@code toString()}), so a record's encoded size is exactly 4 + the body's
     * UTF-8 length in bytes. Decoded records then carry only their body. Default false: every field
     * is encoded and decoded.
     *
     * @param bodiesOnly true for the body-only encoding
     * @return this builder
     */
    public Builder setBodiesOnly(boolean bodiesOnly) {
      this.bodiesOnly = bodiesOnly;
      return this;
    }

    /**
     * Whether export calls are decoded and kept ({@link #batches()}, {@link #records()}). Default
     * true. When false, only counts are kept ({@link #exportCalls()}, {@link #recordsDelivered()}),
     * so the exporter's memory stays constant under load, and the {@link #respondWith responder}
     * gets batches whose {@link ExportedBatch#records()} is empty.
     *
     * @param retaining false to keep counts only
     * @return this builder
     */
    public Builder setRetaining(boolean retaining) {
      this.retaining = retaining;
      return this;
    }

    /**
     * Encodes records with {@code encoder} instead (to test an encoder through the producer's data
     * path). The exporter cannot decode what it writes, so it keeps counts only, as with {@code
     * setRetaining(false)}.
     *
     * @param encoder the record encoder, thread-safe; null for the exporter's own
     * @return this builder
     */
    public Builder setEncoder(RecordEncoder encoder) {
      this.encoder = encoder;
      return this;
    }

    /** {@return a new exporter with these options} */
    public InMemoryExporter build() {
      return new InMemoryExporter(this);
    }
  }

  // ---- scripting ----

  /**
   * Answers every later export call (after the scripted answers) with {@code responder}'s result,
   * called on the send thread with the decoded batch.
   *
   * @param responder the answer for a batch, thread-safe; it must not return null
   * @throws IllegalArgumentException if {@code responder} is null
   */
  public void respondWith(Function<ExportedBatch, ExportResult> responder) {
    if (responder == null) {
      throw new IllegalArgumentException("responder must not be null");
    }
    this.responder = responder;
  }

  /**
   * Answers the next export calls with {@code answers}, one each, in order, before the {@link
   * #respondWith responder}.
   *
   * @param answers the answers to queue, none null
   * @throws IllegalArgumentException if an answer is null
   */
  public void answerNext(ExportResult... answers) {
    for (ExportResult a : answers) {
      if (a == null) {
        throw new IllegalArgumentException("answers must not contain null");
      }
    }
    synchronized (scripted) {
      scripted.addAll(Arrays.asList(answers));
    }
  }

  /**
   * Answers the next {@code times} export calls with {@code answer}: {@code failNext(2,
   * ExportResult.retryable("HTTP 503", null, -1))} makes a batch succeed on its third attempt.
   *
   * @param times the number of calls, at least 0
   * @param answer the answer, not null
   * @throws IllegalArgumentException if {@code times} is negative or {@code answer} null
   */
  public void failNext(int times, ExportResult answer) {
    if (times < 0) {
      throw new IllegalArgumentException("times must be at least 0, was " + times);
    }
    ExportResult[] answers = new ExportResult[times];
    Arrays.fill(answers, answer);
    answerNext(answers);
  }

  /**
   * Makes every export call wait this long before answering (a slow receiver). Interrupting the
   * send thread ends the wait with a retryable {@code "interrupted"} answer.
   *
   * @param delayMillis the delay in ms, at least 0
   * @throws IllegalArgumentException if {@code delayMillis} is negative
   */
  public void setDelayMillis(long delayMillis) {
    if (delayMillis < 0) {
      throw new IllegalArgumentException("delayMillis must be at least 0, was " + delayMillis);
    }
    this.delayMillis = delayMillis;
  }

  /**
   * From now on export calls block (a hung receiver) until {@link #release()} or {@link #close()};
   * an interrupted call answers retryable {@code "interrupted"}. Calls already blocked stay
   * blocked. Idempotent.
   */
  public synchronized void hold() {
    if (gate == null) {
      gate = new CountDownLatch(1);
    }
  }

  /** Lets every blocked export call answer and stops holding new ones. Idempotent. */
  public synchronized void release() {
    CountDownLatch g = gate;
    gate = null;
    if (g != null) {
      g.countDown();
    }
  }

  /** {@return the number of export calls blocked by {@link #hold()} right now} */
  public int heldCalls() {
    return heldCalls.get();
  }

  /**
   * Sets what {@link #capabilities()} declares to producers created afterwards.
   *
   * @param maxBatchSizeInBytes the largest batch in bytes, at least 1
   * @throws IllegalArgumentException if {@code maxBatchSizeInBytes} is below 1
   */
  public void setMaxBatchSizeInBytes(int maxBatchSizeInBytes) {
    if (maxBatchSizeInBytes < 1) {
      throw new IllegalArgumentException(
          "maxBatchSizeInBytes must be at least 1, was " + maxBatchSizeInBytes);
    }
    this.maxBatchSizeInBytes = maxBatchSizeInBytes;
  }

  /**
   * Sets the request timeout {@link #capabilities()} declares to producers created afterwards.
   *
   * @param requestTimeoutMillis the timeout in ms, 0 for none
   * @throws IllegalArgumentException if {@code requestTimeoutMillis} is negative
   */
  public void setRequestTimeoutMillis(long requestTimeoutMillis) {
    if (requestTimeoutMillis < 0) {
      throw new IllegalArgumentException(
          "requestTimeoutMillis must be at least 0, was " + requestTimeoutMillis);
    }
    this.requestTimeoutMillis = requestTimeoutMillis;
  }

  // ---- what was exported ----

  /**
   * {@return every export call so far, in arrival order, including retries and calls answered with
   * a failure} Empty when the exporter does not retain. A snapshot: later calls do not change it.
   */
  public List<ExportedBatch> batches() {
    synchronized (batches) {
      return Collections.unmodifiableList(new ArrayList<>(batches));
    }
  }

  /**
   * {@return the records of the calls answered with success or partial success, in arrival order} A
   * record retried after a failure appears once per successful call only. A snapshot.
   */
  public List<LogRecord> records() {
    List<LogRecord> out = new ArrayList<>();
    for (ExportedBatch b : batches()) {
      if (b.isDelivered()) {
        out.addAll(b.records());
      }
    }
    return out;
  }

  /**
   * {@return the bodies of {@link #records()} as strings (null for a record without body), in
   * order}
   */
  public List<String> bodies() {
    List<String> out = new ArrayList<>();
    for (LogRecord r : records()) {
      out.add(r.getBody() == null ? null : r.getBody().toString());
    }
    return out;
  }

  /** {@return the number of export calls so far, answered or not} */
  public int exportCalls() {
    return exportCalls.get();
  }

  /** {@return the number of records in export calls answered with success or partial success} */
  public long recordsDelivered() {
    return recordsDelivered.get();
  }

  /**
   * Waits until {@link #records()} holds at least {@code n} records.
   *
   * @param n the number of records
   * @param timeoutMillis the longest wait in ms
   * @return whether they arrived in time
   */
  public boolean awaitRecords(int n, long timeoutMillis) {
    return Outcomes.until(() -> recordsDelivered.get() >= n, timeoutMillis);
  }

  /**
   * {@return the configuration the producer {@link #start started} this exporter with, or null
   * before}
   */
  public ProducerConfig startedWith() {
    return startedWith;
  }

  /** {@return whether {@link #close()} was called} */
  public boolean isClosed() {
    return closed;
  }

  /**
   * Forgets every kept batch, count and scripted answer, and the responder, delay and hold; keeps
   * the closed state and the configured capabilities.
   */
  public void reset() {
    synchronized (batches) {
      batches.clear();
    }
    synchronized (scripted) {
      scripted.clear();
    }
    exportCalls.set(0);
    recordsDelivered.set(0);
    responder = b -> ExportResult.success();
    delayMillis = 0;
    release();
  }

  // ---- the Exporter ----

  /** Remembers {@code config} for {@link #startedWith()}. */
  @Override
  public void start(ProducerConfig config) {
    startedWith = config;
  }

  /**
   * {@return what this exporter declares, read by each producer's constructor} Default compression
   * {@link Compression#NONE}, every compression supported (the exporter decompresses every codec),
   * the largest batch {@value #DEFAULT_MAX_BATCH_SIZE_IN_BYTES} bytes unless {@link
   * #setMaxBatchSizeInBytes} set another, and the request timeout {@link #setRequestTimeoutMillis}
   * set (0 by default).
   */
  @Override
  public ExporterCapabilities capabilities() {
    return ExporterCapabilities.builder(maxBatchSizeInBytes)
        .setRequestTimeoutMillis(requestTimeoutMillis)
        .build();
  }

  /** {@return the record encoder: every field, the body only, or the builder's} */
  @Override
  public RecordEncoder encoder() {
    return encoder;
  }

  /** {@return the record's destination, or {@code "default"}} */
  @Override
  public Object shardKey(LogRecord record) {
    return record.getDestination() == null ? DEFAULT_SHARD : record.getDestination();
  }

  /** Writes the batch's records back to back: the request is the records, without framing. */
  @Override
  public void writeRequest(Batch batch, OutputStream out) throws IOException {
    batch.writeTo(out);
  }

  /**
   * Counts the call, waits while delayed or held, decodes the body (a {@code FAILED} answer if it
   * does not decode into exactly the batch's records), keeps it, and answers as scripted. Throws
   * only what the responder throws, so a test can make the exporter throw (which an exporter must
   * not) and see the producer survive it.
   */
  @Override
  public ExportResult export(Batch batch, byte[] body, int length, Compression compression) {
    long receivedNanos = System.nanoTime();
    exportCalls.incrementAndGet();
    ExportResult interrupted = waitToAnswer();
    if (interrupted != null) {
      return interrupted;
    }
    if (closed) {
      return ExportResult.retryable("exporter closed", null, -1);
    }
    List<LogRecord> records = Collections.emptyList();
    if (retaining) {
      try {
        records = format.decodeRequest(body, length, compression);
      } catch (IOException | RuntimeException e) {
        return ExportResult.failed("undecodable request: " + e, e);
      }
      if (records.size() != batch.recordCount()) {
        return ExportResult.failed(
            "decoded " + records.size() + " records, batch has " + batch.recordCount(), null);
      }
    }
    ExportedBatch exported =
        new ExportedBatch(
            records,
            batch.recordCount(),
            batch.sizeInBytes(),
            batch.shardKey(),
            batch.attempt(),
            receivedNanos,
            compression);
    if (retaining) {
      synchronized (batches) {
        batches.add(exported);
      }
    }
    ExportResult answer;
    synchronized (scripted) {
      answer = scripted.poll();
    }
    if (answer == null) {
      answer = responder.apply(exported);
    }
    exported.answered(answer);
    if (exported.isDelivered()) {
      recordsDelivered.addAndGet(batch.recordCount());
    }
    return answer;
  }

  /** Waits out the delay and the hold; returns a retryable answer if interrupted, else null. */
  private ExportResult waitToAnswer() {
    try {
      long delay = delayMillis;
      if (delay > 0) {
        TimeUnit.MILLISECONDS.sleep(delay);
      }
      CountDownLatch g = gate;
      if (g != null && !closed) {
        heldCalls.incrementAndGet();
        try {
          g.await();
        } finally {
          heldCalls.decrementAndGet();
        }
      }
      return null;
    } catch (InterruptedException e) {
      // The producer interrupts its send threads only to abort them; the answer reports it, as a
      // transport would.
      return ExportResult.retryable("interrupted", e, -1);
    }
  }

  /** {@return {@code "memory://in-memory"}, for log and error messages} */
  @Override
  public String describe() {
    return "memory://in-memory";
  }

  /**
   * Marks the exporter closed and lets held calls answer (retryable {@code "exporter closed"}).
   * Idempotent.
   */
  @Override
  public void close() {
    closed = true;
    release();
  }
}
