package io.logproducer.appender;

import io.logproducer.Compression;
import io.logproducer.otlp.OtlpEncoding;
import io.logproducer.otlp.OtlpHttpExporter;
import io.logproducer.otlp.OtlpHttpExporterBuilder;
import java.util.Map;

/**
 * The OTLP/HTTP exporter's settings as a logging framework's XML sets them. Starts from the
 * standard OpenTelemetry environment variables ({@code OTEL_EXPORTER_OTLP_*}, {@code
 * OTEL_SERVICE_NAME}, {@code OTEL_RESOURCE_ATTRIBUTES}, read by {@link
 * OtlpHttpExporter#builder()}); what the XML sets wins. Each setter validates at once and throws
 * {@link IllegalArgumentException} naming the setting. Not thread-safe: filled once, before the
 * appender starts.
 */
public final class OtlpSettings {

  private final OtlpHttpExporterBuilder builder = OtlpHttpExporter.builder();

  /** Creates settings from the environment. */
  public OtlpSettings() {}

  /**
   * See {@link OtlpHttpExporterBuilder#setEndpoint(String)}: a URL without a path gets {@code
   * /v1/logs}.
   *
   * @param url e.g. {@code http://127.0.0.1:4318}
   */
  public void setEndpoint(String url) {
    builder.setEndpoint(url);
  }

  /**
   * One request header.
   *
   * @param header {@code name=value}, e.g. {@code X-BK-TOKEN=abc}
   * @throws IllegalArgumentException if not {@code name=value}
   */
  public void addHeader(String header) {
    for (Map.Entry<String, String> e : Text.keyValues("header", header).entrySet()) {
      builder.addHeader(e.getKey(), e.getValue());
    }
  }

  /**
   * Several request headers.
   *
   * @param headers {@code name=value} items separated by commas, as {@code
   *     OTEL_EXPORTER_OTLP_HEADERS}
   * @throws IllegalArgumentException if an item is not {@code name=value}
   */
  public void setHeaders(String headers) {
    for (Map.Entry<String, String> e : Text.keyValues("headers", headers).entrySet()) {
      builder.addHeader(e.getKey(), e.getValue());
    }
  }

  /**
   * {@code protobuf} (the default) or {@code json}.
   *
   * @param encoding the name, any case ({@code proto} also means protobuf)
   * @throws IllegalArgumentException if unknown
   */
  public void setEncoding(String encoding) {
    builder.setEncoding(
        "proto".equalsIgnoreCase(encoding == null ? null : encoding.trim())
            ? OtlpEncoding.PROTOBUF
            : Text.enumValue(OtlpEncoding.class, "encoding", encoding));
  }

  /**
   * The exporter's default compression, used when the producer settings leave it unset.
   *
   * @param compression {@code none}, {@code gzip}, {@code lz4} or {@code zstd}
   * @throws IllegalArgumentException if unknown
   */
  public void setCompression(String compression) {
    builder.setCompression(Compression.fromName(compression));
  }

  /**
   * See {@link OtlpHttpExporterBuilder#setTimeoutMillis(long)}: the deadline of one whole request.
   *
   * @param millis the request timeout
   */
  public void setTimeoutMillis(long millis) {
    builder.setTimeoutMillis(millis);
  }

  /**
   * The resource attribute {@code service.name}.
   *
   * @param name the service's name
   */
  public void setServiceName(String name) {
    builder.setServiceName(name);
  }

  /**
   * One string resource attribute.
   *
   * @param attribute {@code key=value}
   * @throws IllegalArgumentException if not {@code key=value}
   */
  public void addResourceAttribute(String attribute) {
    for (Map.Entry<String, String> e : Text.keyValues("resourceAttribute", attribute).entrySet()) {
      builder.setResourceAttribute(e.getKey(), e.getValue());
    }
  }

  /**
   * Several string resource attributes.
   *
   * @param attributes {@code key=value} items separated by commas, as {@code
   *     OTEL_RESOURCE_ATTRIBUTES}
   * @throws IllegalArgumentException if an item is not {@code key=value}
   */
  public void setResourceAttributes(String attributes) {
    for (Map.Entry<String, String> e :
        Text.keyValues("resourceAttributes", attributes).entrySet()) {
      builder.setResourceAttribute(e.getKey(), e.getValue());
    }
  }

  /**
   * See {@link OtlpHttpExporterBuilder#setMaxRequestSizeInBytes(int)}.
   *
   * @param bytes the uncompressed request bound
   */
  public void setMaxRequestSizeInBytes(int bytes) {
    builder.setMaxRequestSizeInBytes(bytes);
  }

  /**
   * Builds the exporter.
   *
   * @param scopeName the {@code InstrumentationScope} name of records without a logger name
   * @param scopeFromRecords whether each record's scope name (the logger name) becomes its {@code
   *     InstrumentationScope} ({@link
   *     OtlpHttpExporterBuilder#setInstrumentationScopeFromRecords(boolean)})
   * @return a new exporter
   * @throws IllegalArgumentException if the settings are invalid
   */
  public OtlpHttpExporter build(String scopeName, boolean scopeFromRecords) {
    return builder
        .setScope(scopeName, null)
        .setInstrumentationScopeFromRecords(scopeFromRecords)
        .build();
  }
}
