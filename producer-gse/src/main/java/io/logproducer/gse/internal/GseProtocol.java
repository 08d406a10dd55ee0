package io.logproducer.gse.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The GSE agent's local data-report protocol: message types, header layouts and their encoders. All
 * integers are big-endian, with no padding.
 *
 * <p>Sources: libgse ({@code TencentBlueKing/bkmonitor-datalink}, {@code
 * pkg/libgse/gse/gsetype.go}: {@code GseCommonMsgHead}, {@code GseDynamicMsgHead}, {@code
 * GSE_TYPE_DYNAMIC_DEFAULT_META_MAX_LEN = 408}, {@code NewGseRequestConfMsg}; {@code client.go}:
 * the agent's 8-byte {@code GseLocalCommandMsg} reply header) and GSE's C++ decoder headers ({@code
 * protocol_head.h}). The golden vectors in {@code GseProtocolTest} were produced by the unmodified
 * libgse encoder; {@code GseProtocolTest} checks these encoders against every one.
 *
 * <p>Common header, 24 bytes: {@code u32 msgType, u32 dataid, u32 utctime (seconds), u32 bodylen,
 * u32 resv0 = 0, u32 resv1 = 0}. The dynamic frame adds a 24-byte extension {@code u64 index = 0,
 * u32 flags = 0, u32 metaLen, u32 metaMaxLen = 408, u32 metaCount} and a meta area of exactly
 * {@code metaMaxLen} bytes (entries {@code u32 keyLen, u32 valLen, key, value}, zero padded); its
 * {@code bodylen} counts extension + meta area + body. Stateless; thread-safe.
 */
public final class GseProtocol {

  /** Message type of a common data frame ({@code MSG_DATA_REPORT}, 3072 + 1). */
  public static final int MSG_COMMON = 0x0C01;

  /** Message type of a dynamic data frame ({@code REPORT_DYNAMICAL_PROTOCOL_TYPE}). */
  public static final int MSG_DYNAMIC = 0x09;

  /** Message type of the agent-info request and of its reply ({@code REPORT_SYNC_CONFIG}). */
  public static final int MSG_AGENT_INFO = 0x0A;

  /** Bytes of the common header. */
  public static final int HEADER_BYTES = 24;

  /**
   * Bytes of the dynamic frame's extension header (index, flags, metaLen, metaMaxLen, metaCount).
   */
  public static final int DYNAMIC_EXTENSION_BYTES = 24;

  /** Size of the dynamic frame's meta area: (8 + 128) * 3, "keep same with gse". */
  public static final int META_MAX_LEN = 408;

  /** Bytes before the body in a dynamic frame: 24 + 24 + 408. */
  public static final int DYNAMIC_PREAMBLE_BYTES =
      HEADER_BYTES + DYNAMIC_EXTENSION_BYTES + META_MAX_LEN;

  /** Bytes of the agent's reply header: {@code u32 type, u32 bodylen}. */
  public static final int REPLY_HEADER_BYTES = 8;

  /** The GSE server rejects frames whose body exceeds this (64 MiB). */
  public static final int SERVER_MAX_BODY_BYTES = 64 * 1024 * 1024;

  private static final byte[] AGENT_INFO_REQUEST = new byte[HEADER_BYTES];

  static {
    putInt(AGENT_INFO_REQUEST, 0, MSG_AGENT_INFO);
  }

  private GseProtocol() {}

  /** The 24-byte agent-info request: msgType 0x0A, everything else 0. Returns a copy. */
  public static byte[] agentInfoRequest() {
    return AGENT_INFO_REQUEST.clone();
  }

  /** Writes {@code value} big-endian at {@code dst[off..off+3]}. */
  public static void putInt(byte[] dst, int off, int value) {
    dst[off] = (byte) (value >>> 24);
    dst[off + 1] = (byte) (value >>> 16);
    dst[off + 2] = (byte) (value >>> 8);
    dst[off + 3] = (byte) value;
  }

  /** Reads a big-endian u32 at {@code src[off]} as a (possibly negative) int. */
  public static int getInt(byte[] src, int off) {
    return (src[off] & 0xFF) << 24
        | (src[off + 1] & 0xFF) << 16
        | (src[off + 2] & 0xFF) << 8
        | (src[off + 3] & 0xFF);
  }

  /**
   * Writes the 24-byte common header at {@code dst[off]}.
   *
   * @param utcSeconds seconds since the epoch (u32)
   * @param bodyLen bytes that follow the header
   */
  public static void putHeader(
      byte[] dst, int off, int msgType, int dataId, int utcSeconds, int bodyLen) {
    putInt(dst, off, msgType);
    putInt(dst, off + 4, dataId);
    putInt(dst, off + 8, utcSeconds);
    putInt(dst, off + 12, bodyLen);
    putInt(dst, off + 16, 0);
    putInt(dst, off + 20, 0);
  }

  /**
   * Writes a common frame's 24 bytes before a body of {@code bodyLen} bytes.
   *
   * @return {@code off + 24}
   */
  public static int putCommonPreamble(
      byte[] dst, int off, int dataId, int utcSeconds, int bodyLen) {
    putHeader(dst, off, MSG_COMMON, dataId, utcSeconds, bodyLen);
    return off + HEADER_BYTES;
  }

  /**
   * Writes a dynamic frame's 456 bytes (header, extension, meta area) before a body of {@code
   * bodyLen} bytes.
   *
   * @return {@code off + 456}
   */
  public static int putDynamicPreamble(
      byte[] dst, int off, int dataId, int utcSeconds, int bodyLen, Meta meta) {
    putHeader(
        dst,
        off,
        MSG_DYNAMIC,
        dataId,
        utcSeconds,
        bodyLen + DYNAMIC_EXTENSION_BYTES + META_MAX_LEN);
    int p = off + HEADER_BYTES;
    Arrays.fill(dst, p, p + 12, (byte) 0); // u64 index, u32 flags
    putInt(dst, p + 12, meta.length);
    putInt(dst, p + 16, META_MAX_LEN);
    putInt(dst, p + 20, meta.count);
    p += DYNAMIC_EXTENSION_BYTES;
    System.arraycopy(meta.area, 0, dst, p, META_MAX_LEN);
    return p + META_MAX_LEN;
  }

  /** A whole common frame around {@code body} (for tests and tools). */
  public static byte[] commonFrame(int dataId, int utcSeconds, byte[] body) {
    byte[] f = new byte[HEADER_BYTES + body.length];
    int p = putCommonPreamble(f, 0, dataId, utcSeconds, body.length);
    System.arraycopy(body, 0, f, p, body.length);
    return f;
  }

  /** A whole dynamic frame around {@code body} (for tests and tools). */
  public static byte[] dynamicFrame(int dataId, int utcSeconds, Meta meta, byte[] body) {
    byte[] f = new byte[DYNAMIC_PREAMBLE_BYTES + body.length];
    int p = putDynamicPreamble(f, 0, dataId, utcSeconds, body.length, meta);
    System.arraycopy(body, 0, f, p, body.length);
    return f;
  }

  /**
   * The meta area of a dynamic frame: entries {@code u32 keyLen, u32 valLen, key, value} (UTF-8),
   * in order, then zeros up to {@link #META_MAX_LEN}. The GSE server extracts (and strips) an entry
   * named {@code tag}. Immutable.
   */
  public static final class Meta {
    /** No entries: what current libgse sends. */
    public static final Meta EMPTY = new Meta(new byte[META_MAX_LEN], 0, 0);

    private final byte[] area;

    /** {@code metaLen}: bytes used by the entries. */
    public final int length;

    /** {@code metaCount}. */
    public final int count;

    private Meta(byte[] area, int length, int count) {
      this.area = area;
      this.length = length;
      this.count = count;
    }

    /**
     * @param entries key/value pairs in order (UTF-8 encoded)
     * @throws IllegalArgumentException if the entries need more than {@link #META_MAX_LEN} bytes,
     *     as libgse's {@code AddMeta} refuses
     */
    public static Meta of(List<Map.Entry<String, String>> entries) {
      int need = encodedLength(entries);
      if (need > META_MAX_LEN) {
        throw new IllegalArgumentException(
            "meta entries must fit metaMaxLen "
                + META_MAX_LEN
                + " bytes (8 + key bytes + value bytes each), was "
                + need);
      }
      byte[] area = new byte[META_MAX_LEN];
      int p = 0;
      for (Map.Entry<String, String> e : entries) {
        byte[] k = e.getKey().getBytes(StandardCharsets.UTF_8);
        byte[] v = e.getValue().getBytes(StandardCharsets.UTF_8);
        putInt(area, p, k.length);
        putInt(area, p + 4, v.length);
        System.arraycopy(k, 0, area, p + 8, k.length);
        System.arraycopy(v, 0, area, p + 8 + k.length, v.length);
        p += 8 + k.length + v.length;
      }
      return new Meta(area, p, entries.size());
    }

    /** Bytes {@code entries} take in the meta area. */
    public static int encodedLength(List<Map.Entry<String, String>> entries) {
      int need = 0;
      for (Map.Entry<String, String> e : entries) {
        need +=
            8
                + e.getKey().getBytes(StandardCharsets.UTF_8).length
                + e.getValue().getBytes(StandardCharsets.UTF_8).length;
      }
      return need;
    }
  }
}
