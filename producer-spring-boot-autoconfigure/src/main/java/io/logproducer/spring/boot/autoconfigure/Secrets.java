package io.logproducer.spring.boot.autoconfigure;

import java.util.Locale;

/**
 * What of the {@code logproducer.*} properties is secret, and how it is shown instead: the values
 * of {@code logproducer.otlp.headers.*} (an Authorization header), the user-info of {@code
 * logproducer.otlp.endpoint} ({@code https://user:password@host}), and the {@code
 * logproducer.kafka.properties.*} whose names look secret ({@code sasl.jaas.config}, {@code
 * ssl.key.password}, …). File paths ({@code logproducer.otlp.tls.*}) are not secret; the key
 * material they point to is never read into a property. Used by the starter's messages and health
 * details and by {@link LogproducerSanitizingFunction} (the actuator's {@code configprops} and
 * {@code env}).
 *
 * <p>Thread-safe (stateless).
 */
final class Secrets {

  /** What a secret is shown as: Spring Boot's own mask. */
  static final String MASK = "******";

  private static final String[] SECRET_WORDS = {
    "password", "passwd", "jaas", "secret", "key", "token", "credential", "auth"
  };

  private Secrets() {}

  /**
   * {@return {@code url} with its user-info masked: {@code https://user:******@host} when it has a
   * password, {@code https://******@host} when it is one word (often a token); other text as it is}
   *
   * @param url any text, or null ("null")
   */
  static String redactUrl(String url) {
    if (url == null) {
      return "null";
    }
    int scheme = url.indexOf("://");
    if (scheme < 0) {
      return url;
    }
    int start = scheme + 3;
    int end = start;
    while (end < url.length() && "/?#".indexOf(url.charAt(end)) < 0) {
      end++;
    }
    int at = url.lastIndexOf('@', end - 1);
    if (at < start) {
      return url;
    }
    int colon = url.indexOf(':', start);
    String user = colon >= 0 && colon < at ? url.substring(start, colon) + ":" : "";
    return url.substring(0, start) + user + MASK + url.substring(at);
  }

  /** {@return whether a Kafka client property's name looks secret (case-insensitive)} */
  static boolean isSecretKafkaProperty(String name) {
    String n = name.toLowerCase(Locale.ROOT);
    for (String w : SECRET_WORDS) {
      if (n.contains(w)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@return the masked form of a property's value, or null if it is not secret}: for a property
   * name in any of Spring's forms ({@code logproducer.otlp.headers.Authorization}, {@code
   * logproducer.otlp.headers[Authorization]}, {@code LOGPRODUCER_OTLP_HEADERS_AUTHORIZATION}, or
   * the actuator's {@code maxRequestSize} style)
   *
   * @param key the property's name
   * @param value its value (a String for the endpoint's user-info)
   */
  static Object masked(String key, Object value) {
    if (key == null || value == null) {
      return null;
    }
    String k = normalize(key);
    if (k.startsWith("logproducer.otlp.headers.")) {
      return MASK;
    }
    if (k.startsWith("logproducer.kafka.properties.")
        && isSecretKafkaProperty(k.substring("logproducer.kafka.properties.".length()))) {
      return MASK;
    }
    if (k.equals("logproducer.otlp.endpoint") && value instanceof CharSequence) {
      String v = value.toString();
      String r = redactUrl(v);
      return r.equals(v) ? null : r;
    }
    return null;
  }

  /** Lower case, {@code [x]} and {@code _} as dots. */
  private static String normalize(String key) {
    StringBuilder b = new StringBuilder(key.length());
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c == '[' || c == '_') {
        b.append('.');
      } else if (c != ']' && c != '"' && c != '\'') {
        b.append(Character.toLowerCase(c));
      }
    }
    return b.toString();
  }
}
