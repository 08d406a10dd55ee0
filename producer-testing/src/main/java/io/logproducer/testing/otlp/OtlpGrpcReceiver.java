package io.logproducer.testing.otlp;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.apache.hc.core5.http.URIScheme;
import org.apache.hc.core5.http.impl.bootstrap.HttpAsyncServer;
import org.apache.hc.core5.http.protocol.HttpCoreContext;
import org.apache.hc.core5.http.protocol.HttpProcessorBuilder;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.http2.config.H2Config;
import org.apache.hc.core5.http2.impl.nio.bootstrap.H2ServerBootstrap;
import org.apache.hc.core5.http2.ssl.H2ServerTlsStrategy;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.reactor.ListenerEndpoint;
import org.apache.hc.core5.util.TimeValue;

/**
 * A real OTLP/gRPC logs receiver on 127.0.0.1 for tests, examples and benchmarks: service {@code
 * opentelemetry.proto.collector.logs.v1.LogsService}, method {@code Export}, over HTTP/2 (h2c with
 * prior knowledge, or TLS with ALPN {@code h2} when {@link Builder#tls} is set). It checks every
 * call as grpc-go and the OpenTelemetry Collector do, and answers a malformed one with a
 * trailers-only error, then answers the rest as scripted ({@link #respond}; by default OK with an
 * empty {@code ExportLogsServiceResponse}).
 *
 * <p>The checks, in order (protocol facts from {@code grpc/doc/PROTOCOL-HTTP2.md} and grpc-go's
 * server): method POST (else HTTP 405, status 13 INTERNAL); {@code content-type} {@code
 * application/grpc}, {@code application/grpc+…} or {@code application/grpc;…} (else HTTP 415,
 * status 3 INVALID_ARGUMENT); {@code te: trailers} (else HTTP 400, status 13); path {@code
 * /opentelemetry.proto.collector.logs.v1.LogsService/Export} (else status 12 UNIMPLEMENTED, {@code
 * unknown service …} or {@code unknown method … for service …}); a well-formed {@code grpc-timeout}
 * if any (else HTTP 400, status 13); {@code grpc-encoding} absent, {@code identity}, {@code gzip}
 * or {@code zstd} (else status 12, {@code grpc: Decompressor is not installed for grpc-encoding
 * "lz4"}); exactly one length-prefixed message (1-byte compressed flag, 4-byte big-endian length),
 * compressed only with an encoding (else status 13); at most {@link
 * Builder#maxReceiveMessageSizeInBytes} bytes, as sent and decompressed (else status 8
 * RESOURCE_EXHAUSTED, {@code grpc: received message larger than max (N vs. 4194304)}); a
 * well-formed {@code ExportLogsServiceRequest} (else status 13, {@code grpc: error unmarshalling
 * request: …}). Errors other than HTTP 405/415/400 go with {@code :status 200}.
 *
 * <p>On the wire: an OK answer is a HEADERS frame ({@code :status 200}, {@code content-type:
 * application/grpc}), a DATA frame with the framed {@code ExportLogsServiceResponse}, and a
 * trailers HEADERS frame with END_STREAM ({@code grpc-status: 0}). An error is trailers-only: one
 * HEADERS frame with END_STREAM carrying {@code :status}, {@code content-type}, {@code
 * grpc-status}, {@code grpc-message} (percent-encoded) and, with {@link GrpcReply#withRetryInfo},
 * {@code grpc-status-details-bin}; or, with {@link GrpcReply#afterHeaders()}, response headers then
 * the status in trailers. Faults: {@link GrpcReply#resetStream()} sends response headers then
 * RST_STREAM(CANCEL); {@link GrpcReply#dropConnection()} closes the TCP connection at once
 * (httpcore5's {@code CloseMode.IMMEDIATE}); {@link GrpcReply#goAway()} sends GOAWAY(NO_ERROR,
 * last-stream-id = this stream's id − 2, debug data {@code "Graceful shutdown"}) and closes the
 * connection about 100 ms after the frame was written. httpcore5-h2 has no API for a GOAWAY whose
 * last-stream-id is below a stream it has seen: the receiver lowers the multiplexer's private
 * {@code processedRemoteStreamId} by reflection before a graceful shutdown; should that field be
 * gone (another httpcore5-h2), the GOAWAY names this stream instead, and the connection still
 * closes with the call unanswered. Other calls in progress on that connection are cut too.
 *
 * <p>Two modes, as {@link OtlpReceiver}: <b>strict</b> ({@link #start()}) decodes every record and
 * keeps every call; <b>counting</b> ({@link #startCounting()}) only counts (no per-record objects),
 * the sink of the benchmarks. HTTP/2 multiplexing: up to {@value #MAX_STREAMS} concurrent streams
 * per connection (SETTINGS_MAX_CONCURRENT_STREAMS); {@link #peakConcurrentStreams()} tells how many
 * were handled at once. Calls are decoded on httpcore5's I/O threads; delayed and held answers wait
 * on daemon threads ({@code OtlpGrpcReceiver-reply}). Deadlines ({@code grpc-timeout}) are checked
 * for syntax only, not enforced. Thread-safe.
 */
