package io.logproducer.spi;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The plug-in a {@link io.logproducer.Producer} ships through: it encodes records, decides shards,
 * frames a batch into a request, and transports it; what it may declare about its transport
 * (compressions, largest batch, request timeout) is one immutable {@link ExporterCapabilities}
 * value. The producer owns the data path around it (budget, batching, linger, compression, retries,
 * callbacks) and calls it from these threads:
 *
 * <ul>
 *   <li>{@link #capabilities()} and {@link #encoder()} once each, then {@link #start} once — the
 *       thread that constructs the producer;
 *   <li>{@link #encoder()}'s encoder and {@link #shardKey} — application threads, concurrently;
 *   <li>{@link #writeRequest} and {@link #export} — the {@code sendThreads} send threads,
 *       concurrently, one batch per call;
 *   <li>{@link #close} once, after the last export has returned (by the thread that closes the
 *       producer).
 * </ul>
 *
 * An exporter must never throw from {@link #export}: it reports failures as an {@link
 * ExportResult}. (A throw is treated as a final failure of the batch and logged.)
 */
public interface Exporter extends AutoCloseable {

  /**
   * Called once, by the producer's constructor, before any record is encoded or exported, with the
   * producer's configuration (e.g. to size a connection pool to {@link
   * ProducerConfig#getSendThreads()}).
   *
   * @param config the producer's configuration
   */
  void start(ProducerConfig config);

  /**
   * {@return what the transport declares: default and supported compressions, whether it compresses
   * itself, the largest batch in bytes, the request timeout in ms; not null} Read once, by the
   * producer's constructor, before {@link #start}; an exporter computes it when it is built (from
   * its own settings, not from the producer's).
   */
  ExporterCapabilities capabilities();

  /**
   * {@return the record encoder, thread-safe} The producer asks for it once, in its constructor.
   */
  RecordEncoder encoder();

  /**
   * The shard a record belongs to: records of one shard share batches, and a batch never mixes
   * shards (OTLP: a stripe chosen from the calling thread; GSE: the dataid; Kafka: the
   * topic-partition). Must be fast, thread-safe and, for the same shard, return an equal key with a
   * stable hash; should not allocate.
   *
   * @param record the record being sent
   * @return the shard key, not null
   * @throws IllegalArgumentException if the record cannot be routed (e.g. an invalid destination);
   *     the send is refused
   */
  Object shardKey(LogRecord record);

  /**
   * Writes the uncompressed request body for {@code batch} (framing around its records) to {@code
   * out}. Called once per attempt; the producer compresses what is written and passes the result to
   * {@link #export}.
   *
   * @param batch the sealed batch
   * @param out the compressing stream of the request's codec; not to be closed
   * @throws IOException if {@code out} throws it; the batch then fails ({@code FAILED}), as on any
   *     exception here
   */
  void writeRequest(Batch batch, OutputStream out) throws IOException;

  /**
   * Ships one request and reports the answer. Blocks the calling send thread until the receiver
   * answered or the transport's timeout passed.
   *
   * @param batch the batch the body was written from
   * @param body the request body, {@code [0, length)}, compressed with {@code compression}
   * @param length body length in bytes
   * @param compression the codec the body was compressed with
   * @return the receiver's answer, or the local failure; not null (null is taken as a failure)
   */
  ExportResult export(Batch batch, byte[] body, int length, Compression compression);

  /**
   * The shard key of a batch as bytes to store beside its request body in the producer's disk
   * spool, so that the body can be exported again, by this producer or the next one on the same
   * directory, without the batch's records. Called on send threads; must be thread-safe.
   *
   * <p>An exporter whose {@link #export} needs no more of a batch than its shard key, {@link
   * Batch#recordCount()}, {@link Batch#sizeInBytes()}, {@link Batch#attempt()} and, if it says so
   * with {@link #exportNeedsRecordSizes()}, {@link Batch#recordSize(int)} (the records themselves
   * are not available when a stored body is exported again) can be used with a spool. The default
   * supports {@link String} and {@link Integer} keys and returns null for any other (the producer
   * then refuses a spool for this exporter); override it with {@link #spoolShardKey(byte[])} for
   * other keys.
   *
   * @param shardKey a key {@link #shardKey} returned
   * @return its stored form, or null if this exporter cannot export a stored body
   */
  default byte[] spoolShardKey(Object shardKey) {
    return SpoolShardKeys.encode(shardKey);
  }

  /**
   * Whether {@link #export} reads {@link Batch#recordSize(int)}, as an exporter that ships one
   * message per record cut out of the body does (Kafka's {@code raw} encoding). When true, the disk
   * spool stores each record's encoded size beside a stored body (an unsigned varint per record:
   * one byte below 128 bytes, two below 16 KiB), so that a batch exported again from the spool
   * answers {@code recordSize}; when false (the default) it stores no sizes, and {@code recordSize}
   * of such a batch throws {@link UnsupportedOperationException}. The sizes count against the 64
   * KiB of meta a stored batch may carry beside its body: a batch whose sizes do not fit (about
   * 65,000 records below 128 bytes each, 32,000 below 16 KiB) is not stored, and keeps its
   * in-memory outcome.
   *
   * <p>Called on send threads for each batch written to a spool; must be cheap, thread-safe and
   * give the same answer for the exporter's life.
   *
   * @return true if stored batches must carry their record sizes; default false
   */
  default boolean exportNeedsRecordSizes() {
    return false;
  }

  /**
   * The shard key {@link #spoolShardKey(Object)} stored, rebuilt when a stored body is exported
   * again. Called on send threads; must be thread-safe.
   *
   * @param stored bytes {@link #spoolShardKey(Object)} returned (possibly in an earlier process)
   * @return the shard key, not null
   * @throws IllegalArgumentException if the bytes are not a stored key of this exporter
   */
  default Object spoolShardKey(byte[] stored) {
    return SpoolShardKeys.decode(stored);
  }

  /**
   * {@return where requests go, for log and error messages (e.g. "http://127.0.0.1:4318/v1/logs")}
   */
  String describe();

  /**
   * {@return a short name of the kind of transport, e.g. {@code "otlp"}, {@code "gse"}, {@code
   * "kafka"}: lower-case, stable across versions} Metrics use it as the {@code exporter} tag (see
   * {@link io.logproducer.Producer#getExporterName()}). The default is the class's simple name
   * without an {@code Exporter} suffix, in lower case ({@code "custom"} for an anonymous class).
   */
  default String name() {
    String simple = getClass().getSimpleName();
    if (simple.endsWith("Exporter")) {
      simple = simple.substring(0, simple.length() - "Exporter".length());
    }
    return simple.isEmpty() ? "custom" : simple.toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * Releases connections and threads; in-flight {@link #export} calls should fail promptly.
   * Idempotent.
   */
  @Override
  void close();
}
