/**
 * OTLP/HTTP log exporter for {@link io.logproducer.Producer}: {@link
 * io.logproducer.otlp.OtlpHttpExporter}, built with {@link
 * io.logproducer.otlp.OtlpHttpExporterBuilder} (defaults, then the OpenTelemetry {@code OTEL_*}
 * environment variables, then explicit settings), in protobuf or JSON ({@link
 * io.logproducer.otlp.OtlpEncoding}). Everything else lives in {@code io.logproducer.otlp.internal}
 * and is not API.
 */
package io.logproducer.otlp;
