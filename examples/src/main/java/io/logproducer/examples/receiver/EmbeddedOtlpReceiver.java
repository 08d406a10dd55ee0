package io.logproducer.examples.receiver;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.logproducer.Compression;
import io.logproducer.internal.codec.Codec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real OTLP/HTTP logs receiver on 127.0.0.1 for the quick start and the benchmark sink: it accepts
 * {@code POST /v1/logs} in protobuf or JSON, with {@code Content-Encoding} gzip, lz4 (frame), zstd or none,
 * decompresses and walks every request to count its log records, and answers 200 with an empty
 * {@code ExportLogsServiceResponse} as the OpenTelemetry Collector does. Malformed requests get 400.
 * Thread-safe; counters are cumulative.
 */
public final class EmbeddedOtlpReceiver implements AutoCloseable {

  private static final byte[] EMPTY_PROTO_RESPONSE = {0x0A, 0x00};
  private static final byte[] EMPTY_JSON_RESPONSE = "{\"partialSuccess\":{}}".getBytes(StandardCharsets.UTF_8);

  private final HttpServer server;
  private final ExecutorService executor;
  private final AtomicLong records = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong wireBytes = new AtomicLong();
  private final AtomicLong bodyBytes = new AtomicLong();
  private final AtomicLong badRequests = new AtomicLong();

  /**
   * Starts listening.
   *
   * @param port TCP port on 127.0.0.1, 0 for any free one
   * @param threads request handler threads
   */
  public EmbeddedOtlpReceiver(int port, int threads) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 256);
    executor = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "otlp-receiver");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext("/v1/logs", this::handle);
    server.start();
  }

  /** The base endpoint, e.g. {@code http://127.0.0.1:43123}. */
  public String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** Log records counted in accepted requests. */
  public long records() {
    return records.get();
  }

  public long requests() {
    return requests.get();
  }

  /** Request bytes as received (compressed). */
  public long wireBytes() {
    return wireBytes.get();
  }

  /** Request bytes after decompression. */
  public long bodyBytes() {
    return bodyBytes.get();
  }

  public long badRequests() {
    return badRequests.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!"POST".equals(exchange.getRequestMethod())) {
        reply(exchange, 405, "only POST is allowed");
        return;
      }
      String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
      String type = exchange.getRequestHeaders().getFirst("Content-Type");
      boolean json = type != null && type.startsWith("application/json");
      byte[] wire = exchange.getRequestBody().readAllBytes();
      byte[] body;
      long count;
      try {
        Compression compression = encoding == null ? Compression.NONE : Compression.fromName(encoding);
        body = decompress(compression, wire);
        count = json ? OtlpRecordCounter.countJson(new String(body, StandardCharsets.UTF_8))
            : OtlpRecordCounter.countProtobuf(body, 0, body.length);
      } catch (IllegalArgumentException | IOException e) {
        badRequests.incrementAndGet();
        reply(exchange, 400, "bad request: " + e.getMessage());
        return;
      }
      records.addAndGet(count);
      requests.incrementAndGet();
      wireBytes.addAndGet(wire.length);
      bodyBytes.addAndGet(body.length);
      byte[] response = json ? EMPTY_JSON_RESPONSE : EMPTY_PROTO_RESPONSE;
      exchange.getResponseHeaders().set("Content-Type", json ? "application/json" : "application/x-protobuf");
      exchange.sendResponseHeaders(200, response.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(response);
      }
    }
  }

  private static byte[] decompress(Compression compression, byte[] wire) throws IOException {
    if (compression == Compression.NONE) {
      return wire;
    }
    try (InputStream in = Codec.of(compression, 0).decompress(new java.io.ByteArrayInputStream(wire))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(wire.length * 8);
      in.transferTo(out);
      return out.toByteArray();
    }
  }

  private static void reply(HttpExchange exchange, int status, String message) throws IOException {
    byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
