package io.logproducer.gse;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.internal.bind.TypeAdapters;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.StringReader;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * A GSE agent for tests: a real Unix-domain (or TCP, 127.0.0.1) stream server that parses every frame strictly,
 * answers agent-info requests (8-byte header + JSON, sent in two pieces to exercise exact reads) and records
 * everything. Any malformed frame is a violation: it is recorded, and the connection is closed as a desynchronised
 * real agent would. Frames cut short by the end of a connection are counted as truncated, not recorded.
 *
 * <p>Checks per frame: msgType one of 0x09 / 0x0C01 / 0x0A; resv0 = resv1 = 0; agent-info requests all zero; dynamic
 * extension index = flags = 0, metaMaxLen = 408, exactly metaCount entries filling metaLen bytes, the rest of the meta
 * area zero; a body that is UTF-8 and one complete, strict JSON object with exactly bk-collector's members in Go's
 * sorted order, its dataid equal to the header's, its time equal to the header's utctime, and items whose
 * iterationindex runs 0, 1, 2, …
 */
final class TestAgent implements Closeable {

  static final List<String> BODY_KEYS = List.of("bizid", "bk_agent_id", "bk_biz_id", "bk_host_id", "cloudid",
      "dataid", "datetime", "gseindex", "hostname", "ip", "items", "time", "utctime");

  /** One data frame as received. */
  record Frame(int connection, int msgType, int dataId, long utcTime, int metaLen, int metaCount,
      List<Map.Entry<String, String>> meta, byte[] body, JsonObject json) {

    JsonArray items() {
      return json.getAsJsonArray("items");
    }

    /** The {@code data} strings of the items, in order. */
    List<String> data() {
      List<String> out = new ArrayList<>();
      for (JsonElement e : items()) {
        out.add(e.getAsJsonObject().get("data").getAsString());
      }
      return out;
    }
  }

  private final Path socketPath;
  private final boolean tcp;
  private volatile int tcpPort;
  private volatile ServerSocketChannel server;
  private final List<SocketChannel> clients = new CopyOnWriteArrayList<>();
  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private final AtomicInteger connections = new AtomicInteger();

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  /** Guarded by lock. */
  private final List<Frame> frames = new ArrayList<>();
  /** Guarded by lock. */
  private final List<String> violations = new ArrayList<>();
  /** Guarded by lock. */
  private int infoRequests;
  /** Guarded by lock. */
  private int truncated;
  /** Guarded by lock. */
  private long records;

  private volatile String agentInfoJson = "{\"bizid\":2,\"bk_biz_id\":3,\"cloudid\":4,\"ip\":\"10.0.0.5\","
      + "\"bk_agent_id\":\"0100005254008ed86116666614661851\",\"bk_host_id\":77,\"bk_tenant_id\":\"system\"}";
  private volatile boolean answerAgentInfo = true;
  private volatile boolean paused;
  private final Object pauseMonitor = new Object();
  private volatile long bytesPerSecond;
  /** Kill the agent after this many complete data frames, once the next frame's first bytes were read; -1 = off. */
  private volatile int killAfterFrames = -1;
  private volatile int killPartialBytes = 64;
  private volatile boolean killed;

  private TestAgent(Path socketPath, boolean tcp) {
    this.socketPath = socketPath;
    this.tcp = tcp;
  }

  static TestAgent unix(Path socketPath) throws IOException {
    TestAgent a = new TestAgent(socketPath, false);
    a.start();
    return a;
  }

  /** A path for a socket that is not there yet. */
  static TestAgent notStarted(Path socketPath) {
    return new TestAgent(socketPath, false);
  }

  static TestAgent tcp() throws IOException {
    TestAgent a = new TestAgent(null, true);
    a.start();
    return a;
  }

  Path socketPath() {
    return socketPath;
  }

  int tcpPort() {
    return tcpPort;
  }

  /** Binds and starts accepting (again, after {@link #kill()}). */
  synchronized void start() throws IOException {
    killed = false;
    ServerSocketChannel s;
    if (tcp) {
      s = ServerSocketChannel.open();
      s.bind(new InetSocketAddress("127.0.0.1", tcpPort));
      tcpPort = ((InetSocketAddress) s.getLocalAddress()).getPort();
    } else {
      Files.deleteIfExists(socketPath);
      s = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      s.bind(UnixDomainSocketAddress.of(socketPath));
    }
    server = s;
    Thread t = new Thread(() -> acceptLoop(s), "test-agent-accept");
    t.setDaemon(true);
    threads.add(t);
    t.start();
  }

