package io.logproducer.testing.otlp;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongConsumer;

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
 * <p>Built on the JDK's {@code com.sun.net.httpserver} (no dependency beyond producer-core), with
 * TCP_NODELAY: the first receiver started in a JVM sets the system property {@code
 * sun.net.httpserver.nodelay=true}. Requests are handled on daemon threads, one per concurrent
 * request. Thread-safe.
 */
public final class OtlpReceiver implements AutoCloseable {

  /** The path the receiver serves. */
  public static final String LOGS_PATH = "/v1/logs";

  private static final int BACKLOG = 64;
  private static final long REBIND_MILLIS = 10_000;

  /**
   * {@link #invalidRequests()} keeps this many descriptions at most (a long run with a broken
   * client).
   */
  static final int MAX_INVALID_KEPT = 1000;

  static {
    // Without it the JDK server's separate header and body writes meet the client's delayed ACK:
    // +40 ms a request.
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  private final boolean strict;
  private final RequestReader reader;
  private final LongConsumer ids; // null unless recordIds was set
  private final ExecutorService executor;
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
    AtomicInteger threads = new AtomicInteger();
    this.executor =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "otlp-receiver-" + threads.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
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
    return "http://127.0.0.1:" + port();
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
      server.stop(0);
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
    executor.shutdownNow();
  }

  private void bind() throws IOException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(REBIND_MILLIS);
    while (true) {
      try {
        HttpServer s =
            HttpServer.create(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), port), BACKLOG);
        s.setExecutor(executor);
        s.createContext("/", this::handle);
        s.start();
        port = s.getAddress().getPort();
        server = s;
        return;
      } catch (BindException e) {
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

  private void handle(HttpExchange ex) throws IOException {
    long receivedNanos = System.nanoTime();
    try {
      RequestReader.Result read = reader.read(ex);
      if (read.error != null) {
        String description =
            ex.getRequestMethod()
                + " "
                + ex.getRequestURI().getPath()
                + " "
                + read.status
                + ": "
                + read.error;
        lastInvalidRequest = description;
        if (invalidRequestCount.incrementAndGet() <= MAX_INVALID_KEPT) {
          invalidRequests.add(description);
        }
        send(
            ex,
            Reply.status(read.status)
                .withBody(
                    "text/plain; charset=utf-8", read.error.getBytes(StandardCharsets.UTF_8)));
        return;
      }
      ReceivedRequest request =
          new ReceivedRequest(
              index.getAndIncrement(),
              receivedNanos,
              ex.getRequestMethod(),
              ex.getRequestURI().getPath(),
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
      answer(ex, reply);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      ex.close();
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

  private static void answer(HttpExchange ex, Reply reply)
      throws IOException, InterruptedException {
    if (reply.hold() != null) {
      reply.hold().await(60, TimeUnit.SECONDS);
    }
    if (reply.delayMillis() > 0) {
      Thread.sleep(reply.delayMillis()); // a slow receiver, as scripted; not synchronisation
    }
    if (reply.dropsConnection()) {
      // The JDK server closes the connection, unanswered, when a handler throws an IOException.
      throw new IOException("connection dropped as scripted");
    }
    send(ex, reply);
  }

  private static void send(HttpExchange ex, Reply reply) throws IOException {
    for (Map.Entry<String, String> h : reply.headers().entrySet()) {
      ex.getResponseHeaders().add(h.getKey(), h.getValue());
    }
    if (reply.contentType() != null) {
      ex.getResponseHeaders().add("Content-Type", reply.contentType());
    }
    byte[] body = reply.bodyUnsafe();
    ex.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    }
  }

  /** Options of an {@link OtlpReceiver}; {@link #start()} starts one. Not thread-safe. */
  public static final class Builder {

    private boolean strict = true;
    private int port;
    private byte[] idKey;
    private LongConsumer ids;

    private Builder() {}

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
