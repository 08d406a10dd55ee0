package io.logproducer.kafka.internal;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;
import java.util.List;
import java.util.Map;

/**
 * The {@code raw} encoding of one record: {@code varint(keyLength + 1)} (0: no key), the key's
 * UTF-8 bytes, then the value bytes up to the record's end. The value is the body: a string as
 * UTF-8, bytes as is, a bool, int or double as its text, an array or key-value list as plain JSON
 * (as the OpenTelemetry Collector's {@code raw} marshaler writes them), no body as nothing. The key
 * is the key attribute's text (a string as is, other kinds as their text). {@link #split} reads it
 * back. Thread-safe, allocation-free for string bodies and keys.
 */
public final class RawRecordEncoder implements RecordEncoder {

  private final String keyAttribute;

  /**
   * @param keyAttribute the attribute whose value is the message key, or null for no key
   */
  public RawRecordEncoder(String keyAttribute) {
    this.keyAttribute = keyAttribute;
  }

  @Override
  public void encode(LogRecord record, EncodeBuffer out) {
    AnyValue key = keyAttribute == null ? null : record.getAttribute(keyAttribute);
    if (key == null) {
      out.writeByte(0);
    } else if (key.getType() == AnyValue.Type.BYTES) {
      byte[] k = key.asBytes();
      out.writeVarint32(k.length + 1);
      out.writeBytes(k);
    } else {
      String k = Topics.keyText(key);
      out.writeVarint32(EncodeBuffer.utf8Length(k) + 1);
      out.writeUtf8(k);
    }
    AnyValue body = record.getBody();
    if (body == null) {
      return;
    }
    switch (body.getType()) {
      case STRING:
        out.writeUtf8(body.asString());
        break;
      case BYTES:
        out.writeBytes(body.asBytes());
        break;
      case ARRAY:
      case KEY_VALUE_LIST:
        writeJson(body, out);
        break;
      default:
        out.writeAscii(body.toString());
    }
  }

  /**
   * One record's key and value, read back from its encoding.
   *
   * @param encoded the buffer holding the record
   * @param offset where the record starts
   * @param length the record's encoded length
   * @return {key or null, value}
   */
  public static byte[][] split(byte[] encoded, int offset, int length) {
    int pos = offset;
    int end = offset + length;
    int prefix = 0;
    int shift = 0;
    while (true) {
      int b = encoded[pos++];
      prefix |= (b & 0x7f) << shift;
      if (b >= 0) {
        break;
      }
      shift += 7;
    }
    byte[] key = null;
    if (prefix > 0) {
      key = new byte[prefix - 1];
      System.arraycopy(encoded, pos, key, 0, key.length);
      pos += key.length;
    }
    byte[] value = new byte[end - pos];
    System.arraycopy(encoded, pos, value, 0, value.length);
    return new byte[][] {key, value};
  }

  /**
   * Plain JSON (not OTLP/JSON): strings, numbers, booleans, arrays, objects; bytes as base64
   * strings.
   */
  static void writeJson(AnyValue v, EncodeBuffer out) {
    switch (v.getType()) {
      case STRING:
        writeJsonString(v.asString(), out);
        break;
      case BYTES:
        out.writeByte('"');
        out.writeAscii(java.util.Base64.getEncoder().encodeToString(v.asBytes()));
        out.writeByte('"');
        break;
      case BOOLEAN:
      case LONG:
      case DOUBLE: // finite: AnyValue refuses NaN and infinities
        out.writeAscii(v.toString());
        break;
      case ARRAY:
        out.writeByte('[');
        List<AnyValue> items = v.asArray();
        for (int i = 0; i < items.size(); i++) {
          if (i > 0) {
            out.writeByte(',');
          }
          writeJson(items.get(i), out);
        }
        out.writeByte(']');
        break;
      default:
        out.writeByte('{');
        boolean first = true;
        for (Map.Entry<String, AnyValue> e : v.asKeyValueList().entrySet()) {
          if (!first) {
            out.writeByte(',');
          }
          first = false;
          writeJsonString(e.getKey(), out);
          out.writeByte(':');
          writeJson(e.getValue(), out);
        }
        out.writeByte('}');
    }
  }

  private static void writeJsonString(String s, EncodeBuffer out) {
    out.writeByte('"');
    int start = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\' || c < 0x20) {
        out.writeUtf8(s.subSequence(start, i));
        out.writeByte('\\');
        switch (c) {
          case '"':
          case '\\':
            out.writeByte(c);
            break;
          case '\n':
            out.writeByte('n');
            break;
          case '\r':
            out.writeByte('r');
            break;
          case '\t':
            out.writeByte('t');
            break;
          default:
            out.writeAscii(String.format("u%04x", (int) c));
        }
        start = i + 1;
      }
    }
    out.writeUtf8(s.subSequence(start, s.length()));
    out.writeByte('"');
  }
}
