package io.logproducer.gse.internal;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Cuts the agent's reply stream into replies: an 8-byte header ({@code u32 type}, {@code u32
 * bodylen}, big-endian), then exactly {@code bodylen} bytes, however the bytes arrive (a reply
 * split across reads, several in one). Holds the bytes of a partial reply between reads, growing
 * for a long one up to {@value #MAX_REPLY_BODY_BYTES} bytes.
 *
 * <p>Not thread-safe: used by the transport's I/O thread alone.
 */
final class ReplyReader {

  /** Replies larger than this are a protocol error (agent info is well under 1 KiB), in bytes. */
  static final int MAX_REPLY_BODY_BYTES = 1024 * 1024;

  private static final int INITIAL_BYTES = 4096;

  /** Told of each complete reply. */
  interface Handler {
    /**
     * @param type the reply's type
     * @param body the array holding its body, valid in {@code [off, off + len)} during the call
     *     only
     */
    void onReply(int type, byte[] body, int off, int len);
  }

  /** Write mode between calls: holds the start of a reply not yet complete. */
  private ByteBuffer in = ByteBuffer.allocate(INITIAL_BYTES);

  /** Forgets any partial reply (a new connection starts a new stream). */
  void reset() {
    in.clear();
  }

  /**
   * Reads what {@code c} has within {@code timeoutMillis} and hands every complete reply to {@code
   * handler}.
   *
   * @return the bytes read, or -1 at the end of the stream
   * @throws ProtocolException if a reply's length is negative or above {@value
   *     #MAX_REPLY_BODY_BYTES} (what was read is discarded; the connection must be dropped)
   * @throws IOException if reading fails
   */
  int read(GseConnection c, long timeoutMillis, Handler handler) throws IOException {
    int n = c.read(in, timeoutMillis);
    if (n > 0) {
      consume(handler);
    }
    return n;
  }

  /**
   * Consumes the complete replies at the start of {@link #in}; keeps (and makes room for) the
   * partial one.
   */
  private void consume(Handler handler) throws ProtocolException {
    in.flip();
    while (in.remaining() >= GseProtocol.REPLY_HEADER_BYTES) {
      int p = in.position();
      int type = in.getInt(p);
      int bodyLen = in.getInt(p + 4);
      if (bodyLen < 0 || bodyLen > MAX_REPLY_BODY_BYTES) {
        in.clear();
        throw new ProtocolException(
            "the agent sent a reply of type 0x"
                + Integer.toHexString(type)
                + " with an invalid length "
                + (bodyLen & 0xFFFFFFFFL));
      }
      int need = GseProtocol.REPLY_HEADER_BYTES + bodyLen;
      if (in.remaining() < need) {
        if (in.capacity() < need) {
          ByteBuffer bigger = ByteBuffer.allocate(need);
          bigger.put(in);
          in = bigger; // write mode, holding the partial reply
          return;
        }
        break;
      }
      handler.onReply(
          type, in.array(), in.arrayOffset() + p + GseProtocol.REPLY_HEADER_BYTES, bodyLen);
      in.position(p + need);
    }
    in.compact();
  }

  /** The agent's replies do not follow the protocol. */
  static final class ProtocolException extends IOException {
    private static final long serialVersionUID = 1L;

    ProtocolException(String message) {
      super(message);
    }
  }
}
