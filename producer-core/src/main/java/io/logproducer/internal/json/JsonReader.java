package io.logproducer.internal.json;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The small JSON reader the exporters share (OTLP/JSON responses, the GSE agent's info reply):
 * parses into {@code Map<String, Object>} (objects, in order), {@code List<Object>}, {@code
 * String}, {@link BigDecimal}, {@code Boolean} or {@code null}; nesting is bounded. Throws {@link
 * IllegalArgumentException} on malformed input. Internal: not part of the public API. The static
 * methods are thread-safe.
 */
public final class JsonReader {

  private static final int MAX_DEPTH = 64;

  private final String text;
  private int pos;

  private JsonReader(String text) {
    this.text = text;
  }

  /** Parses the first JSON value of {@code text}; anything after it is ignored. */
  public static Object parse(String text) {
    JsonReader r = new JsonReader(text);
    return r.readValue(0);
  }

  /**
   * The long in a JSON number or a string holding one (proto3 JSON writes int64 as strings), else
   * null.
   */
  public static Long asLong(Object value) {
    try {
      if (value instanceof BigDecimal) {
        return ((BigDecimal) value).longValue();
      }
      if (value instanceof String) {
        return new BigDecimal(((String) value).trim()).longValue();
      }
    } catch (NumberFormatException e) {
      return null;
    }
    return null;
  }

  /**
   * Parses a document whose top level is an object, tolerating what C and Go agents have been seen
   * to add around it: a byte-order mark, whitespace, and trailing NUL bytes. Anything else after
   * the object is an error.
   *
   * @throws IllegalArgumentException if the document is not one JSON object
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> parseObject(String text) {
    JsonReader r = new JsonReader(text);
    r.skipWhitespace();
    if (r.pos < text.length() && text.charAt(r.pos) == '\uFEFF') {
      r.pos++;
      r.skipWhitespace();
    }
    if (r.pos >= text.length() || text.charAt(r.pos) != '{') {
      throw r.error("expected a JSON object");
    }
    Object v = r.readValue(0);
    r.skipWhitespace();
    while (r.pos < text.length() && text.charAt(r.pos) == '\0') {
      r.pos++;
    }
    r.skipWhitespace();
    if (r.pos != text.length()) {
      throw r.error("unexpected text after the object");
    }
    return (Map<String, Object>) v;
  }

  private Object readValue(int depth) {
    if (depth > MAX_DEPTH) {
      throw error("nesting deeper than " + MAX_DEPTH);
    }
    skipWhitespace();
    if (pos >= text.length()) {
      throw error("unexpected end of input");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{':
        return readObject(depth);
      case '[':
        return readArray(depth);
      case '"':
        return readString();
      case 't':
        expect("true");
        return Boolean.TRUE;
      case 'f':
        expect("false");
        return Boolean.FALSE;
      case 'n':
        expect("null");
        return null;
      default:
        if (c == '-' || (c >= '0' && c <= '9')) {
          return readNumber();
        }
        throw error("unexpected character '" + c + "'");
    }
  }

  private Map<String, Object> readObject(int depth) {
    Map<String, Object> map = new LinkedHashMap<>();
    pos++; // {
    skipWhitespace();
    if (peek() == '}') {
      pos++;
      return map;
    }
    while (true) {
      skipWhitespace();
      if (peek() != '"') {
        throw error("expected a string key");
      }
      String key = readString();
      skipWhitespace();
      if (peek() != ':') {
        throw error("expected ':'");
      }
      pos++;
      map.put(key, readValue(depth + 1));
      skipWhitespace();
      char c = peek();
      pos++;
      if (c == '}') {
        return map;
      }
      if (c != ',') {
        throw error("expected ',' or '}'");
      }
    }
  }

  private List<Object> readArray(int depth) {
    List<Object> list = new ArrayList<>();
    pos++; // [
    skipWhitespace();
    if (peek() == ']') {
      pos++;
      return list;
    }
    while (true) {
      list.add(readValue(depth + 1));
      skipWhitespace();
      char c = peek();
      pos++;
      if (c == ']') {
        return list;
      }
      if (c != ',') {
        throw error("expected ',' or ']'");
      }
    }
  }

  private String readString() {
    pos++; // opening quote
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return sb.toString();
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      if (pos >= text.length()) {
        throw error("unterminated escape");
      }
      char e = text.charAt(pos++);
      switch (e) {
        case 'n':
          sb.append('\n');
          break;
        case 'r':
          sb.append('\r');
          break;
        case 't':
          sb.append('\t');
          break;
        case 'b':
          sb.append('\b');
          break;
        case 'f':
          sb.append('\f');
          break;
        case 'u':
          if (pos + 4 > text.length()) {
            throw error("truncated \\u escape");
          }
          try {
            sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          } catch (NumberFormatException ex) {
            throw error("bad \\u escape");
          }
          pos += 4;
          break;
        default:
          sb.append(e); // \" \\ \/ and, leniently, anything else
      }
    }
  }

  private BigDecimal readNumber() {
    int start = pos;
    while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
    try {
      return new BigDecimal(text.substring(start, pos));
    } catch (NumberFormatException e) {
      throw error("bad number '" + text.substring(start, pos) + "'");
    }
  }

  private void expect(String word) {
    if (!text.startsWith(word, pos)) {
      throw error("expected " + word);
    }
    pos += word.length();
  }

  private char peek() {
    if (pos >= text.length()) {
      throw error("unexpected end of input");
    }
    return text.charAt(pos);
  }

  private void skipWhitespace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException(what + " at offset " + pos);
  }
}
