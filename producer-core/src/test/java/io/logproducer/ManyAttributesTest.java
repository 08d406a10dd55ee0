package io.logproducer;

import static io.logproducer.ProducerConfigTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The builder with many attributes (issue 19): O(1) per attribute past the scan of a few keys, the
 * same semantics as with few, the attribute count limit and {@code dropped_attributes_count}.
 */
class ManyAttributesTest {

  private static final int MILLION = 1_000_000;

  @Test
  void aMillionDistinctKeysDoNotTakeQuadraticTime() {
    // The linear duplicate scan took n²/2 string comparisons: about half an hour for a million.
    String[] keys = new String[MILLION];
    for (int i = 0; i < MILLION; i++) {
      keys[i] = "mdc.key." + i;
    }
    LogRecord r =
        assertTimeoutPreemptively(
            Duration.ofSeconds(30),
            () -> {
              LogRecord.Builder b = LogRecord.builder();
              for (int i = 0; i < MILLION; i++) {
                b.setAttribute(keys[i], "v" + i);
              }
              return b.build();
            });
    assertEquals(MILLION, r.getAttributeCount());
    for (int i : new int[] {0, 7, 8, 9, 4095, 4096, 654_321, MILLION - 1}) {
      assertEquals(keys[i], r.getAttributeKey(i));
      assertEquals("v" + i, r.getAttributeValue(i).asString());
    }
    assertEquals(0, r.getDroppedAttributesCount());
  }

  @Test
  void aRepeatedKeyAmongManyKeepsItsPositionAndTakesTheLastValue() {
    LogRecord.Builder b = LogRecord.builder();
    for (int i = 0; i < 10_000; i++) {
      b.setAttribute("k" + i, (long) i);
    }
    for (int i = 0; i < 10_000; i += 3) {
      b.setAttribute("k" + i, "again " + i); // every third key, in the scanned and indexed range
    }
    b.setAttribute("k9999", true).setAttribute("k0", 1.5);
    LogRecord r = b.build();
    assertEquals(10_000, r.getAttributeCount());
    for (int i = 0; i < 10_000; i++) {
      assertEquals("k" + i, r.getAttributeKey(i), "position of k" + i);
    }
    assertEquals(1.5, r.getAttribute("k0").asDouble());
    assertEquals(1L, r.getAttribute("k1").asLong());
    assertEquals("again 3", r.getAttribute("k3").asString());
    assertEquals("again 9993", r.getAttribute("k9993").asString());
    assertEquals(true, r.getAttribute("k9999").asBoolean());
  }

