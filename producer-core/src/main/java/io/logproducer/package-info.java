/**
 * The producer API: {@link io.logproducer.Producer}, configured by {@link
 * io.logproducer.ProducerConfig}, sends {@link io.logproducer.LogRecord}s (OTLP's log data model:
 * {@link io.logproducer.AnyValue}, {@link io.logproducer.Severity}) through an {@link
 * io.logproducer.spi.Exporter} and reports one {@link io.logproducer.SendResult} per record to its
 * {@link io.logproducer.Callback} and in {@link io.logproducer.ProducerMetrics}. Exporters come in
 * their own modules ({@code io.logproducer.otlp}, {@code io.logproducer.gse}); {@code
 * io.logproducer.spi} is for writing one. Everything in {@code io.logproducer.internal} is an
 * implementation detail and not API.
 */
package io.logproducer;
