package io.logproducer.testing.otlp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpConnection;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.nio.entity.BasicAsyncEntityProducer;
import org.apache.hc.core5.http.nio.support.AsyncRequestBuilder;
import org.apache.hc.core5.http.protocol.HttpContext;
import org.apache.hc.core5.http.protocol.HttpProcessorBuilder;
import org.apache.hc.core5.http2.frame.FrameType;
import org.apache.hc.core5.http2.frame.RawFrame;
import org.apache.hc.core5.http2.impl.nio.H2StreamListener;
import org.apache.hc.core5.http2.impl.nio.bootstrap.H2MultiplexingRequester;
import org.apache.hc.core5.http2.impl.nio.bootstrap.H2MultiplexingRequesterBootstrap;
import org.apache.hc.core5.http2.protocol.H2RequestConnControl;
import org.apache.hc.core5.http2.protocol.H2RequestContent;
import org.apache.hc.core5.http2.protocol.H2RequestTargetHost;
import org.apache.hc.core5.http2.ssl.H2ClientTlsStrategy;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.util.Timeout;

/**
 * A real HTTP/2 client for the receiver's tests: httpcore5-h2's multiplexing requester (one
 * connection per host, streams multiplexed on it; h2c with prior knowledge, or TLS with ALPN h2),
 * which hands over response headers, DATA and trailers separately, and records every HTTP/2 frame
 * received (type, stream, payload) so that a test can see GOAWAY and RST_STREAM exactly.
 */
final class GrpcTestClient implements AutoCloseable {

  /** One call's outcome as seen on the wire. */
  static final class Call {
    int httpStatus;
    final Map<String, String> headers = new LinkedHashMap<>();
    boolean trailersOnly; // the response HEADERS frame carried END_STREAM
    final ByteArrayOutputStream data = new ByteArrayOutputStream();
    final Map<String, String> trailers = new LinkedHashMap<>();

    /** {@return grpc-status from the trailers, or from the headers of a trailers-only answer} */
    String status() {
      return trailersOnly ? headers.get("grpc-status") : trailers.get("grpc-status");
    }

    String statusMessage() {
      return trailersOnly ? headers.get("grpc-message") : trailers.get("grpc-message");
    }
  }

  /** A frame received: its type, stream id and payload. */
  static final class Frame {
    final int type;
    final int streamId;
    final byte[] payload;

    Frame(int type, int streamId, byte[] payload) {
      this.type = type;
      this.streamId = streamId;
      this.payload = payload;
    }

    @Override
    public String toString() {
      return "Frame{type " + type + ", stream " + streamId + ", " + payload.length + " bytes}";
    }

    int int32(int offset) {
      return ((payload[offset] & 0xFF) << 24)
          | ((payload[offset + 1] & 0xFF) << 16)
          | ((payload[offset + 2] & 0xFF) << 8)
          | (payload[offset + 3] & 0xFF);
    }
  }

  final List<Frame> framesIn = new CopyOnWriteArrayList<>();
  final List<Integer> streamsOut = new CopyOnWriteArrayList<>();
  private final H2MultiplexingRequester requester;

  GrpcTestClient(SSLContext tls) {
    H2MultiplexingRequesterBootstrap b =
        H2MultiplexingRequesterBootstrap.bootstrap()
            .setStreamListener(new Frames())
            // httpcore5-h2's default adds "Expect: 100-continue", which no gRPC client sends
            .setHttpProcessor(
                HttpProcessorBuilder.create()
                    .addAll(
                        new H2RequestContent(),
                        new H2RequestTargetHost(),
                        new H2RequestConnControl())
                    .build());
    if (tls != null) {
      b.setTlsStrategy(new H2ClientTlsStrategy(tls));
    }
    requester = b.create();
    requester.start();
  }

  /** {@return the frames of {@code type} received} */
  List<Frame> frames(FrameType type) {
    List<Frame> out = new ArrayList<>();
    for (Frame f : framesIn) {
      if (f.type == type.getValue()) {
        out.add(f);
      }
    }
    return out;
  }

  /** A well-formed call of Export with {@code message} (uncompressed) and extra headers. */
  CompletableFuture<Call> export(String endpoint, byte[] message, String... headers) {
    return call(
        endpoint,
        OtlpGrpcReceiver.EXPORT_PATH,
        "POST",
        "application/grpc",
        GrpcWire.frame(message),
        with(headers, "te", "trailers"));
  }