public final class OtlpGrpcReceiver implements AutoCloseable {

  /** The path of the one method served. */
  public static final String EXPORT_PATH = "/" + GrpcStream.SERVICE + "/" + GrpcStream.METHOD;

  /** The default {@link Builder#maxReceiveMessageSizeInBytes}: 4 MiB, grpc-go's default. */
  public static final int DEFAULT_MAX_RECEIVE_MESSAGE_SIZE = 4 * 1024 * 1024;

  /** The SETTINGS_MAX_CONCURRENT_STREAMS the receiver announces. */
  public static final int MAX_STREAMS = 1000;

  private static final long REBIND_MILLIS = 10_000;

  private final boolean strict;
  private final RequestReader reader;
  private final SSLContext tls;
  private final boolean needClientAuth;
  private final int maxMessage;
  private final ExecutorService replies;
  private final GrpcConnections connections;
  private final List<String> clientPrincipals = new CopyOnWriteArrayList<>();
  private final AtomicInteger index = new AtomicInteger();
  private final List<Object[]> exchanges = new CopyOnWriteArrayList<>(); // {request, reply}
  private final List<Map<String, List<String>>> requestHeaders = new CopyOnWriteArrayList<>();
  private final List<String> invalidRequests = new CopyOnWriteArrayList<>();
  private final AtomicLong acceptedRecords = new AtomicLong();
  private final AtomicLong acceptedRequests = new AtomicLong();
  private final AtomicLong acceptedWireBytes = new AtomicLong();
  private final AtomicLong acceptedBodyBytes = new AtomicLong();
  private final AtomicLong rejectedRequests = new AtomicLong();
  private final AtomicLong invalidRequestCount = new AtomicLong();
  private final Object progress = new Object();
  private volatile Function<ReceivedRequest, GrpcReply> responder;
  private int port; // guarded by this
  private HttpAsyncServer server; // guarded by this; null while refusing or closed
  private boolean closed; // guarded by this

  private OtlpGrpcReceiver(Builder b) throws IOException {
    this.strict = b.strict;
    this.reader = new RequestReader(b.strict, null);
    this.tls = b.tls;
    this.needClientAuth = b.needClientAuth;
    this.maxMessage = b.maxMessage;
    this.port = b.port;
    AtomicInteger threads = new AtomicInteger();
    this.replies =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "OtlpGrpcReceiver-reply-" + threads.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.connections = new GrpcConnections(replies);
    synchronized (this) {
      try {
        bind();
      } catch (IOException | RuntimeException e) {
        replies.shutdownNow();
        throw e;
      }
    }
  }

