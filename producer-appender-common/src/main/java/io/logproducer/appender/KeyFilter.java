package io.logproducer.appender;

import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Which context keys (MDC, ThreadContext, key-value pairs) become attributes: all ({@code *}, the
 * default), none (an empty include list), or an include list, less an exclude list. Immutable;
 * thread-safe.
 */
public final class KeyFilter {

  /** Every key. */
  public static final KeyFilter ALL = new KeyFilter(null, Collections.<String>emptySet());

  private final Set<String> include; // null = all
  private final Set<String> exclude;

  private KeyFilter(Set<String> include, Set<String> exclude) {
    this.include = include;
    this.exclude = exclude;
  }

  /**
   * Parses the lists as the XML gives them.
   *
   * @param include comma-separated keys, {@code *} (or null) for all, empty for none
   * @param exclude comma-separated keys never included, or null
   * @return the filter
   */
  public static KeyFilter of(String include, String exclude) {
    Set<String> in = include == null || include.trim().equals("*") ? null : split(include);
    return new KeyFilter(in, exclude == null ? Collections.<String>emptySet() : split(exclude));
  }

  private static Set<String> split(String list) {
    Set<String> out = new LinkedHashSet<>();
    for (String k : list.split(",")) {
      if (!k.trim().isEmpty()) {
        out.add(k.trim());
      }
    }
    return Collections.unmodifiableSet(out);
  }

  /**
   * Whether {@code key} becomes an attribute.
   *
   * @param key a context key
   * @return true if included and not excluded
   */
  public boolean accepts(String key) {
    return (include == null || include.contains(key)) && !exclude.contains(key);
  }

  /**
   * {@return true if no key can pass (an empty include list)} Lets callers skip reading the
   * context.
   */
  public boolean acceptsNone() {
    return include != null && include.isEmpty();
  }
}
