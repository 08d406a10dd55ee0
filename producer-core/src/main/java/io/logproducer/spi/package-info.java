/**
 * The exporter plug-in interface: what a transport (OTLP/HTTP, a GSE agent, Kafka, a test double)
 * implements so that a {@link io.logproducer.Producer} can ship through it. The producer owns the
 * data path around it: memory budget, batching, linger, compression, retries, callbacks.
 *
 * <h2>Types</h2>
 *
 * <ul>
 *   <li>{@link io.logproducer.spi.Exporter} — what a transport must implement: lifecycle ({@code
 *       start}, {@code close}), encoding ({@code encoder}, {@code shardKey}), the request ({@code
 *       writeRequest}, {@code export}) and {@code describe} for messages.
 *   <li>{@link io.logproducer.spi.ExporterCapabilities} — what it may declare, as one immutable
 *       value built and validated once: default and supported compressions, whether it compresses
 *       by itself, the largest batch in bytes, the request timeout in ms.
 *   <li>{@link io.logproducer.spi.RecordEncoder} — writes one record, in the exporter's wire form,
 *       into an {@link io.logproducer.spi.EncodeBuffer}: a growable byte array with general writers
 *       (bytes, varints, big-endian ints, ASCII, UTF-8) and a limit that refuses a record too large
 *       before allocating for it. An encoder with writers of its own writes into the buffer's array
 *       and commits with {@code setSize}.
 *   <li>{@link io.logproducer.spi.Batch} — a sealed batch as the send threads see it: shard key,
 *       records and their sizes, attempt.
 *   <li>{@link io.logproducer.spi.ExportResult} — the answer to one export: success, partial
 *       success, retryable failure, rejection, final failure, or too large (the producer then
 *       splits the batch).
 * </ul>
 *
 * <h2>Who calls what, from which thread</h2>
 *
 * <ol>
 *   <li>The thread that constructs the producer calls {@code capabilities()} once (and checks the
 *       configuration against it: compression, {@code batchSizeInBytes}, {@code
 *       deliveryTimeoutMillis}), {@code encoder()} once, then {@code start(config)} once, before
 *       any record is sent.
 *   <li>Application threads, concurrently, in {@code Producer.send}: {@code shardKey(record)} and
 *       the encoder's {@code encode(record, buffer)}, each thread with its own {@code EncodeBuffer}
 *       (not shared).
 *   <li>The {@code sendThreads} send threads, concurrently, one sealed batch per call: {@code
 *       writeRequest(batch, out)} for the uncompressed body, then {@code export(batch, body,
 *       length, compression)}, which blocks until the receiver answered or the transport's timeout
 *       passed, and must not throw (a throw fails the batch).
 *   <li>Any of these threads: {@code describe()}, for log and error messages.
 *   <li>The thread that closes the producer: {@code close()} once, after the last {@code export}
 *       returned.
 * </ol>
 *
 * <p>So an exporter's encoder, {@code shardKey}, {@code writeRequest} and {@code export} must be
 * thread-safe; {@code start} and {@code close} are not called concurrently with anything else of
 * the same exporter. An exporter serves one producer.
 */
package io.logproducer.spi;
