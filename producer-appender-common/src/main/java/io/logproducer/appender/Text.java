package io.logproducer.appender;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Parsing of the text values logging frameworks' XML gives: enum names, {@code k=v} lists. */
final class Text {

  private Text() {}

  /**
   * The constant of {@code type} named {@code value}, any case; IllegalArgumentException naming
   * {@code setting}.
   */
  static <E extends Enum<E>> E enumValue(Class<E> type, String setting, String value) {
    if (value != null) {
      for (E e : type.getEnumConstants()) {
        if (e.name().equalsIgnoreCase(value.trim())) {
          return e;
        }
      }
    }
    StringBuilder names = new StringBuilder();
    for (E e : type.getEnumConstants()) {
      names.append(names.length() == 0 ? "" : ", ").append(e.name());
    }
    throw new IllegalArgumentException(
        setting + " must be one of " + names + ", was '" + value + "'");
  }

  /**
   * Parses {@code "k1=v1,k2=v2"} (whitespace around keys and values ignored; empty items skipped).
   *
   * @throws IllegalArgumentException if an item has no {@code =} or an empty key (the message
   *     quotes the list)
   */
  static Map<String, String> keyValues(String setting, String list) {
    return keyValues(setting, list, false);
  }

  /**
   * Parses {@code "k1=v1,k2=v2"} (whitespace around keys and values ignored; empty items skipped).
   *
   * @param secret whether the values may be secrets (request headers): a malformed item is then
   *     named by its position only, the list and the item are not quoted
   * @throws IllegalArgumentException if an item has no {@code =} or an empty key
   */
  static Map<String, String> keyValues(String setting, String list, boolean secret) {
    Map<String, String> out = new LinkedHashMap<>();
    if (list == null) {
      return out;
    }
    String[] items = list.split(",", -1);
    for (int i = 0; i < items.length; i++) {
      String item = items[i];
      if (item.trim().isEmpty()) {
        continue;
      }
      int eq = item.indexOf('=');
      if (eq <= 0 || item.substring(0, eq).trim().isEmpty()) {
        throw new IllegalArgumentException(
            secret
                ? setting
                    + " must be name=value items separated by commas; item "
                    + (i + 1)
                    + " of "
                    + items.length
                    + (eq < 0 ? " has no '='" : " has an empty name")
                    + " (not shown: it may hold a secret)"
                : setting + " must be key=value items separated by commas, was '" + list + "'");
      }
      out.put(item.substring(0, eq).trim(), item.substring(eq + 1).trim());
    }
    return out;
  }

  /** Whether {@code name} is an HTTP token (RFC 9110 {@code tchar}s, at least one). */
  static boolean isToken(String name) {
    if (name == null || name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c < 128 && (Character.isLetterOrDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0))) {
        return false;
      }
    }
    return true;
  }

  /** {@code name} reduced to characters safe in thread and JMX names. */
  static String clientIdPart(String name) {
    if (name == null || name.isEmpty()) {
      return "appender";
    }
    StringBuilder sb = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      sb.append(
          c < 128 && (Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.') ? c : '_');
    }
    return sb.toString().toLowerCase(Locale.ROOT);
  }
}
