package io.logproducer.otlp;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.otlp.internal.ExporterSettings;
import io.logproducer.otlp.internal.tls.ClientTls;
import java.nio.file.Path;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * Configures an {@link OtlpGrpcExporter}. {@link OtlpGrpcExporter#builder()} starts from the
 * defaults ({@code OtlpGrpcExporter.DEFAULT_*}) overridden by the OpenTelemetry environment
 * variables; every setter here overrides both. Setters validate at once and throw {@link
 * IllegalArgumentException} naming the parameter and its bound. The settings, their bounds and the
 * variables are those of {@link OtlpHttpExporterBuilder} (one shared implementation), except:
 *
 * <ul>
 *   <li>the endpoint is used as given, from a setter or from {@code OTEL_EXPORTER_OTLP_ENDPOINT} /
 *       {@code OTEL_EXPORTER_OTLP_LOGS_ENDPOINT} (gRPC appends no {@code /v1/logs}; the service
 *       path {@code /opentelemetry.proto.collector.logs.v1.LogsService/Export} follows the
 *       endpoint's path); default {@value OtlpGrpcExporter#DEFAULT_ENDPOINT};
 *   <li>{@code OTEL_EXPORTER_OTLP_[LOGS_]PROTOCOL} must be {@code grpc} or unset: {@code http/*}
 *       fails, pointing to {@link OtlpHttpExporter} and {@link OtlpExporters#fromEnvironment()};
 *   <li>protobuf only (OTLP/JSON exists over HTTP only), and compressions none, gzip and zstd (lz4
 *       is no gRPC message encoding: the Collector's gRPC receiver answers UNIMPLEMENTED);
 *   <li>headers are gRPC metadata: names are sent in lower case, and {@code te}, {@code
 *       user-agent}, {@code grpc-*} are set by the exporter and refused here;
 *   <li>the default {@code maxRequestSizeInBytes} is {@value
 *       OtlpGrpcExporter#DEFAULT_MAX_REQUEST_SIZE_IN_BYTES} (4 MiB, the Collector's gRPC {@code
 *       max_recv_msg_size_mib} default, applied to the decompressed message).
 * </ul>
 *
 * Header values, user-info passwords and key material are never printed. Not thread-safe; {@link
 * #build()} may be called repeatedly.
 */
public final class OtlpGrpcExporterBuilder implements OtlpExporterBuilder<OtlpGrpcExporterBuilder> {

  private final ExporterSettings s;

  /**
   * Defaults overridden by {@code env}.
   *
   * @throws IllegalArgumentException naming the variable if one is malformed, or if it asks for
   *     http/protobuf or http/json
   */
  OtlpGrpcExporterBuilder(Map<String, String> env) {
    s =
        new ExporterSettings(
            ExporterSettings.Protocol.GRPC,
            env,
            new String[] {
              OtlpGrpcExporter.DEFAULT_ENDPOINT,
              OtlpHttpExporter.DEFAULT_SERVICE_NAME,
              OtlpHttpExporter.DEFAULT_SCOPE_NAME
            },
            OtlpHttpExporter.DEFAULT_TIMEOUT_MILLIS,
            OtlpGrpcExporter.DEFAULT_MAX_REQUEST_SIZE_IN_BYTES,
            OtlpHttpExporter.defaultStripes());
  }

  /**
   * The receiver's URL, used as given (no path appended); default {@value
   * OtlpGrpcExporter#DEFAULT_ENDPOINT}. {@code http://} speaks HTTP/2 without TLS (h2c, prior
   * knowledge); {@code https://} speaks TLS 1.2+ with ALPN {@code h2}. A user-info is sent as
   * {@code authorization: Basic …} metadata and never printed.
   *
   * @param url an absolute {@code http} or {@code https} URL with a host and no fragment, e.g.
   *     {@code http://collector:4317}
   * @return this builder
   * @throws IllegalArgumentException if not such a URL
   */
  public OtlpGrpcExporterBuilder setEndpoint(String url) {
    s.setEndpoint(url);
    return this;
  }

  /**
   * Trusts these CA certificates, and only these (see {@link
   * OtlpHttpExporterBuilder#setTrustedCertificates(byte[])}).
   *
   * @param pem one or more PEM {@code CERTIFICATE} blocks
   * @return this builder
   * @throws IllegalArgumentException if null, empty, or not PEM certificates
   */
  public OtlpGrpcExporterBuilder setTrustedCertificates(byte[] pem) {
    s.setTrustedCertificates(pem);
    return this;
  }

  /**
   * Trusts the CA certificates of a PEM file, read at {@link #build()} and again when it changes,
   * for new connections (see {@link OtlpHttpExporterBuilder#setTrustedCertificatesPath(Path)}).
   *
   * @param pemFile the file
   * @return this builder
   * @throws IllegalArgumentException if null (a missing or invalid file fails {@link #build()})
   */
  public OtlpGrpcExporterBuilder setTrustedCertificatesPath(Path pemFile) {
    s.setTrustedCertificatesPath(pemFile);
    return this;
  }

  /**
   * Presents this client certificate for mutual TLS (see {@link
   * OtlpHttpExporterBuilder#setClientTls(byte[], byte[])}).
   *
   * @param privateKeyPem the private key (PKCS#8, PKCS#1 RSA or SEC1 EC; not encrypted)
   * @param certificatePem the certificate chain, the client's certificate first
   * @return this builder
   * @throws IllegalArgumentException if either is null, empty or does not parse, or they do not
   *     match
   */
  public OtlpGrpcExporterBuilder setClientTls(byte[] privateKeyPem, byte[] certificatePem) {
    s.setClientTls(privateKeyPem, certificatePem);
    return this;
  }

  /**
   * As {@link #setClientTls(byte[], byte[])} from PEM files, read again when they change (see
   * {@link OtlpHttpExporterBuilder#setClientTlsPaths(Path, Path)}).
   *
   * @param privateKeyPemFile the private key file
   * @param certificatePemFile the certificate chain file
   * @return this builder
   * @throws IllegalArgumentException if either is null (bad files fail {@link #build()})
   */
  public OtlpGrpcExporterBuilder setClientTlsPaths(
      Path privateKeyPemFile, Path certificatePemFile) {
    s.setClientTlsPaths(privateKeyPemFile, certificatePemFile);
    return this;
  }

  /**
   * Uses the application's own TLS context (see {@link
   * OtlpHttpExporterBuilder#setSslContext(SSLContext)}); hostname verification stays on, TLS 1.2
   * and 1.3 only.
   *
   * @param context an initialised context
   * @return this builder
   * @throws IllegalArgumentException if null
   */
  public OtlpGrpcExporterBuilder setSslContext(SSLContext context) {
    s.setSslContext(context);
    return this;
  }

  /**
   * The exporter's default compression (a compression set in {@link io.logproducer.ProducerConfig}
   * wins); sent as {@code grpc-encoding}. Default {@link Compression#NONE}.
   *
   * @param compression NONE, GZIP or ZSTD (the encodings the Collector's gRPC receiver registers)
   * @return this builder
   * @throws IllegalArgumentException if null or LZ4
   */
  public OtlpGrpcExporterBuilder setCompression(Compression compression) {
    s.setCompression(compression);
    return this;
  }

  /**
   * Adds a metadata entry sent with every call (e.g. {@code authorization}); a second call with the
   * same name (case-insensitive) replaces the value. The name is sent in lower case.
   *
   * @param name the name, an HTTP token
   * @param value the value, sent as given (a {@code -bin} name needs a base64 value)
   * @return this builder
   * @throws IllegalArgumentException if the name is not an HTTP token, the value holds CR, LF or
   *     NUL, or the exporter sets it itself (content-type, te, user-agent, grpc-*, …)
   */
  public OtlpGrpcExporterBuilder addHeader(String name, String value) {
    s.addHeader(name, value);
    return this;
  }

  /**
   * Deadline of each export, in ms, in [{@value ExporterSettings#MIN_TIMEOUT_MILLIS}, {@value
   * ExporterSettings#MAX_TIMEOUT_MILLIS}]; default {@value
   * OtlpHttpExporter#DEFAULT_TIMEOUT_MILLIS}. It bounds the whole call (connect, TLS handshake,
   * upload, answer) and is sent as {@code grpc-timeout}; a call still running when it passes is
   * cancelled (RST_STREAM) and fails as retryable.
   *
   * @param millis the deadline in milliseconds
   * @return this builder
   * @throws IllegalArgumentException if outside that range
   */
  public OtlpGrpcExporterBuilder setTimeoutMillis(long millis) {
    s.setTimeoutMillis(millis);
    return this;
  }

  /**
   * The resource attribute {@code service.name}; default {@value
   * OtlpHttpExporter#DEFAULT_SERVICE_NAME}.
   *
   * @param name the service name
   * @return this builder
   * @throws IllegalArgumentException if null or empty
   */
  public OtlpGrpcExporterBuilder setServiceName(String name) {
    s.setServiceName(name);
    return this;
  }

  /**
   * A string resource attribute; replaces one with the same key.
   *
   * @param key the attribute key, non-empty
   * @param value the value, not null
   * @return this builder
   * @throws IllegalArgumentException if the key is null or empty, or the value null
   */
  public OtlpGrpcExporterBuilder setResourceAttribute(String key, String value) {
    s.setResourceAttribute(key, value == null ? null : AnyValue.of(value));
    return this;
  }

  /**
   * A 64-bit integer resource attribute; replaces one with the same key.
   *
   * @param key the attribute key, non-empty
   * @param value the value
   * @return this builder
   * @throws IllegalArgumentException if the key is null or empty
   */
  public OtlpGrpcExporterBuilder setResourceAttribute(String key, long value) {
    s.setResourceAttribute(key, AnyValue.of(value));
    return this;
  }

  /**
   * A boolean resource attribute; replaces one with the same key.
   *
   * @param key the attribute key, non-empty
   * @param value the value
   * @return this builder
   * @throws IllegalArgumentException if the key is null or empty
   */
  public OtlpGrpcExporterBuilder setResourceAttribute(String key, boolean value) {
    s.setResourceAttribute(key, AnyValue.of(value));
    return this;
  }

  /**
   * A double resource attribute; replaces one with the same key.
   *
   * @param key the attribute key, non-empty
   * @param value the value, finite
   * @return this builder
   * @throws IllegalArgumentException if the key is null or empty, or the value NaN or infinite
   */
  public OtlpGrpcExporterBuilder setResourceAttribute(String key, double value) {
    s.setResourceAttribute(key, AnyValue.of(value));
    return this;
  }

  /**
   * Any resource attribute; replaces one with the same key.
   *
   * @param key the attribute key, non-empty
   * @param value the value, not null
   * @return this builder
   * @throws IllegalArgumentException if the key is null or empty, or the value null
   */
  public OtlpGrpcExporterBuilder setResourceAttribute(String key, AnyValue value) {
    s.setResourceAttribute(key, value);
    return this;
  }

  /**
   * Whether resource attributes are detected and sent under the configured ones (default true):
   * {@code telemetry.sdk.*} (name {@code logproducer}), {@code host.name}, {@code host.arch},
   * {@code os.*}, {@code process.pid}, {@code process.executable.path}, {@code process.runtime.*},
   * {@code service.instance.id} (a UUID per JVM), {@code container.id} (from {@code
   * /proc/self/cgroup} or {@code /proc/self/mountinfo}) and {@code k8s.pod.name}, {@code
   * k8s.pod.uid}, {@code k8s.namespace.name}, {@code k8s.node.name} (from the OpenTelemetry
   * Operator's {@code OTEL_RESOURCE_ATTRIBUTES_*} variables); docs/resource.md has the table.
   * Detected once per JVM, at the first build, never on the send path; a detector that fails is
   * skipped with one DEBUG line. A key set by a setter, {@code OTEL_RESOURCE_ATTRIBUTES} or {@code
   * OTEL_SERVICE_NAME} wins over a detected one.
   *
   * @param detection false to send only the configured attributes
   * @return this builder
   */
  @Override
  public OtlpGrpcExporterBuilder setResourceDetection(boolean detection) {
    s.setResourceDetection(detection);
    return this;
  }

  /**
   * The {@code InstrumentationScope} of every record; default name {@value
   * OtlpHttpExporter#DEFAULT_SCOPE_NAME}, no version.
   *
   * @param name the scope name, non-empty
   * @param version the scope version; may be null
   * @return this builder
   * @throws IllegalArgumentException if {@code name} is null or empty
   */
  public OtlpGrpcExporterBuilder setScope(String name, String version) {
    s.setScope(name, version);
    return this;
  }

  /**
   * Whether each record's scope name becomes its OTLP {@code InstrumentationScope} (see {@link
   * OtlpHttpExporterBuilder#setInstrumentationScopeFromRecords(boolean)}); default false.
   *
   * @param fromRecords true to scope each record by its own scope name
   * @return this builder
   */
  public OtlpGrpcExporterBuilder setInstrumentationScopeFromRecords(boolean fromRecords) {
    s.setInstrumentationScopeFromRecords(fromRecords);
    return this;
  }

  /**
   * Bound on an uncompressed gRPC message, in bytes, in [{@value
   * ExporterSettings#MIN_MAX_REQUEST_SIZE_IN_BYTES}, {@value
   * ExporterSettings#MAX_MAX_REQUEST_SIZE_IN_BYTES}]; default {@value
   * OtlpGrpcExporter#DEFAULT_MAX_REQUEST_SIZE_IN_BYTES} (the Collector's gRPC receiver refuses
   * larger messages, after decompression, with RESOURCE_EXHAUSTED). Batches are sealed so that the
   * message plus its 5-byte prefix never exceeds it.
   *
   * @param bytes the bound in bytes
   * @return this builder
   * @throws IllegalArgumentException if outside that range
   */
  public OtlpGrpcExporterBuilder setMaxRequestSizeInBytes(int bytes) {
    s.setMaxRequestSizeInBytes(bytes);
    return this;
  }

  /**
   * Number of shards (open batches) application threads are spread over, in [{@value
   * ExporterSettings#MIN_STRIPES}, {@value ExporterSettings#MAX_STRIPES}]; default min({@value
   * OtlpHttpExporter#DEFAULT_MAX_STRIPES}, available processors).
   *
   * @param stripes the number of shards
   * @return this builder
   * @throws IllegalArgumentException if outside that range
   */
  public OtlpGrpcExporterBuilder setStripes(int stripes) {
    s.setStripes(stripes);
    return this;
  }

  /**
   * A new exporter with these settings.
   *
   * @return the exporter; a {@link io.logproducer.Producer} starts it
   * @throws IllegalArgumentException if a TLS file does not load, or the framing leaves no room for
   *     records within {@code maxRequestSizeInBytes}
   */
  public OtlpGrpcExporter build() {
    return new OtlpGrpcExporter(this);
  }

  ExporterSettings settings() {
    return s;
  }

  ClientTls tls() {
    return s.tls();
  }
}
