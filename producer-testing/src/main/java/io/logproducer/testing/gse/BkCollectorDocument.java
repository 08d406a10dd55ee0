package io.logproducer.testing.gse;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The checks a frame's body must pass in {@link GseAgent.Mode#STRICT}: UTF-8, one strict JSON
 * object with exactly bk-collector's members in Go's sorted order, its {@code dataid} equal to the
 * header's, its {@code time} equal to the header's {@code utctime}, and items of exactly {@code
 * data} (a string) and {@code iterationindex} (0, 1, 2, …). Stateless; thread-safe.
 */
final class BkCollectorDocument {

  /** The members of the body, in Go's sorted map order. */
  static final List<String> BODY_KEYS =
      Collections.unmodifiableList(
          Arrays.asList(
              "bizid",
              "bk_agent_id",
              "bk_biz_id",
              "bk_host_id",
              "cloudid",
              "dataid",
              "datetime",
              "gseindex",
              "hostname",
              "ip",
              "items",
              "time",
              "utctime"));

  private static final List<String> ITEM_KEYS =
      Collections.unmodifiableList(Arrays.asList("data", "iterationindex"));

  private BkCollectorDocument() {}

  /** The text of {@code bytes}, or null if they are not UTF-8. */
  static String utf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /**
   * Checks a parsed body against its header.
   *
   * @return null if it is a valid bk-collector document for this header, else what is wrong
   */
  static String check(Map<String, Object> json, int headerDataId, long headerUtc) {
    List<String> keys = new ArrayList<String>(json.keySet());
    if (!keys.equals(BODY_KEYS)) {
      return "body members " + keys + ", expected " + BODY_KEYS;
    }
    Object dataId = json.get("dataid");
    if (!(dataId instanceof Long)
        || ((Long) dataId & 0xFFFFFFFFL) != (headerDataId & 0xFFFFFFFFL)) {
      return "header dataid " + (headerDataId & 0xFFFFFFFFL) + " != body dataid " + dataId;
    }
    Object time = json.get("time");
    if (!(time instanceof Long) || (Long) time != headerUtc) {
      return "header utctime " + headerUtc + " != body time " + time;
    }
    Object items = json.get("items");
    if (!(items instanceof List) || ((List<?>) items).isEmpty()) {
      return "no items";
    }
    List<?> list = (List<?>) items;
    for (int i = 0; i < list.size(); i++) {
      Object item = list.get(i);
      if (!(item instanceof Map)
          || !new ArrayList<Object>(((Map<?, ?>) item).keySet()).equals(ITEM_KEYS)) {
        return "item " + i + " is " + item;
      }
      Map<?, ?> m = (Map<?, ?>) item;
      if (!Long.valueOf(i).equals(m.get("iterationindex")) || !(m.get("data") instanceof String)) {
        return "item " + i + " is " + item;
      }
    }
    return null;
  }
}
