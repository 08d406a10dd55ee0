package io.logproducer.otlp;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import io.logproducer.otlp.encoding.internal.JsonWireFormat;
import io.logproducer.otlp.encoding.internal.ProtobufWireFormat;
import io.logproducer.otlp.encoding.internal.WireFormat;
import io.logproducer.otlp.internal.HttpTransport;
import io.logproducer.otlp.internal.Stripes;
import io.logproducer.otlp.internal.tls.ClientTls;
import io.logproducer.spi.Batch;
import io.logproducer.spi.ExportResult;
import io.logproducer.spi.Exporter;
import io.logproducer.spi.ExporterCapabilities;
import io.logproducer.spi.RecordEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * Exports log records over OTLP/HTTP ({@code POST …/v1/logs}, an {@code ExportLogsServiceRequest}
 * in protobuf or JSON) to an OpenTelemetry Collector, bk-collector or any OTLP receiver. Protocol
 * facts follow {@code open-telemetry/opentelemetry-proto} ({@code docs/specification.md}, {@code
 * logs/v1/logs.proto}, {@code collector/logs/v1/logs_service.proto}) and the exporter specification
 * ({@code opentelemetry-specification/specification/protocol/exporter.md}).
 *
 * <pre>{@code
 * Producer producer = new Producer(ProducerConfig.defaults(),
 *     OtlpHttpExporter.builder().setEndpoint("http://collector:4318").setServiceName("checkout").build());
 * }</pre>
 *
 * <p>Records are encoded once, at {@code send}, straight into OTLP wire form (no protobuf-java
 * objects); a batch is framed with the resource and scope in O(1). Records' own scope names (the
 * logger names appenders set) are used only with {@link
 * OtlpHttpExporterBuilder#setInstrumentationScopeFromRecords(boolean)}. Answers: 2xx is success
 * ({@code partial_success} with rejected records becomes a partial success, not retried); 429, 502,
 * 503, 504 and connection errors are retried by the producer, honouring {@code Retry-After}; 413
 * makes the producer split the batch; any other status rejects the batch.
 *
 * <p>Thread-safe. A {@link io.logproducer.Producer} owns its exporter: it calls {@link #start}
 * once, the encoder and {@link #shardKey} from application threads, {@link #writeRequest} and
 * {@link #export} from its send threads, and {@link #close} at the end. {@link #close} aborts
 * requests in flight and is idempotent.
 */
public final class OtlpHttpExporter implements Exporter {

  /** Default endpoint: {@value} (the OTLP/HTTP default port 4318 with the logs path). */
  public static final String DEFAULT_ENDPOINT = "http://localhost:4318/v1/logs";

  /**
   * Default deadline of each whole request: {@value} ms (the OTLP exporter specification's 10 s).
   */
  public static final long DEFAULT_TIMEOUT_MILLIS = 10_000L;

  /**
   * Default bound on an uncompressed request body: {@value} bytes (16 MiB; the OpenTelemetry
   * Collector refuses bodies above 20 MiB after decompression).
   */
  public static final int DEFAULT_MAX_REQUEST_SIZE_IN_BYTES = 16 * 1024 * 1024;

  /** Upper bound of the default stripe count, which is min({@value}, available processors). */
  public static final int DEFAULT_MAX_STRIPES = 8;

  /** Default {@code InstrumentationScope} name: {@value}. */
  public static final String DEFAULT_SCOPE_NAME = "io.logproducer";

  /** Default {@code service.name} (the OpenTelemetry SDK's default for Java): {@value}. */
  public static final String DEFAULT_SERVICE_NAME = "unknown_service:java";

  /** Default encoding: protobuf. */
  public static final OtlpEncoding DEFAULT_ENCODING = OtlpEncoding.PROTOBUF;

  /** Default compression: none (the OTLP exporter specification's default). */
  public static final Compression DEFAULT_COMPRESSION = Compression.NONE;

  static final String SERVICE_NAME_KEY = "service.name";

  private final String endpoint;
  private final OtlpEncoding encoding;
  private final Compression compression;
  private final long timeoutMillis;
  private final int maxRequestSizeInBytes;
  private final ExporterCapabilities capabilities;
  private final Map<String, String> headers;
  private final Map<String, AnyValue> resourceAttributes;
  private final String scopeName;
  private final String scopeVersion;
  private final boolean instrumentationScopeFromRecords;
  private final WireFormat format;
  private final Stripes stripes;
  private final HttpTransport transport;
  private final ClientTls tls; // null for http://

  OtlpHttpExporter(OtlpHttpExporterBuilder b) {
    this.endpoint = b.endpoint();
    this.encoding = b.encoding();
    this.compression = b.compression();
    this.timeoutMillis = b.timeoutMillis();
    this.maxRequestSizeInBytes = b.maxRequestSizeInBytes();
    this.headers = b.headers();
    this.resourceAttributes = b.resourceAttributes();
    this.scopeName = b.scopeName();
    this.scopeVersion = b.scopeVersion();
    this.instrumentationScopeFromRecords = b.instrumentationScopeFromRecords();
    this.format =
        encoding == OtlpEncoding.JSON
            ? new JsonWireFormat(
                resourceAttributes, scopeName, scopeVersion, instrumentationScopeFromRecords)
            : new ProtobufWireFormat(
                resourceAttributes, scopeName, scopeVersion, instrumentationScopeFromRecords);
    int maxBatchSizeInBytes = format.maxBatchSizeInBytes(maxRequestSizeInBytes);
    if (maxBatchSizeInBytes < 1) {
      throw new IllegalArgumentException(
          "maxRequestSizeInBytes ("
              + maxRequestSizeInBytes
              + ") leaves no room for records after the request framing (resource and scope)");
    }
    // All compressions: the OpenTelemetry Collector accepts gzip, zstd and lz4 (frame);
    // bk-collector only gzip.
    this.capabilities =
        ExporterCapabilities.builder(maxBatchSizeInBytes)
            .setDefaultCompression(compression)
            .setRequestTimeoutMillis(timeoutMillis)
            .build();
    this.stripes = new Stripes(b.stripes());
    boolean https = endpoint.regionMatches(true, 0, "https:", 0, 6);
    if (b.protocolMismatch() != null) {
      LoggerFactory.getLogger(OtlpHttpExporter.class).warn(b.protocolMismatch());
    }
    if (!https && b.tlsConfigured()) {
      LoggerFactory.getLogger(OtlpHttpExporter.class)
          .warn("TLS settings are ignored: the endpoint {} is http://, not https://", endpoint);
    }
    this.tls = https ? b.tls() : null;
    this.transport =
        new HttpTransport(
            URI.create(endpoint),
            headers,
            timeoutMillis,
            format.contentType(),
            format.isJson(),
            userAgent(),
            tls);
  }

  /**
   * A builder holding the defaults ({@code DEFAULT_*}) overridden by the OpenTelemetry environment
   * variables (see {@link OtlpHttpExporterBuilder}).
   *
   * @return a new builder
   * @throws IllegalArgumentException naming the variable if one of them is malformed
   */
  public static OtlpHttpExporterBuilder builder() {
    return builder(System.getenv());
  }

  /** As {@link #builder()}, reading {@code env} instead of the process environment. */
  static OtlpHttpExporterBuilder builder(Map<String, String> env) {
    return new OtlpHttpExporterBuilder(env);
  }

  /**
   * Creates the connection pool, sized to {@link ProducerConfig#getMaxConcurrentExports()} (the
   * send threads and, with a spool, replay's exports), so that replay never waits for a connection.
   */
  @Override
  public void start(ProducerConfig config) {
    transport.start(config.getMaxConcurrentExports());
  }

  /**
   * {@return the builder's compression as the default, every compression supported (the
   * OpenTelemetry Collector accepts gzip, zstd and lz4 frames; bk-collector only gzip), {@code
   * maxRequestSizeInBytes} minus the worst-case request framing as the largest batch, and {@code
   * timeoutMillis} (the deadline of one whole request) as the request timeout}
   */
  @Override
  public ExporterCapabilities capabilities() {
    return capabilities;
  }

  @Override
  public RecordEncoder encoder() {
    return format.encoder();
  }

  /** The calling thread's stripe; a precomputed {@link Integer}, no allocation. */
  @Override
  public Object shardKey(LogRecord record) {
    return stripes.forCurrentThread();
  }

  @Override
  public void writeRequest(Batch batch, OutputStream out) throws IOException {
    format.writeRequest(batch, out);
  }

  /** POSTs the body and classifies the answer; never throws. */
  @Override
  public ExportResult export(Batch batch, byte[] body, int length, Compression compression) {
    try {
      return transport.send(body, length, compression);
    } catch (RuntimeException e) {
      return ExportResult.failed("POST " + endpoint + " failed unexpectedly: " + e, e);
    }
  }

  /** The full logs URL. */
  @Override
  public String describe() {
    return endpoint;
  }

  /** {@return {@code "otlp"}} */
  @Override
  public String name() {
    return "otlp";
  }

  /** Aborts requests in flight and releases the connection pool. Idempotent, thread-safe. */
  @Override
  public void close() {
    transport.close();
  }

  @Override
  public String toString() {
    return "OtlpHttpExporter{endpoint="
        + endpoint
        + ", encoding="
        + encoding
        + ", compression="
        + compression
        + ", timeoutMillis="
        + timeoutMillis
        + ", maxRequestSizeInBytes="
        + maxRequestSizeInBytes
        + ", stripes="
        + stripes.count()
        + ", headers="
        + headers.keySet() // names only: values are secrets
        + (tls != null ? ", tls=" + tls : "")
        + (instrumentationScopeFromRecords ? ", instrumentationScopeFromRecords=true" : "")
        + "}";
  }

  static int defaultStripes() {
    return Math.max(1, Math.min(DEFAULT_MAX_STRIPES, Runtime.getRuntime().availableProcessors()));
  }

  static String userAgent() {
    String version =
        OtlpHttpExporter.class.getPackage() == null
            ? null
            : OtlpHttpExporter.class.getPackage().getImplementationVersion();
    return "logproducer-otlp-java" + (version != null ? "/" + version : "");
  }

  // For tests: the effective settings.

  OtlpEncoding encoding() {
    return encoding;
  }

  long timeoutMillis() {
    return timeoutMillis;
  }

  int maxRequestSizeInBytes() {
    return maxRequestSizeInBytes;
  }

  int stripeCount() {
    return stripes.count();
  }

  Map<String, String> headers() {
    return headers;
  }

  /**
   * TLS handshakes this exporter has completed: one per connection it opened (connections are
   * pooled and kept alive, at most one per send thread while they stay open). Thread-safe.
   *
   * @return the count since the exporter was built; 0 for an {@code http://} endpoint
   */
  public long getTlsHandshakes() {
    return tls == null ? 0 : tls.handshakes();
  }

  /**
   * How many times changed certificate files (trusted CA certificates, client key and certificate
   * given by path) were loaded again. Thread-safe.
   *
   * @return the count since the exporter was built; 0 without such files
   */
  public long getTlsReloads() {
    return tls == null ? 0 : tls.reloads();
  }

  Map<String, AnyValue> resourceAttributes() {
    return resourceAttributes;
  }

  String scopeName() {
    return scopeName;
  }

  String scopeVersion() {
    return scopeVersion;
  }

  boolean instrumentationScopeFromRecords() {
    return instrumentationScopeFromRecords;
  }
}
