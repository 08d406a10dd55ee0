package io.logproducer.otlp.encoding.internal;

import static io.logproducer.otlp.encoding.internal.ProtoFields.FIXED32;
import static io.logproducer.otlp.encoding.internal.ProtoFields.FIXED64;
import static io.logproducer.otlp.encoding.internal.ProtoFields.LEN;
import static io.logproducer.otlp.encoding.internal.ProtoFields.VARINT;
import static io.logproducer.otlp.encoding.internal.ProtoFields.tag;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;

/**
 * Encodes a {@link LogRecord} as OTLP protobuf: field 2 of {@code ScopeLogs} (tag {@code 0x12},
 * varint length, the {@code LogRecord} message of {@code opentelemetry/proto/logs/v1/logs.proto}),
 * so that a batch's records concatenated are the {@code log_records} of one {@code ScopeLogs}.
 * Fields are written in field-number order and default values are omitted, as protobuf-java does,
 * so the output is byte-for-byte what it would produce.
 *
 * <p>One pass: the message's length is filled in after the message ({@link
 * ProtoWriter#reserveVarint32}, {@link ProtoWriter#fillVarint32}), as are the lengths of its nested
 * messages and strings ({@link ProtoFields}); every string is read once. No per-record allocation
 * beyond the iterators of key/value-list bodies, no thread-local state. Thread-safe.
 */
public final class ProtobufRecordEncoder implements RecordEncoder {

  /** {@code ScopeLogs.log_records}, field 2, length-delimited. */
  public static final int SCOPE_LOGS_LOG_RECORD_TAG = tag(2, LEN);

  private static final int TIME_UNIX_NANO = tag(1, FIXED64);
  private static final int SEVERITY_NUMBER = tag(2, VARINT);
  private static final int SEVERITY_TEXT = tag(3, LEN);
  private static final int BODY = tag(5, LEN);
  private static final int ATTRIBUTES = tag(6, LEN);
  private static final int DROPPED_ATTRIBUTES_COUNT = tag(7, VARINT);
  private static final int FLAGS = tag(8, FIXED32);
  private static final int TRACE_ID = tag(9, LEN);
  private static final int SPAN_ID = tag(10, LEN);
  private static final int OBSERVED_TIME_UNIX_NANO = tag(11, FIXED64);
  private static final int EVENT_NAME = tag(12, LEN);

  /**
   * The bytes kept for the length of a record's message before it is written: 2, the varint width
   * of 128 B – 16 KiB, where most records are. A smaller record is moved back a byte once written
   * (cheap: it is small), a larger one forward (cheap next to encoding it).
   */
  static final int LENGTH_WIDTH = 2;

  @Override
  public void encode(LogRecord record, EncodeBuffer out) {
    writeField(record, out);
  }

  /** Writes the {@code log_records} field of {@code record}: tag, length and message. */
  static void writeField(LogRecord record, EncodeBuffer out) {
    int index = writeHead(record, out);
    write(record, out);
    ProtoWriter.fillVarint32(out, index, LENGTH_WIDTH);
  }

  /**
   * Writes the field's tag, keeps {@link #LENGTH_WIDTH} bytes for its length and writes the
   * record's time and severity number, checking for room once, for exactly the bytes written (so
   * that near the buffer's limit a record that fits is not refused).
   *
   * @return the index of the kept bytes, for {@link ProtoWriter#fillVarint32}
   */
  private static int writeHead(LogRecord r, EncodeBuffer out) {
    long time = r.getTimeUnixNano();
    int severity = r.getSeverityNumber();
    out.ensure(
        1
            + LENGTH_WIDTH
            + (time != 0 ? 9 : 0)
            + (severity != 0 ? 1 + EncodeBuffer.varintSize32(severity) : 0));
    byte[] b = out.array();
    int start = out.size();
    b[start] = (byte) SCOPE_LOGS_LOG_RECORD_TAG;
    int p = start + 1 + LENGTH_WIDTH;
    if (time != 0) {
      b[p] = (byte) TIME_UNIX_NANO;
      p = ProtoWriter.putFixed64(b, p + 1, time);
    }
    if (severity != 0) {
      b[p] = (byte) SEVERITY_NUMBER;
      p = ProtoWriter.putVarint32(b, p + 1, severity);
    }
    out.setSize(p);
    return start + 1;
  }

  private static void write(LogRecord r, EncodeBuffer out) {
    if (notEmpty(r.getSeverityText())) {
      ProtoFields.writeString(SEVERITY_TEXT, r.getSeverityText(), out);
    }
    AnyValue body = r.getBody();
    if (body != null) {
      ProtoFields.writeAnyValueField(BODY, body, out);
    }
    for (int i = 0, n = r.getAttributeCount(); i < n; i++) {
      ProtoFields.writeKeyValueField(ATTRIBUTES, r.getAttributeKey(i), r.getAttributeValue(i), out);
    }
    if (r.getDroppedAttributesCount() != 0) { // uint32, never negative
      out.writeByte(DROPPED_ATTRIBUTES_COUNT);
      out.writeVarint32(r.getDroppedAttributesCount());
    }
    if (r.getFlags() != 0) {
      out.writeByte(FLAGS);
      ProtoWriter.writeFixed32(out, r.getFlags());
    }
    writeBytes(TRACE_ID, r.getTraceId(), out);
    writeBytes(SPAN_ID, r.getSpanId(), out);
    if (r.getObservedTimeUnixNano() != 0) {
      out.writeByte(OBSERVED_TIME_UNIX_NANO);
      ProtoWriter.writeFixed64(out, r.getObservedTimeUnixNano());
    }
    if (notEmpty(r.getEventName())) {
      ProtoFields.writeString(EVENT_NAME, r.getEventName(), out);
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
