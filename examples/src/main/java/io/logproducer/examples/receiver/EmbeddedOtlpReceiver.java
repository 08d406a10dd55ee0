package io.logproducer.examples.receiver;

import io.logproducer.Compression;
import io.logproducer.internal.codec.Codec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.impl.bootstrap.HttpServer;
import org.apache.hc.core5.http.impl.bootstrap.ServerBootstrap;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;

/**
 * A real OTLP/HTTP logs receiver on 127.0.0.1 for the quick start and the benchmark sink: it accepts
 * {@code POST /v1/logs} in protobuf or JSON, with {@code Content-Encoding} gzip, lz4 (frame), zstd or none,
 * decompresses and walks every request to count its log records, and answers 200 with an empty
 * {@code ExportLogsServiceResponse} as the OpenTelemetry Collector does. Malformed requests get 400.
 *
 * <p>Built on httpcore5's classic HTTP/1.1 server (already on the class path through httpclient5): a thread per
 * connection, TCP_NODELAY, keep-alive. Thread-safe; counters are cumulative.
 */
public final class EmbeddedOtlpReceiver implements AutoCloseable {

  private static final byte[] EMPTY_PROTO_RESPONSE = {0x0A, 0x00};
  private static final String EMPTY_JSON_RESPONSE = "{\"partialSuccess\":{}}";

  private final HttpServer server;
  private final AtomicLong records = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong wireBytes = new AtomicLong();
  private final AtomicLong bodyBytes = new AtomicLong();
  private final AtomicLong badRequests = new AtomicLong();

  /**
   * Starts listening.
   *
   * @param port TCP port on 127.0.0.1, 0 for any free one
   * @param threads unused hint kept for callers; the server runs one thread per connection
   */
  public EmbeddedOtlpReceiver(int port, int threads) throws IOException {
    server = ServerBootstrap.bootstrap()
        .setLocalAddress(InetAddress.getLoopbackAddress())
        .setListenerPort(port)
        .setCanonicalHostName("127.0.0.1")
        .setSocketConfig(SocketConfig.custom().setTcpNoDelay(true).setSoTimeout(60, TimeUnit.SECONDS)
            .setRcvBufSize(1 << 20).build())
        .register("/v1/logs", this::handle)
        .create();
    server.start();
  }

  /** The base endpoint, e.g. {@code http://127.0.0.1:43123}. */
  public String endpoint() {
    return "http://127.0.0.1:" + port();
  }

  public int port() {
    return server.getLocalPort();
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

  private void handle(ClassicHttpRequest request, ClassicHttpResponse response, HttpContext context)
      throws IOException {
    if (!"POST".equals(request.getMethod())) {
      response.setCode(405);
      response.setEntity(new StringEntity("only POST is allowed", ContentType.TEXT_PLAIN));
      return;
    }
    Header encoding = request.getFirstHeader("Content-Encoding");
    Header type = request.getFirstHeader("Content-Type");
    boolean json = type != null && type.getValue().startsWith("application/json");
    HttpEntity entity = request.getEntity();
    byte[] wire = entity == null ? new byte[0] : readAll(entity);
    byte[] body;
    long count;
    try {
      Compression compression = encoding == null ? Compression.NONE : Compression.fromName(encoding.getValue());
      body = decompress(compression, wire);
      count = json ? OtlpRecordCounter.countJson(new String(body, StandardCharsets.UTF_8))
          : OtlpRecordCounter.countProtobuf(body, 0, body.length);
    } catch (IllegalArgumentException | IOException e) {
      badRequests.incrementAndGet();
      response.setCode(400);
      response.setEntity(new StringEntity("bad request: " + e.getMessage(), ContentType.TEXT_PLAIN));
      return;
    }
    records.addAndGet(count);
    requests.incrementAndGet();
    wireBytes.addAndGet(wire.length);
    bodyBytes.addAndGet(body.length);
    response.setCode(200);
    response.setEntity(json ? new StringEntity(EMPTY_JSON_RESPONSE, ContentType.APPLICATION_JSON)
        : new ByteArrayEntity(EMPTY_PROTO_RESPONSE, ContentType.create("application/x-protobuf")));
  }

  private static byte[] readAll(HttpEntity entity) throws IOException {
    long length = entity.getContentLength();
    try (InputStream in = entity.getContent()) {
      if (length >= 0 && length <= Integer.MAX_VALUE - 8) {
        byte[] out = new byte[(int) length];
        int n = 0;
        while (n < out.length) {
          int r = in.read(out, n, out.length - n);
          if (r < 0) {
            throw new IOException("request body ended after " + n + " of " + length + " bytes");
          }
          n += r;
        }
        return out;
      }
      return in.readAllBytes();
    }
  }

  private static byte[] decompress(Compression compression, byte[] wire) throws IOException {
    if (compression == Compression.NONE) {
      return wire;
    }
    try (InputStream in = Codec.of(compression, 0).decompress(new ByteArrayInputStream(wire))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(1024, wire.length * 8));
      in.transferTo(out);
      return out.toByteArray();
    }
  }

  @Override
  public void close() {
    server.close(CloseMode.IMMEDIATE);
  }
}
