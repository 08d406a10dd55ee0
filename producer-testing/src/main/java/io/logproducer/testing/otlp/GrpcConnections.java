package io.logproducer.testing.otlp;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpConnection;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http2.frame.FrameType;
import org.apache.hc.core5.http2.frame.RawFrame;
import org.apache.hc.core5.http2.impl.nio.H2StreamListener;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOSession;
import org.apache.hc.core5.reactor.IOSessionListener;

/**
 * The HTTP/2 connections of an {@link OtlpGrpcReceiver}: counts them, tells each stream its
 * connection and id, tracks the streams in progress on each (the peak proves multiplexing) and
 * sends GOAWAY. Thread-safe.
 */
final class GrpcConnections {

  /** How long after the GOAWAY frame was written the connection is closed. */
  static final long GOAWAY_CLOSE_MILLIS = 100;

  private final Executor executor;
  private final Map<HttpConnection, GrpcStream.Connection> connections =
      Collections.synchronizedMap(new WeakHashMap<>());
  private final ThreadLocal<Object[]> headerInput = new ThreadLocal<>();
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicInteger peakStreams = new AtomicInteger();

  GrpcConnections(Executor executor) {
    this.executor = executor;
  }

  long accepted() {
    return accepted.get();
  }

  int peakStreams() {
    return peakStreams.get();
  }

  H2StreamListener frames() {
    return new Frames();
  }

  IOSessionListener sessions() {
    return new Sessions();
  }

  /**
   * Called from the stream's {@code handleRequest}, on the I/O thread that has just passed the
   * request's HEADERS to {@link Frames#onHeaderInput} (httpcore5-h2 does both in one call).
   */
  void streamStarted(GrpcStream stream) {
    Object[] input = headerInput.get();
    if (input != null) {
      headerInput.remove();
      stream.connection = (GrpcStream.Connection) input[0];
      stream.streamId = (Integer) input[1];
      int now = stream.connection.active.incrementAndGet();
      peakStreams.accumulateAndGet(now, Math::max);
    }
  }

  void streamReleased(GrpcStream stream) {
    if (stream.connection != null) {
      stream.connection.active.decrementAndGet();
    }
  }

  /**
   * GOAWAY below {@code stream}: lowers httpcore5-h2's {@code processedRemoteStreamId} (private, by
   * reflection) to the stream's id − 2, then asks for a graceful shutdown, whose GOAWAY carries it;
   * {@link Frames#onFrameOutput} closes the connection once the GOAWAY is written.
   */
  void goAway(GrpcStream stream) throws IOException, HttpException {
    GrpcStream.Connection c = stream.connection;
    if (c == null) {
      stream.reset(); // httpcore5-h2 did not name the connection: cut the stream at least
      return;
    }
    c.goingAway = true;
    setProcessedRemoteStreamId(c.http, Math.max(0, stream.streamId - 2));
    c.http.close(); // httpcore5-h2: enqueues a graceful shutdown, which sends GOAWAY
  }

  private static boolean setProcessedRemoteStreamId(HttpConnection multiplexer, int id) {
    for (Class<?> k = multiplexer.getClass(); k != null; k = k.getSuperclass()) {
      try {
        Field f = k.getDeclaredField("processedRemoteStreamId");
        f.setAccessible(true);
        f.setInt(multiplexer, id);
        return true;
      } catch (NoSuchFieldException e) {
        // look in the superclass
      } catch (ReflectiveOperationException | RuntimeException e) {
        return false;
      }
    }
    return false;
  }

  /** Tells streams their connection and id; closes a connection going away once GOAWAY is out. */
  private final class Frames implements H2StreamListener {
    @Override
    public void onHeaderInput(
        HttpConnection connection, int streamId, List<? extends Header> headers) {
      GrpcStream.Connection c = connections.computeIfAbsent(connection, GrpcStream.Connection::new);
      headerInput.set(new Object[] {c, streamId});
    }

    @Override
    public void onFrameOutput(HttpConnection connection, int streamId, RawFrame frame) {
      if (frame.getType() != FrameType.GOAWAY.getValue()) {
        return;
      }
      GrpcStream.Connection c = connections.get(connection);
      if (c != null && c.goingAway) {
        try {
          executor.execute(
              () -> {
                try {
                  Thread.sleep(GOAWAY_CLOSE_MILLIS); // the GOAWAY is flushed meanwhile
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
                connection.close(CloseMode.IMMEDIATE);
              });
        } catch (RuntimeException e) {
          connection.close(CloseMode.IMMEDIATE); // the receiver is closing: no thread left
        }
      }
    }

    @Override
    public void onHeaderOutput(
        HttpConnection connection, int streamId, List<? extends Header> headers) {}

    @Override
    public void onFrameInput(HttpConnection connection, int streamId, RawFrame frame) {}

    @Override
    public void onInputFlowControl(
        HttpConnection connection, int streamId, int delta, int actualSize) {}

    @Override
    public void onOutputFlowControl(
        HttpConnection connection, int streamId, int delta, int actualSize) {}
  }

  /** Counts TCP connections. */
  private final class Sessions implements IOSessionListener {
    @Override
    public void connected(IOSession session) {
      accepted.incrementAndGet();
    }

    @Override
    public void startTls(IOSession session) {}

    @Override
    public void inputReady(IOSession session) {}

    @Override
    public void outputReady(IOSession session) {}

    @Override
    public void timeout(IOSession session) {}

    @Override
    public void exception(IOSession session, Exception ex) {}

    @Override
    public void disconnected(IOSession session) {}
  }
}
