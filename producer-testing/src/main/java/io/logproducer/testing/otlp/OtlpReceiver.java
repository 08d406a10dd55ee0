package io.logproducer.testing.otlp;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongConsumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ExceptionListener;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HeaderElements;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.impl.EnglishReasonPhraseCatalog;
import org.apache.hc.core5.http.impl.bootstrap.HttpServer;
import org.apache.hc.core5.http.impl.bootstrap.ServerBootstrap;
import org.apache.hc.core5.http.io.HttpRequestHandler;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.http.protocol.HttpCoreContext;
import org.apache.hc.core5.http.protocol.HttpProcessor;
import org.apache.hc.core5.http.protocol.HttpProcessorBuilder;
import org.apache.hc.core5.http.protocol.ResponseContent;
import org.apache.hc.core5.http.protocol.ResponseDate;
import org.apache.hc.core5.io.CloseMode;

/**
 * A real OTLP/HTTP logs receiver on 127.0.0.1 for tests, examples and benchmarks. It checks every
 * request as the OpenTelemetry Collector does ({@code POST /v1/logs}, Content-Type {@code
 * application/x-protobuf} or {@code application/json}, Content-Encoding absent, gzip, lz4 (frame)
 * or zstd, a well-formed {@code ExportLogsServiceRequest}) and answers a malformed one 400 (404 for
 * another path, 405 for another method, 415 for another content type), then answers the rest as
 * scripted ({@link #respond}; by default 200 with an empty {@code partial_success}, in the
 * request's format).
 *
 * <p>Two modes: <b>strict</b> ({@link #start()}) decodes every record ({@link ReceivedLogRecord})
 * and keeps every request and its answer ({@link #exchanges()}) for assertions; <b>counting</b>
 * ({@link #startCounting()}) walks each request without building objects and keeps only counters,
 * for the quick start and the benchmarks (over a million records a second on two cores). Both keep
 * the counters ({@link #acceptedRecords()} and the like).
 *
 * <p>Faults: scripted statuses, headers ({@code Retry-After}), bodies (partial success, {@code
 * google.rpc.Status}), delays, held answers and dropped connections ({@link Reply}); {@link
 * #refuse()} closes the listening socket and every connection (connection refused) and {@link
 * #resume()} listens again on the same port.
 *
 * <p>Built on the classic (blocking) HTTP/1.1 server of Apache HttpComponents Core 5 ({@code
 * httpcore5}, which every OTLP user has already through httpclient5), not on the JDK's {@code
 * com.sun.net.httpserver}: the {@code jdk.httpserver} module is absent from some Java runtimes
 * (jlinked ones). TCP_NODELAY on every connection; keep-alive, also after an error status. Requests
 * are handled on daemon threads ({@code HTTP-worker-<n>}), one per open connection. Thread-safe.
 */
public final class OtlpReceiver implements AutoCloseable {

  /** The path the receiver serves. */
  public static final String LOGS_PATH = "/v1/logs";

  private static final int BACKLOG = 64;
  private static final long REBIND_MILLIS = 10_000;

  /**
   * TCP_NODELAY (without it the separate header and body writes meet the client's delayed ACK: +40
   * ms a request); SO_REUSEADDR, so that {@link #resume()} can listen on a port just closed.
   */
  private static final SocketConfig SOCKETS =
      SocketConfig.custom()
          .setTcpNoDelay(true)
          .setSoReuseAddress(true)
          .setBacklogSize(BACKLOG)
          .build();

  /**
   * Date and Content-Length; not httpcore5's default connection control, which closes the
   * connection after a 400, 413 or 503 (the JDK server this receiver was first built on kept it
   * open): it closes only when the request or the reply says {@code Connection: close}.
   */
  private static final HttpProcessor PROCESSOR =
      HttpProcessorBuilder.create().addAll(new ResponseDate(), new ResponseContent()).build();

  /**
   * {@link #invalidRequests()} keeps this many descriptions at most (a long run with a broken
   * client).
   */
  static final int MAX_INVALID_KEPT = 1000;

