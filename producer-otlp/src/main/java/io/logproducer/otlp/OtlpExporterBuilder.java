package io.logproducer.otlp;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.spi.Exporter;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;

/**
 * The settings both OTLP exporters share, so that code configuring an exporter can be written once
 * for either protocol: {@link OtlpHttpExporterBuilder} (OTLP/HTTP) and {@link
 * OtlpGrpcExporterBuilder} (OTLP/gRPC) implement it. Each method's exact rules (defaults, bounds,
 * the protocol's own differences such as the endpoint's path) are those of the implementing
 * builder; all of them throw {@link IllegalArgumentException} naming the setting on a bad value.
 * Not thread-safe.
 *
 * <pre>{@code
 * static <B extends OtlpExporterBuilder<B>> Exporter configure(B builder) {
 *   return builder.setServiceName("checkout").setCompression(Compression.GZIP).build();
 * }
 * }</pre>
 *
 * @param <B> the implementing builder
 */
public interface OtlpExporterBuilder<B extends OtlpExporterBuilder<B>> {

  /**
   * The receiver's URL ({@code http://} or {@code https://}); a user-info is sent as {@code
   * Authorization: Basic} and never printed.
   *
   * @param url the URL
   * @return this builder
   * @throws IllegalArgumentException if not an absolute http or https URL with a host
   */
  B setEndpoint(String url);

  /**
   * A header (gRPC: metadata) sent with every request; a second call with the same name replaces
   * the value. Values are never printed.
   *
   * @param name the name
   * @param value the value
   * @return this builder
   * @throws IllegalArgumentException if the name is not a token, is reserved, or the value holds
   *     CR, LF or NUL
   */
  B addHeader(String name, String value);

  /**
   * The exporter's default compression (a compression in {@link io.logproducer.ProducerConfig}
   * wins).
   *
   * @param compression the compression
   * @return this builder
   * @throws IllegalArgumentException if null or not supported by the protocol
   */
  B setCompression(Compression compression);

  /**
   * The deadline of one whole request, in milliseconds.
   *
   * @param millis the deadline
   * @return this builder
   * @throws IllegalArgumentException if outside the builder's bounds
   */
  B setTimeoutMillis(long millis);

  /**
   * The resource attribute {@code service.name}.
   *
   * @param name the service's name, non-empty
   * @return this builder
   * @throws IllegalArgumentException if null or empty
   */
  B setServiceName(String name);

  /**
   * A string resource attribute; replaces one with the same key.
   *
   * @param key the key, non-empty
   * @param value the value, not null
   * @return this builder
   * @throws IllegalArgumentException if the key is empty or the value null
   */
  B setResourceAttribute(String key, String value);

  /**
   * Any resource attribute; replaces one with the same key.
   *
   * @param key the key, non-empty
   * @param value the value, not null
   * @return this builder
   * @throws IllegalArgumentException if the key is empty or the value null
   */
  B setResourceAttribute(String key, AnyValue value);

  /**
   * Whether detected resource attributes (host, OS, process, container, Kubernetes) are sent under
   * the configured ones; default true.
   *
   * @param detection false to send only the configured attributes
   * @return this builder
   */
  B setResourceDetection(boolean detection);

  /**
   * The {@code InstrumentationScope} of records without one of their own.
   *
   * @param name the scope name, non-empty
   * @param version the version, or null
   * @return this builder
   * @throws IllegalArgumentException if the name is empty
   */
  B setScope(String name, String version);

  /**
   * Whether each record's scope name becomes its {@code InstrumentationScope}.
   *
   * @param fromRecords true to scope each record by its own scope name
   * @return this builder
   */
  B setInstrumentationScopeFromRecords(boolean fromRecords);

  /**
   * The bound on an uncompressed request (gRPC: message), in bytes; batches are sealed below it.
   *
   * @param bytes the bound
   * @return this builder
   * @throws IllegalArgumentException if outside the builder's bounds
   */
  B setMaxRequestSizeInBytes(int bytes);

  /**
   * The number of shards (open batches) application threads are spread over.
   *
   * @param stripes the count
   * @return this builder
   * @throws IllegalArgumentException if outside the builder's bounds
   */
  B setStripes(int stripes);

  /**
   * Trusts these PEM CA certificates, and only these, for an {@code https://} endpoint.
   *
   * @param pem one or more PEM {@code CERTIFICATE} blocks
   * @return this builder
   * @throws IllegalArgumentException if null, empty or not PEM certificates
   */
  B setTrustedCertificates(byte[] pem);

  /**
   * As {@link #setTrustedCertificates(byte[])}, from a file read at build and again when it
   * changes.
   *
   * @param pemFile the file
   * @return this builder
   * @throws IllegalArgumentException if null
   */
  B setTrustedCertificatesPath(Path pemFile);

  /**
   * Presents this client certificate (mutual TLS).
   *
   * @param privateKeyPem the unencrypted PEM private key
   * @param certificatePem the PEM certificate chain, the client's first
   * @return this builder
   * @throws IllegalArgumentException if either does not parse or they do not match
   */
  B setClientTls(byte[] privateKeyPem, byte[] certificatePem);

  /**
   * As {@link #setClientTls(byte[], byte[])}, from files read at build and again when they change.
   *
   * @param privateKeyPemFile the key file
   * @param certificatePemFile the certificate chain file
   * @return this builder
   * @throws IllegalArgumentException if either is null
   */
  B setClientTlsPaths(Path privateKeyPemFile, Path certificatePemFile);

  /**
   * Uses the application's own TLS context instead of the PEM settings.
   *
   * @param context an initialised context
   * @return this builder
   * @throws IllegalArgumentException if null
   */
  B setSslContext(SSLContext context);

  /**
   * A new exporter with these settings.
   *
   * @return the exporter; a {@link io.logproducer.Producer} starts it
   * @throws IllegalArgumentException if the settings are inconsistent or a TLS file is invalid
   */
  Exporter build();
}
