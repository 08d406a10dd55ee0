package io.logproducer.benchmark.sls;

import com.github.luben.zstd.Zstd;
import java.io.IOException;
import java.net.InetAddress;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.apache.hc.core5.http.ClassicHttpRequest;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.impl.bootstrap.HttpServer;
import org.apache.hc.core5.http.impl.bootstrap.ServerBootstrap;
import org.apache.hc.core5.http.io.HttpRequestHandler;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.io.CloseMode;

/**
 * A receiver of Alibaba Cloud Log Service (SLS) {@code PutLogs} requests on 127.0.0.1, the
 * benchmark sink for the Aliyun Log Java producer: a server like the OTLP sink's (here httpcore5's
 * classic HTTP/1.1 server, a thread per connection, TCP_NODELAY, keep-alive), speaking the SLS
 * protocol instead.
 *
 * <p>It accepts {@code POST /logstores/<logstore>/shards/lb} (and {@code /shards/route?key=…}, the
 * hash-key form) whose body is a protobuf {@code LogGroup} compressed as {@code x-log-compresstype}
 * says (lz4 block, zstd, deflate, or none when absent), checks that it decompresses to exactly
 * {@code x-log-bodyrawsize} bytes, walks every log ({@link LogGroupCounter}) and answers 200 with
 * an empty body and an {@code x-log-requestid} header, as SLS does. Anything else gets an SLS-style
 * JSON error ({@code errorCode}, {@code errorMessage}) and counts as bad. Requests are not
 * authenticated: the signature headers the client sends are ignored. Thread-safe; counters are
 * cumulative.
 */
public final class SlsReceiver implements AutoCloseable {

  private static final LZ4SafeDecompressor LZ4 = LZ4Factory.fastestInstance().safeDecompressor();

  /**
   * The largest body SLS accepts for PutLogs (decompressed): 10 MiB; a little slack for the checks.
   */
  static final int MAX_RAW_SIZE = 64 << 20;

  private final HttpServer server;
  private final AtomicLong records = new AtomicLong();
  private final AtomicLong contents = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong wireBytes = new AtomicLong();
  private final AtomicLong bodyBytes = new AtomicLong();
  private final AtomicLong badRequests = new AtomicLong();
  private final AtomicLong requestIds = new AtomicLong();
  private final long idPrefix = System.nanoTime() & 0xFFFF_FFFFL;

  /**
   * Starts listening.
   *
   * @param port TCP port on 127.0.0.1, 0 for any free one
   */
  public SlsReceiver(int port) throws IOException {
    HttpRequestHandler handler = this::handle;
    server =
        ServerBootstrap.bootstrap()
            .setLocalAddress(InetAddress.getLoopbackAddress())
            .setListenerPort(port)
            .setCanonicalHostName("127.0.0.1")
            .setSocketConfig(
                SocketConfig.custom()
                    .setTcpNoDelay(true)
                    .setSoTimeout(60, TimeUnit.SECONDS)
                    .setRcvBufSize(1 << 20)
                    .build())
            // SLS clients send Host: <project>.<endpoint>; httpcore5's default router answers 421
            // to a host other than its own, so this one takes every request as addressed to this
            // server
            .setRequestRouter((request, context) -> handler)
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

  /** Logs counted in accepted requests. */
  public long records() {
    return records.get();
  }

  /** Key/value contents of those logs. */
  public long contents() {
    return contents.get();
  }

  /** Accepted requests. */
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
    String requestId =
        String.format(Locale.ROOT, "%08X%016X", idPrefix, requestIds.incrementAndGet());
    response.setHeader("x-log-requestid", requestId);
    String path = request.getPath();
    int query = path.indexOf('?');
    if (query >= 0) {
      path = path.substring(0, query);
    }
    if (!path.startsWith("/logstores/")
        || !(path.endsWith("/shards/lb") || path.endsWith("/shards/route"))) {
      EntityUtils.consume(request.getEntity());
      error(response, 404, "RequestURINotFound", "no such resource: " + path);
      return;
    }
    if (!"POST".equals(request.getMethod())) {
      EntityUtils.consume(request.getEntity());
      error(response, 405, "MethodNotAllowed", "PutLogs takes POST, not " + request.getMethod());
      return;
    }
    byte[] wire =
        request.getEntity() == null ? new byte[0] : EntityUtils.toByteArray(request.getEntity());
    LogGroupCounter.Counts counts;
    byte[] body;
    try {
      int rawSize = rawSize(request.getFirstHeader("x-log-bodyrawsize"));
      Header type = request.getFirstHeader("x-log-compresstype");
      body = decompress(type == null ? "" : type.getValue(), wire, rawSize);
      counts = LogGroupCounter.count(body, 0, body.length);
    } catch (IllegalArgumentException e) {
      error(response, 400, "PostBodyInvalid", e.getMessage());
      return;
    }
    records.addAndGet(counts.logs());
    contents.addAndGet(counts.contents());
    requests.incrementAndGet();
    wireBytes.addAndGet(wire.length);
    bodyBytes.addAndGet(body.length);
    response.setCode(200);
  }