  /**
   * Starts a strict receiver on a free port.
   *
   * @return the receiver, listening
   * @throws IOException if it cannot listen
   */
  public static OtlpGrpcReceiver start() throws IOException {
    return builder().start();
  }

  /**
   * Starts a counting receiver on a free port.
   *
   * @return the receiver, listening
   * @throws IOException if it cannot listen
   */
  public static OtlpGrpcReceiver startCounting() throws IOException {
    return builder().counting().start();
  }

  /** {@return a builder: strict mode, a free port, plain h2c, a 4 MiB message limit} */
  public static Builder builder() {
    return new Builder();
  }

  /** {@return whether this receiver decodes and keeps calls (strict) rather than counting them} */
  public boolean isStrict() {
    return strict;
  }

  /** {@return the TCP port on 127.0.0.1} */
  public synchronized int port() {
    return port;
  }

  /**
   * {@return the endpoint an OTLP/gRPC exporter is given, e.g} {@code http://127.0.0.1:43121}
   * ({@code https://} with TLS).
   */
  public String endpoint() {
    return (tls != null ? "https" : "http") + "://127.0.0.1:" + port();
  }

  /**
   * Scripts the answers to well-formed calls: {@code responder} is called once per call, on an I/O
   * thread of the receiver (it must not block; use {@link GrpcReply#heldBy} or {@link
   * GrpcReply#delayed} to stall), and must be thread-safe; null restores the default ({@link
   * GrpcReply#ok}).
   *
   * @param responder the answer to each call, or null
   */
  public void respond(Function<ReceivedRequest, GrpcReply> responder) {
    this.responder = responder;
  }

  /**
   * {@return the well-formed calls, in the order answered (strict mode; empty when counting): their
   * headers (lower-case names, including {@code grpc-encoding}, {@code grpc-timeout}, {@code
   * user-agent} and custom metadata), the decompressed message as {@link ReceivedRequest#body()}
   * and its records}
   */
  public List<ReceivedRequest> requests() {
    List<ReceivedRequest> out = new ArrayList<>();
    for (Object[] e : exchanges) {
      out.add((ReceivedRequest) e[0]);
    }
    return Collections.unmodifiableList(out);
  }

