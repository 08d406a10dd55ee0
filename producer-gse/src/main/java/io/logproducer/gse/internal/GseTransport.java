package io.logproducer.gse.internal;

import io.logproducer.internal.InternalLogger;
import io.logproducer.spi.ExportResult;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedSelectorException;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one persistent connection to the GSE agent, and the rules around it.
 *
 * <ul>
 *   <li><b>Frames never interleave.</b> Every write (data frame or agent-info request) happens under
 *       {@link #writeLock}, and writes the whole frame or fails.</li>
 *   <li><b>A failed or stalled write closes the connection</b> before the lock is released, so the rest of a partial
 *       frame can never be followed by another frame on the same stream; the caller gets
 *       {@link ExportResult#retryable} and the producer re-sends the whole frame, on a new connection.</li>
 *   <li><b>Connecting</b> happens on demand, under the lock, with exponential backoff between failed attempts
 *       (from the producer's {@code initialRetryBackoffMillis} to {@code maxRetryBackoffMillis}, ±20 % jitter); a
 *       frame that meets a backoff fails at once with the remaining delay as {@code retryAfterMillis}. The first
 *       attempt is made at start, so the agent's info is there before the first frame.</li>
 *   <li><b>Agent info</b>: each new connection first sends the 0x0A request; the I/O thread reads the replies
 *       (8-byte header, then exactly {@code bodylen} bytes of JSON) and re-sends the request every
 *       {@code agentInfoIntervalMillis} (libgse: 31 s), which also probes an idle connection. The first data frame
 *       waits up to {@code agentInfoTimeoutMillis} for the first reply.</li>
 * </ul>
 *
 * <p>Threads: {@link #send} from the producer's send threads; one daemon I/O thread reads replies. Thread-safe.
 */
public final class GseTransport implements Closeable {

  private static final InternalLogger log = InternalLogger.get(GseTransport.class);
  /** The direct buffer frames are copied through on their way to the socket. */
  static final int WRITE_BUFFER_BYTES = 256 * 1024;
  /** Replies larger than this are a protocol error (agent info is well under 1 KiB). */
  static final int MAX_REPLY_BODY_BYTES = 1024 * 1024;
  private static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);
  /** While an agent-info request is due but the write lock is busy, the I/O thread retries this often. */
  private static final long INFO_RETRY_MILLIS = 20;
  private static final Envelope.Frame INFO_REQUEST = Envelope.Frame.of(GseProtocol.agentInfoRequest());

  /** Timeouts and intervals, in ms; immutable. */
  public static final class Settings {
    final long connectTimeoutMillis;
    final long writeTimeoutMillis;
    final int sendBufferBytes;
    final long agentInfoIntervalMillis;
    final long agentInfoTimeoutMillis;
    final boolean waitForAgentInfo;
    final long initialBackoffMillis;
    final long maxBackoffMillis;

    public Settings(long connectTimeoutMillis, long writeTimeoutMillis, int sendBufferBytes,
        long agentInfoIntervalMillis, long agentInfoTimeoutMillis, boolean waitForAgentInfo,
        long initialBackoffMillis, long maxBackoffMillis) {
      this.connectTimeoutMillis = connectTimeoutMillis;
      this.writeTimeoutMillis = writeTimeoutMillis;
      this.sendBufferBytes = sendBufferBytes;
      this.agentInfoIntervalMillis = agentInfoIntervalMillis;
      this.agentInfoTimeoutMillis = agentInfoTimeoutMillis;
      this.waitForAgentInfo = waitForAgentInfo;
      this.initialBackoffMillis = initialBackoffMillis;
      this.maxBackoffMillis = Math.max(initialBackoffMillis, maxBackoffMillis);
    }
  }

  /** Builds a frame once the connection is up and the agent's info is known; called under the write lock. */
  public interface FrameRenderer {
    Envelope.Frame render(AgentInfo agent) throws Envelope.FrameTooLargeException;
  }

  /** Told of every agent-info reply, on the I/O thread. */
  public interface AgentInfoListener {
    void onAgentInfo(AgentInfo info);
  }

  private final Endpoint endpoint;
  private final Settings settings;
  private final String threadName;
  private final Runnable onIoStart;
  private final long writeTimeoutNanos;

  /** Serialises every write to the connection and every change of {@link #current} to a new connection. */
  private final ReentrantLock writeLock = new ReentrantLock();
  /** The live connection or null. Replaced under {@link #writeLock}; any thread may CAS it to null when closing it. */
  private final AtomicReference<GseConnection> current = new AtomicReference<>();
  /** Guarded by writeLock. */
  private ByteBuffer writeBuffer;
  /** Guarded by writeLock. */
  private int connectFailures;
  /** Guarded by writeLock: no connection attempt before this nanoTime. */
  private long nextConnectNanos;
  /** Guarded by writeLock. */
  private IOException lastConnectError;
  /** Guarded by writeLock: whether a data frame already waited for the first agent-info reply. */
  private boolean agentInfoWaitDone;
  /** Guarded by writeLock. */
  private long lastConnectLogNanos = System.nanoTime() - LOG_INTERVAL_NANOS;
  /** Guarded by writeLock. */
  private int suppressedConnectLogs;

  /** Set when an agent-info request should go out; cleared by whoever writes it, under the lock. */
  private volatile boolean infoRequestDue;
  private volatile long lastInfoRequestNanos = System.nanoTime();
  /** The agent's last reply; null before the first. Written by the I/O thread; waiters use {@link #monitor}. */
  private volatile AgentInfo agentInfo;
  private final AgentInfoListener listener;
  /** The I/O thread waits here for a connection; first-frame senders wait here for agent info. */
  private final Object monitor = new Object();
  private volatile boolean closed;
  private volatile Thread ioThread;

  private final AtomicLong connectsOk = new AtomicLong();
  private final AtomicLong connectsFailed = new AtomicLong();
  private final AtomicLong framesStarted = new AtomicLong();
  private final AtomicLong framesWritten = new AtomicLong();
  private final AtomicLong writeFailures = new AtomicLong();
  private final AtomicLong infoRequests = new AtomicLong();
  private final AtomicLong infoReplies = new AtomicLong();
  private final AtomicLong lastDropLogNanos = new AtomicLong(System.nanoTime() - LOG_INTERVAL_NANOS);

  /**
   * @param threadName name of the I/O thread
   * @param onIoStart run first on the I/O thread (e.g. a slow host-name lookup), may be null
   * @param listener told of agent-info replies, may be null
   */
  public GseTransport(Endpoint endpoint, Settings settings, String threadName, Runnable onIoStart,
      AgentInfoListener listener) {
    this.endpoint = endpoint;
    this.settings = settings;
    this.threadName = threadName;
    this.onIoStart = onIoStart;
    this.listener = listener;
    this.writeTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(settings.writeTimeoutMillis);
  }

  /** Starts the I/O thread, which makes the first connection attempt. */
  public synchronized void start() {
    if (ioThread != null || closed) {
      return;
    }
    Thread t = new Thread(this::ioLoop, threadName);
    t.setDaemon(true);
    ioThread = t;
    t.start();
  }

  /** The agent's last reply, or {@link AgentInfo#NONE} before the first. */
  public AgentInfo agentInfo() {
    AgentInfo a = agentInfo;
    return a != null ? a : AgentInfo.NONE;
  }

  /**
   * Writes one frame: connects if needed, renders the frame under the lock, writes it whole.
   *
   * @return success when every byte of the frame was written; retryable on any connection or write failure (the
   *     connection is then closed); too-large when the renderer refused the frame. Never throws.
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
          long wait = Math.max(1, TimeUnit.NANOSECONDS.toMillis(nextConnectNanos - System.nanoTime()));
          return ExportResult.retryable("not connected to the GSE agent at " + endpoint.describe() + ": "
              + lastConnectError + "; next connection attempt in " + wait + " ms", lastConnectError, wait);
        }
      }
      if (settings.waitForAgentInfo && !agentInfoWaitDone) {
        agentInfoWaitDone = true;
        if (!awaitAgentInfo(c)) {
          return ExportResult.retryable("interrupted while waiting for the GSE agent's info", null, -1);
        }
      }
      Envelope.Frame frame;
      try {
        frame = renderer.render(agentInfo());
      } catch (Envelope.FrameTooLargeException e) {
        return ExportResult.tooLarge(e.getMessage());
      }
      framesStarted.incrementAndGet();
      try {
        c.write(frame, writeBuffer(), writeTimeoutNanos);
      } catch (IOException e) {
        writeFailures.incrementAndGet();
        long done = c.bytesWrittenOfLastFrame();
        drop(c, "writing a frame failed after " + done + " of " + frame.length() + " bytes: " + e);
        return ExportResult.retryable(String.format(Locale.ROOT,
            "writing a %,d-byte frame to the GSE agent at %s failed after %,d bytes (connection closed; the whole "
                + "frame will be re-sent on a new connection): %s", frame.length(), endpoint.describe(), done, e),
            e, -1);
      }
      framesWritten.incrementAndGet();
      if (infoRequestDue) {
        writeInfoRequestLocked(c);
      }
      return ExportResult.success();
    } catch (RuntimeException e) {
      return ExportResult.failed("unexpected error writing to the GSE agent at " + endpoint.describe() + ": " + e,
          e);
    } finally {
      writeLock.unlock();
    }
  }

  private ByteBuffer writeBuffer() {
    if (writeBuffer == null) {
      writeBuffer = ByteBuffer.allocateDirect(WRITE_BUFFER_BYTES);
    }
    return writeBuffer;
  }

  /** Connects (under the lock) unless backing off; sends the agent-info request first. Null on failure. */
  private GseConnection connectLocked() {
    long now = System.nanoTime();
    if (connectFailures > 0 && now - nextConnectNanos < 0) {
      return null;
    }
    GseConnection c;
    try {
      c = GseConnection.open(endpoint, settings.connectTimeoutMillis, settings.sendBufferBytes);
      try {
        c.write(INFO_REQUEST, writeBuffer(), writeTimeoutNanos);
      } catch (IOException e) {
        c.closeNow();
        throw e;
      }
    } catch (IOException | RuntimeException e) {
      connectsFailed.incrementAndGet();
      connectFailures++;
      lastConnectError = e instanceof IOException ? (IOException) e : new IOException(e);
      long backoff = backoffMillis(connectFailures);
      nextConnectNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff);
      logConnectFailure(e, backoff);
      return null;
    }
    infoRequests.incrementAndGet();
    lastInfoRequestNanos = System.nanoTime();
    infoRequestDue = false;
    if (connectFailures > 0 || connectsOk.get() > 0) {
      log.info("connected to the GSE agent at {} (after {} failed attempt(s))", endpoint.describe(), connectFailures);
    } else {
      log.debug("connected to the GSE agent at {}", endpoint.describe());
    }
    connectFailures = 0;
    suppressedConnectLogs = 0;
    connectsOk.incrementAndGet();
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

  private long backoffMillis(int failures) {
    int shift = Math.min(failures - 1, 30);
    double exp = Math.min((double) settings.initialBackoffMillis * (1L << shift), settings.maxBackoffMillis);
    double jitter = 0.8 + 0.4 * ThreadLocalRandom.current().nextDouble();
    return Math.max(1, Math.min(settings.maxBackoffMillis, Math.round(exp * jitter)));
  }

  private void logConnectFailure(Throwable e, long backoff) {
    long now = System.nanoTime();
    if (now - lastConnectLogNanos >= LOG_INTERVAL_NANOS) {
      String suppressed = suppressedConnectLogs == 0 ? ""
          : " (" + suppressedConnectLogs + " similar failure(s) not logged)";
      log.warn("cannot connect to the GSE agent at {}: {}; attempt {}, next in {} ms; records wait in the producer's "
          + "buffer until it is reachable or deliveryTimeoutMillis passes{}", endpoint.describe(), e,
          connectFailures, backoff, suppressed);
      lastConnectLogNanos = now;
      suppressedConnectLogs = 0;
    } else {
      suppressedConnectLogs++;
    }
  }

  /** Waits (holding the write lock) up to agentInfoTimeoutMillis for the first reply. False if interrupted. */
  private boolean awaitAgentInfo(GseConnection c) {
    if (agentInfo != null) {
      return true;
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(settings.agentInfoTimeoutMillis);
    synchronized (monitor) {
      while (agentInfo == null && !closed && !c.isClosed()) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          break;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(monitor, remaining);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    if (agentInfo == null) {
      log.warn("the GSE agent at {} did not answer the agent-info request within {} ms (agentInfoTimeoutMillis); "
          + "sending with the configured attach fields and 0 / \"\" for the others until it does",
          endpoint.describe(), settings.agentInfoTimeoutMillis);
    }
    return true;
  }

  /** Writes the agent-info request on {@code c}; under the lock. A failure closes the connection. */
  private void writeInfoRequestLocked(GseConnection c) {
    infoRequestDue = false;
    lastInfoRequestNanos = System.nanoTime();
    try {
      c.write(INFO_REQUEST, writeBuffer(), writeTimeoutNanos);
      infoRequests.incrementAndGet();
    } catch (IOException e) {
      writeFailures.incrementAndGet();
      drop(c, "writing the agent-info request failed: " + e);
    }
  }

  /** Closes {@code c} and forgets it, if it is still open; logs once per connection (rate-limited). */
  private void drop(GseConnection c, String reason) {
    if (!c.closeNow()) {
      return;
    }
    current.compareAndSet(c, null);
    if (closed) {
      return;
    }
    long now = System.nanoTime();
    long last = lastDropLogNanos.get();
    if (now - last >= LOG_INTERVAL_NANOS && lastDropLogNanos.compareAndSet(last, now)) {
      log.warn("lost the connection to the GSE agent at {}: {}; reconnecting for the next frame",
          endpoint.describe(), reason);
    } else {
      log.debug("lost the connection to the GSE agent at {}: {}", endpoint.describe(), reason);
    }
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
    // The first connection attempt, so that the agent's info is there before the first frame. Only if the lock is
    // free: a sender holding it is connecting itself, and may wait for the reply that only this thread reads.
    if (writeLock.tryLock()) {
      try {
        if (!closed && current.get() == null) {
          connectLocked();
        }
      } finally {
        writeLock.unlock();
      }
    }
    ByteBuffer in = ByteBuffer.allocate(4096);
    GseConnection reading = null;
    while (!closed) {
      GseConnection c = current.get();
      if (c == null || c.isClosed()) {
        synchronized (monitor) {
          while (!closed && (current.get() == null || current.get().isClosed())) {
            try {
              monitor.wait(1000);
            } catch (InterruptedException e) {
              // close() interrupts only to hurry us; the loop condition decides
            }
          }
        }
        continue;
      }
      if (c != reading) {
        reading = c;
        in.clear();
      }
      long untilInfo = lastInfoRequestNanos + TimeUnit.MILLISECONDS.toNanos(settings.agentInfoIntervalMillis)
          - System.nanoTime();
      if (untilInfo <= 0) {
        infoRequestDue = true;
      }
      if (infoRequestDue && writeLock.tryLock()) {
        try {
          if (infoRequestDue && current.get() == c && !c.isClosed()) {
            writeInfoRequestLocked(c);
          }
        } finally {
          writeLock.unlock();
        }
      }
      long timeout = infoRequestDue ? INFO_RETRY_MILLIS
          : Math.min(1000, Math.max(1, TimeUnit.NANOSECONDS.toMillis(untilInfo)));
      try {
        int n = c.read(in, timeout);
        if (n < 0) {
          drop(c, "the agent closed it");
        } else if (n > 0) {
          in = readReplies(in, c);
        }
      } catch (IOException | ClosedSelectorException | CancelledKeyException e) {
        drop(c, "reading failed: " + e);
      } catch (RuntimeException e) {
        log.warn("unexpected error reading from the GSE agent at {}", endpoint.describe(), e);
        drop(c, "reading failed: " + e);
      }
    }
  }

  /**
   * Consumes complete replies at the start of {@code in} (write mode); returns the buffer to read into next (grown
   * if a reply needs more room).
   */
  private ByteBuffer readReplies(ByteBuffer in, GseConnection c) {
    in.flip();
    while (in.remaining() >= GseProtocol.REPLY_HEADER_BYTES) {
      int p = in.position();
      int type = in.getInt(p);
      int bodyLen = in.getInt(p + 4);
      if (bodyLen < 0 || bodyLen > MAX_REPLY_BODY_BYTES) {
        in.clear();
        drop(c, "the agent sent a reply of type 0x" + Integer.toHexString(type) + " with an invalid length "
            + (bodyLen & 0xFFFFFFFFL));
        return in;
      }
      int need = GseProtocol.REPLY_HEADER_BYTES + bodyLen;
      if (in.remaining() < need) {
        if (in.capacity() < need) {
          ByteBuffer bigger = ByteBuffer.allocate(need);
          bigger.put(in);
          return bigger; // write mode, holding the partial reply
        }
        break;
      }
      if (type == GseProtocol.MSG_AGENT_INFO) {
        onAgentInfo(in.array(), in.arrayOffset() + p + GseProtocol.REPLY_HEADER_BYTES, bodyLen);
      } else {
        log.debug("ignoring a reply of type 0x{} ({} bytes) from the GSE agent", Integer.toHexString(type), bodyLen);
      }
      in.position(p + need);
    }
    in.compact();
    return in;
  }

  private void onAgentInfo(byte[] body, int off, int len) {
    AgentInfo info;
    try {
      info = AgentInfo.parse(body, off, len);
    } catch (IllegalArgumentException e) {
      log.warn("ignoring an agent-info reply from the GSE agent at {} that is not a JSON object ({}): {}",
          endpoint.describe(), e.getMessage(), new String(body, off, Math.min(len, 512),
              java.nio.charset.StandardCharsets.UTF_8));
      return;
    }
    boolean first = agentInfo == null;
    infoReplies.incrementAndGet();
    synchronized (monitor) {
      agentInfo = info;
      monitor.notifyAll();
    }
    if (first) {
      log.info("GSE agent at {}: {}", endpoint.describe(), info);
    } else {
      log.debug("GSE agent at {}: {}", endpoint.describe(), info);
    }
    if (listener != null) {
      listener.onAgentInfo(info);
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

  public String describe() {
    return endpoint.describe();
  }

  /** Counters for tests and diagnostics. */
  public long connectsOk() {
    return connectsOk.get();
  }

  public long connectsFailed() {
    return connectsFailed.get();
  }

  public long framesWritten() {
    return framesWritten.get();
  }

  /** Data frames whose write began (written, failed, or still being written). */
  public long framesStarted() {
    return framesStarted.get();
  }

  public long writeFailures() {
    return writeFailures.get();
  }

  public long infoRequests() {
    return infoRequests.get();
  }

  public long infoReplies() {
    return infoReplies.get();
  }
}