  @Test
  void keysWithTheSameHashAreToldApart() {
    // "Aa" and "BB" share String.hashCode, so every key below collides with all the others.
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 512; i++) {
      StringBuilder k = new StringBuilder();
      for (int bit = 0; bit < 9; bit++) {
        k.append((i >> bit & 1) == 0 ? "Aa" : "BB");
      }
      keys.add(k.toString());
    }
    LogRecord.Builder b = LogRecord.builder();
    for (String k : keys) {
      b.setAttribute(k, k);
    }
    for (String k : keys) {
      b.setAttribute(k, k + "!");
    }
    LogRecord r = b.build();
    assertEquals(512, r.getAttributeCount());
    for (int i = 0; i < 512; i++) {
      assertEquals(keys.get(i), r.getAttributeKey(i));
      assertEquals(keys.get(i) + "!", r.getAttributeValue(i).asString());
    }
  }

  @Test
  void aClearedBuilderIsReusedWithFewAndWithManyAttributes() {
    LogRecord.Builder b = LogRecord.builder();
    for (int i = 0; i < 1000; i++) {
      b.setAttribute("a" + i, i);
    }
    b.setDroppedAttributesCount(5);
    LogRecord many = b.build();
    b.clearAttributes();
    LogRecord none = b.build();
    assertEquals(0, none.getAttributeCount());
    assertEquals(0, none.getDroppedAttributesCount());
    assertEquals(0, none.getLongestAttributeValueLength());
    b.setAttribute("a999", "x").setAttribute("b", "y").setAttribute("a999", "z");
    LogRecord few = b.build();
    assertEquals(2, few.getAttributeCount());
    assertEquals("a999", few.getAttributeKey(0));
    assertEquals("z", few.getAttributeValue(0).asString());
    assertNull(few.getAttribute("a0"), "a key of before the clear is gone from the index too");
    b.clearAttributes();
    for (int i = 0; i < 20; i++) {
      b.setAttribute("c" + i, "v").setAttribute("c" + (i / 2), "w" + i);
    }
    LogRecord again = b.build();
    assertEquals(20, again.getAttributeCount());
    assertEquals("w19", again.getAttribute("c9").asString());
    assertEquals("c19", again.getAttributeKey(19));
    assertEquals(1000, many.getAttributeCount(), "a built record does not change with its builder");
    assertEquals(5, many.getDroppedAttributesCount());
  }

  @Test
  void theAttributeCountLimitKeepsTheFirstAndCountsTheRest() {
    LogRecord.Builder b = LogRecord.builder().setDroppedAttributesCount(3);
    b.setAttributeCountLimit(100);
    for (int i = 0; i < 250; i++) {
      b.setAttribute("k" + i, "v" + i);
    }
    b.setAttribute("k5", "replaced while full"); // a held key may still change
    LogRecord r = b.build();
    assertEquals(100, r.getAttributeCount());
    assertEquals("k99", r.getAttributeKey(99));
    assertEquals("replaced while full", r.getAttribute("k5").asString());
    assertNull(r.getAttribute("k100"));
    assertEquals(3 + 150, r.getDroppedAttributesCount());
    b.setAttributeCountLimit(Integer.MAX_VALUE).setAttribute("late", 1L);
    assertEquals(101, b.build().getAttributeCount());
    assertEquals(
        0,
        LogRecord.builder()
            .setAttributeCountLimit(0)
            .setAttribute("a", 1L)
            .build()
            .getAttributeCount());
  }

  @Test
  void theDroppedCountSaturates() {
    LogRecord.Builder b =
        LogRecord.builder()
            .setDroppedAttributesCount(Integer.MAX_VALUE - 1)
            .setAttributeCountLimit(0);
    b.setAttribute("a", 1L).setAttribute("b", 1L).setAttribute("c", 1L);
    assertEquals(Integer.MAX_VALUE, b.build().getDroppedAttributesCount());
  }

  @Test
  void negativeCountsAreRefused() {
    assertMessage(
        "droppedAttributesCount must be >= 0, was -1",
        () -> LogRecord.builder().setDroppedAttributesCount(-1));
    assertMessage(
        "attributeCountLimit must be >= 0, was -2",
        () -> LogRecord.builder().setAttributeCountLimit(-2));
  }

  @Test
  void theLongestValueIsKnownWithoutAScan() {
    Map<String, AnyValue> kv = new LinkedHashMap<>();
    kv.put("deep", AnyValue.ofArray(AnyValue.of("x".repeat(40)), AnyValue.of(7L)));
    LogRecord.Builder b =
        LogRecord.builder()
            .setAttribute("s", "12345")
            .setAttribute("n", 123456789L)
            .setAttribute("bytes", new byte[12]);
    assertEquals(12, b.build().getLongestAttributeValueLength());
    b.setAttribute("kv", AnyValue.ofKeyValueList(kv));
    assertEquals(40, b.build().getLongestAttributeValueLength());
    assertEquals(
        0,
        LogRecord.builder()
            .setBody("a long body is not an attribute")
            .build()
            .getLongestAttributeValueLength());
    assertEquals(
        "LogRecord{time=0, severity=0, body=null, attributes={a=1}, droppedAttributes=2}",
        LogRecord.builder()
            .setAttributeCountLimit(1)
            .setAttribute("a", 1L)
            .setAttribute("b", 2L)
            .setAttribute("c", 3L)
            .build()
            .toString());
    assertSame(null, LogRecord.builder().build().getAttribute("s"));
  }
}
