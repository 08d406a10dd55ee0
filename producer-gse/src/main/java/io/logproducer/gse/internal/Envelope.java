package io.logproducer.gse.internal;

import io.logproducer.spi.EncodeBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Wraps a batch's items into one frame: the frame preamble, then the JSON document bk-collector
 * sends per frame, with its members in Go's sorted map order (libgse marshals a {@code
 * common.MapStr}):
 *
 * <pre>
 * {"bizid":…,"bk_agent_id":"…","bk_biz_id":…,"bk_host_id":…,"cloudid":…,"dataid":…,"datetime":"…",
 * "gseindex":…,"hostname":"…","ip":"…","items":[ITEMS],"time":…,"utctime":"…"}</pre>
 *
 * <p>{@code dataid}, {@code datetime} (local time), {@code utctime} (UTC, "yyyy-MM-dd HH:mm:ss"),
 * {@code time} (seconds) and {@code items} come from bk-collector's {@code queue.NewEventsMapStr};
 * the attach fields {@code bizid, bk_biz_id, cloudid, ip, hostname, bk_agent_id, bk_host_id,
 * gseindex} from libgse's {@code publishEventAttachInfo} ({@code output/gse/gse.go}): configured
 * values win, then the agent's reply, then 0 / "" (hostname: the local host name, as libgse's
 * {@code os.Hostname()}). {@code gseindex} counts frames per dataid from 1, in memory (libgse
 * persists it). The frame header's {@code utctime} and the document's {@code time} are the same
 * clock reading.
 *
 * <p>Thread-safe.
 */
public final class Envelope {

  private static final DateTimeFormatter DATE_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

  private final boolean dynamic;
  private final GseProtocol.Meta meta;
  private final Attach configured;
  private final int maxBodyBytesExclusive;
  private final LongSupplier clockMillis;
  private final ZoneId zone;
  private final ConcurrentHashMap<Integer, AtomicLong> gseIndex = new ConcurrentHashMap<>();
  private volatile TimeText time = new TimeText(Long.MIN_VALUE, null, null);
  private volatile String localHostname = "";

  /** Attach fields fixed by configuration; null = not configured. Immutable. */
  public static final class Attach {
    final Integer bizId;
    final Integer bkBizId;
    final Integer cloudId;
    final String ip;
    final String hostname;
    final String bkAgentId;
    final Integer bkHostId;

    public Attach(
        Integer bizId,
        Integer bkBizId,
        Integer cloudId,
        String ip,
        String hostname,
        String bkAgentId,
        Integer bkHostId) {
      this.bizId = bizId;
      this.bkBizId = bkBizId;
      this.cloudId = cloudId;
      this.ip = ip;
      this.hostname = hostname;
      this.bkAgentId = bkAgentId;
      this.bkHostId = bkHostId;
    }

    /** Whether every field the agent could supply is configured (hostname is local anyway). */
    public boolean coversAgentInfo() {
      return bizId != null
          && bkBizId != null
          && cloudId != null
          && ip != null
          && bkAgentId != null
          && bkHostId != null;
    }
  }

  /**
   * One frame as up to three byte ranges, written back to back: preamble + document start, items,
   * document end.
   */
  public static final class Frame {
    final byte[] head;
    final byte[] items;
    final int itemsLength;
    final byte[] tail;

    Frame(byte[] head, byte[] items, int itemsLength, byte[] tail) {
      this.head = head;
      this.items = items;
      this.itemsLength = itemsLength;
      this.tail = tail;
    }

    /** A frame held in one array (an agent-info request). */
    public static Frame of(byte[] bytes) {
      return new Frame(bytes, new byte[0], 0, new byte[0]);
    }

    public long length() {
      return (long) head.length + itemsLength + tail.length;
    }

    int segments() {
      return 3;
    }

    byte[] array(int segment) {
      return segment == 0 ? head : segment == 1 ? items : tail;
    }

    int length(int segment) {
      return segment == 0 ? head.length : segment == 1 ? itemsLength : tail.length;
    }

    /** The whole frame in one new array (tests). */
    public byte[] toByteArray() {
      byte[] b = new byte[(int) length()];
      System.arraycopy(head, 0, b, 0, head.length);
      System.arraycopy(items, 0, b, head.length, itemsLength);
      System.arraycopy(tail, 0, b, head.length + itemsLength, tail.length);
      return b;
    }
  }

  /** Thrown when a frame's JSON document would not be below the configured maximum. */
  public static final class FrameTooLargeException extends Exception {
    private static final long serialVersionUID = 1L;

