package io.logproducer.otlp;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.ProducerConfig;
import io.logproducer.otlp.encoding.internal.ProtobufWireFormat;
import io.logproducer.otlp.internal.ExporterSettings;
import io.logproducer.otlp.internal.Stripes;
import io.logproducer.otlp.internal.grpc.GrpcTransport;
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
 * Exports log records over OTLP/gRPC: the unary call {@code
 * opentelemetry.proto.collector.logs.v1.LogsService/Export} with an {@code
 * ExportLogsServiceRequest} in protobuf, over HTTP/2 (httpclient5's async client; no grpc-java, no
 * protobuf-java). Protocol facts follow {@code open-telemetry/opentelemetry-proto} ({@code
 * docs/specification.md}, "OTLP/gRPC") and {@code grpc/grpc} ({@code doc/PROTOCOL-HTTP2.md}, {@code
 * doc/statuscodes.md}, {@code doc/http-grpc-status-mapping.md}).
 *
 * <pre>{@code
 * Producer producer = new Producer(ProducerConfig.defaults(),
 *     OtlpGrpcExporter.builder().setEndpoint("http://collector:4317").setServiceName("checkout").build());
 * }</pre>
 *
 * <p>Records are encoded as for {@link OtlpHttpExporter} (the same encoder and framing). All send
 * threads share one multiplexed HTTP/2 connection per endpoint, one stream per export. Answers:
 * {@code grpc-status} OK is success ({@code partial_success} with rejected records becomes a
 * partial success, not retried); CANCELLED, DEADLINE_EXCEEDED, ABORTED, OUT_OF_RANGE, UNAVAILABLE,
 * DATA_LOSS, and RESOURCE_EXHAUSTED carrying a {@code google.rpc.RetryInfo}, are retried by the
 * producer after the RetryInfo's delay when given; an HTTP status other than 200 counts as its gRPC
 * status (429, 502, 503, 504: UNAVAILABLE); stream resets, GOAWAY and lost connections are retried;
 * any other status rejects the batch with its name and {@code grpc-message}.
 *
 * <p>Thread-safe. A {@link io.logproducer.Producer} owns its exporter: it calls {@link #start}
 * once, the encoder and {@link #shardKey} from application threads, {@link #writeRequest} and
 * {@link #export} from its send threads, and {@link #close} at the end. {@link #export} blocks
 * until the answer or the {@code timeoutMillis} deadline (then the stream is cancelled); {@link
 * #close} cancels calls in flight and is idempotent.
 */
public final class OtlpGrpcExporter implements Exporter {

  /** Default endpoint: {@value} (the OTLP/gRPC default port 4317, used as given). */
  public static final String DEFAULT_ENDPOINT = "http://localhost:4317";

  /**
   * Default bound on an uncompressed message: {@value} bytes (4 MiB, the Collector's gRPC {@code
   * max_recv_msg_size_mib} default, applied after decompression).
   */
  public static final int DEFAULT_MAX_REQUEST_SIZE_IN_BYTES = 4 * 1024 * 1024;

  /** Bytes of the gRPC message prefix (compressed flag and 4-byte length): {@value}. */
  static final int MESSAGE_PREFIX_BYTES = 5;

  private final String endpoint;
  private final Compression compression;
  private final long timeoutMillis;
  private final int maxRequestSizeInBytes;
  private final ExporterCapabilities capabilities;
  private final Map<String, String> headers;
  private final Map<String, AnyValue> resourceAttributes;
  private final boolean instrumentationScopeFromRecords;
  private final ProtobufWireFormat format;
  private final Stripes stripes;
  private final GrpcTransport transport;
  private final ClientTls tls; // null for http://

  OtlpGrpcExporter(OtlpGrpcExporterBuilder b) {
    ExporterSettings s = b.settings();
    this.endpoint = s.endpoint();
    this.compression = s.compression();
    this.timeoutMillis = s.timeoutMillis();
    this.maxRequestSizeInBytes = s.maxRequestSizeInBytes();
    this.headers = s.headers();
    this.resourceAttributes = s.resourceAttributes();
    this.instrumentationScopeFromRecords = s.instrumentationScopeFromRecords();
    this.format =
        new ProtobufWireFormat(
            resourceAttributes, s.scopeName(), s.scopeVersion(), instrumentationScopeFromRecords);
    int maxBatchSizeInBytes =
        format.maxBatchSizeInBytes(maxRequestSizeInBytes - MESSAGE_PREFIX_BYTES);
    if (maxBatchSizeInBytes < 1) {
      throw new IllegalArgumentException(
          "maxRequestSizeInBytes ("
              + maxRequestSizeInBytes
              + ") leaves no room for records after the message prefix and the request framing"
              + " (resource and scope)");
    }
    this.capabilities =
        ExporterCapabilities.builder(maxBatchSizeInBytes)
            .setDefaultCompression(compression)
            // the gRPC message encodings the Collector's receiver registers (configgrpc); no lz4
            .setSupportedCompressions(Compression.NONE, Compression.GZIP, Compression.ZSTD)
            .setRequestTimeoutMillis(timeoutMillis)
            .build();
    this.stripes = new Stripes(s.stripes());
    boolean https = endpoint.regionMatches(true, 0, "https:", 0, 6);
    if (s.protocolMismatch() != null) {
      LoggerFactory.getLogger(OtlpGrpcExporter.class).warn(s.protocolMismatch());
    }
    if (!https && s.tlsConfigured()) {
      LoggerFactory.getLogger(OtlpGrpcExporter.class)
          .warn("TLS settings are ignored: the endpoint {} is http://, not https://", endpoint);
    }
    this.tls = https ? b.tls() : null;
    this.transport =
        new GrpcTransport(
            URI.create(endpoint), headers, timeoutMillis, OtlpHttpExporter.userAgent(), tls);
  }

  /**
   * A builder holding the defaults ({@code DEFAULT_*}) overridden by the OpenTelemetry environment
   * variables (see {@link OtlpGrpcExporterBuilder}).
   *
   * @return a new builder
   * @throws IllegalArgumentException naming the variable if one of them is malformed, or if {@code
   *     OTEL_EXPORTER_OTLP_[LOGS_]PROTOCOL} is http/protobuf or http/json
   */
  public static OtlpGrpcExporterBuilder builder() {
    return builder(System.getenv());
  }

  /** As {@link #builder()}, reading {@code env} instead of the process environment. */
  static OtlpGrpcExporterBuilder builder(Map<String, String> env) {
    return new OtlpGrpcExporterBuilder(env);
  }

  /** Starts the HTTP/2 client; the connection opens with the first export. */
  @Override
  public void start(ProducerConfig config) {
    transport.start();
  }

  /**
   * {@return the builder's compression as the default; NONE, GZIP and ZSTD supported; {@code
   * maxRequestSizeInBytes} minus the 5-byte message prefix and the worst-case framing as the
   * largest batch; {@code timeoutMillis} as the request timeout}
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

  /**
   * Calls {@code Export} with the body as one message and classifies the answer; never throws. An
   * uncompressed body over {@code maxRequestSizeInBytes} (with its prefix) is not sent: too large.
   */
  @Override
  public ExportResult export(Batch batch, byte[] body, int length, Compression compression) {
    if (compression == Compression.NONE
        && (long) length + MESSAGE_PREFIX_BYTES > maxRequestSizeInBytes) {
      return ExportResult.tooLarge(
          "message of "
              + length
              + " bytes exceeds maxRequestSizeInBytes "
              + maxRequestSizeInBytes
              + " (with its 5-byte prefix); not sent");
    }
    try {
      return transport.send(body, length, compression);
    } catch (RuntimeException e) {
      return ExportResult.failed("gRPC call to " + endpoint + " failed unexpectedly: " + e, e);
    }
  }

  /** The endpoint URL (no user-info). */
  @Override
  public String describe() {
    return endpoint;
  }

  /** {@return {@code "otlp-grpc"}} */
  @Override
  public String name() {
    return "otlp-grpc";
  }

  /** Cancels calls in flight and closes the connection. Idempotent, thread-safe. */
  @Override
  public void close() {
    transport.close();
  }

  /**
   * The TCP connections this exporter opened (one while the connection stays up: all exports share
   * it). Thread-safe.
   *
   * @return the count since {@link #start}
   */
  public long getConnectionsOpened() {
    return transport.connectionsOpened();
  }

  /**
   * TLS handshakes this exporter has completed: one per connection it opened. Thread-safe.
   *
   * @return the count since the exporter was built; 0 for an {@code http://} endpoint
   */
  public long getTlsHandshakes() {
    return tls == null ? 0 : tls.handshakes();
  }

  /**
   * How many times changed certificate files were loaded again. Thread-safe.
   *
   * @return the count since the exporter was built; 0 without such files
   */
  public long getTlsReloads() {
    return tls == null ? 0 : tls.reloads();
  }

  @Override
  public String toString() {
    return "OtlpGrpcExporter{endpoint="
        + endpoint
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

  // For tests: the effective settings.

  Map<String, String> headers() {
    return headers;
  }

  Map<String, AnyValue> resourceAttributes() {
    return resourceAttributes;
  }

  long timeoutMillis() {
    return timeoutMillis;
  }

  int maxRequestSizeInBytes() {
    return maxRequestSizeInBytes;
  }
}
