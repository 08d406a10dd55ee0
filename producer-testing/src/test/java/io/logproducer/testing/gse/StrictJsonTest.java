package io.logproducer.testing.gse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StrictJsonTest {

  @Test
  void parsesEveryKindOfValueInDocumentOrder() {
    Map<String, Object> m =
        StrictJson.parseObject(
            " {\"z\":1,\"a\":[true,false,null],\"s\":\"q\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\",\"d\":-1.5e2,\"o\":{}} ");
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("z", 1L);
    expected.put("a", Arrays.asList(true, false, null));
    expected.put("s", "q\"\\/\b\f\n\r\t\u00e9");
    expected.put("d", new BigDecimal("-1.5e2"));
    expected.put("o", Map.of());
    assertEquals(expected, m);
    assertEquals(List.copyOf(expected.keySet()), List.copyOf(m.keySet()));
  }

  @Test
  void refusesWhatIsNotStrictJson() {
    for (String bad :
        new String[] {
          "{\"a\":1} x",
          "{'a':1}",
          "{\"a\":1,}",
          "{\"a\":01}",
          "{\"a\":1,\"a\":2}",
          "{\"a\":\"\\x\"}",
          "{\"a\":\"\u0001\"}",
          "[1]",
          "{\"a\":tru}",
          "{\"a\":1",
          "{\"a\":.5}"
        }) {
      assertThrows(IllegalArgumentException.class, () -> StrictJson.parseObject(bad), bad);
    }
    assertEquals(
        "text after the JSON value at offset 8",
        assertThrows(IllegalArgumentException.class, () -> StrictJson.parseObject("{\"a\":1} x"))
            .getMessage());
  }
}
