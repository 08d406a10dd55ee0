package io.logproducer.otlp.internal.grpc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http.EntityDetails;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpResponse;
import org.apache.hc.core5.http.nio.AsyncResponseConsumer;
import org.apache.hc.core5.http.nio.CapacityChannel;
import org.apache.hc.core5.http.protocol.HttpContext;

/**
 * Reads one gRPC response into a {@link GrpcResponse}: the headers, up to {@value
 * GrpcResponse#MAX_BODY_BYTES} body bytes (the rest is read and dropped), and the trailers, where
 * {@code grpc-status} normally is. A response without a body (HEADERS with END_STREAM) is a
 * trailers-only response: its headers hold the status. Runs on the client's I/O thread; one per
 * exchange.
 */
final class GrpcResponseConsumer implements AsyncResponseConsumer<GrpcResponse> {

  private int status;
  private Map<String, String> headers = Collections.emptyMap();
  private FutureCallback<GrpcResponse> callback;
  private byte[] body = new byte[64];
  private int length;
  private boolean truncated;

  @Override
  public void consumeResponse(
      HttpResponse response,
      EntityDetails entityDetails,
      HttpContext context,
      FutureCallback<GrpcResponse> resultCallback) {
    status = response.getCode();
    headers = GrpcResponse.fields();
    for (Header h : response.getHeaders()) {
      headers.put(GrpcResponse.lower(h.getName()), h.getValue());
    }
    if (entityDetails == null) { // trailers-only (or a bodiless HTTP error)
      resultCallback.completed(
          new GrpcResponse(
              status, headers, Collections.<String, String>emptyMap(), new byte[0], 0, false));
    } else {
      callback = resultCallback;
    }
  }

  @Override
  public void informationResponse(HttpResponse response, HttpContext context) {
    // 1xx: nothing to do
  }

  @Override
  public void updateCapacity(CapacityChannel capacityChannel) throws IOException {
    capacityChannel.update(Integer.MAX_VALUE);
  }

  @Override
  public void consume(ByteBuffer src) {
    int n = src.remaining();
    int room = GrpcResponse.MAX_BODY_BYTES - length;
    if (n > room) {
      truncated = true;
      n = room;
    }
    if (length + n > body.length) {
      body = Arrays.copyOf(body, Math.min(GrpcResponse.MAX_BODY_BYTES, (length + n) * 2));
    }
    src.get(body, length, n);
    length += n;
    src.position(src.limit()); // drop the rest
  }

  @Override
  public void streamEnd(List<? extends Header> trailerList) {
    Map<String, String> trailers = GrpcResponse.fields();
    if (trailerList != null) {
      for (Header h : trailerList) {
        trailers.put(GrpcResponse.lower(h.getName()), h.getValue());
      }
    }
    FutureCallback<GrpcResponse> c = callback;
    callback = null;
    if (c != null) {
      c.completed(new GrpcResponse(status, headers, trailers, body, length, truncated));
    }
  }

  @Override
  public void failed(Exception cause) {
    callback = null; // the client fails the exchange's future itself
  }

  @Override
  public void releaseResources() {
    // nothing held
  }
}
