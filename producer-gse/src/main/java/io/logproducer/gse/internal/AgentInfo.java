package io.logproducer.gse.internal;

import io.logproducer.internal.json.JsonReader;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The agent's identity as it answers the agent-info request (0x0A): the JSON body of its reply. Any
 * field may be absent (null). Immutable; thread-safe.
 *
 * <p>Fields seen in BlueKing clients: {@code bizid}, {@code bk_biz_id}, {@code cloudid} (bk-gse-sdk
 * reads {@code cloud_id}), {@code ip}, {@code bk_agent_id}, {@code bk_host_id}, {@code
 * bk_tenant_id}, {@code static_dataid} (libgse {@code gsetype.go} {@code AgentInfo}; bk-gse-sdk
 * {@code go/internal/agent}). {@link #parse} is lenient: both spellings of the cloud id, numbers
 * given as strings, unknown members, nested values, a byte-order mark and trailing NULs are
 * accepted.
 */
public final class AgentInfo {

  /**
   * Longest string kept from the agent (characters); longer values are cut, so a frame's envelope
   * stays small.
   */
  public static final int MAX_STRING_CHARS = 255;

  public final Integer bizId;
  public final Integer bkBizId;
  public final Integer cloudId;
  public final String ip;
  public final String hostname;
  public final String bkAgentId;
  public final Integer bkHostId;
  public final String bkTenantId;
  public final Integer staticDataId;

  public AgentInfo(
      Integer bizId,
      Integer bkBizId,
      Integer cloudId,
      String ip,
      String hostname,
      String bkAgentId,
      Integer bkHostId,
      String bkTenantId,
      Integer staticDataId) {
    this.bizId = bizId;
    this.bkBizId = bkBizId;
    this.cloudId = cloudId;
    this.ip = cut(ip);
    this.hostname = cut(hostname);
    this.bkAgentId = cut(bkAgentId);
    this.bkHostId = bkHostId;
    this.bkTenantId = cut(bkTenantId);
    this.staticDataId = staticDataId;
  }

  /** All fields null. */
  public static final AgentInfo NONE =
      new AgentInfo(null, null, null, null, null, null, null, null, null);

  /**
   * Parses a reply body.
   *
   * @throws IllegalArgumentException if it is not UTF-8 text holding a JSON object
   */
  public static AgentInfo parse(byte[] body, int off, int len) {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(body, off, len))
              .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("agent info is not UTF-8: " + e, e);
    }
    Map<String, Object> m = JsonReader.parseObject(text);
    Integer cloud = toInt(m.get("cloudid"));
    if (cloud == null) {
      cloud = toInt(m.get("cloud_id"));
    }
    Integer hostId = toInt(m.get("bk_host_id"));
    if (hostId == null) {
      hostId = toInt(m.get("host_id"));
    }
    if (hostId == null) {
      hostId = toInt(m.get("hostid"));
    }
    return new AgentInfo(
        toInt(m.get("bizid")),
        toInt(m.get("bk_biz_id")),
        cloud,
        toStr(m.get("ip")),
        toStr(m.get("hostname")),
        toStr(m.get("bk_agent_id")),
        hostId,
        toStr(m.get("bk_tenant_id")),
        toInt(m.get("static_dataid")));
  }

  /**
   * An int from a JSON number or numeric string; null if absent, not integral, or outside int32.
   */
  static Integer toInt(Object v) {
    String text;
    if (v instanceof BigDecimal) {
      text = ((BigDecimal) v).toString();
    } else if (v instanceof String) {
      text = ((String) v).trim();
    } else {
      return null;
    }
    try {
      return new BigDecimal(text).intValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      return null;
    }
  }

  static String toStr(Object v) {
    if (v instanceof String) {
      return (String) v;
    }
    if (v instanceof BigDecimal) {
      return ((BigDecimal) v).toPlainString();
    }
    return null;
  }

  private static String cut(String s) {
    return s == null || s.length() <= MAX_STRING_CHARS ? s : s.substring(0, MAX_STRING_CHARS);
  }

  @Override
  public String toString() {
    return "AgentInfo{bizid="
        + bizId
        + ", bk_biz_id="
        + bkBizId
        + ", cloudid="
        + cloudId
        + ", ip="
        + ip
        + ", hostname="
        + hostname
        + ", bk_agent_id="
        + bkAgentId
        + ", bk_host_id="
        + bkHostId
        + ", bk_tenant_id="
        + bkTenantId
        + ", static_dataid="
        + staticDataId
        + "}";
  }
}
