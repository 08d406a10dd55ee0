package io.logproducer.spring.boot.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.util.unit.DataSize;

/**
 * The OTLP/HTTP exporter's properties ({@code logproducer.otlp.*}).
 *
 * <p>Not thread-safe: bound once, at start-up, before any use.
 */
public class OtlpProperties {

  /**
   * The OTLP/HTTP base URL (/v1/logs is appended) or full logs URL. Default:
   * OTEL_EXPORTER_OTLP_(LOGS_)ENDPOINT, else http://localhost:4318.
   */
  private String endpoint;

  /** Request headers, e.g. Authorization. */
  private Map<String, String> headers = new LinkedHashMap<>();

  /** protobuf (the default) or json. */
  private String encoding;

  /**
   * Request body compression: none, gzip, lz4 or zstd. Default: OTEL_EXPORTER_OTLP_COMPRESSION,
   * else none.
   */
  private String compression;

  /** The deadline of one whole request. Default: 10s. */
  private Duration timeout;

  /** The largest request body; bigger batches are split. Default: the exporter's. */
  private DataSize maxRequestSize;

  /** Creates the defaults. */
  public OtlpProperties() {}

  /** {@return {@code logproducer.otlp.endpoint}} */
  public String getEndpoint() {
    return endpoint;
  }

  /**
   * Sets {@code logproducer.otlp.endpoint}.
   *
   * @param endpoint the OTLP/HTTP base URL (/v1/logs is appended) or full logs URL. Default:
   *     OTEL_EXPORTER_OTLP_(LOGS_)ENDPOINT, else http://localhost:4318.
   */
  public void setEndpoint(String endpoint) {
    this.endpoint = endpoint;
  }

  /** {@return {@code logproducer.otlp.headers}} */
  public Map<String, String> getHeaders() {
    return headers;
  }

  /**
   * Sets {@code logproducer.otlp.headers}.
   *
   * @param headers request headers, e.g. Authorization.
   */
  public void setHeaders(Map<String, String> headers) {
    this.headers = headers;
  }

  /** {@return {@code logproducer.otlp.encoding}} */
  public String getEncoding() {
    return encoding;
  }

  /**
   * Sets {@code logproducer.otlp.encoding}.
   *
   * @param encoding protobuf (the default) or json.
   */
  public void setEncoding(String encoding) {
    this.encoding = encoding;
  }

  /** {@return {@code logproducer.otlp.compression}} */
  public String getCompression() {
    return compression;
  }

  /**
   * Sets {@code logproducer.otlp.compression}.
   *
   * @param compression request body compression: none, gzip, lz4 or zstd. Default:
   *     OTEL_EXPORTER_OTLP_COMPRESSION, else none.
   */
  public void setCompression(String compression) {
    this.compression = compression;
  }

  /** {@return {@code logproducer.otlp.timeout}} */
  public Duration getTimeout() {
    return timeout;
  }

  /**
   * Sets {@code logproducer.otlp.timeout}.
   *
   * @param timeout the deadline of one whole request. Default: 10s.
   */
  public void setTimeout(Duration timeout) {
    this.timeout = timeout;
  }

  /** {@return {@code logproducer.otlp.max-request-size}} */
  public DataSize getMaxRequestSize() {
    return maxRequestSize;
  }

  /**
   * Sets {@code logproducer.otlp.max-request-size}.
   *
   * @param maxRequestSize the largest request body; bigger batches are split. Default: the
   *     exporter's.
   */
  public void setMaxRequestSize(DataSize maxRequestSize) {
    this.maxRequestSize = maxRequestSize;
  }
}
