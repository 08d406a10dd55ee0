package io.logproducer.testing;

import static org.junit.jupiter.api.Assertions.fail;

import io.logproducer.AnyValue;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Calls public methods with null for each reference parameter (and valid values elsewhere) and
 * checks the API's promise: null is either accepted as documented or refused with an {@link
 * IllegalArgumentException} whose message says what was wrong — never a bare {@link
 * NullPointerException}. The modules' builder tests run it on their builders; so may users on their
 * own. Stateless; uses JUnit 5's {@code Assertions.fail} to report.
 */
public final class NullArguments {

  private NullArguments() {}

  /**
   * Calls every public instance method declared by {@code type} on a fresh instance, once per
   * reference parameter with that parameter null.
   *
   * @param type the class whose declared public instance methods are called
   * @param fresh makes a new instance for each call
   * @param <T> the type
   * @return one line per call: {@code "name(Type=null) -> accepted"} or {@code "... -> <message>"}
   * @throws Exception if a method cannot be invoked reflectively
   * @throws AssertionError (JUnit's) if a call throws anything but an {@link
   *     IllegalArgumentException} with a message
   */
  public static <T> List<String> callEachWithNulls(Class<T> type, Supplier<T> fresh)
      throws Exception {
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

  /**
   * Calls {@code m} on {@code target} with argument {@code nullIndex} null and valid values
   * elsewhere.
   *
   * @param m a public method
   * @param target the instance to call it on
   * @param nullIndex the 0-based index of the argument passed as null
   * @return "accepted" or the {@link IllegalArgumentException}'s message
   * @throws Exception if {@code m} cannot be invoked reflectively
   * @throws AssertionError (JUnit's) if the call throws anything else
   */
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
      if (cause instanceof IllegalArgumentException
          && cause.getMessage() != null
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
    if (type == java.nio.file.Path.class) {
      return java.nio.file.Paths.get("no-such-file.pem");
    }
    if (type == javax.net.ssl.SSLContext.class) {
      try {
        return javax.net.ssl.SSLContext.getDefault();
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new AssertionError(e);
      }
    }
    if (type == Map.class) {
      return Collections.emptyMap();
    }
    if (type == List.class) {
      return Collections.emptyList();
    }
    if (type.isEnum()) {
      return type.getEnumConstants()[0];
    }
    throw new AssertionError("NullArguments has no valid value for " + type + "; add one");
  }
}
