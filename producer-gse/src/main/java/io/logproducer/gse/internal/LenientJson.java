package io.logproducer.gse.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small, lenient JSON reader for the agent's replies: objects become {@code LinkedHashMap<String, Object>},
 * arrays {@code List<Object>}, numbers their source text as a {@link JsonNumber}, plus {@code String},
 * {@code Boolean} and {@code null}. It tolerates what C and Go agents have been seen to add around a document: a
 * byte-order mark, leading/trailing whitespace and trailing NUL bytes. Anything else malformed throws
 * {@link IllegalArgumentException} with the offset. Stateless; thread-safe.
 */
public final class LenientJson {

  /** A number's source text, e.g. {@code "12"}, {@code "-1.5e3"}. */
  public static final class JsonNumber {
    public final String text;

    JsonNumber(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  private final String s;
  private int i;

  private LenientJson(String s) {
    this.s = s;
  }

  /**
   * Parses a document whose top level is an object.
   *
   * @throws IllegalArgumentException if it is not one
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> parseObject(String text) {
    LenientJson p = new LenientJson(text);
    p.skipSpace();
    if (p.i < p.s.length() && p.s.charAt(p.i) == '\uFEFF') {
      p.i++;
      p.skipSpace();
    }
    if (p.i >= p.s.length() || p.s.charAt(p.i) != '{') {
      throw p.error("expected a JSON object");
    }
    Object v = p.value(0);
    p.skipSpace();
    while (p.i < p.s.length() && p.s.charAt(p.i) == '\0') {
      p.i++;
    }
    p.skipSpace();
    if (p.i != p.s.length()) {
      throw p.error("unexpected text after the object");
    }
    return (Map<String, Object>) v;
  }

  private Object value(int depth) {
    if (depth > 64) {
      throw error("nesting deeper than 64");
    }
    skipSpace();
    if (i >= s.length()) {
      throw error("unexpected end");
    }
    char c = s.charAt(i);
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
    Map<String, Object> m = new LinkedHashMap<>();
    i++; // {
    skipSpace();
    if (peek() == '}') {
      i++;
      return m;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw error("expected a member name");
      }
      String key = string();
      skipSpace();
      if (peek() != ':') {
        throw error("expected ':'");
      }
      i++;
      m.put(key, value(depth + 1));
      skipSpace();
      char c = peek();
      i++;
      if (c == '}') {
        return m;
      }
      if (c != ',') {
        i--;
        throw error("expected ',' or '}'");
      }
    }
  }

  private List<Object> array(int depth) {
    List<Object> list = new ArrayList<>();
    i++; // [
    skipSpace();
    if (peek() == ']') {
      i++;
      return list;
    }
    while (true) {
      list.add(value(depth + 1));
      skipSpace();
      char c = peek();
      i++;
      if (c == ']') {
        return list;
      }
      if (c != ',') {
        i--;
        throw error("expected ',' or ']'");
      }
    }
  }

  private String string() {
    i++; // opening quote
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (i >= s.length()) {
        throw error("unterminated string");
      }
      char c = s.charAt(i++);
      if (c == '"') {
        return sb.toString();
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      if (i >= s.length()) {
        throw error("unterminated escape");
      }
      char e = s.charAt(i++);
      switch (e) {
        case '"':
        case '\\':
        case '/':
          sb.append(e);
          break;
        case 'b':
          sb.append('\b');
          break;
        case 'f':
          sb.append('\f');
          break;
        case 'n':
          sb.append('\n');
          break;
        case 'r':
          sb.append('\r');
          break;
        case 't':
          sb.append('\t');
          break;
        case 'u':
          if (i + 4 > s.length()) {
            throw error("truncated \\u escape");
          }
          try {
            sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
          } catch (NumberFormatException ex) {
            throw error("bad \\u escape");
          }
          i += 4;
          break;
        default:
          throw error("bad escape '\\" + e + "'");
      }
    }
  }

  private JsonNumber number() {
    int start = i;
    if (peek() == '-') {
      i++;
    }
    while (i < s.length()) {
      char c = s.charAt(i);
      if ((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') {
        i++;
      } else {
        break;
      }
    }
    String text = s.substring(start, i);
    try {
      Double.parseDouble(text);
    } catch (NumberFormatException e) {
      i = start;
      throw error("bad number '" + text + "'");
    }
    return new JsonNumber(text);
  }

  private Object literal(String word, Object value) {
    if (!s.startsWith(word, i)) {
      throw error("unexpected token");
    }
    i += word.length();
    return value;
  }

  private char peek() {
    if (i >= s.length()) {
      throw error("unexpected end");
    }
    return s.charAt(i);
  }

  private void skipSpace() {
    while (i < s.length()) {
      char c = s.charAt(i);
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        i++;
      } else {
        break;
      }
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at offset " + i);
  }
}