  /** Abruptly closes the listening socket and every connection (unread data is lost), like a killed process. */
  synchronized void kill() {
    killed = true;
    try {
      server.close();
    } catch (IOException ignored) {
      // closing
    }
    for (SocketChannel c : clients) {
      try {
        c.close();
      } catch (IOException ignored) {
        // closing
      }
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

  @Override
  public void close() {
    kill();
    for (Thread t : threads) {
      try {
        t.join(5000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  void setAgentInfoJson(String json) {
    this.agentInfoJson = json;
  }

  void setAnswerAgentInfo(boolean answer) {
    this.answerAgentInfo = answer;
  }

  /** Stops reading from every connection until {@link #resumeReading()}. */
  void pauseReading() {
    paused = true;
  }

  void resumeReading() {
    synchronized (pauseMonitor) {
      paused = false;
      pauseMonitor.notifyAll();
    }
  }

  /** Reads at most this fast (0 = unlimited). */
  void setReadBytesPerSecond(long bytesPerSecond) {
    this.bytesPerSecond = bytesPerSecond;
  }

  /** Arms a kill: after {@code frames} complete data frames, read {@code partialBytes} of the next, then die. */
  void killAfterFrames(int frames, int partialBytes) {
    this.killPartialBytes = partialBytes;
    this.killAfterFrames = frames;
  }

  int connections() {
    return connections.get();
  }

  List<Frame> frames() {
    lock.lock();
    try {
      return new ArrayList<>(frames);
    } finally {
      lock.unlock();
    }
  }

  List<String> violations() {
    lock.lock();
    try {
      return new ArrayList<>(violations);
    } finally {
      lock.unlock();
    }
  }

  int infoRequests() {
    lock.lock();
    try {
      return infoRequests;
    } finally {
      lock.unlock();
    }
  }

  int truncatedFrames() {
    lock.lock();
    try {
      return truncated;
    } finally {
      lock.unlock();
    }
  }

  long records() {
    lock.lock();
    try {
      return records;
    } finally {
      lock.unlock();
    }
  }

  /** Waits until {@code condition} holds (checked on every change), failing after {@code timeoutMillis}. */
  void await(String what, BooleanSupplier condition, long timeoutMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    lock.lock();
    try {
      while (!condition.getAsBoolean()) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          throw new AssertionError("timed out after " + timeoutMillis + " ms waiting for " + what + "; frames="
              + frames.size() + ", records=" + records + ", info requests=" + infoRequests + ", truncated="
              + truncated + ", violations=" + violations);
        }
        changed.await(Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(100)), TimeUnit.NANOSECONDS);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Waits until every connection was read to its end (call after the client closed). */
  void awaitAllConnectionsEnded(long timeoutMillis) throws InterruptedException {
    await("all connections to end", clients::isEmpty, timeoutMillis);
  }

  void awaitRecords(long n, long timeoutMillis) throws InterruptedException {
    await(n + " records", () -> records >= n, timeoutMillis);
  }

  void awaitInfoRequests(int n, long timeoutMillis) throws InterruptedException {
    await(n + " agent-info requests", () -> infoRequests >= n, timeoutMillis);
  }

  // ---- server side ----

  private void acceptLoop(ServerSocketChannel s) {
    while (s.isOpen()) {
      SocketChannel c;
      try {
        c = s.accept();
      } catch (IOException e) {
        return; // closed
      }
      int id = connections.incrementAndGet();
      clients.add(c);
      Thread t = new Thread(() -> serve(c, id), "test-agent-conn-" + id);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  private void serve(SocketChannel c, int connection) {
    ByteBuffer header = ByteBuffer.allocate(24);
    try {
      while (true) {
        header.clear();
        int got = readFully(c, header, true);
        if (got == 0) {
          return; // clean end between frames
        }
        boolean armed = killAfterFrames >= 0 && dataFrames() >= killAfterFrames;
        if (armed) {
          // Read a little of this frame, then die with the rest (and anything behind it) unread.
          ByteBuffer some = ByteBuffer.allocate(Math.max(1, killPartialBytes));
          readFully(c, some, false);
          killAfterFrames = -1;
          kill();
          countTruncated(); // after kill(): a test may restart the agent as soon as it sees this
          return;
        }
        header.flip();
        int msgType = header.getInt();
        int dataId = header.getInt();
        long utc = header.getInt() & 0xFFFFFFFFL;
        long bodyLen = header.getInt() & 0xFFFFFFFFL;
        int resv0 = header.getInt();
        int resv1 = header.getInt();
        if (resv0 != 0 || resv1 != 0) {
          violation(connection, "resv0/resv1 not zero: " + resv0 + "/" + resv1);
          return;
        }
        if (msgType == 0x0A) {
          if (dataId != 0 || utc != 0 || bodyLen != 0) {
            violation(connection, "agent-info request not all zero: dataid " + dataId + " utctime " + utc
                + " bodylen " + bodyLen);
            return;
          }
          lock.lock();
          try {
            infoRequests++;
            changed.signalAll();
          } finally {
            lock.unlock();
          }
          if (answerAgentInfo) {
            reply(c);
          }
          continue;
        }
        if (msgType != 0x09 && msgType != 0x0C01) {
          violation(connection, "unknown msgType 0x" + Integer.toHexString(msgType));
          return;
        }
        if (bodyLen > 64L * 1024 * 1024) {
          violation(connection, "bodylen " + bodyLen + " over 64 MiB");
          return;
        }
        int metaLen = 0;
        int metaCount = 0;
        List<Map.Entry<String, String>> meta = List.of();
        long jsonLen = bodyLen;
        if (msgType == 0x09) {
          if (bodyLen < 24 + 408 + 1) {
            violation(connection, "dynamic bodylen " + bodyLen + " leaves no body");
            return;
          }
          ByteBuffer ext = ByteBuffer.allocate(24);
          readFully(c, ext, false);
          ext.flip();
          long index = ext.getLong();
          int flags = ext.getInt();
          metaLen = ext.getInt();
          int metaMaxLen = ext.getInt();
          metaCount = ext.getInt();
          if (index != 0 || flags != 0 || metaMaxLen != 408 || metaLen < 0 || metaLen > 408 || metaCount < 0) {
            violation(connection, "bad dynamic extension: index " + index + " flags " + flags + " metaLen " + metaLen
                + " metaMaxLen " + metaMaxLen + " metaCount " + metaCount);
            return;
          }
          ByteBuffer area = ByteBuffer.allocate(408);
          readFully(c, area, false);
          area.flip();
          meta = parseMeta(area, metaLen, metaCount);
          if (meta == null) {
            violation(connection, "meta area does not hold exactly " + metaCount + " entries in " + metaLen
                + " bytes followed by zeros");
            return;
          }
          jsonLen = bodyLen - 24 - 408;
        } else if (bodyLen == 0) {
          violation(connection, "common frame with an empty body");
          return;
        }
        ByteBuffer body = ByteBuffer.allocate((int) jsonLen);
        readFully(c, body, false);
        byte[] bytes = body.array();
        String problem = checkBody(bytes, dataId, utc);
        if (problem != null) {
          violation(connection, problem);
          return;
        }
        JsonObject json = parseStrict(new String(bytes, StandardCharsets.UTF_8));
        Frame f = new Frame(connection, msgType, dataId, utc, metaLen, metaCount, meta, bytes, json);
        lock.lock();
        try {
          frames.add(f);
          records += f.items().size();
          changed.signalAll();
        } finally {
          lock.unlock();
        }
      }
    } catch (EOFException e) {
      countTruncated();
    } catch (IOException e) {
      if (!killed) {
        countTruncated(); // the client closed mid-frame, or the connection broke
      }
    } finally {
      try {
        c.close();
      } catch (IOException ignored) {
        // closing
      }
      clients.remove(c);
      lock.lock();
      try {
        changed.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  private int dataFrames() {
    lock.lock();
    try {
      return frames.size();
    } finally {
      lock.unlock();
    }
  }

  private void countTruncated() {
    lock.lock();
    try {
      truncated++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void reply(SocketChannel c) throws IOException {
    byte[] json = agentInfoJson.getBytes(StandardCharsets.UTF_8);
    ByteBuffer head = ByteBuffer.allocate(8 + Math.min(3, json.length));
    head.putInt(0x0A).putInt(json.length).put(json, 0, Math.min(3, json.length)).flip();
    ByteBuffer rest = ByteBuffer.wrap(json, Math.min(3, json.length), json.length - Math.min(3, json.length));
    synchronized (c) {
      while (head.hasRemaining()) {
        c.write(head);
      }
      while (rest.hasRemaining()) {
        c.write(rest);
      }
    }
  }

  private static List<Map.Entry<String, String>> parseMeta(ByteBuffer area, int metaLen, int metaCount) {
    List<Map.Entry<String, String>> out = new ArrayList<>();
    int p = 0;
    for (int i = 0; i < metaCount; i++) {
      if (p + 8 > metaLen) {
        return null;
      }
      int k = area.getInt(p);
      int v = area.getInt(p + 4);
      if (k < 0 || v < 0 || p + 8 + k + v > metaLen) {
        return null;
      }
      String key = new String(area.array(), p + 8, k, StandardCharsets.UTF_8);
      String val = new String(area.array(), p + 8 + k, v, StandardCharsets.UTF_8);
      out.add(Map.entry(key, val));
      p += 8 + k + v;
    }
    if (p != metaLen) {
      return null;
    }
    for (int i = metaLen; i < 408; i++) {
      if (area.get(i) != 0) {
        return null;
      }
    }
    return out;
  }

  /** Null if the body is a valid bk-collector document for this header, else what is wrong. */
  static String checkBody(byte[] bytes, int headerDataId, long headerUtc) {
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return "body is not UTF-8: " + e;
    }
    JsonObject json;
    try {
      json = parseStrict(text);
    } catch (RuntimeException | IOException e) {
      return "body is not one complete JSON object: " + e + "; body starts "
          + text.substring(0, Math.min(200, text.length()));
    }
    List<String> keys = new ArrayList<>(json.keySet());
    if (!keys.equals(BODY_KEYS)) {
      return "body members " + keys + ", expected " + BODY_KEYS;
    }
    if ((json.get("dataid").getAsLong() & 0xFFFFFFFFL) != (headerDataId & 0xFFFFFFFFL)) {
      return "header dataid " + headerDataId + " != body dataid " + json.get("dataid");
    }
    if (json.get("time").getAsLong() != headerUtc) {
      return "header utctime " + headerUtc + " != body time " + json.get("time");
    }
    JsonArray items = json.getAsJsonArray("items");
    if (items.size() == 0) {
      return "no items";
    }
    for (int i = 0; i < items.size(); i++) {
      JsonObject item = items.get(i).getAsJsonObject();
      if (!new ArrayList<>(item.keySet()).equals(List.of("data", "iterationindex"))) {
        return "item " + i + " members " + item.keySet();
      }
      if (item.get("iterationindex").getAsLong() != i || !item.get("data").isJsonPrimitive()
          || !item.get("data").getAsJsonPrimitive().isString()) {
        return "item " + i + " is " + item;
      }
    }
    return null;
  }

  /** Parses exactly one strict JSON object, nothing after it. */
  static JsonObject parseStrict(String text) throws IOException {
    JsonReader r = new JsonReader(new StringReader(text));
    r.setLenient(false);
    JsonElement e = TypeAdapters.JSON_ELEMENT.read(r);
    if (r.peek() != JsonToken.END_DOCUMENT) {
      throw new IOException("text after the JSON document");
    }
    if (!e.isJsonObject()) {
      throw new IOException("not an object");
    }
    return e.getAsJsonObject();
  }

  private void violation(int connection, String what) {
    lock.lock();
    try {
      violations.add("connection " + connection + ": " + what);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Reads until {@code buf} is full. Returns the bytes read; 0 only when {@code mayEndHere} and the stream ended
   * before the first byte. Honours pause, throttle and kill.
   */
  private int readFully(SocketChannel c, ByteBuffer buf, boolean mayEndHere) throws IOException {
    int total = 0;
    while (buf.hasRemaining()) {
      waitWhilePaused();
      if (killed) {
        throw new IOException("killed");
      }
      long rate = bytesPerSecond;
      int limit = buf.limit();
      if (rate > 0) {
        buf.limit(Math.min(limit, buf.position() + 16 * 1024));
      }
      long start = System.nanoTime();
      int n = c.read(buf);
      buf.limit(limit);
      if (n < 0) {
        if (total == 0 && mayEndHere) {
          return 0;
        }
        throw new EOFException("stream ended after " + total + " of " + (total + buf.remaining()) + " bytes");
      }
      total += n;
      if (rate > 0 && n > 0) {
        long due = start + n * 1_000_000_000L / rate;
        while (System.nanoTime() - due < 0 && !killed) {
          LockSupport.parkNanos(due - System.nanoTime()); // pacing the reader, not synchronisation
        }
      }
    }
    return total;
  }

  private void waitWhilePaused() {
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
}
