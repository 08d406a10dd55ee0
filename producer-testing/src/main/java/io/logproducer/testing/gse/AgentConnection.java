package io.logproducer.testing.gse;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * One accepted connection of a {@link GseAgent}, served by its own thread: reads frames back to
 * back, checks the framing (msgType 0x09 / 0x0C01 / 0x0A; resv0 = resv1 = 0; agent-info requests
 * all zero; dynamic extension index = flags = 0, metaMaxLen = 408, exactly metaCount entries
 * filling metaLen bytes, the rest of the meta area zero; bodies up to 64 MiB, not empty), answers
 * agent-info requests, and hands each data frame's body to the agent's mode. A violation is
 * reported and ends the connection, as it would desynchronise a real agent.
 *
 * <p>Not thread-safe: confined to its thread.
 */
final class AgentConnection implements Runnable {

  /** The meta area's size in a dynamic frame, in bytes. */
  static final int META_MAX_LEN = 408;

  /** The largest body the GSE server accepts, in bytes. */
  static final long MAX_BODY_BYTES = 64L * 1024 * 1024;

  private final GseAgent agent;
  private final SocketChannel c;
  private final int id;
  private final ByteBuffer header = ByteBuffer.allocate(24);
  private final ByteBuffer ext = ByteBuffer.allocate(24);
  private final ByteBuffer area = ByteBuffer.allocate(META_MAX_LEN);

  /** COUNTING mode reuses one body buffer. */
  private ByteBuffer countingBody = ByteBuffer.allocate(1 << 20);

  AgentConnection(GseAgent agent, SocketChannel c, int id) {
    this.agent = agent;
    this.c = c;
    this.id = id;
  }

  @Override
  public void run() {
    try {
      while (readFrame()) {
        // next frame
      }
    } catch (EOFException e) {
      agent.countTruncated();
    } catch (IOException e) {
      if (!agent.isKilled()) {
        agent.countTruncated(); // the client closed mid-frame, or the connection broke
      }
    } finally {
      try {
        c.close();
      } catch (IOException ignored) {
        // closing
      }
      agent.connectionEnded(c);
    }
  }

  /**
   * Reads one frame; false when the connection should end (cleanly, or after a violation or kill).
   */
  private boolean readFrame() throws IOException {
    header.clear();
    if (readFully(header, true) == 0) {
      return false; // clean end between frames
    }
    if (agent.killNow()) {
      // Read a little of this frame, then die with the rest (and anything behind it) unread.
      readFully(ByteBuffer.allocate(Math.max(1, agent.killPartialBytes())), false);
      agent.kill();
      agent.countTruncated(); // after kill(): a test may restart the agent as soon as it sees this
      return false;
    }
    int msgType = header.getInt(0);
    int dataId = header.getInt(4);
    long utc = header.getInt(8) & 0xFFFFFFFFL;
    long bodyLen = header.getInt(12) & 0xFFFFFFFFL;
    int resv0 = header.getInt(16);
    int resv1 = header.getInt(20);
    if (resv0 != 0 || resv1 != 0) {
      return violation("resv0/resv1 not zero: " + resv0 + "/" + resv1);
    }
    if (msgType == 0x0A) {
      if (dataId != 0 || utc != 0 || bodyLen != 0) {
        return violation(
            "agent-info request not all zero: dataid "
                + dataId
                + " utctime "
                + utc
                + " bodylen "
                + bodyLen);
      }
      byte[] reply = agent.onInfoRequest();
      if (reply != null) {
        reply(reply);
      }
      return true;
    }
    if (msgType != GseFrame.DYNAMIC && msgType != GseFrame.COMMON) {
      return violation("unknown msgType 0x" + Integer.toHexString(msgType));
    }
    if (bodyLen > MAX_BODY_BYTES) {
      return violation("bodylen " + bodyLen + " over 64 MiB");
    }
    int metaLen = 0;
    int metaCount = 0;
    List<Map.Entry<String, String>> meta = Collections.emptyList();
    long jsonLen = bodyLen;
    if (msgType == GseFrame.DYNAMIC) {
      if (bodyLen < 24 + META_MAX_LEN + 1) {
        return violation("dynamic bodylen " + bodyLen + " leaves no body");
      }
      ext.clear();
      readFully(ext, false);
      long index = ext.getLong(0);
      int flags = ext.getInt(8);
      metaLen = ext.getInt(12);
      int metaMaxLen = ext.getInt(16);
      metaCount = ext.getInt(20);
      if (index != 0
          || flags != 0
          || metaMaxLen != META_MAX_LEN
          || metaLen < 0
          || metaLen > META_MAX_LEN
          || metaCount < 0) {
        return violation(
            "bad dynamic extension: index "
                + index
                + " flags "
                + flags
                + " metaLen "
                + metaLen
                + " metaMaxLen "
                + metaMaxLen
                + " metaCount "
                + metaCount);
      }
      area.clear();
      readFully(area, false);
      meta = parseMeta(area, metaLen, metaCount);
      if (meta == null) {
        return violation(
            "meta area does not hold exactly "
                + metaCount
                + " entries in "
                + metaLen
                + " bytes followed by zeros");
      }
      jsonLen = bodyLen - 24 - META_MAX_LEN;
    } else if (bodyLen == 0) {
      return violation("common frame with an empty body");
    }
    if (agent.mode() == GseAgent.Mode.COUNTING) {
      return countBody((int) jsonLen, dataId);
    }
    ByteBuffer body = ByteBuffer.allocate((int) jsonLen);
    readFully(body, false);
    String problem =
        agent.onFrame(
            new FrameHead(id, msgType, dataId, utc, metaLen, metaCount, meta), body.array());
    return problem == null || violation(problem);
  }

