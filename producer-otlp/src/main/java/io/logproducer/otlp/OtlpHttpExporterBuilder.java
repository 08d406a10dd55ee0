package io.logproducer.otlp;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.otlp.internal.ExporterSettings;
import io.logproducer.otlp.internal.tls.ClientTls;
import io.logproducer.spi.ExporterCapabilities;
import java.nio.file.Path;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * Configures an {@link OtlpHttpExporter}. {@link OtlpHttpExporter#builder()} starts from the
 * defaults ({@code OtlpHttpExporter.DEFAULT_*}) overridden by the OpenTelemetry environment
 * variables; every setter here overrides both. Setters validate at once and throw {@link
 * IllegalArgumentException} naming the parameter and its bound, e.g. "timeoutMillis must be in [1,
 * 3600000], was 0". Not thread-safe; {@link #build()} may be called repeatedly.
 *
 * <table>
 *   <caption>Environment variables read by {@link OtlpHttpExporter#builder()}</caption>
 *   <tr><th>variable</th><th>setting</th></tr>
 *   <tr><td>OTEL_EXPORTER_OTLP_LOGS_ENDPOINT</td><td>endpoint, used as given</td></tr>
 *   <tr><td>OTEL_EXPORTER_OTLP_ENDPOINT</td><td>endpoint, with {@code /v1/logs} appended to its path</td></tr>
 *   <tr><td>OTEL_EXPORTER_OTLP_[LOGS_]HEADERS</td><td>headers, {@code k=v,k2=v2}, percent-decoded</td></tr>
 *   <tr><td>OTEL_EXPORTER_OTLP_[LOGS_]COMPRESSION</td><td>none, gzip, lz4 or zstd</td></tr>
 *   <tr><td>OTEL_EXPORTER_OTLP_[LOGS_]TIMEOUT</td><td>timeoutMillis</td></tr>
 *   <tr><td>OTEL_EXPORTER_OTLP_[LOGS_]PROTOCOL</td><td>http/protobuf or http/json; grpc fails (use {@link OtlpGrpcExporter} or {@link OtlpExporters#fromEnvironment()})</td></tr>
 *   <tr><td>OTEL_EXPORTER_OTLP_[LOGS_]CERTIFICATE</td><td>trusted CA certificates, a PEM file
 *   path</td></tr>
 *   <tr><td>OTEL_EXPORTER_OTLP_[LOGS_]CLIENT_KEY</td><td>the client's PKCS#8 private key, a PEM file
 *   path (mutual TLS; with CLIENT_CERTIFICATE)</td></tr>
 *   <tr><td>OTEL_EXPORTER_OTLP_[LOGS_]CLIENT_CERTIFICATE</td><td>the client's certificate chain, a
 *   PEM file path (mutual TLS; with CLIENT_KEY)</td></tr>
 *   <tr><td>OTEL_RESOURCE_ATTRIBUTES</td><td>resource attributes, {@code k=v,…}, percent-decoded</td></tr>
 *   <tr><td>OTEL_SERVICE_NAME</td><td>service.name (wins over OTEL_RESOURCE_ATTRIBUTES)</td></tr>
 * </table>
 *
 * A {@code LOGS_} variable replaces its generic counterpart as a whole (headers are not merged).
 * Each TLS variable is taken on its own (a {@code LOGS_} one wins over its generic one); a setter
 * of this builder wins over both, and {@link #setSslContext} replaces all three.
 *
 * <h2>Secrets</h2>
 *
 * Header values, the password of an endpoint's user-info and key material are never printed: not by
 * {@code toString()}, {@code describe()}, log lines nor exception messages (header names are).
 */
public final class OtlpHttpExporterBuilder implements OtlpExporterBuilder<OtlpHttpExporterBuilder> {

  /** Smallest {@code timeoutMillis}: {@value} ms. */
  public static final long MIN_TIMEOUT_MILLIS = ExporterSettings.MIN_TIMEOUT_MILLIS;

  /** Largest {@code timeoutMillis}: {@value} ms (an hour). */
  public static final long MAX_TIMEOUT_MILLIS = ExporterSettings.MAX_TIMEOUT_MILLIS;

  /** Smallest {@code maxRequestSizeInBytes}: {@value} bytes. */
  public static final int MIN_MAX_REQUEST_SIZE_IN_BYTES =
      ExporterSettings.MIN_MAX_REQUEST_SIZE_IN_BYTES;

  /** Largest {@code maxRequestSizeInBytes}: {@value} bytes (256 MiB). */
  public static final int MAX_MAX_REQUEST_SIZE_IN_BYTES =
      ExporterSettings.MAX_MAX_REQUEST_SIZE_IN_BYTES;

  /** Smallest {@code stripes}: {@value}. */
  public static final int MIN_STRIPES = ExporterSettings.MIN_STRIPES;

  /** Largest {@code stripes}: {@value}. */
  public static final int MAX_STRIPES = ExporterSettings.MAX_STRIPES;

  private final ExporterSettings s;

  /**
   * Defaults overridden by {@code env}.
   *
   * @throws IllegalArgumentException naming the variable if one is malformed, or if it asks for
   *     grpc
   */
  OtlpHttpExporterBuilder(Map<String, String> env) {
    s =
        new ExporterSettings(
            ExporterSettings.Protocol.HTTP,
            env,
            new String[] {
              OtlpHttpExporter.DEFAULT_ENDPOINT,
              OtlpHttpExporter.DEFAULT_SERVICE_NAME,
              OtlpHttpExporter.DEFAULT_SCOPE_NAME
            },
            OtlpHttpExporter.DEFAULT_TIMEOUT_MILLIS,
            OtlpHttpExporter.DEFAULT_MAX_REQUEST_SIZE_IN_BYTES,
            OtlpHttpExporter.defaultStripes());
  }

  /**
   * The receiver's URL. If its path is empty or "/", {@code /v1/logs} is appended; otherwise it is
   * used as given. Default {@value OtlpHttpExporter#DEFAULT_ENDPOINT}. Use {@code https://} for TLS
   * (the JDK's default trust store unless {@link #setTrustedCertificates} or {@link #setSslContext}
   * say otherwise). A user-info ({@code https://user:password@host}) is sent as {@code
   * Authorization: Basic …} (RFC 7617; unless an {@code Authorization} header is added) and removed
   * from the URL: it is never printed.
   *
   * @param url an absolute {@code http} or {@code https} URL with a host and no fragment, e.g.
   *     {@code http://collector:4318}; surrounding whitespace is ignored
   * @return this builder
   * @throws IllegalArgumentException if not an absolute http or https URL with a host, or if it has
   *     a fragment
   */
  public OtlpHttpExporterBuilder setEndpoint(String url) {
    s.setEndpoint(url);
    return this;
  }

  /**
   * Trusts these CA certificates, and only these, to verify the receiver's certificate (a private
   * CA); replaces {@code OTEL_EXPORTER_OTLP_CERTIFICATE}. Default: the JDK's trust store.
   *
   * @param pem one or more PEM {@code CERTIFICATE} blocks (text between blocks is ignored)
   * @return this builder
   * @throws IllegalArgumentException if null, empty, or not PEM certificates (the message says
   *     which)
   */
  public OtlpHttpExporterBuilder setTrustedCertificates(byte[] pem) {
    s.setTrustedCertificates(pem);
    return this;
  }

  /**
   * As {@link #setTrustedCertificates(byte[])}, from a PEM file read by {@link #build()} and read
   * again when it changes (modification time or size; looked at most once a second, when a new
   * connection is opened): a rotated CA bundle takes effect without a restart, for new connections.
   *
   * @param pemFile the file
   * @return this builder
   * @throws IllegalArgumentException if null (a missing or invalid file fails {@link #build()})
   */
  public OtlpHttpExporterBuilder setTrustedCertificatesPath(Path pemFile) {
    s.setTrustedCertificatesPath(pemFile);
    return this;
  }

  /**
   * Presents this client certificate when the receiver asks for one (mutual TLS); replaces {@code
   * OTEL_EXPORTER_OTLP_CLIENT_KEY} and {@code OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE}. It is sent to
   * any receiver that asks, whatever CA names it lists. The key must match the certificate.
   *
   * @param privateKeyPem the private key: PKCS#8 {@code PRIVATE KEY} (RSA or EC; also PKCS#1 {@code
   *     RSA PRIVATE KEY} and SEC1 {@code EC PRIVATE KEY}); encrypted keys are refused
   * @param certificatePem the certificate chain, the client's certificate first
   * @return this builder
   * @throws IllegalArgumentException if either is null, empty or does not parse, or the key does
   *     not match the certificate (the message names which; never the key)
   */
  public OtlpHttpExporterBuilder setClientTls(byte[] privateKeyPem, byte[] certificatePem) {
    s.setClientTls(privateKeyPem, certificatePem);
    return this;
  }

  /**
   * As {@link #setClientTls(byte[], byte[])}, from PEM files read by {@link #build()} and read
   * again when either changes (a pair that does not match yet keeps the previous one until it
   * does): certificates rotated on disk (cert-manager, SPIFFE) take effect for new connections
   * without a restart.
   *
   * @param privateKeyPemFile the private key file
   * @param certificatePemFile the certificate chain file
   * @return this builder
   * @throws IllegalArgumentException if either is null (missing, invalid or mismatched files fail
   *     {@link #build()})
   */
  public OtlpHttpExporterBuilder setClientTlsPaths(
      Path privateKeyPemFile, Path certificatePemFile) {
    s.setClientTlsPaths(privateKeyPemFile, certificatePemFile);
    return this;
  }

  /**
   * Uses the application's own TLS context for anything the PEM settings do not cover (a PKCS#11
   * token, a keystore, a custom trust manager). It replaces the trusted certificates and client
   * certificate of the environment variables; combining it with {@link #setTrustedCertificates} or
   * {@link #setClientTls} fails {@link #build()}. Hostname verification stays on, and only TLS 1.2
   * and 1.3 are offered (the ones the context supports).
   *
   * @param context an initialised context, e.g. {@code SSLContext.getInstance("TLS")} after {@code
   *     init(keyManagers, trustManagers, null)}
   * @return this builder
   * @throws IllegalArgumentException if null
   */
  public OtlpHttpExporterBuilder setSslContext(SSLContext context) {
    s.setSslContext(context);
    return this;
  }

  /**
   * The body encoding.
   *
   * @param encoding the encoding; default {@link OtlpEncoding#PROTOBUF}
   * @return this builder
   * @throws IllegalArgumentException if null
   */
  public OtlpHttpExporterBuilder setEncoding(OtlpEncoding encoding) {
    s.setEncoding(encoding);
    return this;
  }

  /**
   * The exporter's {@link ExporterCapabilities#defaultCompression() default compression}; a
   * compression set in {@link io.logproducer.ProducerConfig} wins. Default {@link
   * Compression#NONE}. The OpenTelemetry Collector accepts all four; bk-collector accepts none and
   * gzip only.
   *
   * @param compression the compression
   * @return this builder
   * @throws IllegalArgumentException if null
   */
  public OtlpHttpExporterBuilder setCompression(Compression compression) {
    s.setCompression(compression);
    return this;
  }

  /**
   * Adds a header sent with every request (e.g. {@code Authorization}, {@code X-BK-TOKEN}); a
   * second call with the same name (case-insensitive) replaces the value.
   *
   * @param name the header name, an HTTP token (RFC 9110)
   * @param value the value, sent as given
   * @return this builder
   * @throws IllegalArgumentException if the name is not an HTTP token, the value holds CR, LF or
   *     NUL, or the name is one the exporter sets itself (Content-Type, Content-Encoding,
   *     Content-Length, Transfer-Encoding, Host, Connection)
   */
  public OtlpHttpExporterBuilder addHeader(String name, String value) {
    s.addHeader(name, value);
    return this;
  }

  /**
   * Deadline of each request, in ms, in [{@value #MIN_TIMEOUT_MILLIS}, {@value
   * #MAX_TIMEOUT_MILLIS}]; default {@value OtlpHttpExporter#DEFAULT_TIMEOUT_MILLIS}. It bounds the
   * whole request: waiting for a pooled connection, connecting (and the TLS handshake), uploading
   * the body, and receiving the response headers and body. A request still running when it passes
   * is aborted and fails as retryable ("timed out after N ms (request deadline)"), so a receiver
   * that stops reading the body, or trickles its response, cannot hold a send thread longer.
   *
   * @param millis the deadline in milliseconds
   * @return this builder
   * @throws IllegalArgumentException if outside that range
   */
  public OtlpHttpExporterBuilder setTimeoutMillis(long millis) {
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
  public OtlpHttpExporterBuilder setServiceName(String name) {
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
  public OtlpHttpExporterBuilder setResourceAttribute(String key, String value) {
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
  public OtlpHttpExporterBuilder setResourceAttribute(String key, long value) {
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
  public OtlpHttpExporterBuilder setResourceAttribute(String key, boolean value) {
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
  public OtlpHttpExporterBuilder setResourceAttribute(String key, double value) {
    s.setResourceAttribute(key, AnyValue.of(value));
    return this;
  }

  /**
   * Any resource attribute (e.g. bk-collector's {@code bk.data.token}); replaces one with the same
   * key.
   *
   * @param key the attribute key, non-empty
   * @param value the value, not null
   * @return this builder
   * @throws IllegalArgumentException if the key is null or empty, or the value null
   */
  public OtlpHttpExporterBuilder setResourceAttribute(String key, AnyValue value) {
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
  public OtlpHttpExporterBuilder setResourceDetection(boolean detection) {
    s.setResourceDetection(detection);
    return this;
  }

  /**
   * The {@code InstrumentationScope} of every record (with {@link
   * #setInstrumentationScopeFromRecords(boolean) setInstrumentationScopeFromRecords(true)}: of
   * every record without a scope name of its own); default name {@value
   * OtlpHttpExporter#DEFAULT_SCOPE_NAME}, no version.
   *
   * @param name the scope name, non-empty
   * @param version the scope version; may be null
   * @return this builder
   * @throws IllegalArgumentException if {@code name} is null or empty
   */
  public OtlpHttpExporterBuilder setScope(String name, String version) {
    s.setScope(name, version);
    return this;
  }

  /**
   * Whether each record's {@link io.logproducer.LogRecord#getInstrumentationScopeName() scope name}
   * (set by logging appenders to the logger name, as OpenTelemetry's appenders do) becomes its OTLP
   * {@code InstrumentationScope}. When true, every record travels in a {@code ScopeLogs} of its
   * own, scoped by its name (no version), or by the {@link #setScope(String, String) exporter's
   * scope} (name and version) when it has none. Consecutive records of one scope are not merged:
   * each record costs its scope's name plus about 7 bytes more in protobuf (37 in JSON) before
   * compression, little after it. When false (the default), all the records of a request share one
   * {@code ScopeLogs} with the exporter's scope, and the records' scope names are ignored.
   *
   * @param fromRecords true to scope each record by its own scope name
   * @return this builder
   */
  public OtlpHttpExporterBuilder setInstrumentationScopeFromRecords(boolean fromRecords) {
    s.setInstrumentationScopeFromRecords(fromRecords);
    return this;
  }

  /**
   * Bound on an uncompressed request body, in bytes, in [{@value #MIN_MAX_REQUEST_SIZE_IN_BYTES},
   * {@value #MAX_MAX_REQUEST_SIZE_IN_BYTES}]; default {@value
   * OtlpHttpExporter#DEFAULT_MAX_REQUEST_SIZE_IN_BYTES} (16 MiB, under the OpenTelemetry
   * Collector's 20 MiB limit after decompression, above which it answers 400). Batches are sealed
   * so that a request never exceeds it; the producer's {@code batchSizeInBytes} must fit.
   *
   * @param bytes the bound in bytes
   * @return this builder
   * @throws IllegalArgumentException if outside that range
   */
  public OtlpHttpExporterBuilder setMaxRequestSizeInBytes(int bytes) {
    s.setMaxRequestSizeInBytes(bytes);
    return this;
  }

  /**
   * Number of shards (open batches) application threads are spread over by thread id, in [{@value
   * #MIN_STRIPES}, {@value #MAX_STRIPES}]; default min({@value
   * OtlpHttpExporter#DEFAULT_MAX_STRIPES}, available processors).
   *
   * @param stripes the number of shards
   * @return this builder
   * @throws IllegalArgumentException if outside that range
   */
  public OtlpHttpExporterBuilder setStripes(int stripes) {
    s.setStripes(stripes);
    return this;
  }

  /**
   * A new exporter with these settings.
   *
   * @return the exporter; a {@link io.logproducer.Producer} starts it
   * @throws IllegalArgumentException if the resource and scope framing leaves no room for records
   *     within {@code maxRequestSizeInBytes}
   */
  public OtlpHttpExporter build() {
    return new OtlpHttpExporter(this);
  }

  // The settings, for OtlpHttpExporter and tests.

  ClientTls tls() {
    return s.tls();
  }

  String protocolMismatch() {
    return s.protocolMismatch();
  }

  boolean tlsConfigured() {
    return s.tlsConfigured();
  }

  String endpoint() {
    return s.endpoint();
  }

  OtlpEncoding encoding() {
    return s.encoding();
  }

  Compression compression() {
    return s.compression();
  }

  Map<String, String> headers() {
    return s.headers();
  }

  long timeoutMillis() {
    return s.timeoutMillis();
  }

  /** The single place the request framing gets its resource from. */
  Map<String, AnyValue> resourceAttributes() {
    return s.resourceAttributes();
  }

  String scopeName() {
    return s.scopeName();
  }

  String scopeVersion() {
    return s.scopeVersion();
  }

  boolean instrumentationScopeFromRecords() {
    return s.instrumentationScopeFromRecords();
  }

  int maxRequestSizeInBytes() {
    return s.maxRequestSizeInBytes();
  }

  int stripes() {
    return s.stripes();
  }
}