  static String[] with(String[] headers, String... more) {
    String[] out = new String[headers.length + more.length];
    System.arraycopy(headers, 0, out, 0, headers.length);
    System.arraycopy(more, 0, out, headers.length, more.length);
    return out;
  }

  /** Any call: {@code headers} are name, value pairs; a null content type sends none. */
  CompletableFuture<Call> call(
      String endpoint,
      String path,
      String method,
      String contentType,
      byte[] body,
      String... headers) {
    AsyncRequestBuilder request =
        AsyncRequestBuilder.create(method).setUri(URI.create(endpoint + path));
    for (int i = 0; i < headers.length; i += 2) {
      request.addHeader(headers[i], headers[i + 1]);
    }
    request.setEntity(
        new BasicAsyncEntityProducer(
            body, contentType == null ? null : ContentType.create(contentType)));
    CompletableFuture<Call> result = new CompletableFuture<>();
    requester.execute(
        request.build(),
        new Consumer(),
        Timeout.ofSeconds(30),
        null,
        new FutureCallback<Call>() {
          @Override
          public void completed(Call call) {
            result.complete(call);
          }

          @Override
          public void failed(Exception ex) {
            result.completeExceptionally(ex);
          }

          @Override
          public void cancelled() {
            result.cancel(false);
          }
        });
    return result;
  }

  @Override
  public void close() {
    requester.close(CloseMode.IMMEDIATE);
    try {
      requester.awaitShutdown(org.apache.hc.core5.util.TimeValue.ofSeconds(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void put(Map<String, String> into, Iterable<? extends Header> headers) {
    for (Header h : headers) {
      into.put(h.getName().toLowerCase(Locale.ROOT), h.getValue());
    }
  }

  /** Collects one response. */
  private static final class Consumer implements AsyncResponseConsumer<Call> {
    private final Call call = new Call();
    private FutureCallback<Call> done;

    @Override
    public void consumeResponse(
        HttpResponse response,
        EntityDetails entityDetails,
        HttpContext context,
        FutureCallback<Call> resultCallback) {
      call.httpStatus = response.getCode();
      List<Header> hs = new ArrayList<>();
      Collections.addAll(hs, response.getHeaders());
      put(call.headers, hs);
      if (entityDetails == null) {
        call.trailersOnly = true;
        resultCallback.completed(call);
      } else {
        done = resultCallback;
      }
    }

    @Override
    public void informationResponse(HttpResponse response, HttpContext context) {}

    @Override
    public void updateCapacity(CapacityChannel capacityChannel) throws IOException {
      capacityChannel.update(Integer.MAX_VALUE);
    }

    @Override
    public void consume(ByteBuffer src) {
      byte[] b = new byte[src.remaining()];
      src.get(b);
      call.data.write(b, 0, b.length);
    }

    @Override
    public void streamEnd(List<? extends Header> trailers) {
      if (trailers != null) {
        put(call.trailers, trailers);
      }
      done.completed(call);
    }

    @Override
    public void failed(Exception cause) {
      if (done != null) {
        done.failed(cause);
      }
    }

    @Override
    public void releaseResources() {}
  }

  private final class Frames implements H2StreamListener {
    @Override
    public void onFrameInput(HttpConnection connection, int streamId, RawFrame frame) {
      ByteBuffer p = frame.getPayload();
      byte[] payload = new byte[p == null ? 0 : p.remaining()];
      if (p != null) {
        p.duplicate().get(payload);
      }
      framesIn.add(new Frame(frame.getType(), streamId, payload));
    }

    @Override
    public void onHeaderOutput(
        HttpConnection connection, int streamId, List<? extends Header> headers) {
      streamsOut.add(streamId);
    }

    @Override
    public void onHeaderInput(
        HttpConnection connection, int streamId, List<? extends Header> headers) {}

    @Override
    public void onFrameOutput(HttpConnection connection, int streamId, RawFrame frame) {}

    @Override
    public void onInputFlowControl(
        HttpConnection connection, int streamId, int delta, int actualSize) {}

    @Override
    public void onOutputFlowControl(
        HttpConnection connection, int streamId, int delta, int actualSize) {}
  }

  static long await(CompletableFuture<?> f) throws Exception {
    f.get(30, TimeUnit.SECONDS);
    return 0;
  }
}
