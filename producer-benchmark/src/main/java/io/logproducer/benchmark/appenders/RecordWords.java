package io.logproducer.benchmark.appenders;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The child-JVM protocol's one encoding: a record ({@link ChildSpec}, {@link ChildResult}) as
 * {@code name=value} words, one per component, and back. Components may be {@code int}, {@code
 * long}, {@code double}, {@code boolean}, {@code String} (without spaces when the words are joined
 * into a line), an enum (by {@code name()}) or {@code long[]} (comma-separated).
 */
final class RecordWords {

  private RecordWords() {}

  /** {@return the words of {@code r}, in component order} */
  static List<String> of(Record r) {
    return Arrays.stream(r.getClass().getRecordComponents())
        .map(
            c -> {
              try {
                Object v = c.getAccessor().invoke(r);
                return c.getName()
                    + "="
                    + (v instanceof long[] a
                        ? Arrays.stream(a).mapToObj(Long::toString).collect(Collectors.joining(","))
                        : v instanceof Enum<?> e ? e.name() : String.valueOf(v));
              } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
              }
            })
        .toList();
  }

  /**
   * {@return the {@code type} record that {@code words} describe}
   *
   * @throws IllegalArgumentException naming a component that is missing or malformed
   */
  static <R extends Record> R parse(Class<R> type, List<String> words) {
    Map<String, String> m = new HashMap<>();
    words.forEach(
        w -> m.put(w.substring(0, Math.max(0, w.indexOf('='))), w.substring(w.indexOf('=') + 1)));
    RecordComponent[] cs = type.getRecordComponents();
    Object[] values = new Object[cs.length];
    Class<?>[] types = new Class<?>[cs.length];
    for (int i = 0; i < cs.length; i++) {
      String v = m.get(cs[i].getName());
      if (v == null) {
        throw new IllegalArgumentException("missing " + cs[i].getName() + " in " + words);
      }
      types[i] = cs[i].getType();
      values[i] = value(types[i], v, cs[i].getName());
    }
    try {
      return type.getDeclaredConstructor(types).newInstance(values);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Object value(Class<?> t, String v, String name) {
    try {
      if (t == int.class) {
        return Integer.parseInt(v);
      } else if (t == long.class) {
        return Long.parseLong(v);
      } else if (t == double.class) {
        return Double.parseDouble(v);
      } else if (t == boolean.class) {
        return Boolean.parseBoolean(v);
      } else if (t == long[].class) {
        return v.isEmpty()
            ? new long[0]
            : Arrays.stream(v.split(",")).mapToLong(Long::parseLong).toArray();
      } else if (t.isEnum()) {
        return Enum.valueOf((Class) t, v);
      }
      return v;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("malformed " + name + "=" + v, e);
    }
  }
}
