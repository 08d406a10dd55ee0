package io.logproducer.otlp.encoding.internal;

import io.logproducer.spi.EncodeBuffer;
import java.nio.charset.StandardCharsets;

/**
 * JSON primitives written straight into an {@link EncodeBuffer}, without allocating: escaped UTF-8
 * strings, decimal integers (signed and unsigned), lower-case hex and standard base64 byte strings.
 * Strings are escaped as RFC 8259 requires (quote, backslash, control characters) and otherwise
 * written as UTF-8; an unpaired surrogate becomes {@code '?'}, as in the protobuf path. Stateless,
 * thread-safe.
 */
final class JsonOutput {

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] BASE64 =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
          .getBytes(StandardCharsets.US_ASCII);
  private static final byte[] MIN_LONG = "-9223372036854775808".getBytes(StandardCharsets.US_ASCII);

  private JsonOutput() {}

  /** ASCII bytes of a literal, for constant keys and punctuation. */
  static byte[] ascii(String literal) {
    return literal.getBytes(StandardCharsets.US_ASCII);
  }

  /** Writes {@code s} as a quoted, escaped JSON string. */
  static void writeString(EncodeBuffer out, CharSequence s) {
    int n = s.length();
    out.ensure(n + 2);
    out.writeByte('"');
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        if (c < 0x20 || c == '"' || c == '\\') {
          writeEscaped(out, c);
        } else {
          out.writeByte(c);
        }
      } else if (c < 0x800) {
        out.writeByte(0xC0 | (c >> 6));
        out.writeByte(0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c)
            && i + 1 < n
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          int cp = Character.toCodePoint(c, s.charAt(++i));
          out.writeByte(0xF0 | (cp >> 18));
          out.writeByte(0x80 | ((cp >> 12) & 0x3F));
          out.writeByte(0x80 | ((cp >> 6) & 0x3F));
          out.writeByte(0x80 | (cp & 0x3F));
        } else {
          out.writeByte('?');
        }
      } else {
        out.writeByte(0xE0 | (c >> 12));
        out.writeByte(0x80 | ((c >> 6) & 0x3F));
        out.writeByte(0x80 | (c & 0x3F));
      }
    }
    out.writeByte('"');
  }

  private static void writeEscaped(EncodeBuffer out, char c) {
    out.writeByte('\\');
    switch (c) {
      case '"':
        out.writeByte('"');
        return;
      case '\\':
        out.writeByte('\\');
        return;
      case '\n':
        out.writeByte('n');
        return;
      case '\r':
        out.writeByte('r');
        return;
      case '\t':
        out.writeByte('t');
        return;
      case '\b':
        out.writeByte('b');
        return;
      case '\f':
        out.writeByte('f');
        return;
      default:
        out.writeByte('u');
        out.writeByte('0');
        out.writeByte('0');
        out.writeByte(HEX[c >> 4]);
        out.writeByte(HEX[c & 0xF]);
    }
  }

  /** Writes a signed decimal integer. */
  static void writeLong(EncodeBuffer out, long value) {
    if (value == Long.MIN_VALUE) {
      out.writeBytes(MIN_LONG);
      return;
    }
    if (value < 0) {
      out.writeByte('-');
      value = -value;
    }
    writeNonNegative(out, value);
  }

  /** Writes {@code value} as an unsigned 64-bit decimal integer (protobuf fixed64/uint64). */
  static void writeUnsignedLong(EncodeBuffer out, long value) {
    if (value >= 0) {
      writeNonNegative(out, value);
      return;
    }
    long quotient = (value >>> 1) / 5; // unsigned value / 10
    writeNonNegative(out, quotient);
    out.writeByte('0' + (int) (value - quotient * 10));
  }

  private static void writeNonNegative(EncodeBuffer out, long value) {
    int digits = 1;
    for (long v = value; v >= 10; v /= 10) {
      digits++;
    }
    out.ensure(digits);
    int start = out.size();
    for (int i = 0; i < digits; i++) {
      out.writeByte('0');
    }
    for (int i = start + digits - 1; i >= start; i--) {
      out.setByte(i, '0' + (int) (value % 10));
      value /= 10;
    }
  }

  /** Writes a quoted decimal string, as proto3 JSON does for int64. */
  static void writeQuotedLong(EncodeBuffer out, long value) {
    out.writeByte('"');
    writeLong(out, value);
    out.writeByte('"');
  }

  /** Writes a quoted unsigned decimal string, as proto3 JSON does for fixed64. */
  static void writeQuotedUnsignedLong(EncodeBuffer out, long value) {
    out.writeByte('"');
    writeUnsignedLong(out, value);
    out.writeByte('"');
  }

  /**
   * Writes a finite double as a JSON number ({@link Double#toString(double)} form, which JSON
   * accepts).
   */
  static void writeDouble(EncodeBuffer out, double value) {
    out.writeAscii(Double.toString(value));
  }

  /** Writes {@code bytes} as a quoted lower-case hex string (OTLP/JSON trace and span ids). */
  static void writeHex(EncodeBuffer out, byte[] bytes) {
    out.ensure(bytes.length * 2 + 2);
    out.writeByte('"');
    for (byte b : bytes) {
      out.writeByte(HEX[(b >> 4) & 0xF]);
      out.writeByte(HEX[b & 0xF]);
    }
    out.writeByte('"');
  }

  /** Writes {@code bytes} as a quoted standard base64 string with padding (proto3 JSON bytes). */
  static void writeBase64(EncodeBuffer out, byte[] bytes) {
    int n = bytes.length;
    out.ensure((n + 2) / 3 * 4 + 2);
    out.writeByte('"');
    int i = 0;
    for (; i + 2 < n; i += 3) {
      int v = (bytes[i] & 0xFF) << 16 | (bytes[i + 1] & 0xFF) << 8 | (bytes[i + 2] & 0xFF);
      out.writeByte(BASE64[v >>> 18]);
      out.writeByte(BASE64[(v >>> 12) & 0x3F]);
      out.writeByte(BASE64[(v >>> 6) & 0x3F]);
      out.writeByte(BASE64[v & 0x3F]);
    }
    int rest = n - i;
    if (rest == 1) {
      int v = (bytes[i] & 0xFF) << 16;
      out.writeByte(BASE64[v >>> 18]);
      out.writeByte(BASE64[(v >>> 12) & 0x3F]);
      out.writeByte('=');
      out.writeByte('=');
    } else if (rest == 2) {
      int v = (bytes[i] & 0xFF) << 16 | (bytes[i + 1] & 0xFF) << 8;
      out.writeByte(BASE64[v >>> 18]);
      out.writeByte(BASE64[(v >>> 12) & 0x3F]);
      out.writeByte(BASE64[(v >>> 6) & 0x3F]);
      out.writeByte('=');
    }
    out.writeByte('"');
  }
}