  private void error(ClassicHttpResponse response, int code, String errorCode, String message) {
    badRequests.incrementAndGet();
    response.setCode(code);
    String json =
        "{\"errorCode\":\""
            + errorCode
            + "\",\"errorMessage\":\""
            + String.valueOf(message).replace("\\", "\\\\").replace("\"", "\\\"")
            + "\"}";
    response.setEntity(new StringEntity(json, ContentType.APPLICATION_JSON));
  }

  private static int rawSize(Header h) {
    if (h == null) {
      throw new IllegalArgumentException("x-log-bodyrawsize is missing");
    }
    int n;
    try {
      n = Integer.parseInt(h.getValue().trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("x-log-bodyrawsize is not a number: " + h.getValue());
    }
    if (n < 0 || n > MAX_RAW_SIZE) {
      throw new IllegalArgumentException("x-log-bodyrawsize out of range: " + n);
    }
    return n;
  }

  /** The body as it was before compression, exactly {@code rawSize} bytes. */
  static byte[] decompress(String type, byte[] wire, int rawSize) {
    switch (type.toLowerCase(Locale.ROOT)) {
      case "", "none" -> {
        if (wire.length != rawSize) {
          throw new IllegalArgumentException(
              "body has " + wire.length + " bytes, x-log-bodyrawsize says " + rawSize);
        }
        return wire;
      }
      case "lz4" -> {
        byte[] out = new byte[rawSize];
        int n;
        try {
          n = LZ4.decompress(wire, 0, wire.length, out, 0, rawSize);
        } catch (LZ4Exception e) {
          throw new IllegalArgumentException(
              "not an lz4 block of " + rawSize + " bytes: " + e.getMessage());
        }
        return exact(out, n, rawSize);
      }
      case "zstd" -> {
        byte[] out = new byte[rawSize];
        long n = Zstd.decompress(out, wire);
        if (Zstd.isError(n)) {
          throw new IllegalArgumentException("not a zstd frame: " + Zstd.getErrorName(n));
        }
        return exact(out, (int) n, rawSize);
      }
      case "deflate" -> {
        Inflater inflater = new Inflater();
        try {
          inflater.setInput(wire);
          byte[] out = new byte[rawSize];
          int n = 0;
          while (n < rawSize && !inflater.finished()) {
            int r = inflater.inflate(out, n, rawSize - n);
            if (r == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
              break;
            }
            n += r;
          }
          if (!inflater.finished()) {
            throw new IllegalArgumentException(
                "deflate stream longer than x-log-bodyrawsize " + rawSize + " or truncated");
          }
          return exact(out, n, rawSize);
        } catch (DataFormatException e) {
          throw new IllegalArgumentException("not a deflate stream: " + e.getMessage());
        } finally {
          inflater.end();
        }
      }
      default -> throw new IllegalArgumentException("unsupported x-log-compresstype " + type);
    }
  }

  private static byte[] exact(byte[] out, int n, int rawSize) {
    if (n != rawSize) {
      throw new IllegalArgumentException(
          "decompressed to " + n + " bytes, x-log-bodyrawsize says " + rawSize);
    }
    return out;
  }

  /**
   * The counters as one line of the sink's report: {@code records=<n> requests=<n> wire_bytes=<n>
   * body_bytes=<n> bad=<n> contents=<n>}.
   */
  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "records=%d requests=%d wire_bytes=%d body_bytes=%d bad=%d contents=%d",
        records(),
        requests(),
        wireBytes(),
        bodyBytes(),
        badRequests(),
        contents());
  }

  @Override
  public void close() {
    server.close(CloseMode.IMMEDIATE);
  }
}
