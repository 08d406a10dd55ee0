package io.logproducer.otlp.testing;

import io.logproducer.otlp.encoding.testing.OtlpJson;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.logproducer.Compression;
import io.logproducer.internal.codec.Codec;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsPartialSuccess;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A real OTLP/HTTP receiver on 127.0.0.1 for tests: it decompresses each request (by its Content-Encoding, with
 * the core's codecs), decodes it with the generated OTLP classes (protobuf, or JSON through JsonFormat), records
 * what it received and when, and answers as the test scripts it (default: 200 with an empty partial_success, in
 * the request's format, as the Collector does).
 */
public final class LoopbackOtlpServer implements AutoCloseable {

  /** One request as received. */
  public record Received(int index, long receivedNanos, String method, String path, String contentType,
      String contentEncoding, String userAgent, Map<String, List<String>> headers, byte[] body,
      ExportLogsServiceRequest request) {

    public boolean isJson() {
      return contentType != null && contentType.contains("json");
    }

    /** All log records of the request, in order. */
    public List<LogRecord> records() {
      List<LogRecord> out = new ArrayList<>();
      for (ResourceLogs rl : request.getResourceLogsList()) {
        for (ScopeLogs sl : rl.getScopeLogsList()) {
          out.addAll(sl.getLogRecordsList());
        }
      }
      return out;
    }

    /** The {@code InstrumentationScope} of each log record of the request, in the order of {@link #records()}. */
    public List<InstrumentationScope> scopes() {
      List<InstrumentationScope> out = new ArrayList<>();
      for (ResourceLogs rl : request.getResourceLogsList()) {
        for (ScopeLogs sl : rl.getScopeLogsList()) {
          for (int i = 0; i < sl.getLogRecordsCount(); i++) {
            out.add(sl.getScope());
          }
        }
      }
      return out;
    }

    public List<String> bodies() {
      return records().stream().map(r -> r.getBody().getStringValue()).toList();
    }

    public String header(String name) {
      List<String> values = headers.get(name);
      return values == null || values.isEmpty() ? null : values.get(0);
    }
  }

  /** A scripted answer. */
  public record Reply(int status, Map<String, String> headers, String contentType, byte[] body, long delayMillis,
      CountDownLatch hold) {

    public static Reply status(int status) {
      return new Reply(status, Map.of(), null, new byte[0], 0, null);
    }

    public Reply withHeader(String name, String value) {
      Map<String, String> h = new java.util.LinkedHashMap<>(headers);
      h.put(name, value);
      return new Reply(status, h, contentType, body, delayMillis, hold);
    }

    public Reply withBody(String contentType, byte[] body) {
      return new Reply(status, headers, contentType, body, delayMillis, hold);
    }

    /** Answer only after {@code millis} (a slow receiver). */
    public Reply delayed(long millis) {
      return new Reply(status, headers, contentType, body, millis, hold);
    }

    /** Answer only once {@code latch} is released (a hung receiver). */
    public Reply heldBy(CountDownLatch latch) {
      return new Reply(status, headers, contentType, body, delayMillis, latch);
    }

    /** 200 with an empty partial_success, in the request's format (what the Collector answers). */
    public static Reply ok(Received request) {
      return partialSuccess(request, 0, "");
    }

    /** 200 with a partial_success rejecting {@code rejected} records, in the request's format. */
    public static Reply partialSuccess(Received request, long rejected, String message) {
      if (request.isJson()) {
        String json = rejected == 0 && message.isEmpty() ? "{\"partialSuccess\":{}}"
            : "{\"partialSuccess\":{\"rejectedLogRecords\":\"" + rejected + "\",\"errorMessage\":\""
                + message.replace("\"", "\\\"") + "\"}}";
        return status(200).withBody("application/json", json.getBytes(StandardCharsets.UTF_8));
      }
      ExportLogsServiceResponse r = ExportLogsServiceResponse.newBuilder().setPartialSuccess(
          ExportLogsPartialSuccess.newBuilder().setRejectedLogRecords(rejected).setErrorMessage(message)).build();
      return status(200).withBody("application/x-protobuf", r.toByteArray());
    }

    /** A failure status with a google.rpc.Status body {code=3, message}, protobuf or JSON like the request. */
    public static Reply rpcStatus(Received request, int status, String message) {
      if (request.isJson()) {
        return status(status).withBody("application/json",
            ("{\"code\":3,\"message\":\"" + message + "\"}").getBytes(StandardCharsets.UTF_8));
      }
      byte[] m = message.getBytes(StandardCharsets.UTF_8);
      byte[] body = new byte[4 + m.length];
      body[0] = 0x08;
      body[1] = 3;
      body[2] = 0x12;
      body[3] = (byte) m.length;
      System.arraycopy(m, 0, body, 4, m.length);
      return status(status).withBody("application/x-protobuf", body);
    }
  }

  /** One exchange: the request and the status it was answered with. */
  public record Exchange(Received request, int status) {
    public boolean accepted() {
      return status >= 200 && status < 300;
    }
  }

  static {
    // Without it the JDK server's separate header and body writes meet the client's delayed ACK: +40 ms a request.
    System.setProperty("sun.net.httpserver.nodelay", "true");
  }

  private final HttpServer server;
  private final ExecutorService executor;
  private final AtomicInteger index = new AtomicInteger();
  private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();
  private final List<Throwable> decodeErrors = new CopyOnWriteArrayList<>();
  private volatile Function<Received, Reply> responder = Reply::ok;

  private LoopbackOtlpServer(int port) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
    AtomicInteger threads = new AtomicInteger();
    executor = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "loopback-otlp-" + threads.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Starts on a free port. */
  public static LoopbackOtlpServer start() throws IOException {
    return new LoopbackOtlpServer(0);
  }

  /** Starts on {@code port}. */
  public static LoopbackOtlpServer start(int port) throws IOException {
    return new LoopbackOtlpServer(port);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** The base URL, e.g. {@code http://127.0.0.1:43121} (the exporter appends /v1/logs). */
  public String endpoint() {
    return "http://127.0.0.1:" + port();
  }

  /** Scripts the answers; called once per request, on a server thread. */
  public void respond(Function<Received, Reply> responder) {
    this.responder = responder;
  }

  public List<Exchange> exchanges() {
    return List.copyOf(exchanges);
  }

  public List<Received> requests() {
    return exchanges.stream().map(Exchange::request).toList();
  }

  /** Bodies of the records of every accepted (2xx) request, in arrival order. */
  public List<String> deliveredBodies() {
    List<String> out = new ArrayList<>();
    for (Exchange e : exchanges) {
      if (e.accepted()) {
        out.addAll(e.request().bodies());
      }
    }
    return out;
  }

  /** Requests the server could not decode (each also answered 400); tests expect none. */
  public List<Throwable> decodeErrors() {
    return List.copyOf(decodeErrors);
  }

  private void handle(HttpExchange ex) throws IOException {
    long receivedNanos = System.nanoTime();
    try {
      byte[] raw;
      try (InputStream in = ex.getRequestBody()) {
        raw = in.readAllBytes();
      }
      String contentType = ex.getRequestHeaders().getFirst("Content-Type");
      String encoding = ex.getRequestHeaders().getFirst("Content-Encoding");
      Received received;
      try {
        byte[] body = decompress(encoding, raw);
        ExportLogsServiceRequest request = contentType != null && contentType.contains("json")
            ? OtlpJson.parseRequest(new String(body, StandardCharsets.UTF_8))
            : ExportLogsServiceRequest.parseFrom(body);
        received = new Received(index.getAndIncrement(), receivedNanos, ex.getRequestMethod(),
            ex.getRequestURI().getPath(), contentType, encoding, ex.getRequestHeaders().getFirst("User-Agent"),
            Map.copyOf(lowerCase(ex.getRequestHeaders())), body, request);
      } catch (Exception e) {
        decodeErrors.add(e);
        send(ex, Reply.status(400).withBody("text/plain", ("cannot decode: " + e).getBytes(StandardCharsets.UTF_8)));
        return;
      }
      Reply reply = responder.apply(received);
      exchanges.add(new Exchange(received, reply.status()));
      if (reply.hold() != null) {
        reply.hold().await(60, TimeUnit.SECONDS);
      }
      if (reply.delayMillis() > 0) {
        Thread.sleep(reply.delayMillis()); // simulates a slow receiver; not used for synchronisation
      }
      send(ex, reply);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      ex.close();
    }
  }

  private static Map<String, List<String>> lowerCase(Map<String, List<String>> headers) {
    Map<String, List<String>> out = new java.util.HashMap<>();
    headers.forEach((k, v) -> out.put(k.toLowerCase(java.util.Locale.ROOT), List.copyOf(v)));
    return out;
  }

  private static byte[] decompress(String encoding, byte[] raw) throws IOException {
    if (encoding == null) {
      return raw;
    }
    Compression c = Compression.fromName(encoding);
    if (c == Compression.NONE) {
      throw new IOException("Content-Encoding " + encoding + " must be omitted"); // the Collector answers 400
    }
    try (InputStream in = Codec.of(c, 0).decompress(new ByteArrayInputStream(raw))) {
      return in.readAllBytes();
    }
  }

  private static void send(HttpExchange ex, Reply reply) throws IOException {
    reply.headers().forEach((k, v) -> ex.getResponseHeaders().add(k, v));
    if (reply.contentType() != null) {
      ex.getResponseHeaders().add("Content-Type", reply.contentType());
    }
    byte[] body = reply.body();
    ex.sendResponseHeaders(reply.status(), body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