    FrameTooLargeException(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * @param dynamic dynamic frame (0x09) rather than common (0x0C01)
   * @param meta the dynamic frame's meta entries
   * @param maxBodyBytesExclusive a frame's JSON document must be shorter than this
   * @param clockMillis wall clock, ms since the epoch
   * @param zone the zone of {@code datetime}
   */
  public Envelope(
      boolean dynamic,
      GseProtocol.Meta meta,
      Attach configured,
      int maxBodyBytesExclusive,
      LongSupplier clockMillis,
      ZoneId zone) {
    this.dynamic = dynamic;
    this.meta = meta;
    this.configured = configured;
    this.maxBodyBytesExclusive = maxBodyBytesExclusive;
    this.clockMillis = clockMillis;
    this.zone = zone;
  }

  /** The host name used when neither configuration nor the agent gives one. */
  public void setLocalHostname(String name) {
    this.localHostname = name == null ? "" : name;
  }

  /**
   * Renders the frame for {@code items[0, itemsLength)} (comma-separated items) of {@code dataId}.
   *
   * @param agent the agent's last reply, or {@link AgentInfo#NONE}
   * @throws FrameTooLargeException if the JSON document would not be shorter than the maximum
   */
  public Frame render(int dataId, byte[] items, int itemsLength, AgentInfo agent)
      throws FrameTooLargeException {
    long nowMillis = clockMillis.getAsLong();
    long seconds = Math.floorDiv(nowMillis, 1000L);
    TimeText t = timeText(seconds);
    long index = gseIndex.computeIfAbsent(dataId, k -> new AtomicLong()).incrementAndGet();
    Attach c = configured;

    EncodeBuffer p = new EncodeBuffer(512);
    GoJson.ascii(p, "{\"bizid\":");
    GoJson.number(p, pick(c.bizId, agent.bizId));
    GoJson.ascii(p, ",\"bk_agent_id\":");
    GoJson.string1(p, pick(c.bkAgentId, agent.bkAgentId, ""));
    GoJson.ascii(p, ",\"bk_biz_id\":");
    GoJson.number(p, pick(c.bkBizId, agent.bkBizId));
    GoJson.ascii(p, ",\"bk_host_id\":");
    GoJson.number(p, pick(c.bkHostId, agent.bkHostId));
    GoJson.ascii(p, ",\"cloudid\":");
    GoJson.number(p, pick(c.cloudId, agent.cloudId));
    GoJson.ascii(p, ",\"dataid\":");
    GoJson.number(p, dataId & 0xFFFFFFFFL);
    GoJson.ascii(p, ",\"datetime\":\"");
    GoJson.raw(p, t.local);
    p.writeByte('"');
    GoJson.ascii(p, ",\"gseindex\":");
    GoJson.number(p, index);
    GoJson.ascii(p, ",\"hostname\":");
    GoJson.string1(p, pick(c.hostname, agent.hostname, localHostname));
    GoJson.ascii(p, ",\"ip\":");
    GoJson.string1(p, pick(c.ip, agent.ip, ""));
    GoJson.ascii(p, ",\"items\":[");

    EncodeBuffer q = new EncodeBuffer(64);
    GoJson.ascii(q, "],\"time\":");
    GoJson.number(q, seconds);
    GoJson.ascii(q, ",\"utctime\":\"");
    GoJson.raw(q, t.utc);
    GoJson.ascii(q, "\"}");

    long bodyLength = (long) p.size() + itemsLength + q.size();
    if (bodyLength >= maxBodyBytesExclusive) {
      throw new FrameTooLargeException(
          String.format(
              Locale.ROOT,
              "the frame's JSON body would be %,d bytes, not below maxFrameBodyBytes %,d",
              bodyLength,
              maxBodyBytesExclusive));
    }
    int preamble = dynamic ? GseProtocol.DYNAMIC_PREAMBLE_BYTES : GseProtocol.HEADER_BYTES;
    byte[] head = new byte[preamble + p.size()];
    if (dynamic) {
      GseProtocol.putDynamicPreamble(head, 0, dataId, (int) seconds, (int) bodyLength, meta);
    } else {
      GseProtocol.putCommonPreamble(head, 0, dataId, (int) seconds, (int) bodyLength);
    }
    System.arraycopy(p.array(), 0, head, preamble, p.size());
    return new Frame(head, items, itemsLength, GoJson.toByteArray(q));
  }

  /** The last gseindex issued for {@code dataId}, 0 if none. */
  public long lastGseIndex(int dataId) {
    AtomicLong a = gseIndex.get(dataId);
    return a == null ? 0 : a.get();
  }

  private static long pick(Integer configured, Integer agent) {
    return configured != null ? configured : agent != null ? agent : 0;
  }

  private static String pick(String configured, String agent, String fallback) {
    return configured != null ? configured : agent != null ? agent : fallback;
  }

  private TimeText timeText(long seconds) {
    TimeText t = time;
    if (t.seconds != seconds) {
      LocalDateTime utc = LocalDateTime.ofEpochSecond(seconds, 0, ZoneOffset.UTC);
      LocalDateTime local = LocalDateTime.ofInstant(java.time.Instant.ofEpochSecond(seconds), zone);
      t =
          new TimeText(
              seconds,
              DATE_TIME.format(local).getBytes(StandardCharsets.US_ASCII),
              DATE_TIME.format(utc).getBytes(StandardCharsets.US_ASCII));
      time = t;
    }
    return t;
  }

  /** The formatted times of one second. Immutable. */
  private static final class TimeText {
    final long seconds;
    final byte[] local;
    final byte[] utc;

    TimeText(long seconds, byte[] local, byte[] utc) {
      this.seconds = seconds;
      this.local = local;
      this.utc = utc;
    }
  }
}
