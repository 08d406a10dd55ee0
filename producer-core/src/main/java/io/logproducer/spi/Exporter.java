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

  /**
   * Called once, by the producer's constructor, before any record is encoded or exported, with the producer's
   * configuration (e.g. to size a connection pool to {@link ProducerConfig#getSendThreads()}).
   *
   * @param config the producer's configuration
   */
  void start(ProducerConfig config);

  /** {@return the compression used when {@link ProducerConfig#getCompression()} is null} */
  Compression defaultCompression();

  /**
   * Whether the transport compresses requests itself, as the Kafka client compresses its record batches. Then the
   * producer does not compress request bodies: {@link #export} always gets {@link Compression#NONE} bodies, and the
   * exporter applies the configured compression ({@link ProducerConfig#getCompression()}, or
   * {@link #defaultCompression()} when null, with {@link ProducerConfig#getCompressionLevel()}) in its transport,
   * read in {@link #start}. Default false.
   *
   * @return true if the producer must leave request bodies uncompressed
   */
  default boolean compressesItself() {
    return false;
  }

  /**
   * Whether requests may be compressed with {@code compression} (a GSE agent accepts none, for example). The
   * producer's constructor refuses a compression the exporter does not support.
   *
   * @param compression a compression, not null
   * @return true if the receiver accepts request bodies compressed with it
   */
  boolean supports(Compression compression);

  /** {@return the record encoder, thread-safe} The producer asks for it once, in its constructor. */
  RecordEncoder encoder();

  /**
   * The shard a record belongs to: records of one shard share batches, and a batch never mixes shards (OTLP: a
   * stripe chosen from the calling thread; GSE: the dataid; Kafka: the topic-partition). Must be fast, thread-safe
   * and, for the same shard, return an equal key with a stable hash; should not allocate.
   *
   * @param record the record being sent
   * @return the shard key, not null
   * @throws IllegalArgumentException if the record cannot be routed (e.g. an invalid destination); the send is
   *     refused
   */
  Object shardKey(LogRecord record);

  /**
   * {@return the largest sum of encoded record bytes one request may carry, in bytes} For example the OTLP maximum
   * request size minus framing, or Kafka's {@code max.request.size} minus the message overhead. Batches are sealed
   * below it; a larger record is refused at {@code send}; a {@code batchSizeInBytes} above it is lowered to it (and
   * logged once at INFO by the producer's constructor).
   */
  int maxBatchSizeInBytes();

  /**
   * {@return how long one {@link #export} call may take at most, in ms, or 0 if the exporter does not say} The
   * producer refuses a {@code deliveryTimeoutMillis} below {@code lingerMillis} plus this, as Kafka refuses
   * {@code delivery.timeout.ms} below {@code linger.ms + request.timeout.ms}: a batch would never get a whole
   * attempt. Default 0.
   */
  default long requestTimeoutMillis() {
    return 0;
  }

  /**
   * Writes the uncompressed request body for {@code batch} (framing around its records) to {@code out}. Called
   * once per attempt; the producer compresses what is written and passes the result to {@link #export}.
   *
   * @param batch the sealed batch
   * @param out the compressing stream of the request's codec; not to be closed
   * @throws IOException if {@code out} throws it; the batch then fails ({@code FAILED}), as on any exception here
   */
  void writeRequest(Batch batch, OutputStream out) throws IOException;

  /**
   * Ships one request and reports the answer. Blocks the calling send thread until the receiver answered or the
   * transport's timeout passed.
   *
   * @param batch the batch the body was written from
   * @param body the request body, {@code [0, length)}, compressed with {@code compression}
   * @param length body length in bytes
   * @param compression the codec the body was compressed with
   * @return the receiver's answer, or the local failure; not null (null is taken as a failure)
   */
  ExportResult export(Batch batch, byte[] body, int length, Compression compression);

  /** {@return where requests go, for log and error messages (e.g. "http://127.0.0.1:4318/v1/logs")} */
  String describe();

  /** Releases connections and threads; in-flight {@link #export} calls should fail promptly. Idempotent. */
  @Override
  void close();
}
