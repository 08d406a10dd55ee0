package io.logproducer.internal.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonReaderTest {

  @Test
  void parseObjectToleratesWhatAgentsAddAroundTheDocumentAndNothingElse() {
    assertEquals(
        java.util.Map.of("a", new BigDecimal("1")),
        JsonReader.parseObject("\uFEFF {\"a\":1}\n\0\0"));
    assertThrows(IllegalArgumentException.class, () -> JsonReader.parseObject("[1]"));
    assertThrows(IllegalArgumentException.class, () -> JsonReader.parseObject("{\"a\":1} x"));
    assertThrows(IllegalArgumentException.class, () -> JsonReader.parseObject(""));
  }

  @Test
  void parsesEveryKind() {
    Object v =
        JsonReader.parse(
            " {\"a\":[1,-2.5e3,\"s\\n\\u4e2d\\/\",true,false,null,{}],\"b\":{\"c\":\"\"}} trailing");
    Map<?, ?> m = (Map<?, ?>) v;
    List<?> a = (List<?>) m.get("a");
    assertEquals(new BigDecimal("1"), a.get(0));
    assertEquals(new BigDecimal("-2.5e3"), a.get(1));
    assertEquals("s\n中/", a.get(2));
    assertEquals(Boolean.TRUE, a.get(3));
    assertEquals(Boolean.FALSE, a.get(4));
    assertNull(a.get(5));
    assertEquals(Map.of(), a.get(6));
    assertEquals(Map.of("c", ""), m.get("b"));
  }

  @Test
  void longsFromNumbersOrStrings() {
    assertEquals(3L, JsonReader.asLong(new BigDecimal("3")));
    assertEquals(3L, JsonReader.asLong("3"));
    assertEquals(-9_000_000_000L, JsonReader.asLong("-9000000000"));
    assertNull(JsonReader.asLong("x"));
    assertNull(JsonReader.asLong(Boolean.TRUE));
    assertNull(JsonReader.asLong(null));
  }

  @Test
  void malformedInputThrowsIllegalArgument() {
    for (String bad :
        new String[] {
          "", "{", "{\"a\"}", "{\"a\":}", "[1,", "\"abc", "tru", "{a:1}", "[1 2]", "\"\\u12\"", "-"
        }) {
      assertThrows(IllegalArgumentException.class, () -> JsonReader.parse(bad), bad);
    }
    assertThrows(
        IllegalArgumentException.class, () -> JsonReader.parse("[".repeat(100) + "]".repeat(100)));
  }
}
