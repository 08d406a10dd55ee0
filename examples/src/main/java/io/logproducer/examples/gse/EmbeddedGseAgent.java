package io.logproducer.examples.gse;

import java.io.EOFException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small, fast stand-in for the GSE agent's data socket: a Unix-domain stream server that answers the agent-info
 * request (0x0A) and reads every data frame, checking its framing (message type, reserved fields, the dynamic
 * extension and zero-padded meta area, the body's bounds, its dataid against the header's) and counting its records.
 * It does not parse the JSON: a frame's record count is its last item's {@code iterationindex} + 1, read at the end of
 * the document. (The module's tests use a strict agent that parses everything.) Thread-safe counters; one thread per
 * connection.
 */
public final class EmbeddedGseAgent implements AutoCloseable {

  private static final byte[] ITEM = ",\"iterationindex\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] DATAID = "\"dataid\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] TIME = "],\"time\":".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] AGENT_INFO = ("{\"bizid\":2,\"bk_biz_id\":2,\"cloudid\":0,\"ip\":\"127.0.0.1\","
      + "\"bk_agent_id\":\"embedded-agent\",\"bk_host_id\":1}").getBytes(StandardCharsets.UTF_8);

  private final Path path;
  private final ServerSocketChannel server;
  private final List<SocketChannel> clients = new CopyOnWriteArrayList<>();
  private final AtomicLong records = new AtomicLong();
  private final AtomicLong frames = new AtomicLong();
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong violations = new AtomicLong();
  private volatile String firstViolation;

  /** Listens on a new Unix-domain socket at {@code path} (replacing a stale file). */
  public EmbeddedGseAgent(Path path) throws IOException {
    this.path = path;
    Files.deleteIfExists(path);
    server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(path));
    Thread t = new Thread(this::accept, "gse-agent-accept");
    t.setDaemon(true);
    t.start();
  }

  public Path path() {
    return path;
  }

  /** Records counted in complete, well-formed frames. */
  public long records() {
    return records.get();
  }

  public long frames() {
    return frames.get();
  }

  /** Bytes read, frames and agent-info requests included. */
  public long bytes() {
    return bytes.get();
  }

  public long violations() {
    return violations.get();
  }

  /** The first malformed frame's description, or null. */
  public String firstViolation() {
    return firstViolation;
  }

  private void accept() {
    while (server.isOpen()) {
      try {
        SocketChannel c = server.accept();
        clients.add(c);
        Thread t = new Thread(() -> serve(c), "gse-agent-conn");
        t.setDaemon(true);
        t.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  private void serve(SocketChannel c) {
    ByteBuffer head = ByteBuffer.allocate(24);
    ByteBuffer ext = ByteBuffer.allocate(24 + 408);
    ByteBuffer body = ByteBuffer.allocate(1 << 20);
    try (c) {
      while (true) {
        head.clear();
        if (!readFully(c, head, true)) {
          return;
        }
        int type = head.getInt(0);
        int dataId = head.getInt(4);
        long bodyLen = head.getInt(12) & 0xFFFFFFFFL;
        if (head.getInt(16) != 0 || head.getInt(20) != 0) {
          violation("reserved header fields not zero");
          return;
        }
        if (type == 0x0A) {
          ByteBuffer reply = ByteBuffer.allocate(8 + AGENT_INFO.length);
          reply.putInt(0x0A).putInt(AGENT_INFO.length).put(AGENT_INFO).flip();
          while (reply.hasRemaining()) {
            c.write(reply);
          }
          continue;
        }
        long jsonLen = bodyLen;
        if (type == 0x09) {
          ext.clear();
          if (bodyLen < ext.capacity() + 2 || !readFully(c, ext, false)) {
            violation("dynamic frame too short");
            return;
          }
          int metaLen = ext.getInt(12);
          if (ext.getLong(0) != 0 || ext.getInt(8) != 0 || ext.getInt(16) != 408 || metaLen < 0 || metaLen > 408) {
            violation("bad dynamic extension");
            return;
          }
          for (int i = 24 + metaLen; i < ext.capacity(); i++) {
            if (ext.get(i) != 0) {
              violation("meta area not zero-padded");
              return;
            }
          }
          jsonLen -= ext.capacity();
        } else if (type != 0x0C01) {
          violation("unknown message type 0x" + Integer.toHexString(type));
          return;
        }
        if (jsonLen < 2 || jsonLen > 64L << 20) {
          violation("body length " + jsonLen);
          return;
        }
        if (body.capacity() < jsonLen) {
          body = ByteBuffer.allocate((int) jsonLen);
        }
        body.clear().limit((int) jsonLen);
        readFully(c, body, false);
        byte[] b = body.array();
        int n = (int) jsonLen;
        if (b[0] != '{' || b[n - 1] != '}') {
          violation("body is not a JSON object");
          return;
        }
        int at = indexOf(b, 0, n, DATAID);
        if (at < 0 || parseLong(b, at + DATAID.length, n) != (dataId & 0xFFFFFFFFL)) {
          violation("header dataid " + dataId + " does not match the body's");
          return;
        }
        long items = countItems(b, n);
        if (items <= 0) {
          violation("no items, or items that do not end in ,\"iterationindex\":N}],\"time\":…");
          return;
        }
        frames.incrementAndGet();
        records.addAndGet(items);
      }
    } catch (IOException e) {
      // the client went away (possibly mid-frame, which a real agent discards too)
    } finally {
      clients.remove(c);
    }
  }

  /**
   * The number of items, from the last one's {@code iterationindex} + 1: the document ends in
   * {@code ,"iterationindex":N}],"time":T,"utctime":"…"}} (members in Go's sorted order), so this needs no scan of
   * the items. -1 if the document does not end so.
   */
  private static long countItems(byte[] b, int n) {
    int tail = lastIndexOf(b, Math.max(0, n - 128), n, TIME);
    if (tail < 2 || b[tail - 1] != '}') {
      return -1;
    }
    int digitsEnd = tail - 1;
    int p = digitsEnd;
    while (p > 0 && b[p - 1] >= '0' && b[p - 1] <= '9') {
      p--;
    }
    if (p == digitsEnd || p < ITEM.length || indexOf(b, p - ITEM.length, p, ITEM) != p - ITEM.length) {
      return -1;
    }
    return parseLong(b, p, digitsEnd) + 1;
  }

  private static int lastIndexOf(byte[] b, int from, int to, byte[] pattern) {
    for (int i = to - pattern.length; i >= from; i--) {
      if (indexOf(b, i, i + pattern.length, pattern) == i) {
        return i;
      }
    }
    return -1;
  }

  private boolean readFully(SocketChannel c, ByteBuffer buf, boolean mayEnd) throws IOException {
    boolean first = true;
    while (buf.hasRemaining()) {
      int n = c.read(buf);
      if (n < 0) {
        if (first && mayEnd) {
          return false;
        }
        throw new EOFException();
      }
      first = false;
      bytes.addAndGet(n);
    }
    return true;
  }

  private void violation(String what) {
    if (violations.incrementAndGet() == 1) {
      firstViolation = what;
    }
  }

  private static int indexOf(byte[] b, int from, int to, byte[] pattern) {
    byte first = pattern[0];
    int last = to - pattern.length;
    outer:
    for (int i = from; i <= last; i++) {
      if (b[i] != first) {
        continue;
      }
      for (int k = 1; k < pattern.length; k++) {
        if (b[i + k] != pattern[k]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  private static long parseLong(byte[] b, int p, int end) {
    long v = 0;
    int start = p;
    while (p < end && b[p] >= '0' && b[p] <= '9') {
      v = v * 10 + (b[p++] - '0');
    }
    return p == start ? -1 : v;
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (SocketChannel c : clients) {
      c.close();
    }
    Files.deleteIfExists(path);
  }
}
