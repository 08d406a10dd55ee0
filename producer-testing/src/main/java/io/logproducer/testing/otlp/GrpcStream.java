package io.logproducer.testing.otlp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.core5.concurrent.Cancellable;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpConnection;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpRequest;
import org.apache.hc.core5.http.impl.BasicEntityDetails;
import org.apache.hc.core5.http.message.BasicHeader;
import org.apache.hc.core5.http.message.BasicHttpResponse;
import org.apache.hc.core5.http.nio.AsyncServerExchangeHandler;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.nio.DataStreamChannel;
import org.apache.hc.core5.http.nio.ResponseChannel;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * One HTTP/2 stream (one {@code Export} call) of {@link OtlpGrpcReceiver}: collects the request's
 * DATA, checks it as grpc-go does ({@link #check}) and sends the answer the receiver chooses.
 * httpcore5 calls it on an I/O thread; {@link #respond} and {@link #reset} may be called from
 * another thread once. Thread-safe for that use.
 */
final class GrpcStream implements AsyncServerExchangeHandler {

  static final String SERVICE = "opentelemetry.proto.collector.logs.v1.LogsService";
  static final String METHOD = "Export";
  static final String GRPC = "application/grpc";

  /** An HTTP/2 connection as the receiver tracks it: its streams in progress. */
  static final class Connection {
    final HttpConnection http;
    final AtomicInteger active = new AtomicInteger();
    volatile boolean goingAway;

    Connection(HttpConnection http) {
      this.http = http;
    }
  }

  /** What {@link #check} found wrong: the HTTP status, the gRPC status and its message. */
  static final class Invalid {
    final int httpStatus;
    final int code;
    final String message;

    Invalid(int httpStatus, int code, String message) {
      this.httpStatus = httpStatus;
      this.code = code;
      this.message = message;
    }
  }

  private final OtlpGrpcReceiver receiver;
  private final int maxMessage;
  private final AtomicBoolean released = new AtomicBoolean();
  final long receivedNanos = System.nanoTime();
  HttpRequest request;
  HttpContext context;
  Connection connection; // null if httpcore5 did not tell (then GOAWAY and drops cannot be sent)
  int streamId = -1;
  private ResponseChannel responseChannel;
  private volatile Cancellable streamChannel; // httpcore5-h2's stream channel, to reset

  private byte[] buf = new byte[1024];
  private int n;
  private long received;
  // the response body and trailers still to send; guarded by this
  private byte[] data;
  private int dataPos;
  private List<Header> trailers;

  GrpcStream(OtlpGrpcReceiver receiver, int maxMessage) {
    this.receiver = receiver;
    this.maxMessage = maxMessage;
  }

  @Override
  public void handleRequest(
      HttpRequest request,
      EntityDetails entityDetails,
      ResponseChannel responseChannel,
      HttpContext context)
      throws HttpException, IOException {
    this.request = request;
    this.responseChannel = responseChannel;
    this.context = context;
    receiver.streamStarted(this);
    if (entityDetails == null) {
      streamEnd(null);
    }
  }

  @Override
  public void updateCapacity(CapacityChannel capacityChannel) throws IOException {
    if (capacityChannel instanceof Cancellable) {
      streamChannel = (Cancellable) capacityChannel;
    }
    capacityChannel.update(Integer.MAX_VALUE);
  }

  @Override
  public void consume(ByteBuffer src) throws IOException {
    int r = src.remaining();
    received += r;
    long keep = (long) GrpcWire.PREFIX + maxMessage + GrpcWire.PREFIX; // enough to judge
    if (n + (long) r <= keep) {
      if (n + r > buf.length) {
        buf = Arrays.copyOf(buf, (int) Math.min(keep, Math.max(n + r, buf.length * 2L)));
      }
      src.get(buf, n, r);
      n += r;
    } else {
      src.position(src.limit()); // beyond what is needed to answer: discarded
    }
  }

  @Override
  public void streamEnd(List<? extends Header> requestTrailers) throws HttpException, IOException {
    receiver.requestEnded(this);
  }

  /** {@return the request's first header {@code name}, or null} */
  String header(String name) {
    Header h = request.getFirstHeader(name);
    return h == null ? null : h.getValue();
  }

  /** {@return the DATA received, in bytes, as counted (also beyond what was kept)} */
  long receivedBytes() {
    return received;
  }

  /**
   * Checks the request's headers and its one length-prefixed message, and decompresses it into
   * {@code message}[0].
   *
   * @return what is wrong, or null for a well-formed call
   */
  Invalid check(byte[][] message) {
    if (!"POST".equals(request.getMethod())) {
      return new Invalid(
          405,
          GrpcReply.INTERNAL,
          "http2Server.operateHeaders parsed a :method field: "
              + request.getMethod()
              + " which should be POST");
    }
    String type = header("content-type");
    String t = type == null ? "" : type.toLowerCase(Locale.ROOT);
    if (!(t.equals(GRPC) || t.startsWith(GRPC + "+") || t.startsWith(GRPC + ";"))) {
      return new Invalid(
          415,
          GrpcReply.INVALID_ARGUMENT,
          "invalid gRPC request content-type \"" + (type == null ? "" : type) + "\"");
    }
    String te = header("te");
    if (!"trailers".equals(te)) {
      return new Invalid(
          400, GrpcReply.INTERNAL, "Expected header TE: trailers, but " + te + " is received");
    }
    Invalid path = checkPath(request.getPath());
    if (path != null) {
      return path;
    }
    String timeout = header("grpc-timeout");
    if (timeout != null) {
      try {
        GrpcWire.timeoutNanos(timeout);
      } catch (IllegalArgumentException e) {
        return new Invalid(400, GrpcReply.INTERNAL, e.getMessage());
      }
    }
    String encoding = header("grpc-encoding");
    boolean identity = encoding == null || encoding.equals("identity");
    if (!identity && !encoding.equals("gzip") && !encoding.equals("zstd")) {
      return new Invalid(
          200,
          GrpcReply.UNIMPLEMENTED,
          "grpc: Decompressor is not installed for grpc-encoding \"" + encoding + "\"");
    }
    return checkMessage(identity ? null : encoding, message);
  }

  private static Invalid checkPath(String path) {
    String expected = "/" + SERVICE + "/" + METHOD;
    if (expected.equals(path)) {
      return null;
    }
    String p = path == null ? "" : path;
    int slash = p.lastIndexOf('/');
    String service = slash > 0 ? p.substring(1, slash) : p;
    String method = slash > 0 ? p.substring(slash + 1) : "";
    return new Invalid(
        200,
        GrpcReply.UNIMPLEMENTED,
        SERVICE.equals(service)
            ? "unknown method " + method + " for service " + service
            : "unknown service " + service);
  }

  private Invalid checkMessage(String encoding, byte[][] message) {
    if (n < GrpcWire.PREFIX) {
      return new Invalid(
          200,
          GrpcReply.INTERNAL,
          n == 0
              ? "grpc: no request message (an empty request stream)"
              : "grpc: truncated message prefix: " + n + " of 5 bytes");
    }
    int flag = buf[0] & 0xFF;
    long length = GrpcWire.declaredLength(buf, 0);
    if (flag > 1) {
      return new Invalid(
          200, GrpcReply.INTERNAL, "grpc: received unexpected payload format " + flag);
    }
    if (flag == 1 && encoding == null) {
      return new Invalid(
          200, GrpcReply.INTERNAL, "grpc: compressed flag set with identity or empty encoding");
    }
    if (length > maxMessage) {
      return new Invalid(
          200,
          GrpcReply.RESOURCE_EXHAUSTED,
          "grpc: received message larger than max (" + length + " vs. " + maxMessage + ")");
    }
    if (received < GrpcWire.PREFIX + length) {
      return new Invalid(
          200,
          GrpcReply.INTERNAL,
          "grpc: truncated message: "
              + (received - GrpcWire.PREFIX)
              + " of "
              + length
              + " bytes received");
    }
    if (received > GrpcWire.PREFIX + length) {
      return new Invalid(
          200,
          GrpcReply.INTERNAL,
          "grpc: client streaming protocol violation: "
              + (received - GrpcWire.PREFIX - length)
              + " bytes after the one message of a unary call");
    }
    int len = (int) length;
    if (flag == 0) {
      message[0] = Arrays.copyOfRange(buf, GrpcWire.PREFIX, GrpcWire.PREFIX + len);
      return null;
    }
    try {
      message[0] = GrpcWire.decompress(encoding, buf, GrpcWire.PREFIX, len, maxMessage);
      return null;
    } catch (GrpcWire.TooLarge e) {
      return new Invalid(
          200,
          GrpcReply.RESOURCE_EXHAUSTED,
          "grpc: received message after decompression larger than max ("
              + e.size
              + " vs. "
              + maxMessage
              + ")");
    } catch (IOException e) {
      return new Invalid(
          200,
          GrpcReply.INTERNAL,
          "grpc: failed to decompress the received message: " + e.getMessage());
    }
  }

  /** {@return the compressed (as received) length of the one message, without its prefix} */
  int wireMessageLength() {
    return Math.max(0, n - GrpcWire.PREFIX);
  }

  /**
   * Sends a trailers-only answer (one HEADERS frame with END_STREAM).
   *
   * @param details the {@code grpc-status-details-bin} value, or null
   */
  void sendTrailersOnly(int httpStatus, int code, String message, String details)
      throws HttpException, IOException {
    BasicHttpResponse response = new BasicHttpResponse(httpStatus);
    response.addHeader("content-type", GRPC);
    for (Header h : status(code, message, details)) {
      response.addHeader(h);
    }
    responseChannel.sendResponse(response, null, context);
  }

  /**
   * Sends response headers, then {@code message} (framed) if not null, then the status in trailers.
   */
  void sendWithTrailers(byte[] message, int code, String statusMessage, String details)
      throws HttpException, IOException {
    synchronized (this) {
      data = message == null ? null : GrpcWire.frame(message);
      trailers = status(code, statusMessage, details);
    }
    sendHeaders();
  }

  /**
   * Sends response headers, then RST_STREAM(CANCEL): no message, no trailers. httpcore5-h2 hands
   * its stream channel to {@link #produce} as the response is committed; its {@code cancel()}
   * commits RST_STREAM with error code CANCEL (8) after the HEADERS frame.
   */
  void reset() throws HttpException, IOException {
    sendHeaders();
    Cancellable c = streamChannel;
    if (c != null) {
      c.cancel();
    } else if (connection != null) {
      connection.http.close(org.apache.hc.core5.io.CloseMode.IMMEDIATE); // no stream to reset
    }
  }

  private void sendHeaders() throws HttpException, IOException {
    BasicHttpResponse response = new BasicHttpResponse(200);
    response.addHeader("content-type", GRPC);
    responseChannel.sendResponse(response, new BasicEntityDetails(-1, null), context);
  }

  private static List<Header> status(int code, String message, String details) {
    List<Header> out = new ArrayList<>(3);
    out.add(new BasicHeader("grpc-status", Integer.toString(code)));
    if (!message.isEmpty()) {
      out.add(new BasicHeader("grpc-message", GrpcWire.percentEncode(message)));
    }
    if (details != null) {
      out.add(new BasicHeader("grpc-status-details-bin", details));
    }
    return out;
  }

  @Override
  public synchronized int available() {
    int left = data == null ? 0 : data.length - dataPos;
    return left > 0 ? left : trailers != null ? 1 : 0;
  }

  @Override
  public synchronized void produce(DataStreamChannel channel) throws IOException {
    if (channel instanceof Cancellable) {
      streamChannel = (Cancellable) channel;
    }
    while (data != null && dataPos < data.length) {
      int w = channel.write(ByteBuffer.wrap(data, dataPos, data.length - dataPos));
      if (w <= 0) {
        return; // flow control: called again when the window opens
      }
      dataPos += w;
    }
    if (trailers != null) {
      List<Header> t = trailers;
      trailers = null;
      channel.endStream(t);
    }
  }

  @Override
  public void failed(Exception cause) {
    // reset by the client, or the connection closed: nothing to answer
  }

  @Override
  public void releaseResources() {
    if (released.compareAndSet(false, true)) {
      receiver.streamReleased(this);
    }
  }
}
