package io.logproducer.testing;

import io.logproducer.AnyValue;
import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.logproducer.internal.codec.Codec;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link InMemoryExporter}'s wire form of a record, and its decoder. Integers are big-endian; a
 * string is its UTF-8 length (4 bytes, -1 for null) and bytes; a byte array likewise. Full form:
 * time, observed time (8 bytes each), severity number (4), severity text, body (a value), attribute
 * count (4) then key and value each, dropped attributes count (4), trace id, span id, flags (4),
 * event name, scope name, destination. A value is a type byte (-1 for null) then its content.
 * Body-only form: the body's UTF-8 length (4 bytes) and bytes. Stateless and thread-safe.
 */
final class RecordFormat implements RecordEncoder {

  private static final int NULL = -1;

  private final boolean bodiesOnly;

  RecordFormat(boolean bodiesOnly) {
    this.bodiesOnly = bodiesOnly;
  }

  @Override
  public void encode(LogRecord record, EncodeBuffer out) {
    if (bodiesOnly) {
      AnyValue body = record.getBody();
      String s =
          body == null
              ? ""
              : body.getType() == AnyValue.Type.STRING ? body.asString() : body.toString();
      out.writeIntBigEndian(EncodeBuffer.utf8Length(s));
      out.writeUtf8(s);
      return;
    }
    writeLong(out, record.getTimeUnixNano());
    writeLong(out, record.getObservedTimeUnixNano());
    out.writeIntBigEndian(record.getSeverityNumber());
    writeString(out, record.getSeverityText());
    writeValue(out, record.getBody());
    out.writeIntBigEndian(record.getAttributeCount());
    for (int i = 0; i < record.getAttributeCount(); i++) {
      writeString(out, record.getAttributeKey(i));
      writeValue(out, record.getAttributeValue(i));
    }
    out.writeIntBigEndian(record.getDroppedAttributesCount());
    writeBytes(out, record.getTraceId());
    writeBytes(out, record.getSpanId());
    out.writeIntBigEndian(record.getFlags());
    writeString(out, record.getEventName());
    writeString(out, record.getInstrumentationScopeName());
    writeString(out, record.getDestination());
  }

  /** Decompresses {@code body[0, length)} and decodes every record in it, in order. */
  List<LogRecord> decodeRequest(byte[] body, int length, Compression compression)
      throws IOException {
    ByteArrayOutputStream plain = new ByteArrayOutputStream(length);
    try (InputStream in =
        Codec.of(compression, 0).decompress(new ByteArrayInputStream(body, 0, length))) {
      byte[] chunk = new byte[8192];
      for (int n; (n = in.read(chunk)) > 0; ) {
        plain.write(chunk, 0, n);
      }
    }
    ByteBuffer buf = ByteBuffer.wrap(plain.toByteArray());
    List<LogRecord> records = new ArrayList<>();
    while (buf.hasRemaining()) {
      records.add(bodiesOnly ? LogRecord.builder().setBody(readString(buf)).build() : decode(buf));
    }
    return records;
  }

  private static LogRecord decode(ByteBuffer in) {
    LogRecord.Builder b =
        LogRecord.builder()
            .setTimeUnixNano(in.getLong())
            .setObservedTimeUnixNano(in.getLong())
            .setSeverityNumber(in.getInt());
    String severityText = readString(in);
    if (severityText != null) {
      b.setSeverityText(severityText);
    }
    AnyValue body = readValue(in);
    if (body != null) {
      b.setBody(body);
    }
    for (int i = in.getInt(); i > 0; i--) {
      b.setAttribute(readString(in), readValue(in));
    }
    b.setDroppedAttributesCount(in.getInt());
    b.setTraceId(readBytes(in)).setSpanId(readBytes(in)).setFlags(in.getInt());
    String eventName = readString(in);
    String scope = readString(in);
    String destination = readString(in);
    if (eventName != null) {
      b.setEventName(eventName);
    }
    if (scope != null) {
      b.setInstrumentationScopeName(scope);
    }
    if (destination != null) {
      b.setDestination(destination);
    }
    return b.build();
  }

  private static void writeLong(EncodeBuffer out, long v) {
    out.writeIntBigEndian((int) (v >>> 32));
    out.writeIntBigEndian((int) v);
  }

  private static void writeString(EncodeBuffer out, String s) {
    if (s == null) {
      out.writeIntBigEndian(NULL);
      return;
    }
    out.writeIntBigEndian(EncodeBuffer.utf8Length(s));
    out.writeUtf8(s);
  }

  private static void writeBytes(EncodeBuffer out, byte[] b) {
    if (b == null) {
      out.writeIntBigEndian(NULL);
      return;
    }
    out.writeIntBigEndian(b.length);
    out.writeBytes(b);
  }

  private static void writeValue(EncodeBuffer out, AnyValue v) {
    if (v == null) {
      out.writeByte(NULL);
      return;
    }
    out.writeByte(v.getType().ordinal());
    switch (v.getType()) {
      case STRING:
        writeString(out, v.asString());
        break;
      case BOOLEAN:
        out.writeByte(v.asBoolean() ? 1 : 0);
        break;
      case LONG:
        writeLong(out, v.asLong());
        break;
      case DOUBLE:
        writeLong(out, Double.doubleToRawLongBits(v.asDouble()));
        break;
      case BYTES:
        writeBytes(out, v.asBytes());
        break;
      case ARRAY:
        out.writeIntBigEndian(v.asArray().size());
        for (AnyValue e : v.asArray()) {
          writeValue(out, e);
        }
        break;
      default: // KEY_VALUE_LIST
        out.writeIntBigEndian(v.asKeyValueList().size());
        for (Map.Entry<String, AnyValue> e : v.asKeyValueList().entrySet()) {
          writeString(out, e.getKey());
          writeValue(out, e.getValue());
        }
    }
  }

  private static String readString(ByteBuffer in) {
    byte[] b = readBytes(in);
    return b == null ? null : new String(b, StandardCharsets.UTF_8);
  }

  private static byte[] readBytes(ByteBuffer in) {
    int n = in.getInt();
    if (n == NULL) {
      return null;
    }
    byte[] b = new byte[n];
    in.get(b);
    return b;
  }

  private static AnyValue readValue(ByteBuffer in) {
    int type = in.get();
    if (type == NULL) {
      return null;
    }
    switch (AnyValue.Type.values()[type]) {
      case STRING:
        return AnyValue.of(readString(in));
      case BOOLEAN:
        return AnyValue.of(in.get() != 0);
      case LONG:
        return AnyValue.of(in.getLong());
      case DOUBLE:
        return AnyValue.of(Double.longBitsToDouble(in.getLong()));
      case BYTES:
        return AnyValue.of(readBytes(in));
      case ARRAY:
        List<AnyValue> values = new ArrayList<>();
        for (int i = in.getInt(); i > 0; i--) {
          values.add(readValue(in));
        }
        return AnyValue.ofArray(values);
      default: // KEY_VALUE_LIST
        Map<String, AnyValue> kv = new LinkedHashMap<>();
        for (int i = in.getInt(); i > 0; i--) {
          kv.put(readString(in), readValue(in));
        }
        return AnyValue.ofKeyValueList(kv);
    }
  }
}
