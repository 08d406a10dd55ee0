package io.logproducer.otlp.encoding.internal;

import static io.logproducer.otlp.encoding.internal.ProtoFields.FIXED32;
import static io.logproducer.otlp.encoding.internal.ProtoFields.FIXED64;
import static io.logproducer.otlp.encoding.internal.ProtoFields.LEN;
import static io.logproducer.otlp.encoding.internal.ProtoFields.VARINT;
import static io.logproducer.otlp.encoding.internal.ProtoFields.lenField;
import static io.logproducer.otlp.encoding.internal.ProtoFields.tag;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;

/**
 * Encodes a {@link LogRecord} as OTLP protobuf: field 2 of {@code ScopeLogs} (tag {@code 0x12}, varint length, the
 * {@code LogRecord} message of {@code opentelemetry/proto/logs/v1/logs.proto}), so that a batch's records
 * concatenated are the {@code log_records} of one {@code ScopeLogs}. Fields are written in field-number order and
 * default values are omitted, as protobuf-java does, so the output is byte-for-byte what it would produce.
 *
 * <p>Sizes are computed first (once per nested message and string, kept in a per-thread {@link SizeCache}), then
 * every byte is written once; no per-record allocation beyond the iterators of key/value-list bodies.
 * Thread-safe.
 */
public final class ProtobufRecordEncoder implements RecordEncoder {

  /** {@code ScopeLogs.log_records}, field 2, length-delimited. */
  public static final int SCOPE_LOGS_LOG_RECORD_TAG = tag(2, LEN);

  private static final int TIME_UNIX_NANO = tag(1, FIXED64);
  private static final int SEVERITY_NUMBER = tag(2, VARINT);
  private static final int SEVERITY_TEXT = tag(3, LEN);
  private static final int BODY = tag(5, LEN);
  private static final int ATTRIBUTES = tag(6, LEN);
  private static final int FLAGS = tag(8, FIXED32);
  private static final int TRACE_ID = tag(9, LEN);
  private static final int SPAN_ID = tag(10, LEN);
  private static final int OBSERVED_TIME_UNIX_NANO = tag(11, FIXED64);
  private static final int EVENT_NAME = tag(12, LEN);

  @Override
  public void encode(LogRecord record, EncodeBuffer out) {
    SizeCache sizes = SizeCache.forThread();
    writeField(record, size(record, sizes), out, sizes);
  }

  /**
   * Writes the {@code log_records} field of {@code record}: tag, length and message, given the {@link #size} just
   * computed into {@code sizes} (emptied for this record, so that it is fully read afterwards).
   */
  static void writeField(LogRecord record, int size, EncodeBuffer out, SizeCache sizes) {
    int start = out.size();
    out.writeByte(SCOPE_LOGS_LOG_RECORD_TAG);
    out.writeVarint32(size);
    int contentStart = out.size();
    write(record, out, sizes);
    if (out.size() - contentStart != size || !sizes.fullyRead()) {
      throw new IllegalStateException("LogRecord encoding wrote " + (out.size() - contentStart)
          + " bytes, expected " + size + " (encoder bug); record started at " + start);
    }
  }

  /** The content size of the {@code LogRecord} message, recording nested sizes in {@code sizes}. */
  static int size(LogRecord r, SizeCache sizes) {
    int size = 0;
    if (r.getTimeUnixNano() != 0) {
      size += 9;
    }
    if (r.getSeverityNumber() != 0) {
      size += 1 + EncodeBuffer.varintSize32(r.getSeverityNumber());
    }
    if (notEmpty(r.getSeverityText())) {
      size += ProtoFields.sizeString(r.getSeverityText(), sizes);
    }
    AnyValue body = r.getBody();
    if (body != null) {
      size += ProtoFields.sizeAnyValueField(body, sizes);
    }
    for (int i = 0, n = r.getAttributeCount(); i < n; i++) {
      size += ProtoFields.sizeKeyValueField(r.getAttributeKey(i), r.getAttributeValue(i), sizes);
    }
    if (r.getFlags() != 0) {
      size += 5;
    }
    if (r.getTraceId() != null) {
      size += lenField(r.getTraceId().length);
    }
    if (r.getSpanId() != null) {
      size += lenField(r.getSpanId().length);
    }
    if (r.getObservedTimeUnixNano() != 0) {
      size += 9;
    }
    if (notEmpty(r.getEventName())) {
      size += ProtoFields.sizeString(r.getEventName(), sizes);
    }
    return size;
  }

  private static void write(LogRecord r, EncodeBuffer out, SizeCache sizes) {
    if (r.getTimeUnixNano() != 0) {
      out.writeByte(TIME_UNIX_NANO);
      out.writeFixed64(r.getTimeUnixNano());
    }
    if (r.getSeverityNumber() != 0) {
      out.writeByte(SEVERITY_NUMBER);
      out.writeVarint32(r.getSeverityNumber());
    }
    if (notEmpty(r.getSeverityText())) {
      ProtoFields.writeString(SEVERITY_TEXT, r.getSeverityText(), out, sizes);
    }
    AnyValue body = r.getBody();
    if (body != null) {
      ProtoFields.writeAnyValueField(BODY, body, out, sizes);
    }
    for (int i = 0, n = r.getAttributeCount(); i < n; i++) {
      ProtoFields.writeKeyValueField(ATTRIBUTES, r.getAttributeKey(i), r.getAttributeValue(i), out, sizes);
    }
    if (r.getFlags() != 0) {
      out.writeByte(FLAGS);
      out.writeFixed32(r.getFlags());
    }
    writeBytes(TRACE_ID, r.getTraceId(), out);
    writeBytes(SPAN_ID, r.getSpanId(), out);
    if (r.getObservedTimeUnixNano() != 0) {
      out.writeByte(OBSERVED_TIME_UNIX_NANO);
      out.writeFixed64(r.getObservedTimeUnixNano());
    }
    if (notEmpty(r.getEventName())) {
      ProtoFields.writeString(EVENT_NAME, r.getEventName(), out, sizes);
    }
  }

  private static void writeBytes(int tag, byte[] bytes, EncodeBuffer out) {
    if (bytes != null) {
      out.writeByte(tag);
      out.writeVarint32(bytes.length);
      out.writeBytes(bytes);
    }
  }

  private static boolean notEmpty(String s) {
    return s != null && !s.isEmpty();
  }
}
