package io.logproducer.otlp.internal.grpc;

import io.logproducer.Compression;
import io.logproducer.otlp.internal.tls.ClientTls;
import io.logproducer.spi.ExportResult;
import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.H2AsyncClientBuilder;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.Method;
import org.apache.hc.core5.http.message.BasicHttpRequest;
import org.apache.hc.core5.http.nio.support.BasicRequestProducer;
import org.apache.hc.core5.http2.config.H2Config;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.Timeout;

/**
 * Calls {@code opentelemetry.proto.collector.logs.v1.LogsService/Export} over HTTP/2 with
 * httpclient5's async HTTP/2 client: one multiplexed connection per endpoint (h2c with prior
 * knowledge for {@code http://}, TLS with ALPN {@code h2} for {@code https://}), shared by every
 * send thread, one stream per export; no automatic retries (the producer retries), no redirects.
 * The request follows {@code grpc/grpc} {@code doc/PROTOCOL-HTTP2.md}: {@code POST}, {@code
 * content-type: application/grpc}, {@code te: trailers}, {@code grpc-timeout}, {@code
 * grpc-encoding} when compressed, {@code grpc-accept-encoding}, the user's metadata, and one
 * length-prefixed message ({@link GrpcRequestEntity}).
 *
 * <p><b>{@code timeoutMillis} is a hard deadline on the whole exchange</b> (connect, TLS handshake,
 * upload, answer): {@link #send} waits on the exchange's future at most that long, then cancels it,
 * which resets the stream (RST_STREAM CANCEL), and answers retryable. The server learns the same
 * deadline from {@code grpc-timeout}.
 *
 * <p>Thread-safe: send threads call {@link #send} concurrently. {@link #close()} cancels exchanges
 * in flight (they fail at once), closes the connection and stops the I/O thread; idempotent.
 */
public final class GrpcTransport {

  /** The service path of the OTLP logs export: {@value}. */
  public static final String EXPORT_PATH =
      "/opentelemetry.proto.collector.logs.v1.LogsService/Export";

  private final URI endpoint;
  private final HttpHost host;
  private final String path;
  private final Map<String, String> metadata;
  private final long timeoutMillis;
  private final String userAgent;
  private final ClientTls tls; // null for http://
  private final Set<Future<GrpcResponse>> inFlight =
      Collections.newSetFromMap(new ConcurrentHashMap<Future<GrpcResponse>, Boolean>());
  private final AtomicInteger connections = new AtomicInteger();
  private volatile CloseableHttpAsyncClient client;
  private volatile boolean closed;

