package io.logproducer.gse.internal;

import io.logproducer.spi.EncodeBuffer;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * JSON written into an {@link EncodeBuffer} (the producer's per-thread record buffer, or one of the
 * frame's), escaping strings as Go's {@code encoding/json} does, at one or two levels. Every write
 * goes through the buffer's {@link EncodeBuffer#ensure ensure}, so it refuses with {@link
 * io.logproducer.RecordTooLargeException} what would take the buffer past its limit before
 * allocating for it.
 *
 * <p>Level 1 ({@link #string1}): a JSON string the way {@code json.Marshal} writes it: {@code \" \\
 * \n \r \t \b \f}, other control characters as <code>&#92;u00XX</code>, and the HTML-safe escapes
 * <code>&#92;u003c &#92;u003e
 * &#92;u0026</code> for {@code < > &}, <code>&#92;u2028 &#92;u2029</code>, and <code>&#92;ufffd
 * </code> for an unpaired surrogate. This is the outer document libgse marshals ({@code
 * output/gse/gse.go}, {@code MarshalFunc = json.Marshal}).
 *
 * <p>Level 2 ({@link #string2}, {@link #content2}): text of an inner JSON document that is itself
 * the value of a level-1 string, written in one pass: bk-collector encodes each log record with
 * {@code SetEscapeHTML(false)} and puts the result in the item's {@code data} string ({@code
 * exporter/converter/logs.go}); the outer marshal then escapes that text again. So an inner {@code
 * "} becomes {@code \"}, an inner escaped quote {@code \\\"}, and {@code <} (raw in the inner
 * document) <code>&#92;u003c</code>.
 *
 * <p>Stateless; thread-safe (each buffer is confined to its caller).
 */
public final class GoJson {

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
      // HTML-safe only at the outer level; the inner encoder leaves them raw, the outer escapes
      // them.
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

  private GoJson() {}

  /**
   * Appends bytes as they are.
   *
   * @throws io.logproducer.RecordTooLargeException if {@code out} would grow past its limit
   */
  public static void raw(EncodeBuffer out, byte[] b) {
    out.writeBytes(b, 0, b.length);
  }

  /** Appends one ASCII byte; throws as {@link #raw(EncodeBuffer, byte[])}. */
  public static void raw(EncodeBuffer out, char c) {
    out.writeByte(c);
  }

  /**
   * Appends ASCII text as it is (structure, key names known to need no escaping); throws as {@link
   * #raw}.
   */
  public static void ascii(EncodeBuffer out, CharSequence s) {
    int n = s.length();
    out.ensure(n);
    byte[] buf = out.array();
    int pos = out.size();
    for (int i = 0; i < n; i++) {
      buf[pos + i] = (byte) s.charAt(i);
    }
    out.setSize(out.size() + (n));
  }

  /**
   * A signed decimal integer (no escaping is ever needed, at either level); throws as {@link #raw}.
   */
  public static void number(EncodeBuffer out, long v) {
    if (v == Long.MIN_VALUE) {
      ascii(out, "-9223372036854775808");
      return;
    }
    out.ensure(20);
    byte[] buf = out.array();
    int start = out.size();
    int pos = start;
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
    out.setSize(out.size() + (end - start));
  }

  /** An unsigned 64-bit decimal integer; throws as {@link #raw}. */
  public static void unsignedNumber(EncodeBuffer out, long v) {
    if (v >= 0) {
      number(out, v);
    } else {
      ascii(out, Long.toUnsignedString(v));
    }
  }

  /**
   * A double as Go's {@code encoding/json} writes a float64 (see {@link #goFloat}); throws as
   * {@link #raw}.
   */
  public static void floatNumber(EncodeBuffer out, double d) {
    ascii(out, goFloat(d));
  }

  /** Lower-case hex of {@code bytes}, or nothing when null; throws as {@link #raw}. */
  public static void hex(EncodeBuffer out, byte[] bytes) {
    if (bytes == null) {
      return;
    }
    out.ensure(bytes.length * 2);
    byte[] buf = out.array();
    int pos = out.size();
    for (byte b : bytes) {
      buf[pos++] = HEX[(b >> 4) & 15];
      buf[pos++] = HEX[b & 15];
    }
    out.setSize(out.size() + (bytes.length * 2));
  }

  /** A level-1 JSON string, with its quotes; throws as {@link #raw}. */
  public static void string1(EncodeBuffer out, CharSequence s) {
    out.writeByte('"');
    escape(out, s, ESC1, false);
    out.writeByte('"');
  }

  /** The escaped content of a level-1 string, without quotes; throws as {@link #raw}. */
  public static void content1(EncodeBuffer out, CharSequence s) {
    escape(out, s, ESC1, false);
  }

  /**
   * A level-2 string (inner {@code "…"} as it appears inside an outer string: {@code \"…\"});
   * throws as {@link #raw}.
   */
  public static void string2(EncodeBuffer out, CharSequence s) {
    out.writeByte('\\');
    out.writeByte('"');
    escape(out, s, ESC2, true);
    out.writeByte('\\');
    out.writeByte('"');
  }

  /** The escaped content of a level-2 string, without quotes; throws as {@link #raw}. */
  public static void content2(EncodeBuffer out, CharSequence s) {
    escape(out, s, ESC2, true);
  }

  /**
   * Makes room for the escaped form of {@code s}: for its worst case (7 bytes a char) when that is
   * within {@code out}'s limit, else for its exact length, counted first; so a string too large for
   * the limit is refused before anything of its size is allocated.
   */
  private static void ensureEscaped(
      EncodeBuffer out, CharSequence s, byte[][] table, boolean level2) {
    int n = s.length();
    long worst = (long) n * 7; // a control char at level 2: "\\u00XX"
    if (out.size() + worst <= out.limit()) {
      out.ensure((int) worst);
      return;
    }
    out.ensure(n); // at least a byte a char: refuses at once what cannot fit at all
    long exact = escapedLength(s, table, level2);
    out.ensure((int) Math.min(exact, Integer.MAX_VALUE));
  }

  /** The number of bytes {@link #escape} writes for {@code s}. */
  private static long escapedLength(CharSequence s, byte[][] table, boolean level2) {
    int n = s.length();
    long len = 0;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        byte[] e = table[c];
        len += e == null ? 1 : e.length;
      } else if (c < 0x800) {
        len += 2;
      } else if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c)
            && i + 1 < n
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
          len += 4;
        } else {
          len += level2 ? 7 : 6;
        }
      } else if (c == 0x2028 || c == 0x2029) {
        len += level2 ? 7 : 6;
      } else {
        len += 3;
      }
    }
    return len;
  }

  private static void escape(EncodeBuffer out, CharSequence s, byte[][] table, boolean level2) {
    ensureEscaped(out, s, table, level2);
    int n = s.length();
    byte[] b = out.array();
    int start = out.size();
    int p = start;
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
        if (Character.isHighSurrogate(c)
            && i + 1 < n
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          int cp = Character.toCodePoint(c, s.charAt(++i));
          b[p++] = (byte) (0xF0 | (cp >> 18));
          b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          b[p++] = (byte) (0x80 | (cp & 0x3F));
        } else {
          p =
              unicodeEscape(
                  b, p, 0xFFFD, level2); // Go replaces invalid UTF-16/UTF-8 with U+FFFD, escaped
        }
      } else if (c == 0x2028 || c == 0x2029) {
        p = unicodeEscape(b, p, c, level2); // Go escapes these even with SetEscapeHTML(false)
      } else {
        b[p++] = (byte) (0xE0 | (c >> 12));
        b[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        b[p++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    out.setSize(out.size() + (p - start));
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

  /** The bytes of {@code out}, {@code [0, size())}, in a new array. */
  public static byte[] toByteArray(EncodeBuffer out) {
    return Arrays.copyOf(out.array(), out.size());
  }

  /**
   * The shortest decimal that reads back as {@code d}, the closest one when several are as short
   * (what Go's {@code strconv.FormatFloat(f, fmt, -1, 64)} prints; Java's {@code Double.toString}
   * is not always shortest before JDK 19, e.g. 4.9E-324 for 5e-324). Trailing zeros stripped.
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
   * Formats {@code d} as Go's {@code encoding/json} (and pdata's {@code AsString}) do: like ES6
   * number-to-string, the shortest decimal that round-trips, in plain notation for 1e-6 &lt;= |d|
   * &lt; 1e21 and otherwise as {@code 1.5e-7} / {@code 1e+21}; integral values without a fraction
   * ({@code 3}, not {@code 3.0}).
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
    // Go's %e pads the exponent to two digits and json then trims "e-0X" to "e-X"; the exponents
    // here are
    // >= 21 or <= -7, so that is simply the exponent without padding.
    return sb.append(Math.abs(exponent)).toString();
  }
}
