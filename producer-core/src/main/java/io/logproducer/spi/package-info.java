/**
 * The exporter plug-in interface: an {@link io.logproducer.spi.Exporter} encodes records with its
 * {@link io.logproducer.spi.RecordEncoder} into an {@link io.logproducer.spi.EncodeBuffer} at {@code send} time,
 * frames a sealed {@link io.logproducer.spi.Batch} into a request, ships it and answers with an
 * {@link io.logproducer.spi.ExportResult}. The producer does the rest: budget, batching, linger, compression,
 * retries and callbacks.
 */
package io.logproducer.spi;
