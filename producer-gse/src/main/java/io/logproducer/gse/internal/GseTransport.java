package io.logproducer.gse.internal;

import io.logproducer.internal.InternalLogger;
import io.logproducer.internal.RateLimitedLog;
import io.logproducer.spi.ExportResult;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedSelectorException;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one persistent connection to the GSE agent, and the rules around it.
 *
 * <ul>
 *   <li><b>Frames never interleave.</b> Every write (data frame or agent-info request) happens
 *       under {@link #writeLock}, and writes the whole frame or fails.
 *   <li><b>A failed or stalled write closes the connection</b> before the lock is released, so the
 *       rest of a partial frame can never be followed by another frame on the same stream; the
 *       caller gets {@link ExportResult#retryable} and the producer re-sends the whole frame, on a
 *       new connection.
 *   <li><b>Connecting</b> happens on demand, under the lock, with exponential backoff between
 *       failed attempts (from the producer's {@code initialRetryBackoffMillis} to {@code
 *       maxRetryBackoffMillis}, ±20 % jitter); a frame that meets a backoff fails at once with the
 *       remaining delay as {@code retryAfterMillis}. The first attempt is made at start, so the
 *       agent's info is there before the first frame.
 *   <li><b>Agent info</b>: each new connection first sends the 0x0A request; the I/O thread reads
 *       the replies (8-byte header, then exactly {@code bodylen} bytes of JSON) and re-sends the
 *       request every {@code agentInfoIntervalMillis} (libgse: 31 s), which also probes an idle
 *       connection. The first data frame waits up to {@code agentInfoTimeoutMillis} for the first
 *       reply.
 * </ul>
 *
 * <p>The parts: {@link ReconnectBackoff} (when to try again), {@link AgentInfoExchange} (request,
 * reply, first wait), {@link ReplyReader} (the reply stream's framing), {@link GseConnection} (one
 * socket and its timed writes), {@link TransportCounters}. This class holds the lock, the
 * connection and the I/O thread that ties them together.
 *
 * <p>Threads: {@link #send} from the producer's send threads; one daemon I/O thread reads replies.
 * Thread-safe.
 */
public final class GseTransport implements Closeable {

  private static final InternalLogger log = InternalLogger.get(GseTransport.class);

  /** The direct buffer frames are copied through on their way to the socket, in bytes. */
  static final int WRITE_BUFFER_BYTES = 256 * 1024;

  /** The least time between two logged lost connections, in ms (the others are logged at DEBUG). */
  private static final long DROP_LOG_INTERVAL_MILLIS = 10_000;

  /**
   * While an agent-info request is due but the write lock is busy, the I/O thread retries this
   * often, in ms.
   */
  private static final long INFO_RETRY_MILLIS = 20;

  /**
   * Builds a frame once the connection is up and the agent's info is known; called under the write
   * lock.
   */
  public interface FrameRenderer {
    /**
     * @param agent the agent's last reply, or {@link AgentInfo#NONE}
     * @throws Envelope.FrameTooLargeException if the frame would exceed its maximum
     */
    Envelope.Frame render(AgentInfo agent) throws Envelope.FrameTooLargeException;
  }

  /** Told of every agent-info reply, on the I/O thread. */
  public interface AgentInfoListener {
    /**
     * @param info the reply, parsed
     */
    void onAgentInfo(AgentInfo info);
  }

  private final Endpoint endpoint;
  private final TransportSettings settings;
  private final String threadName;
  private final Runnable onIoStart;
  private final long writeTimeoutNanos;
  private final TransportCounters counters = new TransportCounters();
  private final AgentInfoExchange agentInfo;
  private final RateLimitedLog dropLog = new RateLimitedLog(log, DROP_LOG_INTERVAL_MILLIS);

  /**
   * Serialises every write to the connection and every change of {@link #current} to a new
   * connection.
   */
  private final ReentrantLock writeLock = new ReentrantLock();

  /**
   * The live connection or null. Replaced under {@link #writeLock}; any thread may CAS it to null
   * when closing it.
   */
  private final AtomicReference<GseConnection> current = new AtomicReference<>();

  /** Guarded by writeLock. */
  private final ReconnectBackoff backoff;

  /** Guarded by writeLock. */
  private ByteBuffer writeBuffer;

  /** Guarded by writeLock: whether a data frame already waited for the first agent-info reply. */
  private boolean agentInfoWaitDone;

  /** The I/O thread waits here for a connection. */
  private final Object monitor = new Object();

  private volatile boolean closed;
  private volatile Thread ioThread;

  /**
   * @param threadName name of the I/O thread
   * @param onIoStart run first on the I/O thread (e.g. a slow host-name lookup), may be null
   * @param listener told of agent-info replies, may be null
   */
  public GseTransport(
      Endpoint endpoint,
      TransportSettings settings,
      String threadName,
      Runnable onIoStart,
      AgentInfoListener listener) {
    this.endpoint = endpoint;
    this.settings = settings;
    this.threadName = threadName;
    this.onIoStart = onIoStart;
    this.writeTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(settings.writeTimeoutMillis);
    this.backoff =
        new ReconnectBackoff(
            settings.initialBackoffMillis, settings.maxBackoffMillis, endpoint.describe());
    this.agentInfo =
        new AgentInfoExchange(
            settings.agentInfoIntervalMillis,
            settings.agentInfoTimeoutMillis,
            endpoint.describe(),
            listener,
            counters);
  }

  /**
   * Starts the I/O thread, which makes the first connection attempt. Idempotent; a no-op once
   * closed.
   */
  public synchronized void start() {
    if (ioThread != null || closed) {
      return;
    }
    Thread t = new Thread(this::ioLoop, threadName);
    t.setDaemon(true);
    t.setContextClassLoader(GseTransport.class.getClassLoader()); // not the application's
    ioThread = t;
    t.start();
  }

  /** {@return the agent's last reply, or {@link AgentInfo#NONE} before the first} */
  public AgentInfo agentInfo() {
    return agentInfo.current();
  }

  /**
   * Writes one frame: connects if needed, renders the frame under the lock, writes it whole.
   *
   * @return success when every byte of the frame was written; retryable on any connection or write
   *     failure (the connection is then closed); too-large when the renderer refused the frame.
   *     Never throws.
   */
  public ExportResult send(FrameRenderer renderer) {
    try {
      writeLock.lockInterruptibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ExportResult.retryable("interrupted while waiting to write to the GSE agent", e, -1);
    }
    try {
      if (closed) {
        return ExportResult.retryable("the GSE exporter is closed", null, -1);
      }
      GseConnection c = current.get();
      if (c == null || c.isClosed()) {
        c = connectLocked();
        if (c == null && closed) {
          return ExportResult.retryable("the GSE exporter is closed", null, -1);
        }
        if (c == null) {
          long wait = backoff.remainingMillis();
          return ExportResult.retryable(
              "not connected to the GSE agent at "
                  + endpoint.describe()
                  + ": "
                  + backoff.lastError()
                  + "; next connection attempt in "
                  + wait
                  + " ms",
              backoff.lastError(),
              wait);
        }
      }
      if (settings.waitForAgentInfo && !agentInfoWaitDone) {
        agentInfoWaitDone = true;
        GseConnection waitingOn = c;
        if (!agentInfo.awaitFirst(() -> closed || waitingOn.isClosed())) {
          return ExportResult.retryable(
              "interrupted while waiting for the GSE agent's info", null, -1);
        }
      }
      return writeFrameLocked(c, renderer);
    } catch (RuntimeException e) {
      return ExportResult.failed(
          "unexpected error writing to the GSE agent at " + endpoint.describe() + ": " + e, e);
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * Renders and writes one data frame on {@code c}; under the lock. A failed write closes the
   * connection.
   */
  private ExportResult writeFrameLocked(GseConnection c, FrameRenderer renderer) {
    Envelope.Frame frame;
    try {
      frame = renderer.render(agentInfo.current());
    } catch (Envelope.FrameTooLargeException e) {
      return ExportResult.tooLarge(e.getMessage());
    }
    counters.framesStarted.incrementAndGet();
    try {
      c.write(frame, writeBuffer(), writeTimeoutNanos);
    } catch (IOException e) {
      counters.writeFailures.incrementAndGet();
      long done = c.bytesWrittenOfLastFrame();
      drop(c, "writing a frame failed after " + done + " of " + frame.length() + " bytes: " + e);
      return ExportResult.retryable(
          String.format(
              Locale.ROOT,
              "writing a %,d-byte frame to the GSE agent at %s failed after %,d bytes (connection closed; the whole "
                  + "frame will be re-sent on a new connection): %s",
              frame.length(),
              endpoint.describe(),
              done,
              e),
          e,
          -1);
    }
    counters.framesWritten.incrementAndGet();
    if (agentInfo.isDue()) {
      writeInfoRequestLocked(c);
    }
    return ExportResult.success();
  }

  private ByteBuffer writeBuffer() {
    if (writeBuffer == null) {
      writeBuffer = ByteBuffer.allocateDirect(WRITE_BUFFER_BYTES);
    }
    return writeBuffer;
  }

  /**
   * Connects (under the lock) unless backing off; sends the agent-info request first. Null on
   * failure.
   */
  private GseConnection connectLocked() {
    if (!backoff.mayAttempt(System.nanoTime())) {
      return null;
    }
    GseConnection c;
    try {
      c = GseConnection.open(endpoint, settings.connectTimeoutMillis, settings.sendBufferBytes);
      try {
        c.write(AgentInfoExchange.REQUEST, writeBuffer(), writeTimeoutNanos);
      } catch (IOException e) {
        c.closeNow();
        throw e;
      }
    } catch (IOException | RuntimeException e) {
      counters.connectsFailed.incrementAndGet();
      backoff.onFailure(e);
      return null;
    }
    counters.infoRequests.incrementAndGet();
    agentInfo.requestSent();
    int failures = backoff.onSuccess();
    if (failures > 0 || counters.connectsOk.get() > 0) {
      log.info(
          "connected to the GSE agent at {} (after {} failed attempt(s))",
          endpoint.describe(),
          failures);
    } else {
      log.debug("connected to the GSE agent at {}", endpoint.describe());
    }
    counters.connectsOk.incrementAndGet();
    current.set(c);
    if (closed) { // close() ran meanwhile: do not leave this connection behind
      current.compareAndSet(c, null);
      c.closeNow();
      return null;
    }
    synchronized (monitor) {
      monitor.notifyAll();
    }
    return c;
  }

  /**
   * Writes the agent-info request on {@code c}; under the lock. A failure closes the connection.
   */
  private void writeInfoRequestLocked(GseConnection c) {
    agentInfo.requestSent();
    try {
      c.write(AgentInfoExchange.REQUEST, writeBuffer(), writeTimeoutNanos);
      counters.infoRequests.incrementAndGet();
    } catch (IOException e) {
      counters.writeFailures.incrementAndGet();
      drop(c, "writing the agent-info request failed: " + e);
    }
  }

  /**
   * Closes {@code c} and forgets it, if it is still open; logs once per connection (WARN
   * rate-limited).
   */
  private void drop(GseConnection c, String reason) {
    if (!c.closeNow()) {
      return;
    }
    current.compareAndSet(c, null);
    if (closed) {
      return;
    }
    log.debug("lost the connection to the GSE agent at {}: {}", endpoint.describe(), reason);
    dropLog.warn(
        () ->
            "lost the connection to the GSE agent at "
                + endpoint.describe()
                + ": "
                + reason
                + "; reconnecting for the next frame",
        null);
  }

  // ---- the I/O thread ----

  private void ioLoop() {
    if (onIoStart != null) {
      try {
        onIoStart.run();
      } catch (RuntimeException e) {
        log.debug("GSE exporter start-up task failed", e);
      }
    }
    // The first connection attempt, so that the agent's info is there before the first frame. Only
    // if the lock is
    // free: a sender holding it is connecting itself, and may wait for the reply that only this
    // thread reads.
    if (writeLock.tryLock()) {
      try {
        if (!closed && current.get() == null) {
          connectLocked();
        }
      } finally {
        writeLock.unlock();
      }
    }
    ReplyReader replies = new ReplyReader();
    GseConnection reading = null;
    while (!closed) {
      GseConnection c = current.get();
      if (c == null || c.isClosed()) {
        awaitConnection();
        continue;
      }
      if (c != reading) {
        reading = c;
        replies.reset();
      }
      readOnce(c, replies);
    }
  }

  /** Waits (on the I/O thread) until there is an open connection or the transport closes. */
  private void awaitConnection() {
    synchronized (monitor) {
      while (!closed && (current.get() == null || current.get().isClosed())) {
        try {
          monitor.wait(1000);
        } catch (InterruptedException e) {
          // close() interrupts only to hurry us; the loop condition decides
        }
      }
    }
  }

  /**
   * Sends a due agent-info request if the lock is free, then reads replies until the next request
   * is due.
   */
  private void readOnce(GseConnection c, ReplyReader replies) {
    long untilInfo = agentInfo.checkDue();
    if (agentInfo.isDue() && writeLock.tryLock()) {
      try {
        if (agentInfo.isDue() && current.get() == c && !c.isClosed()) {
          writeInfoRequestLocked(c);
        }
      } finally {
        writeLock.unlock();
      }
    }
    long timeout =
        agentInfo.isDue()
            ? INFO_RETRY_MILLIS
            : Math.min(1000, Math.max(1, TimeUnit.NANOSECONDS.toMillis(untilInfo)));
    try {
      if (replies.read(c, timeout, this::onReply) < 0) {
        drop(c, "the agent closed it");
      }
    } catch (ReplyReader.ProtocolException e) {
      drop(c, e.getMessage());
    } catch (IOException | ClosedSelectorException | CancelledKeyException e) {
      drop(c, "reading failed: " + e);
    } catch (RuntimeException e) {
      log.warn("unexpected error reading from the GSE agent at {}", endpoint.describe(), e);
      drop(c, "reading failed: " + e);
    }
  }

  private void onReply(int type, byte[] body, int off, int len) {
    if (type == GseProtocol.MSG_AGENT_INFO) {
      agentInfo.onReply(body, off, len);
    } else {
      log.debug(
          "ignoring a reply of type 0x{} ({} bytes) from the GSE agent",
          Integer.toHexString(type),
          len);
    }
  }

  /** Stops the I/O thread and closes the connection; in-flight sends fail promptly. Idempotent. */
  @Override
  public void close() {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
    }
    GseConnection c = current.getAndSet(null);
    if (c != null) {
      c.closeNow();
    }
    synchronized (monitor) {
      monitor.notifyAll();
    }
    agentInfo.wakeWaiters();
    Thread t = ioThread;
    if (t != null && t != Thread.currentThread()) {
      t.interrupt();
      try {
        t.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (t.isAlive()) {
        log.warn("GSE exporter I/O thread {} did not stop within 5 s of close", t.getName());
      }
    }
    // A connection installed by a connect racing with close.
    GseConnection late = current.getAndSet(null);
    if (late != null) {
      late.closeNow();
    }
  }

  /** {@return the agent's address, e.g. {@code unix:/var/run/ipc.state.report}} */
  public String describe() {
    return endpoint.describe();
  }

  /** {@return the transport's counters (live)} */
  public TransportCounters counters() {
    return counters;
  }
}