  private boolean countBody(int n, int dataId) throws IOException {
    if (countingBody.capacity() < n) {
      countingBody = ByteBuffer.allocate(n);
    }
    countingBody.clear().limit(n);
    readFully(countingBody, false);
    String[] problem = new String[1];
    long items = ItemCounter.count(countingBody.array(), n, dataId, problem);
    if (items < 0) {
      return violation(problem[0]);
    }
    agent.onCounted(items);
    return true;
  }

  /** Reports a violation; returns false (the connection ends). */
  private boolean violation(String what) {
    agent.violation(id, what);
    return false;
  }

  /**
   * The agent-info reply: the 8-byte header and the first bytes of the JSON, then the rest (exact
   * reads).
   */
  private void reply(byte[] json) throws IOException {
    int first = Math.min(3, json.length);
    ByteBuffer head = ByteBuffer.allocate(8 + first);
    head.putInt(0x0A).putInt(json.length).put(json, 0, first).flip();
    ByteBuffer rest = ByteBuffer.wrap(json, first, json.length - first);
    while (head.hasRemaining()) {
      c.write(head);
    }
    while (rest.hasRemaining()) {
      c.write(rest);
    }
  }

  static List<Map.Entry<String, String>> parseMeta(ByteBuffer area, int metaLen, int metaCount) {
    List<Map.Entry<String, String>> out = new ArrayList<Map.Entry<String, String>>();
    int p = 0;
    for (int i = 0; i < metaCount; i++) {
      if (p + 8 > metaLen) {
        return null;
      }
      int k = area.getInt(p);
      int v = area.getInt(p + 4);
      if (k < 0 || v < 0 || (long) p + 8 + k + v > metaLen) {
        return null;
      }
      String key = new String(area.array(), p + 8, k, StandardCharsets.UTF_8);
      String val = new String(area.array(), p + 8 + k, v, StandardCharsets.UTF_8);
      out.add(GseFrame.entry(key, val));
      p += 8 + k + v;
    }
    if (p != metaLen) {
      return null;
    }
    for (int i = metaLen; i < META_MAX_LEN; i++) {
      if (area.get(i) != 0) {
        return null;
      }
    }
    return out;
  }

  /**
   * Reads until {@code buf} is full. Returns the bytes read; 0 only when {@code mayEndHere} and the
   * stream ended before the first byte. Honours the agent's pause, read rate and kill.
   */
  private int readFully(ByteBuffer buf, boolean mayEndHere) throws IOException {
    int total = 0;
    while (buf.hasRemaining()) {
      agent.waitWhilePaused();
      if (agent.isKilled()) {
        throw new IOException("killed");
      }
      long rate = agent.readBytesPerSecond();
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
        throw new EOFException(
            "stream ended after " + total + " of " + (total + buf.remaining()) + " bytes");
      }
      total += n;
      agent.countBytes(n);
      if (rate > 0 && n > 0) {
        long due = start + n * 1_000_000_000L / rate;
        while (System.nanoTime() - due < 0 && !agent.isKilled()) {
          LockSupport.parkNanos(due - System.nanoTime()); // pacing the reader, not synchronisation
        }
      }
    }
    return total;
  }

  /** A data frame's header fields, before its body is checked. Immutable. */
  static final class FrameHead {
    final int connection;
    final int msgType;
    final int dataId;
    final long utcTime;
    final int metaLen;
    final int metaCount;
    final List<Map.Entry<String, String>> meta;

    FrameHead(
        int connection,
        int msgType,
        int dataId,
        long utcTime,
        int metaLen,
        int metaCount,
        List<Map.Entry<String, String>> meta) {
      this.connection = connection;
      this.msgType = msgType;
      this.dataId = dataId;
      this.utcTime = utcTime;
      this.metaLen = metaLen;
      this.metaCount = metaCount;
      this.meta = meta;
    }
  }
}
