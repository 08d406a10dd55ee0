package io.logproducer.kafka.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which Kafka properties hold secrets, and their values kept out of what the exporter prints
 * (messages, exceptions, logs, {@code toString}). A property is secret when its name, in lower
 * case, contains {@code password}, {@code passwd}, {@code jaas}, {@code secret}, {@code token},
 * {@code credential}, {@code private} or {@code user.info}, or its last part (split at {@code .},
 * {@code _} and {@code -}) is {@code key} or {@code apikey}: for example {@code sasl.jaas.config},
 * {@code ssl.key.password}, {@code ssl.keystore.password}, {@code ssl.truststore.password}, {@code
 * ssl.keystore.key}, {@code sasl.oauthbearer.client.credentials.client.secret}, {@code
 * basic.auth.user.info}; not {@code key.serializer}, {@code ssl.keystore.location}, {@code
 * ssl.truststore.certificates} or {@code bootstrap.servers}. A secret's value prints as {@value
 * #MASK}. Stateless.
 */
public final class SecretProperties {

  /** What a secret value prints as: {@value}. */
  public static final String MASK = "****";

  /**
   * Values shorter than this are not searched for in messages ({@link #scrub}): they would match
   * everywhere.
   */
  static final int MIN_SCRUBBED_LENGTH = 4;

  private static final String[] SECRET_PARTS = {
    "password", "passwd", "jaas", "secret", "token", "credential", "private", "user.info"
  };

  /** A JAAS option, {@code name=value} or {@code name="value"}. */
  private static final Pattern JAAS_OPTION =
      Pattern.compile("([A-Za-z0-9_.-]+)\\s*=\\s*(?:\"((?:[^\"\\\\]|\\\\.)*)\"|([^\\s;\"]+))");

  private SecretProperties() {}

  /**
   * Whether the property's value is a secret, by its name (see the class comment).
   *
   * @param name a Kafka property name; null is not secret
   * @return true if its value must never be printed
   */
  public static boolean isSecret(String name) {
    if (name == null) {
      return false;
    }
    String n = name.toLowerCase(Locale.ROOT);
    for (String part : SECRET_PARTS) {
      if (n.contains(part)) {
        return true;
      }
    }
    String[] parts = n.split("[._-]");
    String last = parts.length == 0 ? "" : parts[parts.length - 1];
    return last.equals("key") || last.equals("apikey");
  }

  /**
   * The value as it may be printed.
   *
   * @param name the property name
   * @param value its value
   * @return {@value #MASK} for a secret property, else {@code String.valueOf(value)}
   */
  public static String printable(String name, Object value) {
    return isSecret(name) ? MASK : String.valueOf(value);
  }

  /**
   * A copy to print: the same entries in the same order, secret values replaced by {@value #MASK}.
   *
   * @param properties Kafka properties
   * @return a new map
   */
  public static Map<String, Object> redact(Map<String, ?> properties) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<String, ?> e : properties.entrySet()) {
      out.put(e.getKey(), isSecret(e.getKey()) ? MASK : e.getValue());
    }
    return out;
  }

  /**
   * What must not appear in text: the values of the secret properties (and the elements of a
   * collection value), and in a JAAS value (a property whose name contains {@code jaas}) the value
   * of each of its options, quoted or not; longest first, without those shorter than {@value
   * #MIN_SCRUBBED_LENGTH} characters.
   *
   * @param properties Kafka properties
   * @return the strings, longest first
   */
  public static List<String> secretValues(Map<String, ?> properties) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, ?> e : properties.entrySet()) {
      if (!isSecret(e.getKey()) || e.getValue() == null) {
        continue;
      }
      String v = valueText(e.getValue());
      add(out, v);
      add(out, v.trim());
      if (e.getValue() instanceof Collection) {
        for (Object element : (Collection<?>) e.getValue()) {
          add(out, element == null ? null : valueText(element));
        }
      }
      if (e.getKey().toLowerCase(Locale.ROOT).contains("jaas")) {
        Matcher m = JAAS_OPTION.matcher(v);
        while (m.find()) {
          add(out, m.group(2) != null ? m.group(2) : m.group(3));
        }
      }
    }
    out.sort((a, b) -> Integer.compare(b.length(), a.length()));
    return out;
  }

  /**
   * Kafka's {@code Password} type prints as {@code [hidden]}: its value is {@code value()}, found
   * without a compile-time dependency on the class.
   */
  private static String valueText(Object value) {
    if (value.getClass().getName().equals("org.apache.kafka.common.config.types.Password")) {
      try {
        return String.valueOf(value.getClass().getMethod("value").invoke(value));
      } catch (ReflectiveOperationException | RuntimeException e) {
        return String.valueOf(value);
      }
    }
    return String.valueOf(value);
  }

  private static void add(List<String> out, String s) {
    if (s != null && s.length() >= MIN_SCRUBBED_LENGTH && !out.contains(s)) {
      out.add(s);
    }
  }

  /**
   * The text with every {@linkplain #secretValues secret value} of {@code properties} replaced by
   * {@value #MASK}.
   *
   * @param text a message, or null
   * @param properties the Kafka properties the text may quote
   * @return the scrubbed text (null for null)
   */
  public static String scrub(String text, Map<String, ?> properties) {
    return scrub(text, secretValues(properties));
  }

  /**
   * The text with each of {@code secrets} replaced by {@value #MASK}.
   *
   * @param text a message, or null
   * @param secrets from {@link #secretValues}, longest first
   * @return the scrubbed text (null for null)
   */
  public static String scrub(String text, List<String> secrets) {
    if (text == null) {
      return null;
    }
    String out = text;
    for (String s : secrets) {
      out = out.replace(s, MASK);
    }
    return out;
  }

  /**
   * A throwable to hand on in place of {@code e}: {@code e} itself when no message in its cause
   * chain holds a secret value, else a copy whose messages are scrubbed (class names and messages
   * kept as {@code RuntimeException}s with the original stack traces; the secret-bearing originals
   * are dropped).
   *
   * @param e a throwable, or null
   * @param secrets from {@link #secretValues}
   * @return {@code e} or its scrubbed copy (null for null)
   */
  public static Throwable scrubbed(Throwable e, List<String> secrets) {
    if (e == null || secrets.isEmpty() || !holdsSecret(e, secrets)) {
      return e;
    }
    Throwable cause = e.getCause() == e ? null : scrubbed(e.getCause(), secrets);
    RuntimeException copy =
        new RuntimeException(e.getClass().getName() + ": " + scrub(e.getMessage(), secrets), cause);
    copy.setStackTrace(e.getStackTrace());
    return copy;
  }

  private static boolean holdsSecret(Throwable e, List<String> secrets) {
    Throwable t = e;
    for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
      String m = t.getMessage();
      if (m != null && !scrub(m, secrets).equals(m)) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }
}
