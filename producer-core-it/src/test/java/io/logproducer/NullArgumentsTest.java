package io.logproducer;

import static io.logproducer.testing.NullArguments.callEachWithNulls;
import static io.logproducer.testing.NullArguments.callWithNull;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every public method of the public builders and value factories, called with null for each
 * reference parameter (and valid values elsewhere), either accepts null as documented or throws an
 * {@link IllegalArgumentException} whose message names what was wrong — never a bare {@link
 * NullPointerException}.
 */
public class NullArgumentsTest {

  @Test
  void logRecordBuilderNeverThrowsABareNullPointerException() throws Exception {
    List<String> checked = callEachWithNulls(LogRecord.Builder.class, LogRecord::builder);
    assertTrue(
        checked.contains(
            "setSeverity(Severity=null) -> severity must not be null (use Severity.UNSPECIFIED"
                + " to clear it)"),
        String.join("\n", checked));
    assertTrue(
        checked.contains("setTimestamp(Instant=null) -> timestamp must not be null"),
        String.join("\n", checked));
  }

  @Test
  void producerConfigBuilderNeverThrowsABareNullPointerException() throws Exception {
    List<String> checked = callEachWithNulls(ProducerConfig.Builder.class, ProducerConfig::builder);
    assertTrue(checked.size() >= 5, String.join("\n", checked));
  }

  @Test
  void anyValueFactoriesNeverThrowABareNullPointerException() throws Exception {
    int calls = 0;
    for (Method m : AnyValue.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())
          && m.getParameterCount() == 1
          && !m.getParameterTypes()[0].isPrimitive()) {
        callWithNull(m, null, 0);
        calls++;
      }
    }
    assertTrue(calls >= 4, "AnyValue has " + calls + " one-argument reference factories");
  }

  @Test
  void theHelperItselfCatchesABareNullPointerException() throws Exception {
    Method m = NullArgumentsTest.class.getDeclaredMethod("npe", String.class);
    AssertionError e =
        org.junit.jupiter.api.Assertions.assertThrows(
            AssertionError.class, () -> callWithNull(m, null, 0));
    assertEquals(true, e.getMessage().contains("NullPointerException"), e.getMessage());
  }

  public static int npe(String s) {
    return s.length();
  }
}
