package io.logproducer.testing.gse;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON (RFC 8259) parser, independent of the encoders under test: exactly one value and
 * nothing but whitespace after it; no comments, no single quotes, no trailing commas, no duplicate
 * member names, no leading zeros, escapes only as the RFC lists them. Objects become {@link
 * LinkedHashMap}s (members in document order), arrays {@link ArrayList}s, strings {@link String}s,
 * numbers {@link Long} when integral and in range (no fraction or exponent) else {@link
 * BigDecimal}, {@code true}/{@code false} {@link Boolean}s, {@code null} null.
 *
 * <p>Stateless entry point; each call parses on its own. Thread-safe.
 */
final class StrictJson {

  private final String s;
  private int p;

  private StrictJson(String s) {
    this.s = s;
  }

  /**
   * Parses {@code text}, which must hold exactly one JSON object.
   *
   * @return the object's members, in document order
   * @throws IllegalArgumentException if it is not exactly one strict JSON object, naming the offset
   */
  @SuppressWarnings("unchecked")
  static Map<String, Object> parseObject(String text) {
    Object v = parse(text);
    if (!(v instanceof Map)) {
      throw new IllegalArgumentException("not a JSON object");
    }
    return (Map<String, Object>) v;
  }

  /**
   * Parses {@code text}, which must hold exactly one JSON value.
   *
   * @throws IllegalArgumentException if it does not, naming the offset
   */
  static Object parse(String text) {
    StrictJson r = new StrictJson(text);
    r.ws();
    Object v = r.value(0);
    r.ws();
    if (r.p != text.length()) {
      throw r.error("text after the JSON value");
    }
    return v;
  }

  private Object value(int depth) {
    if (depth > 512) {
      throw error("nested too deeply");
    }
    if (p >= s.length()) {
      throw error("unexpected end");
    }
    char c = s.charAt(p);
    switch (c) {
      case '{':
        return object(depth);
      case '[':
        return array(depth);
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return number();
        }
        throw error("unexpected character '" + c + "'");
    }
  }

  private Map<String, Object> object(int depth) {
    Map<String, Object> m = new LinkedHashMap<String, Object>();
    p++; // {
    ws();
    if (peek() == '}') {
      p++;
      return m;
    }
    while (true) {
      if (peek() != '"') {
        throw error("expected a member name");
      }
      String key = string();
      if (m.containsKey(key)) {
        throw error("duplicate member \"" + key + "\"");
      }
      ws();
      expect(':');
      ws();
      m.put(key, value(depth + 1));
      ws();
      char c = peek();
      p++;
      if (c == '}') {
        return m;
      }
      if (c != ',') {
        throw error("expected ',' or '}'");
      }
      ws();
    }
  }

  private List<Object> array(int depth) {
    List<Object> list = new ArrayList<Object>();
    p++; // [
    ws();
    if (peek() == ']') {
      p++;
      return list;
    }
    while (true) {
      list.add(value(depth + 1));
      ws();
      char c = peek();
      p++;
      if (c == ']') {
        return list;
      }
      if (c != ',') {
        throw error("expected ',' or ']'");
      }
      ws();
    }
  }

  private String string() {
    p++; // "
    StringBuilder b = new StringBuilder();
    while (true) {
      if (p >= s.length()) {
        throw error("unterminated string");
      }
      char c = s.charAt(p++);
      if (c == '"') {
        return b.toString();
      }
      if (c < 0x20) {
        throw error("unescaped control character in a string");
      }
      if (c != '\\') {
        b.append(c);
        continue;
      }
      if (p >= s.length()) {
        throw error("unterminated escape");
      }
      char e = s.charAt(p++);
      switch (e) {
        case '"':
        case '\\':
        case '/':
          b.append(e);
          break;
        case 'b':
          b.append('\b');
          break;
        case 'f':
          b.append('\f');
          break;
        case 'n':
          b.append('\n');
          break;
        case 'r':
          b.append('\r');
          break;
        case 't':
          b.append('\t');
          break;
        case 'u':
          if (p + 4 > s.length()) {
            throw error("short \\u escape");
          }
          int v = 0;
          for (int i = 0; i < 4; i++) {
            int d = Character.digit(s.charAt(p++), 16);
            if (d < 0) {
              throw error("bad \\u escape");
            }
            v = v * 16 + d;
          }
          b.append((char) v);
          break;
        default:
          throw error("bad escape \\" + e);
      }
    }
  }

  private Object number() {
    int start = p;
    if (peek() == '-') {
      p++;
    }
    if (peek() == '0') {
      p++;
    } else if (isDigit(peek())) {
      digits();
    } else {
      throw error("bad number");
    }
    boolean integral = true;
    if (peek() == '.') {
      p++;
      integral = false;
      if (!isDigit(peek())) {
        throw error("bad fraction");
      }
      digits();
    }
    if (peek() == 'e' || peek() == 'E') {
      p++;
      integral = false;
      if (peek() == '+' || peek() == '-') {
        p++;
      }
      if (!isDigit(peek())) {
        throw error("bad exponent");
      }
      digits();
    }
    String text = s.substring(start, p);
    if (integral && text.length() < 19) {
      return Long.parseLong(text);
    }
    return new BigDecimal(text);
  }

  private void digits() {
    while (isDigit(peek())) {
      p++;
    }
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private Object literal(String word, Object value) {
    if (!s.startsWith(word, p)) {
      throw error("bad literal");
    }
    p += word.length();
    return value;
  }

  private char peek() {
    return p < s.length() ? s.charAt(p) : '\0';
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    p++;
  }

  private void ws() {
    while (p < s.length()) {
      char c = s.charAt(p);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      p++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at offset " + p);
  }
}
