package io.logproducer.otlp.internal;

import io.logproducer.Compression;
import io.logproducer.otlp.internal.tls.ClientTls;
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
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManager;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.EofSensorInputStream;
import org.apache.hc.core5.http.io.HttpClientResponseHandler;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * POSTs request bodies to the OTLP endpoint with Apache HttpClient 5 (classic, blocking): a
 * connection pool sized to the producer's send threads, no automatic retries (the producer
 * retries), no redirects, no response decompression, TLS 1.2+ as {@link ClientTls} says. The body
 * is sent from the caller's array without copying.
 *
 * <p><b>{@code timeoutMillis} is a hard deadline on the whole exchange</b>: connection lease,
 * connect (and TLS handshake), upload of the body, response headers and the bounded read of the
 * response body. Socket timeouts alone cannot give that: a Java socket write has no timeout (a
 * receiver that stops reading mid-body would block the send thread forever), and a read timeout
 * restarts with every byte (a receiver that trickles its response could hold it indefinitely). So
 * each request also gets a task on one daemon scheduler thread per transport ({@code
 * logproducer-otlp-deadline[<uri>]}, blocked while nothing is due, stopped by {@link #close()})
 * that aborts the request when its deadline passes; {@link #send} then returns a {@link
 * ExportResult#retryable retryable} failure "POST &lt;uri&gt; timed out after N ms (request
 * deadline)". A request that completes first cancels its task (and removes it from the scheduler's
 * queue); a response read in full is returned as read even if the deadline passes while the call
 * returns. Connect and socket timeouts of {@code timeoutMillis} stay in place as well.
 *
 * <p>Thread-safe: the send threads call {@link #send} concurrently. {@link #close()} aborts
 * requests in flight (they fail at once) and is idempotent.
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
  private final ClientTls tls;

  /** Requests in flight, aborted by {@link #close()}. */
  private final Set<HttpPost> inFlight =
      Collections.newSetFromMap(new ConcurrentHashMap<HttpPost, Boolean>());

  /** Set once by {@link #start}; null before. */
  private volatile CloseableHttpClient client;

  /**
   * Aborts requests whose deadline passed; set by {@link #start} before {@link #client}, shut down
   * by close.
   */
  private volatile ScheduledThreadPoolExecutor deadlines;

  private volatile boolean closed;

  /**
   * @param uri the full logs URL
   * @param headers extra request headers, in order
   * @param timeoutMillis deadline of each whole request (lease, connect, upload, response), ms;
   *     also the connect and socket timeout
   * @param contentType the request Content-Type
   * @param json whether requests are JSON (responses are read in kind when they carry no
   *     Content-Type)
   * @param userAgent the User-Agent header
   * @param tls the TLS of an https endpoint, or null for the JDK's defaults (TLS 1.2+)
   */
  public HttpTransport(
      URI uri,
      Map<String, String> headers,
      long timeoutMillis,
      String contentType,
      boolean json,
      String userAgent,
      ClientTls tls) {
    this.uri = uri;
    this.headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    this.timeoutMillis = timeoutMillis;
    this.contentType = ContentType.create(contentType);
    this.json = json;
    this.userAgent = userAgent;
    this.tls = tls != null ? tls : ClientTls.create(null, null, null, null);
  }

  /**
   * Creates the connection pool, the client and the deadline scheduler thread.
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
    PoolingHttpClientConnectionManager pool =
        PoolingHttpClientConnectionManagerBuilder.create()
            .setMaxConnTotal(maxConnections)
            .setMaxConnPerRoute(maxConnections)
            .setTlsSocketStrategy(tls)
            .setDefaultConnectionConfig(
                ConnectionConfig.custom()
                    .setConnectTimeout(timeout)
                    .setSocketTimeout(timeout)
                    .setValidateAfterInactivity(
                        TimeValue.ofMilliseconds(VALIDATE_AFTER_INACTIVITY_MILLIS))
                    .build())
            .build();
    CloseableHttpClient c =
        HttpClients.custom()
            .setConnectionManager(pool)
            .setDefaultRequestConfig(
                RequestConfig.custom()
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
            // no connection state: with a client certificate, HttpClient would tie each pooled
            // connection to its TLS principal and lease none of them to a request without one,
            // opening (and handshaking) a new connection per request
            .disableConnectionState()
            .setUserAgent(userAgent)
            .build();
    deadlines = newDeadlineScheduler();
    client = c;
  }

  private ScheduledThreadPoolExecutor newDeadlineScheduler() {
    final String name = deadlineThreadName(uri);
    ScheduledThreadPoolExecutor s =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, name);
              t.setDaemon(true);
              t.setContextClassLoader(HttpTransport.class.getClassLoader()); // not the app's
              return t;
            });
    s.setRemoveOnCancelPolicy(true); // a completed request's task leaves the queue at once
    s.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    s.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
    s.prestartCoreThread();
    return s;
  }

  /**
   * POSTs {@code body[0, length)} and classifies the answer (see {@link ExportResponses}). Never
   * throws. Returns within about {@code timeoutMillis}: a request still running at its deadline is
   * aborted and answered retryable.
   *
   * @param compression what the body is compressed with; sets {@code Content-Encoding} (omitted for
   *     NONE)
   */
  public ExportResult send(byte[] body, int length, Compression compression) {
    CloseableHttpClient c = client;
    ScheduledThreadPoolExecutor scheduler = deadlines;
    if (c == null || scheduler == null) {
      return ExportResult.failed(
          closed ? "exporter to " + uri + " is closed" : "exporter to " + uri + " was not started",
          null);
    }
    HttpPost post = new HttpPost(uri);
    for (Map.Entry<String, String> h : headers.entrySet()) {
      post.addHeader(h.getKey(), h.getValue());
    }
    post.setEntity(
        new ByteArrayEntity(body, 0, length, contentType, compression.contentEncoding()));
    Exchange exchange = new Exchange(post);
    ScheduledFuture<?> deadline = null;
    inFlight.add(post);
    try {
      if (closed) {
        return ExportResult.failed("exporter to " + uri + " is closed", null);
      }
      try {
        deadline = scheduler.schedule(exchange, timeoutMillis, TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) { // shut down by a racing close()
        return ExportResult.failed("exporter to " + uri + " is closed", null);
      }
      // A normal return means the response was read in full (an abort makes the read throw, never
      // end early):
      // it is the receiver's real answer even if the deadline fired meanwhile, so it is returned as
      // is.
      tls.beginRequest();
      ExportResult result = c.execute(post, new ResponseReader(json));
      exchange.complete();
      return result;
    } catch (IOException | RuntimeException e) {
      boolean timedOut = !exchange.complete();
      if (closed) {
        return ExportResult.failed("exporter to " + uri + " closed during the request", e);
      }
      if (timedOut) {
        return ExportResult.retryable(
            "POST " + uri + " timed out after " + timeoutMillis + " ms (request deadline)", e, -1);
      }
      if (e instanceof IOException) {
        String why = tls.explain(e);
        // TLS failures are retried too: the CA and client certificate files are re-read when they
        // change, so a fixed or rotated certificate lets a retried batch through (docs/otlp.md)
        return ExportResult.retryable("POST " + uri + " failed: " + (why != null ? why : e), e, -1);
      }
      return ExportResult.failed("POST " + uri + " failed unexpectedly: " + e, e);
    } finally {
      if (deadline != null) {
        deadline.cancel(
            false); // removed from the queue (remove-on-cancel); a no-op if it already ran
      }
      inFlight.remove(post);
    }
  }

  /** Deadline tasks not yet run nor cancelled; for tests. */
  int pendingDeadlines() {
    ScheduledThreadPoolExecutor s = deadlines;
    if (s == null) {
      return 0;
    }
    return s.getQueue().size();
  }

  /** The name of the deadline scheduler's thread. */
  static String deadlineThreadName(URI uri) {
    return "logproducer-otlp-deadline[" + uri + "]";
  }

  /**
   * Aborts requests in flight, closes the pool and stops the deadline thread, at once. Idempotent.
   */
  public void close() {
    CloseableHttpClient c;
    ScheduledThreadPoolExecutor s;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      c = client;
      s = deadlines;
    }
    for (HttpPost post : inFlight) {
      post.cancel();
    }
    if (c != null) {
      c.close(CloseMode.IMMEDIATE);
    }
    if (s != null) {
      s.shutdownNow();
    }
  }

  /**
   * One request's race between completion and its deadline: whichever moves the state away from
   * PENDING first wins. The deadline task aborts the request only if it wins; the sending thread
   * learns from {@link #complete()} whether a failure it saw was the deadline's doing.
   */
  private static final class Exchange extends AtomicInteger implements Runnable {
    private static final long serialVersionUID = 1L;
    private static final int PENDING = 0;
    private static final int COMPLETED = 1;
    private static final int TIMED_OUT = 2;
    private final transient HttpPost post;

    Exchange(HttpPost post) {
      this.post = post;
    }

    /** Runs on the deadline thread when the deadline passes. */
    @Override
    public void run() {
      if (compareAndSet(PENDING, TIMED_OUT)) {
        post.cancel(); // closes the connection: a blocked write, connect, lease or read fails at
        // once
      }
    }

    /**
     * @return false if the deadline fired first (the request was, or is being, aborted)
     */
    boolean complete() {
      return compareAndSet(PENDING, COMPLETED) || get() == COMPLETED;
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
        body =
            new byte
                [(int)
                    Math.min(
                        limit, entity.getContentLength() >= 0 ? entity.getContentLength() : 512)];
        InputStream in = entity.getContent();
        boolean eof = false;
        try {
          int n = 0;
          while (length < limit) {
            if (length == body.length) {
              body = Arrays.copyOf(body, Math.min(limit, Math.max(512, body.length * 2)));
            }
            n = in.read(body, length, body.length - length);
            if (n < 0) {
              break;
            }
            length += n;
          }
          eof = n < 0 || in.read() < 0;
        } finally {
          if (eof) {
            in.close(); // at the end already: releases the connection to the pool
          } else {
            // More than the limit, or a failed read: drop the connection rather than drain the rest
            // (which could be
            // large or slow), and detach the entity so that the client does not try to drain it
            // either.
            response.setEntity(null);
            if (in instanceof EofSensorInputStream) {
              try {
                ((EofSensorInputStream) in).abort();
              } catch (IOException ignored) {
                // the connection is discarded anyway
              }
            }
          }
        }
      }
      String contentType =
          entity != null && entity.getContentType() != null
              ? entity.getContentType()
              : headerValue(response, "Content-Type");
      return ExportResponses.toResult(
          status,
          response.getReasonPhrase(),
          headerValue(response, "Retry-After"),
          contentType,
          body,
          length,
          json,
          System.currentTimeMillis());
    }

    private static String headerValue(ClassicHttpResponse response, String name) {
      Header h = response.getFirstHeader(name);
      return h == null ? null : h.getValue();
    }
  }
}
