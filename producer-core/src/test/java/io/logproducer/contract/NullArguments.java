package io.logproducer.contract;

import static org.junit.jupiter.api.Assertions.fail;

import io.logproducer.AnyValue;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Calls public methods with null for each reference parameter (and valid values elsewhere) and checks the API's
 * promise: null is either accepted as documented or refused with an {@link IllegalArgumentException} whose message
 * says what was wrong — never a bare {@link NullPointerException}. Shared by the modules' builder tests.
 */
public final class NullArguments {

  private NullArguments() {
  }

  /**
   * Calls every public instance method declared by {@code type} on a fresh instance, once per reference parameter
   * with that parameter null.
   *
   * @return one line per call: {@code "name(Type=null) -> accepted"} or {@code "... -> <message>"}
   */
  public static <T> List<String> callEachWithNulls(Class<T> type, Supplier<T> fresh) throws Exception {
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

  /** Returns "accepted" or the IllegalArgumentException's message; fails the test on any other exception. */
  public static String callWithNull(Method m, Object target, int nullIndex) throws Exception {
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
    throw new AssertionError("NullArguments has no valid value for " + type + "; add one");
  }
}
