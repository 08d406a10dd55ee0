package io.logproducer.gse.internal;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte builder for JSON, escaping strings as Go's {@code encoding/json} does, at one or two levels.
 *
 * <p>Level 1 ({@link #string1}): a JSON string the way {@code json.Marshal} writes it: {@code \" \\ \n \r \t \b \f},
 * other control characters as <code>&#92;u00XX</code>, and the HTML-safe escapes <code>&#92;u003c &#92;u003e
 * &#92;u0026</code> for {@code < > &}, <code>&#92;u2028 &#92;u2029</code>, and <code>&#92;ufffd</code> for an unpaired
 * surrogate. This is the outer document
 * libgse marshals ({@code output/gse/gse.go}, {@code MarshalFunc = json.Marshal}).
 *
 * <p>Level 2 ({@link #string2}, {@link #content2}): text of an inner JSON document that is itself the value of a level-1
 * string, written in one pass: bk-collector encodes each log record with {@code SetEscapeHTML(false)} and puts the
 * result in the item's {@code data} string ({@code exporter/converter/logs.go}); the outer marshal then escapes that
 * text again. So an inner {@code "} becomes {@code \"}, an inner escaped quote {@code \\\"}, and {@code <} (raw in
 * the inner document) <code>&#92;u003c</code>.
 *
 * <p>Not thread-safe: one instance per thread.
 */
public final class JsonBytes {

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  /** Level-1 escapes for ASCII; null = the byte itself. */
  private static final byte[][] ESC1 = new byte[128][];
  /** Level-2 escapes for ASCII; null = the byte itself. */
  private static final byte[][] ESC2 = new byte[128][];

  static {
    for (int c = 0; c < 0x20; c++) {
      String u = "u00" + (char) HEX[c >> 4] + (char) HEX[c & 15];
      ESC1[c] = bytes("\\" + u);
      ESC2[c] = bytes("\\\\" + u);
    }
    setShort('\n', 'n');
    setShort('\r', 'r');
    setShort('\t', 't');
    setShort('\b', 'b');
    setShort('\f', 'f');
    ESC1['"'] = bytes("\\\"");
    ESC1['\\'] = bytes("\\\\");
    ESC2['"'] = bytes("\\\\\\\""); // inner \" -> outer \\\"
    ESC2['\\'] = bytes("\\\\\\\\"); // inner \\ -> outer \\\\
    for (char c : new char[] {'<', '>', '&'}) {
      // HTML-safe only at the outer level; the inner encoder leaves them raw, the outer escapes them.
      String u = "\\u00" + (char) HEX[c >> 4] + (char) HEX[c & 15];
      ESC1[c] = bytes(u);
      ESC2[c] = bytes(u);
    }
  }

  private static void setShort(char c, char letter) {
    ESC1[c] = bytes("\\" + letter);
    ESC2[c] = bytes("\\\\" + letter);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  private byte[] buf;
  private int pos;

  /** @param initialCapacity bytes */
  public JsonBytes(int initialCapacity) {
    buf = new byte[Math.max(64, initialCapacity)];
  }

  /** Empties the builder (capacity is kept). */
  public void reset() {
    pos = 0;
  }

  /** Empties it and drops a backing array larger than {@code maxKeep} bytes. */
  public void resetAndTrim(int maxKeep, int initialCapacity) {
    if (buf.length > maxKeep) {
      buf = new byte[initialCapacity];
    }
    pos = 0;
  }

  public int size() {
    return pos;
  }

  /** The backing array; valid bytes are {@code [0, size())}. */
  public byte[] array() {
    return buf;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(buf, pos);
  }

  private void ensure(int n) {
    int need = pos + n;
    if (need > buf.length || need < 0) {
      if (need < 0) {
        throw new IllegalArgumentException("JSON value exceeds 2 GiB");
      }
      buf = Arrays.copyOf(buf, Math.max(need, (int) Math.min(Integer.MAX_VALUE - 8, buf.length * 2L)));
    }
  }

  /** Appends bytes as they are. */
  public JsonBytes raw(byte[] b) {
    return raw(b, 0, b.length);
  }

  public JsonBytes raw(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, buf, pos, len);
    pos += len;
    return this;
  }

  /** Appends one ASCII byte. */
  public JsonBytes raw(char c) {
    ensure(1);
    buf[pos++] = (byte) c;
    return this;
  }

  /** Appends ASCII text as it is (structure, key names known to need no escaping). */
  public JsonBytes ascii(CharSequence s) {
    int n = s.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      buf[pos++] = (byte) s.charAt(i);
    }
    return this;
  }

  /** A signed decimal integer (no escaping is ever needed, at either level). */
  public JsonBytes number(long v) {
    ensure(20);
    if (v == Long.MIN_VALUE) {
      return ascii("-9223372036854775808");
    }
    if (v < 0) {
      buf[pos++] = '-';
      v = -v;
    }
    int digits = 1;
    for (long t = v; t >= 10; t /= 10) {
      digits++;
    }
    int end = pos + digits;
    for (int p = end - 1; p >= pos; p--) {
      buf[p] = (byte) ('0' + (v % 10));
      v /= 10;
    }
    pos = end;
    return this;
  }

  /** An unsigned 64-bit decimal integer. */
  public JsonBytes unsignedNumber(long v) {
    return v >= 0 ? number(v) : ascii(Long.toUnsignedString(v));
  }

  /** A double as Go's {@code encoding/json} writes a float64 (see {@link #goFloat}). */
  public JsonBytes floatNumber(double d) {
    return ascii(goFloat(d));
  }

  /** Lower-case hex of {@code bytes}, or nothing when null. */
  public JsonBytes hex(byte[] bytes) {
    if (bytes == null) {
      return this;
    }
    ensure(bytes.length * 2);
    for (byte b : bytes) {
      buf[pos++] = HEX[(b >> 4) & 15];
      buf[pos++] = HEX[b & 15];
    }
    return this;
  }

  /** A level-1 JSON string, with its quotes. */
  public JsonBytes string1(CharSequence s) {
    raw('"');
    content1(s);
    return raw('"');
  }

  /** The escaped content of a level-1 string, without quotes. */
  public JsonBytes content1(CharSequence s) {
    escape(s, ESC1, false);
    return this;
  }

  /** A level-2 string (inner {@code "…"} as it appears inside an outer string: {@code \"…\"}). */
  public JsonBytes string2(CharSequence s) {
    ensure(2);
    buf[pos++] = '\\';
    buf[pos++] = '"';
    escape(s, ESC2, true);
    ensure(2);
    buf[pos++] = '\\';
    buf[pos++] = '"';
    return this;
  }

  /** The escaped content of a level-2 string, without quotes. */
  public JsonBytes content2(CharSequence s) {
    escape(s, ESC2, true);
    return this;
  }

  private void escape(CharSequence s, byte[][] table, boolean level2) {
    int n = s.length();
    ensure(n * 7); // worst case: a control char at level 2, "\\u00XX"
    byte[] b = buf;
    int p = pos;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        byte[] e = table[c];
        if (e == null) {
          b[p++] = (byte) c;
        } else {
          for (byte x : e) {
            b[p++] = x;
          }
        }
      } else if (c < 0x800) {
        b[p++] = (byte) (0xC0 | (c >> 6));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
          int cp = Character.toCodePoint(c, s.charAt(++i));
          b[p++] = (byte) (0xF0 | (cp >> 18));
          b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          b[p++] = (byte) (0x80 | (cp & 0x3F));
        } else {
          p = unicodeEscape(b, p, 0xFFFD, level2); // Go replaces invalid UTF-16/UTF-8 with U+FFFD, escaped
        }
      } else if (c == 0x2028 || c == 0x2029) {
        p = unicodeEscape(b, p, c, level2); // Go escapes these even with SetEscapeHTML(false)
      } else {
        b[p++] = (byte) (0xE0 | (c >> 12));
        b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    pos = p;
  }

  private static int unicodeEscape(byte[] b, int p, int c, boolean level2) {
    b[p++] = '\\';
    if (level2) {
      b[p++] = '\\';
    }
    b[p++] = 'u';
    b[p++] = HEX[(c >> 12) & 15];
    b[p++] = HEX[(c >> 8) & 15];
    b[p++] = HEX[(c >> 4) & 15];
    b[p++] = HEX[c & 15];
    return p;
  }

  /**
   * The shortest decimal that reads back as {@code d}, the closest one when several are as short (what Go's
   * {@code strconv.FormatFloat(f, fmt, -1, 64)} prints; Java's {@code Double.toString} is not always shortest before
   * JDK 19, e.g. 4.9E-324 for 5e-324). Trailing zeros stripped.
   */
  static BigDecimal shortest(double d) {
    BigDecimal exact = new BigDecimal(d);
    for (int digits = 1; digits < 17; digits++) {
      BigDecimal candidate = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
      if (candidate.doubleValue() == d) {
        return candidate.stripTrailingZeros();
      }
    }
    return exact.round(new MathContext(17, RoundingMode.HALF_EVEN)).stripTrailingZeros();
  }

  /**
   * Formats {@code d} as Go's {@code encoding/json} (and pdata's {@code AsString}) do: like ES6 number-to-string,
   * the shortest decimal that round-trips, in plain notation for 1e-6 &lt;= |d| &lt; 1e21 and otherwise as
   * {@code 1.5e-7} / {@code 1e+21}; integral values without a fraction ({@code 3}, not {@code 3.0}).
   *
   * @throws IllegalArgumentException for NaN and infinities, which JSON cannot carry
   */
  public static String goFloat(double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      throw new IllegalArgumentException("JSON cannot carry " + d);
    }
    if (d == 0) {
      return (Double.doubleToRawLongBits(d) < 0) ? "-0" : "0";
    }
    double abs = Math.abs(d);
    BigDecimal bd = shortest(d);
    if (abs >= 1e-6 && abs < 1e21) {
      return bd.toPlainString();
    }
    String digits = bd.unscaledValue().abs().toString();
    int exponent = digits.length() - 1 - bd.scale();
    StringBuilder sb = new StringBuilder(digits.length() + 8);
    if (d < 0) {
      sb.append('-');
    }
    sb.append(digits.charAt(0));
    if (digits.length() > 1) {
      sb.append('.').append(digits, 1, digits.length());
    }
    sb.append('e').append(exponent < 0 ? '-' : '+');
    // Go's %e pads the exponent to two digits and json then trims "e-0X" to "e-X"; the exponents here are
    // >= 21 or <= -7, so that is simply the exponent without padding.
    return sb.append(Math.abs(exponent)).toString();
  }
}