  private final boolean strict;
  private final RequestReader reader;
  private final LongConsumer ids; // null unless recordIds was set
  private final SSLContext tls; // null for plain HTTP
  private final boolean needClientAuth;
  private final List<String> clientPrincipals = new CopyOnWriteArrayList<>();
  private final HttpRequestHandler handler = this::handle;
  private final AtomicInteger index = new AtomicInteger();
  private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();
  private final List<String> invalidRequests = new CopyOnWriteArrayList<>();
  private final AtomicLong acceptedRecords = new AtomicLong();
  private final AtomicLong acceptedRequests = new AtomicLong();
  private final AtomicLong acceptedWireBytes = new AtomicLong();
  private final AtomicLong acceptedBodyBytes = new AtomicLong();
  private final AtomicLong rejectedRequests = new AtomicLong();
  private final AtomicLong invalidRequestCount = new AtomicLong();
  private final Object progress = new Object();
  private volatile String lastInvalidRequest;
  private volatile Function<ReceivedRequest, Reply> responder;
  private int port; // guarded by this
  private HttpServer server; // guarded by this; null while refusing or closed
  private boolean closed; // guarded by this

  private OtlpReceiver(Builder b) throws IOException {
    this.strict = b.strict;
    this.reader = new RequestReader(b.strict, b.idKey);
    this.ids = b.ids;
    this.tls = b.tls;
    this.needClientAuth = b.needClientAuth;
    this.port = b.port;
    synchronized (this) {
      bind();
    }
  }

  /**
   * Starts a strict receiver on a free port.
   *
   * @return the receiver, listening
   * @throws IOException if it cannot listen
   */
  public static OtlpReceiver start() throws IOException {
    return builder().start();
  }

  /**
   * Starts a strict receiver on {@code port} (0: a free one).
   *
   * @param port the TCP port on 127.0.0.1, in [0, 65535]
   * @return the receiver, listening
   * @throws IOException if it cannot listen there
   */
  public static OtlpReceiver start(int port) throws IOException {
    return builder().port(port).start();
  }

  /**
   * Starts a counting receiver on a free port.
   *
   * @return the receiver, listening
   * @throws IOException if it cannot listen
   */
  public static OtlpReceiver startCounting() throws IOException {
    return builder().counting().start();
  }

  /** {@return a builder: strict mode, a free port} */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * {@return whether this receiver decodes and keeps requests (strict) rather than only counting
   * them}
   */
  public boolean isStrict() {
    return strict;
  }

  /** {@return the TCP port on 127.0.0.1} */
  public synchronized int port() {
    return port;
  }

  /**
   * {@return the base URL, e.g} {@code http://127.0.0.1:43121} (an OTLP exporter appends {@code
   * /v1/logs}).
   */
  public String endpoint() {
    return (tls != null ? "https" : "http") + "://127.0.0.1:" + port();
  }

  /**
   * With TLS ({@link Builder#tls}), the subject of the client certificate of each request, in
   * arrival order ({@code "-"} for a request without one); empty without TLS.
   *
   * @return a snapshot
   */
  public List<String> clientPrincipals() {
    return new ArrayList<>(clientPrincipals);
  }

  /** {@return the logs URL, e.g} {@code http://127.0.0.1:43121/v1/logs}. */
  public String logsUrl() {
    return endpoint() + LOGS_PATH;
  }

  /**
   * Scripts the answers to well-formed requests: {@code responder} is called once per request, on a
   * receiver thread, and must be thread-safe; null restores the default ({@link Reply#ok}).
   *
   * @param responder the answer to each request, or null
   */
  public void respond(Function<ReceivedRequest, Reply> responder) {
    this.responder = responder;
  }

  /**
   * {@return every well-formed request and its answer, in the order answered (strict mode; empty
   * when counting)}
   */
  public List<Exchange> exchanges() {
    return Collections.unmodifiableList(new ArrayList<>(exchanges));
  }

  /** {@return the requests of {@link #exchanges()}} */
  public List<ReceivedRequest> requests() {
    List<ReceivedRequest> out = new ArrayList<>();
    for (Exchange e : exchanges) {
      out.add(e.request());
    }
    return Collections.unmodifiableList(out);
  }

