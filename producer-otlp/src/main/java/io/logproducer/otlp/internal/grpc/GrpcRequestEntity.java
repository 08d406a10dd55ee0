package io.logproducer.otlp.internal.grpc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Set;
import org.apache.hc.core5.http.nio.AsyncEntityProducer;
import org.apache.hc.core5.http.nio.DataStreamChannel;

/**
 * One gRPC message as a request body: the 5-byte length prefix ({@code grpc/grpc}, {@code
 * doc/PROTOCOL-HTTP2.md}, "Length-Prefixed-Message": a compressed flag byte, then the message
 * length as a 4-byte big-endian unsigned integer) followed by the caller's bytes, written straight
 * from the caller's array (no copy of the body). Repeatable. Used by one exchange, on the I/O
 * thread.
 */
final class GrpcRequestEntity implements AsyncEntityProducer {

  /** Bytes of the message prefix: {@value}. */
  static final int PREFIX_BYTES = 5;

  private final byte[] prefix;
  private final byte[] body;
  private final int length;
  private ByteBuffer prefixBuffer;
  private ByteBuffer bodyBuffer;

  /**
   * @param body the message, {@code [0, length)}
   * @param compressed whether it is compressed with the request's {@code grpc-encoding}
   */
  GrpcRequestEntity(byte[] body, int length, boolean compressed) {
    this.body = body;
    this.length = length;
    this.prefix =
        new byte[] {
          (byte) (compressed ? 1 : 0),
          (byte) (length >>> 24),
          (byte) (length >>> 16),
          (byte) (length >>> 8),
          (byte) length
        };
    releaseResources();
  }

  @Override
  public boolean isRepeatable() {
    return true;
  }

  @Override
  public void failed(Exception cause) {
    // the exchange reports it
  }

  @Override
  public long getContentLength() {
    return PREFIX_BYTES + (long) length;
  }

  @Override
  public String getContentType() {
    return "application/grpc";
  }

  @Override
  public String getContentEncoding() {
    return null; // grpc-encoding, not content-encoding: the message is compressed, not the stream
  }

  @Override
  public boolean isChunked() {
    return false;
  }

  @Override
  public Set<String> getTrailerNames() {
    return Collections.emptySet();
  }

  @Override
  public int available() {
    return prefixBuffer.remaining() + bodyBuffer.remaining();
  }

  @Override
  public void produce(DataStreamChannel channel) throws IOException {
    if (prefixBuffer.hasRemaining()) {
      channel.write(prefixBuffer);
      if (prefixBuffer.hasRemaining()) {
        return; // no window: produce is called again
      }
    }
    while (bodyBuffer.hasRemaining()) {
      if (channel.write(bodyBuffer) == 0) {
        return;
      }
    }
    channel.endStream();
  }

  @Override
  public void releaseResources() {
    prefixBuffer = ByteBuffer.wrap(prefix);
    bodyBuffer = ByteBuffer.wrap(body, 0, length);
  }
}
