package io.logproducer.otlp;

import io.logproducer.otlp.internal.OtlpEnvironment;
import io.logproducer.spi.Exporter;
import java.util.Map;

/**
 * Picks the OTLP exporter the OpenTelemetry environment asks for: {@code
 * OTEL_EXPORTER_OTLP_LOGS_PROTOCOL}, else {@code OTEL_EXPORTER_OTLP_PROTOCOL} ({@code
 * opentelemetry-specification}, {@code specification/protocol/exporter.md}): {@code grpc} gives an
 * {@link OtlpGrpcExporter}, {@code http/protobuf} and {@code http/json} an {@link
 * OtlpHttpExporter}; unset gives {@code http/protobuf}, the specification's current default (which
 * OpenTelemetry Java follows since 2.0; its 1.x agent defaulted to grpc). Every other setting comes
 * from the same variables, as each exporter's {@code builder()} reads them. Stateless, thread-safe.
 */
public final class OtlpExporters {

  private OtlpExporters() {}

  /**
   * An exporter configured from the process environment.
   *
   * @return an {@link OtlpGrpcExporter} or {@link OtlpHttpExporter}, not started
   * @throws IllegalArgumentException naming the variable if one is malformed, e.g. a protocol other
   *     than grpc, http/protobuf or http/json
   */
  public static Exporter fromEnvironment() {
    return fromEnvironment(System.getenv());
  }

  /**
   * The protocol the environment asks for: {@code OTEL_EXPORTER_OTLP_LOGS_PROTOCOL}, else {@code
   * OTEL_EXPORTER_OTLP_PROTOCOL}, trimmed and in lower case.
   *
   * @return {@code grpc}, {@code http/protobuf} or {@code http/json}; {@code http/protobuf} when
   *     neither is set
   * @throws IllegalArgumentException naming the variable if it holds another value
   */
  public static String protocolFromEnvironment() {
    String p = new OtlpEnvironment(System.getenv()).protocol();
    return p == null ? "http/protobuf" : p;
  }

  /** As {@link #fromEnvironment()}, reading {@code env}. */
  static Exporter fromEnvironment(Map<String, String> env) {
    String protocol = new OtlpEnvironment(env).protocol();
    if ("grpc".equals(protocol)) {
      return OtlpGrpcExporter.builder(env).build();
    }
    return OtlpHttpExporter.builder(env).build();
  }
}
