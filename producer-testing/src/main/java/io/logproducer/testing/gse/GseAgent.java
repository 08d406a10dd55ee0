package io.logproducer.testing.gse;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * A BlueKing GSE agent's local data socket, for tests and demos: a real Unix-domain (or TCP, on
 * 127.0.0.1) stream server that reads the frames a GSE client writes, checks them, answers
 * agent-info requests and counts or records what it received. It implements the agent's side of the
 * protocol itself (no dependency on the exporter):
 *
 * <ul>
 *   <li>Frames: a 24-byte big-endian header ({@code msgType, dataid, utctime, bodylen, resv0,
 *       resv1}); dynamic data frames (0x09) add a 24-byte extension and a 408-byte meta area;
 *       common frames (0x0C01) do not; agent-info requests (0x0A) are a bare, all-zero header. Any
 *       malformed frame is a violation: it is recorded and the connection is closed, as a
 *       desynchronised real agent would. A frame cut short by the end of its connection is counted
 *       as truncated, not recorded.
 *   <li>Agent info: each request is answered with an 8-byte header ({@code u32 0x0A, u32 bodylen})
 *       and the JSON of {@link #setAgentInfoJson}, written in two pieces so that clients must read
 *       exact byte counts.
 *   <li>{@link Mode}s: {@link Mode#STRICT} parses every body as bk-collector's document and records
 *       each frame; {@link Mode#FRAMING} records each frame with its body unparsed (any bytes);
 *       {@link Mode#COUNTING} keeps nothing but counts frames, records (items) and bytes, for load.
 *   <li>Scripted faults: {@link #pauseReading()} (a stalled agent), {@link #setReadBytesPerSecond}
 *       (a slow one), {@link #killAfterFrames} (dies mid-frame), {@link #kill()} and {@link
 *       #start()} (restart on the same path), {@link #setAnswerAgentInfo} (never answers).
 * </ul>
 *
 * <p>On Java 16+ the JDK's Unix-domain channels are used; on Java 8-15 junixsocket must be on the
 * class path ({@code com.kohlschutter.junixsocket:junixsocket-core}, type pom). One thread accepts,
 * one serves each connection (daemon threads). Thread-safe.
 */
public final class GseAgent implements Closeable {

  /** What the agent does with a data frame's body. */
  public enum Mode {
    /**
     * Parse it as bk-collector's JSON document (members, dataid, time, items checked); record the
     * frame.
     */
    STRICT,
    /**
     * Record the frame with its body as bytes, unchecked (e.g. for the protocol's golden vectors).
     */
    FRAMING,
    /**
     * Check the framing and count items cheaply (the document's last {@code iterationindex});
     * record nothing.
     */
    COUNTING
  }

  /** The agent-info reply's JSON unless {@link #setAgentInfoJson} changes it. */
  public static final String DEFAULT_AGENT_INFO_JSON =
      "{\"bizid\":2,\"bk_biz_id\":3,\"cloudid\":4,"
          + "\"ip\":\"10.0.0.5\",\"bk_agent_id\":\"0100005254008ed86116666614661851\",\"bk_host_id\":77,"
          + "\"bk_tenant_id\":\"system\"}";

  /** How many violations are kept as text (all are counted). */
  private static final int MAX_VIOLATIONS_KEPT = 1000;

  private final Path socketPath;
  private final boolean tcp;
  private final Mode mode;
  private volatile int tcpPort;
  private volatile ServerSocketChannel server;
  private final List<SocketChannel> clients = new CopyOnWriteArrayList<SocketChannel>();
  private final List<Thread> threads = new CopyOnWriteArrayList<Thread>();
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicLong bytes = new AtomicLong();

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  /** Guarded by lock. */
  private final List<GseFrame> frames = new ArrayList<GseFrame>();

  /** Guarded by lock. */
  private final List<String> violations = new ArrayList<String>();

  /** Guarded by lock. */
  private long violationCount;

  /** Guarded by lock. */
  private int infoRequests;

  /** Guarded by lock. */
  private int truncated;

  /** Guarded by lock. */
  private long records;

  /** Guarded by lock. */
  private long dataFrames;

  private volatile byte[] agentInfoJson = DEFAULT_AGENT_INFO_JSON.getBytes(StandardCharsets.UTF_8);
  private volatile boolean answerAgentInfo = true;
  private volatile boolean paused;
  private final Object pauseMonitor = new Object();
  private volatile long bytesPerSecond;

  /**
   * Kill the agent after this many complete data frames, once the next frame's first bytes were
   * read; -1 = off.
   */
  private volatile long killAfterFrames = -1;

  private volatile int killPartialBytes = 64;
  private volatile boolean killed;

  private GseAgent(Path socketPath, boolean tcp, Mode mode) {
    if (mode == null) {
      throw new IllegalArgumentException("mode must not be null");
    }
    this.socketPath = socketPath;
    this.tcp = tcp;
    this.mode = mode;
  }

  /**
   * Starts a {@link Mode#STRICT} agent on a Unix-domain socket at {@code socketPath} (a stale file
   * is replaced).
   *
   * @param socketPath the socket file's path
   * @return the agent, listening
   * @throws IOException if it cannot listen there
   */
  public static GseAgent unix(Path socketPath) throws IOException {
    return unix(socketPath, Mode.STRICT);
  }

  /**
   * Starts an agent in {@code mode} on a Unix-domain socket at {@code socketPath} (a stale file is
   * replaced).
   *
   * @param socketPath the socket file's path
   * @param mode what it does with bodies
   * @return the agent, listening
   * @throws IOException if it cannot listen there
   */
  public static GseAgent unix(Path socketPath, Mode mode) throws IOException {
    GseAgent a = new GseAgent(socketPath, false, mode);
    a.start();
    return a;
  }

  /**
   * A {@link Mode#STRICT} agent for {@code socketPath} that does not listen until {@link #start()}.
   *
   * @param socketPath the socket file's path
   * @return the agent, not listening
   */
  public static GseAgent notStarted(Path socketPath) {
    return new GseAgent(socketPath, false, Mode.STRICT);
  }

  /**
   * Starts a {@link Mode#STRICT} agent on TCP, 127.0.0.1, on a free port ({@link #tcpPort()}).
   *
   * @return the agent, listening
   * @throws IOException if it cannot listen
   */
  public static GseAgent tcp() throws IOException {
    return tcp(Mode.STRICT);
  }

  /**
   * Starts an agent in {@code mode} on TCP, 127.0.0.1, on a free port ({@link #tcpPort()}).
   *
   * @param mode what it does with bodies
   * @return the agent, listening
   * @throws IOException if it cannot listen
   */
  public static GseAgent tcp(Mode mode) throws IOException {
    GseAgent a = new GseAgent(null, true, mode);
    a.start();
    return a;
  }

  /** {@return the Unix-domain socket's path, or null for TCP} */
  public Path socketPath() {
    return socketPath;
  }

  /** {@return the TCP port (the same after a restart), or 0 for a Unix-domain socket} */
  public int tcpPort() {
    return tcpPort;
  }

  /** {@return the mode} */
  public Mode mode() {
    return mode;
  }

  /**
   * Binds and starts accepting: at first, or again after {@link #kill()} (same path or port).
   *
   * @throws IOException if it cannot listen
   */
  public synchronized void start() throws IOException {
    killed = false;
    ServerSocketChannel s;
    if (tcp) {
      s = ServerSocketChannel.open();
      s.bind(new InetSocketAddress("127.0.0.1", tcpPort));
      tcpPort = ((InetSocketAddress) s.getLocalAddress()).getPort();
    } else {
      Files.deleteIfExists(socketPath);
      s = UnixServerChannels.bind(socketPath, UnixServerChannels.preferred());
    }
    server = s;
    startThread(() -> acceptLoop(s), "gse-agent-accept");
  }

  /**
   * Abruptly closes the listening socket and every connection (unread data is lost), like a killed
   * process. Complete on return: on a Unix-domain socket a client's next write on a connection the
   * agent had open fails, even while the connection's thread is still leaving its read.
   */
  public synchronized void kill() {
    killed = true;
    ServerSocketChannel s = server;
    if (s != null) {
      closeQuietly(s);
    }
    for (SocketChannel c : clients) {
      shutDownQuietly(c);
      closeQuietly(c);
    }
    clients.clear();
    if (!tcp) {
      try {
        Files.deleteIfExists(socketPath);
      } catch (IOException ignored) {
        // best effort
      }
    }
    synchronized (pauseMonitor) {
      pauseMonitor.notifyAll();
    }
  }

  /** Kills the agent and waits up to 5 s for its threads. Idempotent. */
  @Override
  public void close() {
    kill();
    for (Thread t : threads) {
      try {
        t.join(5000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * Sets the agent-info reply's JSON (sent as it is, even if it is not JSON).
   *
   * @param json the reply's body, sent as UTF-8
   */
  public void setAgentInfoJson(String json) {
    this.agentInfoJson = json.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Sets whether agent-info requests are answered (default true); they are counted either way.
   *
   * @param answer false for an agent that never answers
   */
  public void setAnswerAgentInfo(boolean answer) {
    this.answerAgentInfo = answer;
  }

  /**
   * Stops reading from every connection until {@link #resumeReading()}: the client's writes stall.
   */
  public void pauseReading() {
    paused = true;
  }

  /** Reads again after {@link #pauseReading()}. */
  public void resumeReading() {
    synchronized (pauseMonitor) {
      paused = false;
      pauseMonitor.notifyAll();
    }
  }

  /**
   * Makes the agent slow.
   *
   * @param bytesPerSecond the most bytes a second read per connection; 0 = unlimited (the default)
   */
  public void setReadBytesPerSecond(long bytesPerSecond) {
    this.bytesPerSecond = bytesPerSecond;
  }

  /**
   * Arms a kill: after {@code frames} complete data frames, the agent reads {@code partialBytes} of
   * the next frame after its header and then {@link #kill() dies}, leaving that frame truncated.
   *
   * @param frames complete data frames to receive first
   * @param partialBytes bytes of the next frame to read after its 24-byte header, at least 1
   */
  public void killAfterFrames(int frames, int partialBytes) {
    this.killPartialBytes = partialBytes;
    this.killAfterFrames = frames;
  }

  /** {@return connections accepted so far} */
  public int connections() {
    return connections.get();
  }

  /**
   * {@return the data frames recorded so far, in arrival order (empty in {@link Mode#COUNTING})}
   */
  public List<GseFrame> frames() {
    lock.lock();
    try {
      return new ArrayList<GseFrame>(frames);
    } finally {
      lock.unlock();
    }
  }

  /** {@return the violations so far as text, "connection N: what" (the first 1,000)} */
  public List<String> violations() {
    lock.lock();
    try {
      return new ArrayList<String>(violations);
    } finally {
      lock.unlock();
    }
  }

  /** {@return the number of violations so far} */
  public long violationCount() {
    return locked(() -> violationCount);
  }

  /** {@return agent-info requests received} */
  public int infoRequests() {
    return (int) locked(() -> infoRequests);
  }

  /** {@return frames cut short by the end of their connection} */
  public int truncatedFrames() {
    return (int) locked(() -> truncated);
  }

  /** {@return records (items) in complete, well-formed data frames} */
  public long records() {
    return locked(() -> records);
  }

  /** {@return complete, well-formed data frames received (in every mode)} */
  public long dataFrames() {
    return locked(() -> dataFrames);
  }

  /** {@return bytes read, data frames and agent-info requests included} */
  public long bytes() {
    return bytes.get();
  }

  /**
   * Waits until {@code condition} holds (checked on every change of the agent's state), failing
   * after {@code timeoutMillis}.
   *
   * @param what what is awaited, for the failure's message
   * @param condition the condition; evaluated under the agent's lock, so it may read the agent's
   *     counters
   * @param timeoutMillis the longest wait, in ms
   * @throws AssertionError on timeout, with the agent's counts and violations
   * @throws InterruptedException if interrupted while waiting
   */
  public void await(String what, BooleanSupplier condition, long timeoutMillis)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    lock.lock();
    try {
      while (!condition.getAsBoolean()) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          throw new AssertionError(
              "timed out after "
                  + timeoutMillis
                  + " ms waiting for "
                  + what
                  + "; frames="
                  + dataFrames
                  + ", records="
                  + records
                  + ", info requests="
                  + infoRequests
                  + ", truncated="
                  + truncated
                  + ", violations="
                  + violations);
        }
        changed.await(
            Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(100)), TimeUnit.NANOSECONDS);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until every connection was read to its end (call after the client closed).
   *
   * @param timeoutMillis the longest wait, in ms
   * @throws AssertionError on timeout
   * @throws InterruptedException if interrupted while waiting
   */
  public void awaitAllConnectionsEnded(long timeoutMillis) throws InterruptedException {
    await("all connections to end", clients::isEmpty, timeoutMillis);
  }

  /**
   * Waits for at least {@code n} records.
   *
   * @param n records (items of complete data frames)
   * @param timeoutMillis the longest wait, in ms
   * @throws AssertionError on timeout
   * @throws InterruptedException if interrupted while waiting
   */
  public void awaitRecords(final long n, long timeoutMillis) throws InterruptedException {
    await(n + " records", () -> records >= n, timeoutMillis);
  }

  /**
   * Waits for at least {@code n} agent-info requests.
   *
   * @param n requests
   * @param timeoutMillis the longest wait, in ms
   * @throws AssertionError on timeout
   * @throws InterruptedException if interrupted while waiting
   */
  public void awaitInfoRequests(final int n, long timeoutMillis) throws InterruptedException {
    await(n + " agent-info requests", () -> infoRequests >= n, timeoutMillis);
  }

  // ---- for the connections ----

  boolean isKilled() {
    return killed;
  }

  long readBytesPerSecond() {
    return bytesPerSecond;
  }

  int killPartialBytes() {
    return killPartialBytes;
  }

  void countBytes(int n) {
    bytes.addAndGet(n);
  }

  /** Whether an armed kill is due now (and disarms it). */
  boolean killNow() {
    long after = killAfterFrames;
    if (after >= 0 && dataFrames() >= after) {
      killAfterFrames = -1;
      return true;
    }
    return false;
  }

  /** Counts an agent-info request; returns the reply's JSON, or null when not answering. */
  byte[] onInfoRequest() {
    signal(() -> infoRequests++);
    return answerAgentInfo ? agentInfoJson : null;
  }

  /**
   * Checks and records a data frame's body ({@link Mode#STRICT}, {@link Mode#FRAMING}); null or the
   * problem.
   */
  String onFrame(AgentConnection.FrameHead h, byte[] body) {
    Map<String, Object> document = null;
    if (mode == Mode.STRICT) {
      String text = BkCollectorDocument.utf8(body);
      if (text == null) {
        return "body is not UTF-8";
      }
      try {
        document = StrictJson.parseObject(text);
      } catch (IllegalArgumentException e) {
        return "body is not one complete JSON object: "
            + e.getMessage()
            + "; body starts "
            + text.substring(0, Math.min(200, text.length()));
      }
      String problem = BkCollectorDocument.check(document, h.dataId, h.utcTime);
      if (problem != null) {
        return problem;
      }
    }
    final GseFrame f =
        new GseFrame(
            h.connection,
            h.msgType,
            h.dataId,
            h.utcTime,
            h.metaLen,
            h.metaCount,
            h.meta,
            body,
            document);
    final long items = document == null ? 0 : ((List<?>) document.get("items")).size();
    signal(
        () -> {
          frames.add(f);
          dataFrames++;
          records += items;
        });
    return null;
  }

  /** Counts a data frame of {@code items} records ({@link Mode#COUNTING}). */
  void onCounted(final long items) {
    signal(
        () -> {
          dataFrames++;
          records += items;
        });
  }

  void violation(final int connection, final String what) {
    signal(
        () -> {
          violationCount++;
          if (violations.size() < MAX_VIOLATIONS_KEPT) {
            violations.add("connection " + connection + ": " + what);
          }
        });
  }

  void countTruncated() {
    signal(() -> truncated++);
  }

  void connectionEnded(SocketChannel c) {
    clients.remove(c);
    signal(() -> {});
  }

  void waitWhilePaused() {
    synchronized (pauseMonitor) {
      while (paused && !killed) {
        try {
          pauseMonitor.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  // ---- internals ----

  private void acceptLoop(ServerSocketChannel s) {
    while (s.isOpen()) {
      SocketChannel c;
      try {
        c = s.accept();
      } catch (IOException e) {
        return; // closed
      }
      synchronized (this) {
        // Under kill()'s monitor: a connection accepted while kill() ran is closed, not served
        // after the kill (it escaped kill()'s sweep of the clients, and took frames when "down").
        if (!s.isOpen()) {
          closeQuietly(c);
          return;
        }
        clients.add(c);
      }
      int id = connections.incrementAndGet();
      startThread(new AgentConnection(this, c, id), "gse-agent-conn-" + id);
    }
  }

  private void startThread(Runnable task, String name) {
    Thread t = new Thread(task, name);
    t.setDaemon(true);
    threads.add(t);
    t.start();
  }

  /** Runs {@code change} under the lock and wakes {@link #await} waiters. */
  private void signal(Runnable change) {
    lock.lock();
    try {
      change.run();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private long locked(LongSupplier read) {
    lock.lock();
    try {
      return read.getAsLong();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Shuts both directions of {@code c} down now. Closing alone is not enough for a kill: while a
   * connection thread is blocked reading {@code c}, the kernel keeps the socket alive after its
   * descriptor is closed, until that thread leaves the read, and a client's write in that window is
   * accepted and then lost. A shutdown acts on the socket itself: the blocked read returns at once,
   * and on a Unix-domain socket the client's next write fails (EPIPE). On TCP a client's kernel may
   * still buffer that write: TCP reports a dead peer only on a later one.
   */
  private static void shutDownQuietly(SocketChannel c) {
    try {
      c.shutdownInput();
      c.shutdownOutput();
    } catch (IOException ignored) {
      // already closed or never connected: nothing to shut down
    }
  }

  private static void closeQuietly(java.nio.channels.Channel c) {
    try {
      c.close();
    } catch (IOException ignored) {
      // closing
    }
  }
}
