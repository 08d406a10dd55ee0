package io.logproducer.testing.gse;

import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * One data frame as a {@link GseAgent} received it: the header's fields, the dynamic frame's meta
 * entries, and the body (for a bk-collector document: its members and its items' {@code data}
 * strings). Immutable; thread-safe.
 */
public final class GseFrame {

  /** Message type of a dynamic data frame. */
  public static final int DYNAMIC = 0x09;

  /** Message type of a common data frame. */
  public static final int COMMON = 0x0C01;

  private final int connection;
  private final int msgType;
  private final int dataId;
  private final long utcTime;
  private final int metaLen;
  private final int metaCount;
  private final List<Map.Entry<String, String>> meta;
  private final byte[] body;
  private final Map<String, Object> document;

  GseFrame(
      int connection,
      int msgType,
      int dataId,
      long utcTime,
      int metaLen,
      int metaCount,
      List<Map.Entry<String, String>> meta,
      byte[] body,
      Map<String, Object> document) {
    this.connection = connection;
    this.msgType = msgType;
    this.dataId = dataId;
    this.utcTime = utcTime;
    this.metaLen = metaLen;
    this.metaCount = metaCount;
    this.meta = Collections.unmodifiableList(new ArrayList<Map.Entry<String, String>>(meta));
    this.body = body;
    this.document = document == null ? null : Collections.unmodifiableMap(document);
  }

  /** {@return the connection it came on: 1 for the agent's first accepted connection, then 2, …} */
  public int connection() {
    return connection;
  }

  /** {@return the header's message type, {@link #DYNAMIC} or {@link #COMMON}} */
  public int msgType() {
    return msgType;
  }

  /** {@return the header's dataid} */
  public int dataId() {
    return dataId;
  }

  /** {@return the header's utctime, in seconds since the epoch} */
  public long utcTime() {
    return utcTime;
  }

  /** {@return the dynamic extension's metaLen in bytes (0 for a common frame)} */
  public int metaLen() {
    return metaLen;
  }

  /** {@return the dynamic extension's metaCount (0 for a common frame)} */
  public int metaCount() {
    return metaCount;
  }

  /** {@return the meta entries, in order (empty for a common frame)} */
  public List<Map.Entry<String, String>> meta() {
    return meta;
  }

  /**
   * {@return a copy of the body: the bytes after the header (and, for a dynamic frame, extension
   * and meta area)}
   */
  public byte[] body() {
    return body.clone();
  }

  /** {@return the body as UTF-8 text} */
  public String bodyText() {
    return new String(body, StandardCharsets.UTF_8);
  }

  /** {@return the body's length in bytes} */
  public int bodyLength() {
    return body.length;
  }

  /**
   * {@return the body's members as parsed (in document order; numbers as {@code Long} or {@code
   * BigDecimal}, objects as maps, arrays as lists)}
   *
   * @throws IllegalStateException if the agent did not parse bodies ({@link GseAgent.Mode#FRAMING})
   */
  public Map<String, Object> document() {
    if (document == null) {
      throw new IllegalStateException("the agent did not parse this frame's body (mode FRAMING)");
    }
    return document;
  }

  /**
   * {@return the {@code data} string of each item of a bk-collector document, in order}
   *
   * @throws IllegalStateException if the agent did not parse bodies
   */
  public List<String> data() {
    List<?> items = (List<?>) document().get("items");
    List<String> out = new ArrayList<String>(items.size());
    for (Object item : items) {
      out.add((String) ((Map<?, ?>) item).get("data"));
    }
    return out;
  }

  static Map.Entry<String, String> entry(String key, String value) {
    return new AbstractMap.SimpleImmutableEntry<String, String>(key, value);
  }

  @Override
  public String toString() {
    return "GseFrame{connection "
        + connection
        + ", msgType 0x"
        + Integer.toHexString(msgType)
        + ", dataid "
        + dataId
        + ", utctime "
        + utcTime
        + ", meta "
        + meta
        + ", body "
        + body.length
        + " bytes "
        + new String(Arrays.copyOf(body, Math.min(body.length, 120)), StandardCharsets.UTF_8)
        + "}";
  }
}
