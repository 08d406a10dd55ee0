/**
 * Internals of the OTLP/HTTP exporter; not API, may change without notice. Transport and answers:
 * {@code HttpTransport} (Apache HttpClient 5), {@code ExportResponses}, {@code ResponseBodies}
 * (read with the core's {@code io.logproducer.internal.proto.ProtoReader}), {@code RetryAfter}.
 * Configuration: {@code OtlpEnvironment}, {@code Endpoints}, {@code Stripes}. The OTLP encoding
 * itself lives in {@code producer-otlp-encoding} ({@code io.logproducer.otlp.encoding.internal}),
 * shared with the Kafka exporter.
 */
package io.logproducer.otlp.internal;
