package io.logproducer.gse.internal;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One connection to the agent: a non-blocking {@link SocketChannel} with a write selector (used by
 * the one thread holding the transport's write lock) and a read selector (used only by the
 * transport's I/O thread). Non-blocking I/O is what gives writes a timeout, which blocking Java
 * sockets do not have.
 *
 * <p>{@link #close()} may be called from any thread, at any time, and more than once: it wakes a
 * thread blocked in either selector, whose operation then fails.
 */
final class GseConnection implements Closeable {

  /** Thrown when a write made no progress for the stall timeout. */
  static final class WriteStalledException extends SocketTimeoutException {
    private static final long serialVersionUID = 1L;

    WriteStalledException(String message) {
      super(message);
    }
  }

  private final SocketChannel channel;
  private final Selector writeSelector;
  private final Selector readSelector;
  private final AtomicBoolean closed = new AtomicBoolean();

  /** Bytes of the frame being written that reached the socket; only the writing thread uses it. */
  private long lastWriteProgress;

  private GseConnection(SocketChannel channel, Selector writeSelector, Selector readSelector) {
    this.channel = channel;
    this.writeSelector = writeSelector;
    this.readSelector = readSelector;
  }

  /**
   * Connects, waiting up to {@code connectTimeoutMillis}.
   *
   * @param sendBufferBytes SO_SNDBUF, 0 for the system default
   */
  static GseConnection open(Endpoint endpoint, long connectTimeoutMillis, int sendBufferBytes)
      throws IOException {
    SocketChannel ch = endpoint.openChannel();
    Selector ws = null;
    Selector rs = null;
    boolean ok = false;
    try {
      ch.configureBlocking(false);
      endpoint.configure(ch, sendBufferBytes);
      ws = ch.provider().openSelector();
      rs = ch.provider().openSelector();
      if (ch.connect(endpoint.address())) {
        ch.register(ws, SelectionKey.OP_WRITE);
      } else {
        SelectionKey key = ch.register(ws, SelectionKey.OP_CONNECT);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(connectTimeoutMillis);
        while (!ch.finishConnect()) {
          long remaining = deadline - System.nanoTime();
          if (remaining <= 0) {
            throw new SocketTimeoutException(
                "connect timed out after " + connectTimeoutMillis + " ms");
          }
          if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedIOException("interrupted while connecting");
          }
          ws.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining)));
          ws.selectedKeys().clear();
        }
        key.interestOps(SelectionKey.OP_WRITE);
      }
      ch.register(rs, SelectionKey.OP_READ);
      ok = true;
      return new GseConnection(ch, ws, rs);
    } finally {
      if (!ok) {
        closeQuietly(ch);
        closeQuietly(ws);
        closeQuietly(rs);
      }
    }
  }

  /**
   * Writes {@code frame} completely through {@code buffer} (a direct buffer owned by the caller's
   * lock). Fails if no byte could be written for {@code stallTimeoutNanos}.
   *
   * @return the frame's length
   * @throws IOException on any failure; {@link #bytesWrittenOfLastFrame()} then tells how far it
   *     got
   */
  long write(Envelope.Frame frame, ByteBuffer buffer, long stallTimeoutNanos) throws IOException {
    long total = frame.length();
    long written = 0;
    lastWriteProgress = 0;
    int segment = 0;
    int segmentPos = 0;
    buffer.clear().flip();
    long lastProgressNanos = System.nanoTime();
    try {
      while (written < total) {
        if (!buffer.hasRemaining()) {
          buffer.clear();
          while (buffer.hasRemaining() && segment < frame.segments()) {
            int n = Math.min(buffer.remaining(), frame.length(segment) - segmentPos);
            buffer.put(frame.array(segment), segmentPos, n);
            segmentPos += n;
            if (segmentPos == frame.length(segment)) {
              segment++;
              segmentPos = 0;
            }
          }
          buffer.flip();
        }
        int n = channel.write(buffer);
        if (n > 0) {
          written += n;
          lastWriteProgress = written;
          lastProgressNanos = System.nanoTime();
          continue;
        }
        if (closed.get()) {
          throw new ClosedChannelException();
        }
        if (Thread.currentThread().isInterrupted()) {
          // select() returns at once for an interrupted thread: give up rather than spin until the
          // stall timeout
          throw new InterruptedIOException("interrupted while writing a frame");
        }
        long remaining = stallTimeoutNanos - (System.nanoTime() - lastProgressNanos);
        if (remaining <= 0) {
          throw new WriteStalledException(
              "write stalled for "
                  + TimeUnit.NANOSECONDS.toMillis(stallTimeoutNanos)
                  + " ms (writeTimeoutMillis)");
        }
        writeSelector.select(Math.max(1, (remaining + 999_999) / 1_000_000));
        writeSelector.selectedKeys().clear();
      }
      return total;
    } catch (ClosedSelectorException e) {
      throw new ClosedChannelException();
    }
  }

  /** Bytes of the last {@link #write} that reached the socket. */
  long bytesWrittenOfLastFrame() {
    return lastWriteProgress;
  }

  /**
   * Reads what is available into {@code buffer}, waiting up to {@code timeoutMillis} for something
   * to arrive. Only the I/O thread calls this.
   *
   * @return bytes read, 0 if nothing arrived, -1 at end of stream
   */
  int read(ByteBuffer buffer, long timeoutMillis) throws IOException {
    try {
      int n = channel.read(buffer);
      if (n != 0) {
        return n;
      }
      readSelector.select(Math.max(1, timeoutMillis));
      readSelector.selectedKeys().clear();
      if (closed.get()) {
        throw new ClosedChannelException();
      }
      return channel.read(buffer);
    } catch (ClosedSelectorException e) {
      throw new ClosedChannelException();
    }
  }

  boolean isClosed() {
    return closed.get();
  }

  /** Closes the channel and both selectors. @return true for the call that closed it */
  boolean closeNow() {
    if (!closed.compareAndSet(false, true)) {
      return false;
    }
    writeSelector.wakeup();
    readSelector.wakeup();
    closeQuietly(channel);
    closeQuietly(writeSelector);
    closeQuietly(readSelector);
    return true;
  }

  @Override
  public void close() {
    closeNow();
  }

  private static void closeQuietly(Closeable c) {
    if (c != null) {
      try {
        c.close();
      } catch (IOException | RuntimeException ignored) {
        // closing anyway
      }
    }
  }
}