  /** {@return the answers chosen for {@link #requests()}, in the same order (strict mode)} */
  public List<GrpcReply> replies() {
    List<GrpcReply> out = new ArrayList<>();
    for (Object[] e : exchanges) {
      out.add((GrpcReply) e[1]);
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * {@return the headers of every call received, well-formed or not, in arrival order (strict mode;
   * the first 100,000 only): names in lower case, without pseudo-headers}
   */
  public List<Map<String, List<String>>> requestHeaders() {
    return Collections.unmodifiableList(new ArrayList<>(requestHeaders));
  }

  /** {@return the records of every accepted call, in answer order (strict mode)} */
  public List<ReceivedLogRecord> deliveredRecords() {
    List<ReceivedLogRecord> out = new ArrayList<>();
    for (Object[] e : exchanges) {
      if (((GrpcReply) e[1]).accepted()) {
        out.addAll(((ReceivedRequest) e[0]).records());
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
   * What was wrong with each call refused as malformed, e.g. {@code "POST
   * /opentelemetry.proto.collector.logs.v1.LogsService/Export HTTP 200 grpc-status 12: grpc:
   * Decompressor is not installed for grpc-encoding \"lz4\""}; tests of a correct exporter expect
   * none. Kept in both modes, the first {@value OtlpReceiver#MAX_INVALID_KEPT} only.
   *
   * @return the descriptions, oldest first; a copy
   */
  public List<String> invalidRequests() {
    return Collections.unmodifiableList(new ArrayList<>(invalidRequests));
  }

  /** {@return calls refused as malformed (see {@link #invalidRequests()})} */
  public long invalidRequestCount() {
    return invalidRequestCount.get();
  }

  /** {@return log records in accepted calls ({@link GrpcReply#accepted()})} */
  public long acceptedRecords() {
    return acceptedRecords.get();
  }

  /** {@return accepted calls} */
  public long acceptedRequests() {
    return acceptedRequests.get();
  }

  /** {@return bytes of the messages of accepted calls as sent (compressed), without prefixes} */
  public long acceptedWireBytes() {
    return acceptedWireBytes.get();
  }

  /** {@return bytes of the messages of accepted calls, decompressed} */
  public long acceptedBodyBytes() {
    return acceptedBodyBytes.get();
  }

  /** {@return well-formed calls answered with an error status or a fault, as scripted} */
  public long rejectedRequests() {
    return rejectedRequests.get();
  }

  /** {@return TCP connections accepted (plain or TLS), since the start} */
  public long connectionsAccepted() {
    return connections.accepted();
  }

  /**
   * {@return the most streams (calls) handled at once on one connection, from their request headers
   * to the end of their answer: above 1 proves HTTP/2 multiplexing}
   */
  public int peakConcurrentStreams() {
    return connections.peakStreams();
  }

  /**
   * With TLS ({@link Builder#tls}), the subject of the client certificate of each call, in arrival
   * order ({@code "-"} for a call without one); empty without TLS.
   *
   * @return a snapshot
   */
  public List<String> clientPrincipals() {
    return new ArrayList<>(clientPrincipals);
  }

  /**
   * Parses a {@code grpc-timeout} header value (1 to 8 digits and a unit: {@code H}, {@code M},
   * {@code S}, {@code m}, {@code u}, {@code n}; gRPC over HTTP/2 specification).
   *
   * @param value the header's value, e.g. {@code "10S"} or {@code "2500m"}
   * @return the timeout in nanoseconds (saturated at {@code Long.MAX_VALUE})
   * @throws IllegalArgumentException if the value is malformed
   */
  public static long grpcTimeoutNanos(String value) {
    return GrpcWire.timeoutNanos(value);
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
   * receiver that is down). Idempotent; {@link #resume()} listens again on the same port.
   */
  public synchronized void refuse() {
    if (server != null) {
      server.close(CloseMode.IMMEDIATE);
      try {
        server.awaitShutdown(TimeValue.ofSeconds(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      server = null;
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
    replies.shutdownNow();
  }

  private void bind() throws IOException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REBIND_MILLIS);
    while (true) {
      HttpAsyncServer s = newServer();
      s.start();
      try {
        ListenerEndpoint endpoint =
            s.listen(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
                    tls != null ? URIScheme.HTTPS : URIScheme.HTTP)
                .get();
        port = ((InetSocketAddress) endpoint.getAddress()).getPort();
        server = s;
        return;
      } catch (ExecutionException e) {
        s.close(CloseMode.IMMEDIATE);
        if (!(e.getCause() instanceof BindException)
            || port == 0
            || System.nanoTime() - deadline > 0) {
          throw e.getCause() instanceof IOException
              ? (IOException) e.getCause()
              : new IOException("cannot listen on port " + port, e.getCause());
        }
        try {
          wait(100); // a port just closed may linger briefly; releases this lock meanwhile
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while binding port " + port, interrupted);
        }
      } catch (InterruptedException e) {
        s.close(CloseMode.IMMEDIATE);
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while binding port " + port, e);
      }
    }
  }

  private HttpAsyncServer newServer() {
    int ioThreads = Math.max(2, Runtime.getRuntime().availableProcessors());
    H2ServerBootstrap b =
        H2ServerBootstrap.bootstrap()
            .setCanonicalHostName("127.0.0.1") // else create() looks the local host name up
            .setIOReactorConfig(
                IOReactorConfig.custom()
                    .setIoThreadCount(ioThreads)
                    .setSoReuseAddress(true)
                    .setTcpNoDelay(true)
                    .build())
            .setH2Config(
                H2Config.custom()
                    .setPushEnabled(false)
                    .setMaxConcurrentStreams(MAX_STREAMS)
                    .setInitialWindowSize(1 << 20)
                    .build())
            .setVersionPolicy(HttpVersionPolicy.FORCE_HTTP_2)
            .setHttpProcessor(HttpProcessorBuilder.create().build()) // no Date, no Server
            .setStreamListener(connections.frames())
            .setIOSessionListener(connections.sessions())
            .setExceptionCallback(e -> {}) // quiet about a connection dropped or reset
            .setRequestRouter((request, context) -> () -> new GrpcStream(this, maxMessage));
    if (tls != null) {
      b.setTlsStrategy(
          new H2ServerTlsStrategy(
              tls,
              (endpoint, engine) -> {
                engine.setEnabledProtocols(new String[] {"TLSv1.3", "TLSv1.2"});
                if (needClientAuth) {
                  engine.setNeedClientAuth(true);
                }
              },
              null));
    }
    return b.create();
  }

  // ---- called by GrpcStream, on I/O threads

  void streamStarted(GrpcStream stream) {
    connections.streamStarted(stream);
  }

  void streamReleased(GrpcStream stream) {
    connections.streamReleased(stream);
  }

  void requestEnded(GrpcStream stream) throws IOException {
    if (tls != null) {
      clientPrincipals.add(clientPrincipal(stream));
    }
    Map<String, List<String>> headers = RequestReader.headers(stream.request);
    if (strict && requestHeaders.size() < 100_000) {
      requestHeaders.add(headers);
    }
    byte[][] message = new byte[1][];
    GrpcStream.Invalid invalid = stream.check(message);
    RequestReader.Result read = null;
    if (invalid == null) {
      try {
        read = reader.readProtobuf(message[0]);
      } catch (IllegalArgumentException e) {
        invalid =
            new GrpcStream.Invalid(
                200, GrpcReply.INTERNAL, "grpc: error unmarshalling request: " + e.getMessage());
      }
    }
    try {
      if (invalid != null) {
        refuseInvalid(stream, invalid);
        return;
      }
      ReceivedRequest request =
          new ReceivedRequest(
              index.getAndIncrement(),
              stream.receivedNanos,
              stream.request.getMethod(),
              stream.request.getPath(),
              headers,
              stream.wireMessageLength(),
              read.body,
              read.recordCount,
              read.records);
      Function<ReceivedRequest, GrpcReply> r = responder;
      GrpcReply reply = r == null ? GrpcReply.ok(request) : r.apply(request);
      if (strict) {
        exchanges.add(new Object[] {request, reply});
      }
      count(request, reply);
      if (reply.hold() == null && reply.delayMillis() == 0) {
        answer(stream, reply);
      } else {
        replies.execute(() -> answerLater(stream, reply));
      }
    } catch (org.apache.hc.core5.http.HttpException e) {
      throw new IOException(e);
    }
  }

  private void refuseInvalid(GrpcStream stream, GrpcStream.Invalid invalid)
      throws IOException, org.apache.hc.core5.http.HttpException {
    String description =
        stream.request.getMethod()
            + " "
            + stream.request.getPath()
            + " HTTP "
            + invalid.httpStatus
            + " grpc-status "
            + invalid.code
            + ": "
            + invalid.message;
    if (invalidRequestCount.incrementAndGet() <= OtlpReceiver.MAX_INVALID_KEPT) {
      invalidRequests.add(description);
    }
    stream.sendTrailersOnly(invalid.httpStatus, invalid.code, invalid.message, null);
  }

  private void count(ReceivedRequest request, GrpcReply reply) {
    if (!reply.accepted()) {
      rejectedRequests.incrementAndGet();
      return;
    }
    acceptedRequests.incrementAndGet();
    acceptedWireBytes.addAndGet(request.wireLength());
    acceptedBodyBytes.addAndGet(request.bodyLength());
    acceptedRecords.addAndGet(request.recordCount());
    synchronized (progress) {
      progress.notifyAll();
    }
  }

  private void answerLater(GrpcStream stream, GrpcReply reply) {
    try {
      if (reply.hold() != null) {
        reply.hold().await(60, TimeUnit.SECONDS);
      }
      if (reply.delayMillis() > 0) {
        Thread.sleep(reply.delayMillis()); // a slow receiver, as scripted; not synchronisation
      }
      answer(stream, reply);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // the receiver closes: the connection goes unanswered
    } catch (IOException | org.apache.hc.core5.http.HttpException | RuntimeException e) {
      // the client reset the stream or the connection closed meanwhile: nothing to answer
    }
  }

  private void answer(GrpcStream stream, GrpcReply reply)
      throws IOException, org.apache.hc.core5.http.HttpException {
    String details =
        reply.retryDelayMillis() >= 0
            ? GrpcWire.retryInfoDetails(reply.code(), reply.message(), reply.retryDelayMillis())
            : null;
    switch (reply.fault()) {
      case DROP_CONNECTION:
        if (stream.connection != null) {
          stream.connection.http.close(CloseMode.IMMEDIATE);
        }
        return;
      case GO_AWAY:
        connections.goAway(stream);
        return;
      case RESET_STREAM:
        stream.reset();
        return;
      default:
        if (reply.response() != null) {
          stream.sendWithTrailers(reply.response(), GrpcReply.OK, "", null);
        } else if (reply.isAfterHeaders()) {
          stream.sendWithTrailers(null, reply.code(), reply.message(), details);
        } else {
          stream.sendTrailersOnly(200, reply.code(), reply.message(), details);
        }
    }
  }

  private static String clientPrincipal(GrpcStream stream) {
    SSLSession session = HttpCoreContext.cast(stream.context).getSSLSession();
    if (session == null) {
      return "-";
    }
    try {
      return session.getPeerPrincipal().getName();
    } catch (SSLPeerUnverifiedException e) {
      return "-";
    }
  }

  /** Options of an {@link OtlpGrpcReceiver}; {@link #start()} starts one. Not thread-safe. */
  public static final class Builder {

    private boolean strict = true;
    private int port;
    private SSLContext tls;
    private boolean needClientAuth;
    private int maxMessage = DEFAULT_MAX_RECEIVE_MESSAGE_SIZE;

    private Builder() {}

    /**
     * Serves gRPC over TLS (1.2 and 1.3 only, ALPN {@code h2}) with {@code serverContext}, e.g.
     * {@code io.logproducer.testing.tls.TestPki#serverContext}; {@link #endpoint()} then starts
     * with {@code https}.
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
     * Decode and keep every call (the default).
     *
     * @return this builder
     */
    public Builder strict() {
      strict = true;
      return this;
    }

    /**
     * Only count calls, records and bytes, keeping nothing and building no per-record objects.
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
     * The largest message accepted, as sent and decompressed (the Collector's {@code
     * max_recv_msg_size_mib}, grpc-go's {@code MaxRecvMsgSize}); a larger one is answered status 8
     * RESOURCE_EXHAUSTED.
     *
     * @param bytes the limit in bytes, in [1, 2^30]; default 4 MiB (4,194,304)
     * @return this builder
     * @throws IllegalArgumentException if {@code bytes} is outside [1, 2^30]
     */
    public Builder maxReceiveMessageSizeInBytes(int bytes) {
      if (bytes < 1 || bytes > (1 << 30)) {
        throw new IllegalArgumentException(
            "maxReceiveMessageSizeInBytes must be in [1, 1073741824], was " + bytes);
      }
      this.maxMessage = bytes;
      return this;
    }

    /**
     * Starts the receiver.
     *
     * @return the receiver, listening
     * @throws IOException if it cannot listen on the port
     */
    public OtlpGrpcReceiver start() throws IOException {
      return new OtlpGrpcReceiver(this);
    }
  }
}
