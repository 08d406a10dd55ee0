package io.logproducer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Every public method of the public builders and value factories, called with null for each reference parameter
 * (and valid values elsewhere), either accepts null as documented or throws an {@link IllegalArgumentException}
 * whose message names what was wrong — never a bare {@link NullPointerException}.
 */
class NullArgumentsTest {

  @Test
  void logRecordBuilderNeverThrowsABareNullPointerException() throws Exception {
    List<String> checked = callEachWithNulls(LogRecord.Builder.class, LogRecord::builder);
    assertTrue(checked.contains("setSeverity(Severity=null) -> severity must not be null (use Severity.UNSPECIFIED"
        + " to clear it)"), String.join("\n", checked));
    assertTrue(checked.contains("setTimestamp(Instant=null) -> timestamp must not be null"),
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
      if (Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == 1
          && !m.getParameterTypes()[0].isPrimitive()) {
        callWithNull(m, null, 0);
        calls++;
      }
    }
    assertTrue(calls >= 4, "AnyValue has " + calls + " one-argument reference factories");
  }

  /** Calls every public one- or two-argument method of {@code type} on a fresh instance with each reference arg null. */
  private static <T> List<String> callEachWithNulls(Class<T> type, Supplier<T> fresh) throws Exception {
    List<String> checked = new ArrayList<>();
    for (Method m : type.getMethods()) {
      if (m.getDeclaringClass() != type || Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      Class<?>[] params = m.getParameterTypes();
      for (int i = 0; i < params.length; i++) {
        if (!params[i].isPrimitive()) {
          String outcome = callWithNull(m, fresh.get(), i);
          checked.add(m.getName() + "(" + params[i].getSimpleName() + "=null) -> " + outcome);
        }
      }
    }
    return checked;
  }

  /** Returns "accepted" or the IllegalArgumentException's message; fails on any other exception. */
  private static String callWithNull(Method m, Object target, int nullIndex) throws Exception {
    Class<?>[] params = m.getParameterTypes();
    Object[] args = new Object[params.length];
    for (int i = 0; i < params.length; i++) {
      args[i] = i == nullIndex ? null : validValue(params[i]);
    }
    try {
      m.invoke(target, args);
      return "accepted";
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IllegalArgumentException && cause.getMessage() != null
          && !cause.getMessage().isEmpty()) {
        return cause.getMessage();
      }
      fail(m + " with argument " + nullIndex + " null threw " + cause, cause);
      return null;
    }
  }

  private static Object validValue(Class<?> type) {
    if (type == String.class) {
      return "k";
    }
    if (type == long.class) {
      return 1L;
    }
    if (type == int.class) {
      return 1;
    }
    if (type == boolean.class) {
      return true;
    }
    if (type == double.class) {
      return 1.0;
    }
    if (type == byte[].class) {
      return new byte[] {1};
    }
    if (type == AnyValue.class) {
      return AnyValue.of("v");
    }
    if (type == java.util.concurrent.TimeUnit.class) {
      return java.util.concurrent.TimeUnit.SECONDS;
    }
    if (type == java.time.Duration.class) {
      return java.time.Duration.ofSeconds(1);
    }
    if (type == java.time.Instant.class) {
      return java.time.Instant.EPOCH;
    }
    if (type == Map.class) {
      return Map.of();
    }
    if (type == List.class) {
      return List.of();
    }
    if (type.isEnum()) {
      return type.getEnumConstants()[0];
    }
    throw new AssertionError("no valid value for " + type);
  }

  @Test
  void theHelperItselfCatchesABareNullPointerException() throws Exception {
    Method m = NullArgumentsTest.class.getDeclaredMethod("npe", String.class);
    AssertionError e = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
        () -> callWithNull(m, null, 0));
    assertEquals(true, e.getMessage().contains("NullPointerException"), e.getMessage());
  }

  static int npe(String s) {
    return s.length();
  }
}
