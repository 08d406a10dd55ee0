package io.logproducer.otlp.encoding.internal;

import static io.logproducer.otlp.encoding.internal.ProtoFields.LEN;
import static io.logproducer.otlp.encoding.internal.ProtoFields.tag;

import io.logproducer.LogRecord;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;

/**
 * Encodes a {@link LogRecord} as OTLP protobuf in a {@code ScopeLogs} of its own: field 2 of {@code
 * ResourceLogs} (tag {@code 0x12}, varint length, {@code ScopeLogs{ scope(1), log_records(2) }}),
 * so that a batch's records concatenated are the {@code scope_logs} of one {@code ResourceLogs}.
 * The scope is {@code InstrumentationScope{ name(1) }} with the record's {@link
 * LogRecord#getInstrumentationScopeName() scope name}, or, for a record without one, the exporter's
 * scope (name and version) as the wire format encoded it once. The {@code LogRecord} is written by
 * {@link ProtobufRecordEncoder}; the output is byte-for-byte what protobuf-java writes for the same
 * {@code ScopeLogs}.
 *
 * <p>As {@link ProtobufRecordEncoder}: one pass, lengths filled in after what they count, no
 * allocation. Thread-safe.
 */
public final class ProtobufScopeLogsEncoder implements RecordEncoder {

  /** {@code ResourceLogs.scope_logs}, field 2, length-delimited. */
  public static final int RESOURCE_LOGS_SCOPE_LOGS_TAG = tag(2, LEN);

  private static final int SCOPE_LOGS_SCOPE = tag(1, LEN);
  private static final int SCOPE_NAME = tag(1, LEN);

  /**
   * {@code ScopeLogs.scope} (tag, length, {@code InstrumentationScope}) of records without a scope
   * name.
   */
  private final byte[] defaultScopeField;

  /**
   * @param defaultScopeField the {@code ScopeLogs.scope} field (tag, length, {@code
   *     InstrumentationScope}) written for records without a scope name; not copied, not to be
   *     modified
   */
  ProtobufScopeLogsEncoder(byte[] defaultScopeField) {
    this.defaultScopeField = defaultScopeField;
  }

  @Override
  public void encode(LogRecord record, EncodeBuffer out) {
    String name = record.getInstrumentationScopeName();
    out.writeByte(RESOURCE_LOGS_SCOPE_LOGS_TAG);
    int index = ProtoWriter.reserveVarint32(out, ProtobufRecordEncoder.LENGTH_WIDTH);
    if (name != null && !name.isEmpty()) {
      out.writeByte(SCOPE_LOGS_SCOPE);
      int scopeWidth =
          EncodeBuffer.varintSize32(2 + name.length()); // a UTF-8 length is at least the char count
      int scopeIndex = ProtoWriter.reserveVarint32(out, scopeWidth);
      ProtoFields.writeString(SCOPE_NAME, name, out);
      ProtoWriter.fillVarint32(out, scopeIndex, scopeWidth);
    } else {
      out.writeBytes(defaultScopeField);
    }
    ProtobufRecordEncoder.writeField(record, out);
    ProtoWriter.fillVarint32(out, index, ProtobufRecordEncoder.LENGTH_WIDTH);
  }
}
