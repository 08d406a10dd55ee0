package io.logproducer.otlp.internal;

import io.logproducer.Compression;
import io.logproducer.spi.ExportResult;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.HttpClientResponseHandler;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * POSTs request bodies to the OTLP endpoint with Apache HttpClient 5 (classic, blocking): a connection pool sized
 * to the producer's send threads, connect and response timeouts of {@code timeoutMillis}, no automatic retries
 * (the producer retries), no redirects, no response decompression, TLS with the JDK's default trust store. The body
 * is sent from the caller's array without copying.
 *
 * <p>Thread-safe: the send threads call {@link #send} concurrently. {@link #close()} aborts requests in flight
 * (they fail at once) and is idempotent.
 */
public final class HttpTransport {

  /** A success body larger than this is not read (OTLP responses are a few bytes): {@value}. */
  static final int MAX_SUCCESS_BODY_BYTES = 64 * 1024;
  /** Bytes of a failure body read to find its message: {@value}. */
  static final int MAX_ERROR_BODY_BYTES = 16 * 1024;
  private static final long VALIDATE_AFTER_INACTIVITY_MILLIS = 2_000;

  private final URI uri;
  private final Map<String, String> headers;
  private final long timeoutMillis;
  private final ContentType contentType;
  private final boolean json;
  private final String userAgent;
  /** Requests in flight, aborted by {@link #close()}. */
  private final Set<HttpPost> inFlight = Collections.newSetFromMap(new ConcurrentHashMap<HttpPost, Boolean>());
  /** Set once by {@link #start}; null before. */
  private volatile CloseableHttpClient client;
  private volatile boolean closed;

  /**
   * @param uri the full logs URL
   * @param headers extra request headers, in order
   * @param timeoutMillis connect and response timeout, ms
   * @param contentType the request Content-Type
   * @param json whether requests are JSON (responses are read in kind when they carry no Content-Type)
   * @param userAgent the User-Agent header
   */
  public HttpTransport(URI uri, Map<String, String> headers, long timeoutMillis, String contentType, boolean json,
      String userAgent) {
    this.uri = uri;
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    this.timeoutMillis = timeoutMillis;
    this.contentType = ContentType.create(contentType);
    this.json = json;
    this.userAgent = userAgent;
  }

  /**
   * Creates the connection pool and client.
   *
   * @param maxConnections pool size, the producer's send thread count
   * @throws IllegalStateException if already started or closed
   */
  public synchronized void start(int maxConnections) {
    if (closed) {
      throw new IllegalStateException("transport to " + uri + " is closed");
    }
    if (client != null) {
      throw new IllegalStateException("transport to " + uri + " is already started");
    }
    Timeout timeout = Timeout.ofMilliseconds(timeoutMillis);
    PoolingHttpClientConnectionManager pool = PoolingHttpClientConnectionManagerBuilder.create()
        .setMaxConnTotal(maxConnections)
        .setMaxConnPerRoute(maxConnections)
        .setTlsSocketStrategy(DefaultClientTlsStrategy.createDefault())
        .setDefaultConnectionConfig(ConnectionConfig.custom()
            .setConnectTimeout(timeout)
            .setSocketTimeout(timeout)
            .setValidateAfterInactivity(TimeValue.ofMilliseconds(VALIDATE_AFTER_INACTIVITY_MILLIS))
            .build())
        .build();
    client = HttpClients.custom()
        .setConnectionManager(pool)
        .setDefaultRequestConfig(RequestConfig.custom()
            .setConnectionRequestTimeout(timeout)
            .setResponseTimeout(timeout)
            .setRedirectsEnabled(false)
            .setExpectContinueEnabled(false)
            .build())
        .disableAutomaticRetries()
        .disableRedirectHandling()
        .disableContentCompression()
        .disableCookieManagement()
        .disableAuthCaching()
        .setUserAgent(userAgent)
        .build();
  }

  /**
   * POSTs {@code body[0, length)} and classifies the answer (see {@link ExportResponses}). Never throws.
   *
   * @param compression what the body is compressed with; sets {@code Content-Encoding} (omitted for NONE)
   */
  public ExportResult send(byte[] body, int length, Compression compression) {
    CloseableHttpClient c = client;
    if (c == null) {
      return ExportResult.failed(closed ? "exporter to " + uri + " is closed"
          : "exporter to " + uri + " was not started", null);
    }
    HttpPost post = new HttpPost(uri);
    for (Map.Entry<String, String> h : headers.entrySet()) {
      post.addHeader(h.getKey(), h.getValue());
    }
    post.setEntity(new ByteArrayEntity(body, 0, length, contentType, compression.contentEncoding()));
    inFlight.add(post);
    try {
      if (closed) {
        return ExportResult.failed("exporter to " + uri + " is closed", null);
      }
      return c.execute(post, new ResponseReader(json));
    } catch (IOException e) {
      if (closed) {
        return ExportResult.failed("exporter to " + uri + " closed during the request", e);
      }
      return ExportResult.retryable("POST " + uri + " failed: " + e, e, -1);
    } catch (RuntimeException e) {
      if (closed) {
        return ExportResult.failed("exporter to " + uri + " closed during the request", e);
      }
      return ExportResult.failed("POST " + uri + " failed unexpectedly: " + e, e);
    } finally {
      inFlight.remove(post);
    }
  }

  /** Aborts requests in flight and closes the pool at once. Idempotent. */
  public void close() {
    CloseableHttpClient c;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      c = client;
    }
    for (HttpPost post : inFlight) {
      post.cancel();
    }
    if (c != null) {
      c.close(CloseMode.IMMEDIATE);
    }
  }

  /** Reads status, headers and a bounded body into an {@link ExportResult}. */
  private static final class ResponseReader implements HttpClientResponseHandler<ExportResult> {
    private final boolean json;

    ResponseReader(boolean json) {
      this.json = json;
    }

    @Override
    public ExportResult handleResponse(ClassicHttpResponse response) throws IOException {
      int status = response.getCode();
      HttpEntity entity = response.getEntity();
      byte[] body = new byte[0];
      int length = 0;
      if (entity != null) {
        int limit = status >= 200 && status < 300 ? MAX_SUCCESS_BODY_BYTES : MAX_ERROR_BODY_BYTES;
        body = new byte[(int) Math.min(limit, entity.getContentLength() >= 0 ? entity.getContentLength() : 512)];
        try (InputStream in = entity.getContent()) {
          int n;
          while (length < limit && (n = in.read(body, length, body.length - length)) > 0) {
            length += n;
            if (length == body.length && length < limit) {
              body = Arrays.copyOf(body, Math.min(limit, body.length * 2));
            }
          }
        }
      }
      String contentType = entity != null && entity.getContentType() != null ? entity.getContentType()
          : headerValue(response, "Content-Type");
      return ExportResponses.toResult(status, response.getReasonPhrase(), headerValue(response, "Retry-After"),
          contentType, body, length, json, System.currentTimeMillis());
    }

    private static String headerValue(ClassicHttpResponse response, String name) {
      Header h = response.getFirstHeader(name);
      return h == null ? null : h.getValue();
    }
  }
}