  /** {@return the records of every accepted (2xx) request, in arrival order (strict mode)} */
  public List<ReceivedLogRecord> deliveredRecords() {
    List<ReceivedLogRecord> out = new ArrayList<>();
    for (Exchange e : exchanges) {
      if (e.accepted()) {
        out.addAll(e.request().records());
      }
    }
    return Collections.unmodifiableList(out);
  }

  /** {@return the string bodies of {@link #deliveredRecords()} ("" for a non-string body)} */
  public List<String> deliveredBodies() {
    List<String> out = new ArrayList<>();
    for (ReceivedLogRecord r : deliveredRecords()) {
      out.add(r.bodyString());
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * What was wrong with each request refused as malformed (400, 404, 405, 415), e.g. {@code "POST
   * /v1/logs 400: malformed protobuf: truncated varint at 17"}; tests of a correct producer expect
   * none. Kept in both modes, the first {@value #MAX_INVALID_KEPT} only.
   *
   * @return the descriptions, oldest first; a copy
   */
  public List<String> invalidRequests() {
    return Collections.unmodifiableList(new ArrayList<>(invalidRequests));
  }

  /**
   * {@return the description of the latest request refused as malformed (see {@link
   * #invalidRequests()}), or null}
   */
  public String lastInvalidRequest() {
    return lastInvalidRequest;
  }

  /** {@return log records in requests answered 2xx} */
  public long acceptedRecords() {
    return acceptedRecords.get();
  }

  /** {@return requests answered 2xx} */
  public long acceptedRequests() {
    return acceptedRequests.get();
  }

  /** {@return bytes of requests answered 2xx, as received (compressed)} */
  public long acceptedWireBytes() {
    return acceptedWireBytes.get();
  }

  /** {@return bytes of requests answered 2xx, decompressed} */
  public long acceptedBodyBytes() {
    return acceptedBodyBytes.get();
  }

  /** {@return well-formed requests answered otherwise than 2xx, or dropped, as scripted} */
  public long rejectedRequests() {
    return rejectedRequests.get();
  }

  /** {@return requests refused as malformed (see {@link #invalidRequests()})} */
  public long invalidRequestCount() {
    return invalidRequestCount.get();
  }

  /**
   * Waits until at least {@code records} records were accepted.
   *
   * @param records the count of accepted records to wait for
   * @param timeoutMillis how long to wait at most, in milliseconds
   * @return whether the count was reached in time
   * @throws InterruptedException if interrupted while waiting
   */
  public boolean awaitAcceptedRecords(long records, long timeoutMillis)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    synchronized (progress) {
      while (acceptedRecords.get() < records) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          return false;
        }
        progress.wait(left);
      }
      return true;
    }
  }

  /**
   * Stops listening and closes every open connection, so that clients see connections refused (a
   * receiver that is down). Idempotent; {@link #resume()} listens again.
   */
  public synchronized void refuse() {
    if (server != null) {
      // Interrupts the listener and the worker threads and closes every connection.
      server.close(CloseMode.IMMEDIATE);
      server = null;
      awaitRefused();
    }
  }

  /**
   * httpcore5's listener closes its socket only once a blocked {@code accept()} returns: connects
   * (each connection wakes it, and is closed) until the port refuses, for up to {@value
   * #REBIND_MILLIS} ms, so that on return from {@link #refuse()} a new connection is refused.
   */
  private void awaitRefused() {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REBIND_MILLIS);
    while (System.nanoTime() - deadline < 0) {
      try (Socket wake = new Socket(InetAddress.getLoopbackAddress(), port)) {
        wake.setSoLinger(true, 0);
      } catch (ConnectException refused) {
        return;
      } catch (IOException e) {
        // reset by the closing listener: try again
      }
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * Listens again on the same port after {@link #refuse()}, retrying for up to 10 s while the port
   * is busy; no-op if listening.
   *
   * @throws IOException if the port stays busy, or the receiver is closed
   */
  public synchronized void resume() throws IOException {
    if (closed) {
      throw new IOException("the receiver is closed");
    }
    if (server == null) {
      bind();
    }
  }

  /** Stops listening, closes every connection and stops the receiver's threads. Idempotent. */
  @Override
  public synchronized void close() {
    closed = true;
    refuse();
  }

  private void bind() throws IOException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REBIND_MILLIS);
    while (true) {
      HttpServer s =
          ServerBootstrap.bootstrap()
              .setLocalAddress(InetAddress.getLoopbackAddress())
              .setListenerPort(port)
              .setCanonicalHostName("127.0.0.1") // else create() looks the local host name up
              .setSocketConfig(SOCKETS)
              .setHttpProcessor(PROCESSOR)
              .setRequestRouter((request, context) -> handler) // every path; handle answers 404
              // quiet about a connection dropped as scripted, or reset by a client
              .setExceptionListener(ExceptionListener.NO_OP)
              .setSslContext(tls)
              .setSslSetupHandler(
                  params -> {
                    params.setProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
                    if (needClientAuth) {
                      params.setNeedClientAuth(true);
                    }
                  })
              .create();
      try {
        s.start();
        port = s.getLocalPort();
        server = s;
        return;
      } catch (BindException e) {
        s.close(CloseMode.IMMEDIATE);
        if (port == 0 || System.nanoTime() - deadline > 0) {
          throw e;
        }
        try {
          wait(100); // a port just closed may linger briefly; releases this lock meanwhile
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while binding port " + port, interrupted);
        }
      }
    }
  }

  private void handle(ClassicHttpRequest ex, ClassicHttpResponse response, HttpContext context)
      throws IOException {
    long receivedNanos = System.nanoTime();
    if (tls != null) {
      clientPrincipals.add(clientPrincipal(context));
    }
    try {
      RequestReader.Result read = reader.read(ex);
      if (read.error != null) {
        String description =
            ex.getMethod() + " " + RequestReader.path(ex) + " " + read.status + ": " + read.error;
        lastInvalidRequest = description;
        if (invalidRequestCount.incrementAndGet() <= MAX_INVALID_KEPT) {
          invalidRequests.add(description);
        }
        send(
            ex,
            response,
            Reply.status(read.status)
                .withBody(
                    "text/plain; charset=utf-8", read.error.getBytes(StandardCharsets.UTF_8)));
        return;
      }
      ReceivedRequest request =
          new ReceivedRequest(
              index.getAndIncrement(),
              receivedNanos,
              ex.getMethod(),
              RequestReader.path(ex),
              read.headers,
              read.wireLength,
              read.body,
              read.recordCount,
              read.records);
      Function<ReceivedRequest, Reply> r = responder;
      Reply reply = r == null ? Reply.ok(request) : r.apply(request);
      if (strict) {
        exchanges.add(new Exchange(request, reply.status()));
      }
      count(request, read.ids, reply);
      answer(ex, response, reply);
    } catch (InterruptedException e) {
      // refuse() or close() while an answer was held or delayed: the connection closes unanswered
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("the receiver stopped while an answer was held");
    }
  }

  private void count(ReceivedRequest request, long[] recordIds, Reply reply) {
    if (!reply.accepted()) {
      rejectedRequests.incrementAndGet();
      return;
    }
    acceptedRequests.incrementAndGet();
    acceptedWireBytes.addAndGet(request.wireLength());
    acceptedBodyBytes.addAndGet(request.bodyLength());
    acceptedRecords.addAndGet(request.recordCount());
    if (ids != null) {
      for (long id : recordIds) {
        ids.accept(id);
      }
    }
    synchronized (progress) {
      progress.notifyAll();
    }
  }

  private static void answer(ClassicHttpRequest ex, ClassicHttpResponse response, Reply reply)
      throws IOException, InterruptedException {
    if (reply.hold() != null) {
      reply.hold().await(60, TimeUnit.SECONDS);
    }
    if (reply.delayMillis() > 0) {
      Thread.sleep(reply.delayMillis()); // a slow receiver, as scripted; not synchronisation
    }
    if (reply.dropsConnection()) {
      // The server closes the connection, unanswered, when a handler throws an IOException.
      throw new IOException("connection dropped as scripted");
    }
    send(ex, response, reply);
  }

  /**
   * Fills {@code response} from {@code reply}; the server sends it when the handler returns, with
   * Content-Length (0 without a body) and Date.
   */
  private static void send(ClassicHttpRequest ex, ClassicHttpResponse response, Reply reply) {
    response.setCode(reply.status());
    response.setReasonPhrase(EnglishReasonPhraseCatalog.INSTANCE.getReason(reply.status(), null));
    for (Map.Entry<String, String> h : reply.headers().entrySet()) {
      response.addHeader(h.getKey(), h.getValue());
    }
    if (reply.contentType() != null) {
      response.addHeader(HttpHeaders.CONTENT_TYPE, reply.contentType());
    }
    byte[] body = reply.bodyUnsafe();
    if (body.length > 0) {
      response.setEntity(new ByteArrayEntity(body, null)); // its type is the header above
    }
    if (!response.containsHeader(HttpHeaders.CONNECTION) && asksToClose(ex)) {
      response.setHeader(HttpHeaders.CONNECTION, HeaderElements.CLOSE);
    }
  }

  private static String clientPrincipal(HttpContext context) {
    SSLSession session = HttpCoreContext.cast(context).getSSLSession();
    if (session == null) {
      return "-";
    }
    try {
      return session.getPeerPrincipal().getName();
    } catch (SSLPeerUnverifiedException e) {
      return "-";
    }
  }

  /** {@return whether the request says {@code Connection: close}} */
  private static boolean asksToClose(ClassicHttpRequest request) {
    for (Header h : request.getHeaders(HttpHeaders.CONNECTION)) {
      for (String token : h.getValue().split(",")) {
        if (token.trim().equalsIgnoreCase(HeaderElements.CLOSE)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Options of an {@link OtlpReceiver}; {@link #start()} starts one. Not thread-safe. */
  public static final class Builder {

    private boolean strict = true;
    private int port;
    private byte[] idKey;
    private LongConsumer ids;
    private SSLContext tls;
    private boolean needClientAuth;

    private Builder() {}

    /**
     * Serves HTTPS (TLS 1.2 and 1.3 only) with {@code serverContext}, e.g. {@code
     * io.logproducer.testing.tls.TestPki#serverContext}; {@link #endpoint()} then starts with
     * {@code https}.
     *
     * @param serverContext the server's key material and the CAs it trusts for client certificates
     * @param needClientAuth true to require a client certificate (mutual TLS): a client without
     *     one, or with one the context does not trust, fails its handshake
     * @return this builder
     */
    public Builder tls(SSLContext serverContext, boolean needClientAuth) {
      this.tls = serverContext;
      this.needClientAuth = needClientAuth;
      return this;
    }

    /**
     * Decode and keep every request (the default).
     *
     * @return this builder
     */
    public Builder strict() {
      strict = true;
      return this;
    }

    /**
     * Only count requests, records and bytes, keeping nothing.
     *
     * @return this builder
     */
    public Builder counting() {
      strict = false;
      return this;
    }

    /**
     * The TCP port on 127.0.0.1; 0 (the default) for a free one.
     *
     * @param port the port, in [0, 65535]
     * @return this builder
     * @throws IllegalArgumentException if {@code port} is outside [0, 65535]
     */
    public Builder port(int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port must be in [0, 65535], was " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * Passes {@code ids}, for every record of every request answered 2xx (before the answer is
     * sent), the int value of its attribute {@code key}, or -1 for a record without one: a record
     * id for duplicate and loss counting (the soak test). {@code ids} is called on receiver threads
     * and must be thread-safe. Both modes.
     *
     * @param key the attribute's key, e.g. {@code "seq"}
     * @param ids receives the ids, in the order of the records in each request
     * @return this builder
     */
    public Builder recordIds(String key, LongConsumer ids) {
      this.idKey = key.getBytes(StandardCharsets.UTF_8);
      this.ids = ids;
      return this;
    }

    /**
     * Starts the receiver.
     *
     * @return the receiver, listening
     * @throws IOException if it cannot listen on the port
     */
    public OtlpReceiver start() throws IOException {
      return new OtlpReceiver(this);
    }
  }
}