  /**
   * @param endpoint the endpoint; the service path is appended to its path
   * @param metadata the user's headers (gRPC metadata), in order
   * @param timeoutMillis the deadline of each whole exchange, ms
   * @param userAgent the user-agent
   * @param tls the TLS of an https endpoint, or null for http
   */
  public GrpcTransport(
      URI endpoint,
      Map<String, String> metadata,
      long timeoutMillis,
      String userAgent,
      ClientTls tls) {
    this.endpoint = endpoint;
    this.host = new HttpHost(endpoint.getScheme(), endpoint.getHost(), port(endpoint));
    String p = endpoint.getRawPath() == null ? "" : endpoint.getRawPath();
    this.path = (p.endsWith("/") ? p.substring(0, p.length() - 1) : p) + EXPORT_PATH;
    Map<String, String> m = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : metadata.entrySet()) {
      m.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue()); // HTTP/2 field names are lower case
    }
    this.metadata = Collections.unmodifiableMap(m);
    this.timeoutMillis = timeoutMillis;
    this.userAgent = userAgent;
    this.tls = tls;
  }

  private static int port(URI uri) {
    if (uri.getPort() >= 0) {
      return uri.getPort();
    }
    return "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }

  /** {@return the full URL of the export method} */
  public String target() {
    return host.toURI() + path;
  }

  /**
   * Starts the client and its I/O thread (a daemon, {@code logproducer-otlp-grpc[<endpoint>]}); the
   * connection opens with the first export.
   *
   * @throws IllegalStateException if already started or closed
   */
  public synchronized void start() {
    if (closed) {
      throw new IllegalStateException("transport to " + target() + " is closed");
    }
    if (client != null) {
      throw new IllegalStateException("transport to " + target() + " is already started");
    }
    final String name = "logproducer-otlp-grpc[" + host.toURI() + "]";
    Timeout timeout = Timeout.ofMilliseconds(timeoutMillis);
    H2AsyncClientBuilder b =
        H2AsyncClientBuilder.create()
            .setH2Config(H2Config.custom().setPushEnabled(false).build())
            .setIOReactorConfig(IOReactorConfig.custom().setIoThreadCount(1).build())
            .setDefaultConnectionConfig(
                ConnectionConfig.custom().setConnectTimeout(timeout).build())
            .setThreadFactory(
                r -> {
                  Thread t = new Thread(r, name);
                  t.setDaemon(true);
                  t.setContextClassLoader(GrpcTransport.class.getClassLoader());
                  return t;
                })
            .setIOSessionListener(new ConnectionCounter(connections))
            .disableAutomaticRetries()
            .disableRedirectHandling()
            .disableCookieManagement()
            .disableAuthCaching()
            .setUserAgent(userAgent);
    if (tls != null) {
      b.setTlsStrategy(tls.asyncStrategy());
    }
    CloseableHttpAsyncClient c = b.build();
    c.start();
    client = c;
  }

  /** {@return the connections opened so far (TCP connections, before any TLS)} */
  public int connectionsOpened() {
    return connections.get();
  }

  /**
   * Exports one message and classifies the answer ({@link GrpcResponses}). Never throws; returns
   * within about {@code timeoutMillis}.
   *
   * @param body the serialized {@code ExportLogsServiceRequest}, {@code [0, length)}, compressed
   *     with {@code compression}
   * @param compression NONE, GZIP or ZSTD: sets {@code grpc-encoding}
   */
  public ExportResult send(byte[] body, int length, Compression compression) {
    CloseableHttpAsyncClient c = client;
    if (c == null || closed) {
      return ExportResult.failed(
          "exporter to " + target() + (closed ? " is closed" : " was not started"), null);
    }
    BasicHttpRequest request = new BasicHttpRequest(Method.POST, host, path);
    request.addHeader("te", "trailers");
    request.addHeader("grpc-timeout", timeoutMillis + "m");
    boolean compressed = compression != Compression.NONE;
    if (compressed) {
      request.addHeader("grpc-encoding", compression.contentEncoding());
    }
    request.addHeader("grpc-accept-encoding", "gzip,zstd");
    for (Map.Entry<String, String> m : metadata.entrySet()) {
      request.addHeader(m.getKey(), m.getValue());
    }
    int connectionsBefore = connections.get();
    Future<GrpcResponse> future;
    try {
      future =
          c.execute(
              new BasicRequestProducer(request, new GrpcRequestEntity(body, length, compressed)),
              new GrpcResponseConsumer(),
              null);
    } catch (RuntimeException e) {
      return closed
          ? ExportResult.failed("exporter to " + target() + " is closed", e)
          : ExportResult.retryable("POST " + target() + " failed: " + e, e, -1);
    }
    inFlight.add(future);
    try {
      if (closed) {
        future.cancel(true);
      }
      GrpcResponse response = future.get(timeoutMillis, TimeUnit.MILLISECONDS);
      return GrpcResponses.toResult(response);
    } catch (TimeoutException e) {
      future.cancel(true); // resets the stream
      return ExportResult.retryable(
          "POST " + target() + " timed out after " + timeoutMillis + " ms (request deadline)",
          e,
          -1);
    } catch (CancellationException e) {
      return ExportResult.failed("exporter to " + target() + " closed during the request", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      future.cancel(true);
      return ExportResult.failed("POST " + target() + " interrupted", e);
    } catch (ExecutionException e) {
      return failure(
          e.getCause() != null ? e.getCause() : e, connections.get() > connectionsBefore);
    } finally {
      inFlight.remove(future);
    }
  }

  /**
   * @param fresh whether a connection was opened during the exchange (for {@link
   *     ClientTls#explain(Throwable, boolean)})
   */
  private ExportResult failure(Throwable cause, boolean fresh) {
    if (closed) {
      return ExportResult.failed("exporter to " + target() + " closed during the request", cause);
    }
    if (cause instanceof java.io.IOException
        || cause instanceof org.apache.hc.core5.http.HttpException) {
      String why = tls != null ? tls.explain(cause, fresh) : null;
      // stream resets, GOAWAY and lost connections are retried: the server has not processed the
      // request (or it is at-least-once anyway), and TLS failures may pass once files rotate
      return ExportResult.retryable(
          "POST " + target() + " failed: " + (why != null ? why : String.valueOf(cause)),
          cause,
          -1);
    }
    return ExportResult.failed("POST " + target() + " failed unexpectedly: " + cause, cause);
  }

  /** Cancels exchanges in flight, closes the connection and stops the I/O thread. Idempotent. */
  public void close() {
    CloseableHttpAsyncClient c;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      c = client;
    }
    for (Future<GrpcResponse> f : inFlight) {
      f.cancel(true);
    }
    if (c != null) {
      c.close(CloseMode.IMMEDIATE);
    }
  }

  @Override
  public String toString() {
    return target();
  }
}
