package io.logproducer.spi;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The plug-in a {@link io.logproducer.Producer} ships through: it encodes records, decides shards, frames a batch
 * into a request, and transports it. The producer owns the data path around it (budget, batching, linger,
 * compression, retries, callbacks) and calls it from these threads:
 *
 * <ul>
 *   <li>{@link #encoder()}'s encoder and {@link #shardKey} — application threads, concurrently;</li>
 *   <li>{@link #writeRequest} and {@link #export} — the {@code sendThreads} send threads, concurrently, one batch
 *       per call;</li>
 *   <li>{@link #start} once before any of the above, {@link #close} once after the last export has returned.</li>
 * </ul>
 * An exporter must never throw from {@link #export}: it reports failures as an {@link ExportResult}. (A throw is
 * treated as a final failure of the batch and logged.)
 */
public interface Exporter extends AutoCloseable {

  /** Called once by the producer before use, with its configuration (e.g. to size a connection pool). */
  void start(ProducerConfig config);

  /** The compression used when {@link ProducerConfig#getCompression()} is null. */
  Compression defaultCompression();

  /** Whether requests may be compressed with {@code compression} (a GSE agent accepts none, for example). */
  boolean supports(Compression compression);

  /** The record encoder; thread-safe. */
  RecordEncoder encoder();

  /**
   * The shard a record belongs to: records of one shard share batches, and a batch never mixes shards (OTLP: a
   * stripe chosen from the calling thread; GSE: the dataid; Kafka: the topic-partition). Must be fast, thread-safe
   * and, for the same shard, return an equal key with a stable hash; should not allocate.
   */
  Object shardKey(LogRecord record);

  /**
   * The largest sum of encoded record bytes one request may carry, in bytes (e.g. the OTLP maximum request size
   * minus framing). Batches are sealed below it; a larger record is refused at {@code send}.
   */
  int maxBatchSizeInBytes();

  /**
   * How long one {@link #export} call may take at most, in ms, or 0 if the exporter does not say. The producer
   * refuses a {@code deliveryTimeoutMillis} below {@code lingerMillis} plus this, as Kafka refuses
   * {@code delivery.timeout.ms} below {@code linger.ms + request.timeout.ms}: a batch would never get a whole
   * attempt. Default 0.
   */
  default long requestTimeoutMillis() {
    return 0;
  }

  /** Writes the uncompressed request body for {@code batch} (framing around its records) to {@code out}. */
  void writeRequest(Batch batch, OutputStream out) throws IOException;

  /**
   * Ships one request and reports the answer. Blocks the calling send thread until the receiver answered or the
   * transport's timeout passed.
   *
   * @param batch the batch the body was written from
   * @param body the request body, {@code [0, length)}, compressed with {@code compression}
   * @param length body length in bytes
   * @param compression the codec the body was compressed with
   */
  ExportResult export(Batch batch, byte[] body, int length, Compression compression);

  /** Where requests go, for log and error messages (e.g. "http://127.0.0.1:4318/v1/logs"). */
  String describe();

  /** Releases connections and threads; in-flight {@link #export} calls should fail promptly. Idempotent. */
  @Override
  void close();
}
