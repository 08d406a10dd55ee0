package io.logproducer.otlp;

/**
 * The body encoding of OTLP/HTTP requests ({@code opentelemetry-proto/docs/specification.md},
 * "OTLP/HTTP"). Environment: {@code OTEL_EXPORTER_OTLP_LOGS_PROTOCOL} / {@code
 * OTEL_EXPORTER_OTLP_PROTOCOL} set to {@code http/protobuf} or {@code http/json}.
 */
public enum OtlpEncoding {
  /**
   * Binary protobuf, {@code Content-Type: application/x-protobuf} (protocol {@code http/protobuf});
   * the default.
   */
  PROTOBUF,
  /**
   * OTLP/JSON, {@code Content-Type: application/json} (protocol {@code http/json}): the proto3 JSON
   * mapping with OTLP's rules (hex trace and span ids, integer enums). About twice the bytes of
   * protobuf.
   */
  JSON
}
