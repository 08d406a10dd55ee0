package io.logproducer;

import static io.logproducer.ProducerConfigTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class AnyValueTest {

  private static final String TOO_DEEP = "AnyValue nesting depth exceeds 100";

  @Test
  void maxDepthIsOneHundred() {
    assertEquals(100, AnyValue.MAX_DEPTH);
  }

  @Test
  void deeplyNestedArraysAreRejectedAtLevel101WithoutStackOverflow() {
    assertRejectedAtLevel101(inner -> AnyValue.ofArray(inner));
    assertRejectedAtLevel101(inner -> AnyValue.ofArray(Collections.singletonList(inner)));
  }

  @Test
  void deeplyNestedKeyValueListsAreRejectedAtLevel101WithoutStackOverflow() {
    assertRejectedAtLevel101(
        inner -> AnyValue.ofKeyValueList(Collections.singletonMap("k", inner)));
  }

  @Test
  void mixedNestingCountsEveryLevel() {
    assertRejectedAtLevel101(
        inner ->
            inner.getType() == AnyValue.Type.ARRAY
                ? AnyValue.ofKeyValueList(Collections.singletonMap("k", inner))
                : AnyValue.ofArray(AnyValue.of(1L), inner, AnyValue.ofArray()));
  }

  /**
   * Nests {@code wrap} bottom-up up to 20,000 times (far past the point where recursive encoders or
   * a recursive depth check overflow the stack): levels 1..100 must build, level 101 must throw the
   * typed IAE.
   */
  private static void assertRejectedAtLevel101(UnaryOperator<AnyValue> wrap) {
    AnyValue v = AnyValue.of("leaf"); // level 1
    for (int level = 2; level <= 20_000; level++) {
      AnyValue inner = v;
      if (level <= AnyValue.MAX_DEPTH) {
        v = wrap.apply(inner);
        continue;
      }
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> wrap.apply(inner),
              "level " + level + " must be rejected");
      assertEquals(101, level);
      assertTrue(e.getMessage().startsWith(TOO_DEEP), e.getMessage());
      // the deepest allowed value still works with the recursive Object methods
      assertEquals(v, copyOf(v));
      assertEquals(v.hashCode(), copyOf(v).hashCode());
      assertTrue(v.toString().contains("leaf"));
      return;
    }
    fail("nesting 20,000 levels deep was accepted");
  }

  /** A structurally equal but distinct instance, built bottom-up without recursion. */
  private static AnyValue copyOf(AnyValue v) {
    List<AnyValue> path = new ArrayList<>();
    for (AnyValue p = v; ; ) {
      path.add(p);
      if (p.getType() == AnyValue.Type.ARRAY) {
        List<AnyValue> a = p.asArray();
        p = a.size() == 1 ? a.get(0) : a.get(1);
      } else if (p.getType() == AnyValue.Type.KEY_VALUE_LIST) {
        p = p.asKeyValueList().get("k");
      } else {
        break;
      }
    }
    AnyValue copy = AnyValue.of(path.get(path.size() - 1).asString());
    for (int i = path.size() - 2; i >= 0; i--) {
      AnyValue p = path.get(i);
      if (p.getType() == AnyValue.Type.KEY_VALUE_LIST) {
        copy = AnyValue.ofKeyValueList(Collections.singletonMap("k", copy));
      } else if (p.asArray().size() == 1) {
        copy = AnyValue.ofArray(copy);
      } else {
        copy = AnyValue.ofArray(AnyValue.of(1L), copy, AnyValue.ofArray());
      }
    }
    return copy;
  }

  @Test
  void depthIsTheDeepestBranchNotTheWidth() {
    AnyValue deep = AnyValue.of(0L);
    for (int level = 2; level <= AnyValue.MAX_DEPTH; level++) {
      deep = AnyValue.ofArray(deep);
    }
    List<AnyValue> wide = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      wide.add(AnyValue.ofArray(AnyValue.of(i)));
    }
    AnyValue wideValue = AnyValue.ofArray(wide); // depth 3 however wide
    assertEquals(10_000, AnyValue.ofArray(wideValue).asArray().get(0).asArray().size());
    // one deep child among shallow ones decides
    AnyValue tooDeep = deep;
    assertMessage(
        TOO_DEEP + ": this array would have depth 101",
        () -> AnyValue.ofArray(AnyValue.of("a"), tooDeep, AnyValue.of("b")));
    Map<String, AnyValue> kv = new LinkedHashMap<>();
    kv.put("shallow", AnyValue.of(1L));
    kv.put("deep", tooDeep);
    assertMessage(
        TOO_DEEP + ": this key/value list would have depth 101", () -> AnyValue.ofKeyValueList(kv));
    // an empty container counts as depth 1, like a scalar
    AnyValue emptyAtTop = AnyValue.ofArray();
    for (int level = 2; level <= AnyValue.MAX_DEPTH; level++) {
      emptyAtTop = AnyValue.ofKeyValueList(Collections.singletonMap("k", emptyAtTop));
    }
    AnyValue full = emptyAtTop;
    assertMessage(TOO_DEEP + ": this array would have depth 101", () -> AnyValue.ofArray(full));
    // the limit applies wherever the value is used, so a record can never carry one deeper
    assertEquals(
        deep, LogRecord.builder().setBody(deep).setAttribute("a", deep).build().getAttribute("a"));
  }

  @Test
  void emptyKeyValueListKeyIsRejected() {
    // OTLP: "The attribute key MUST be a non-null and non-empty string"; kvlist entries are
    // KeyValues too
    Map<String, AnyValue> bad = new LinkedHashMap<>();
    bad.put("ok", AnyValue.of(1L));
    bad.put("", AnyValue.of("empty key"));
    assertMessage("key/value list key must not be empty", () -> AnyValue.ofKeyValueList(bad));
    assertMessage(
        "key/value list key must not be empty",
        () -> AnyValue.ofKeyValueList(Collections.singletonMap("", AnyValue.ofArray())));
    assertEquals(1, AnyValue.ofKeyValueList(Map.of(" ", AnyValue.of(1L))).asKeyValueList().size());
  }
}
