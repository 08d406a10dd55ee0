package io.logproducer.otlp.encoding.internal;

import static io.logproducer.otlp.encoding.internal.ProtoFields.LEN;
import static io.logproducer.otlp.encoding.internal.ProtoFields.lenField;
import static io.logproducer.otlp.encoding.internal.ProtoFields.tag;

import io.logproducer.LogRecord;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;

/**
 * Encodes a {@link LogRecord} as OTLP protobuf in a {@code ScopeLogs} of its own: field 2 of {@code ResourceLogs}
 * (tag {@code 0x12}, varint length, {@code ScopeLogs{ scope(1), log_records(2) }}), so that a batch's records
 * concatenated are the {@code scope_logs} of one {@code ResourceLogs}. The scope is
 * {@code InstrumentationScope{ name(1) }} with the record's {@link LogRecord#getInstrumentationScopeName() scope
 * name}, or, for a record without one, the exporter's scope (name and version) as the wire format encoded it once.
 * The {@code LogRecord} is written by {@link ProtobufRecordEncoder}; the output is byte-for-byte what protobuf-java
 * writes for the same {@code ScopeLogs}.
 *
 * <p>As {@link ProtobufRecordEncoder}: sizes first, then every byte written once, no allocation (the scope name's
 * UTF-8 length is measured once and a pure-ASCII name copied in bulk). Thread-safe.
 */
public final class ProtobufScopeLogsEncoder implements RecordEncoder {

  /** {@code ResourceLogs.scope_logs}, field 2, length-delimited. */
  public static final int RESOURCE_LOGS_SCOPE_LOGS_TAG = tag(2, LEN);

  private static final int SCOPE_LOGS_SCOPE = tag(1, LEN);
  private static final int SCOPE_NAME = tag(1, LEN);

  /** {@code ScopeLogs.scope} (tag, length, {@code InstrumentationScope}) of records without a scope name. */
  private final byte[] defaultScopeField;

  /**
   * @param defaultScopeField the {@code ScopeLogs.scope} field (tag, length, {@code InstrumentationScope}) written
   *     for records without a scope name; not copied, not to be modified
   */
  ProtobufScopeLogsEncoder(byte[] defaultScopeField) {
    this.defaultScopeField = defaultScopeField;
  }

  @Override
  public void encode(LogRecord record, EncodeBuffer out) {
    SizeCache sizes = SizeCache.forThread();
    int recordSize = ProtobufRecordEncoder.size(record, sizes);
    String name = record.getInstrumentationScopeName();
    boolean named = name != null && !name.isEmpty();
    int nameMarked = 0;
    int scopeSize = 0;
    int scopeFieldSize = defaultScopeField.length;
    if (named) {
      nameMarked = EncodeBuffer.utf8LengthMarked(name);
      scopeSize = lenField(EncodeBuffer.markedLength(nameMarked));
      scopeFieldSize = lenField(scopeSize);
    }
    int scopeLogsSize = scopeFieldSize + lenField(recordSize);
    out.writeByte(RESOURCE_LOGS_SCOPE_LOGS_TAG);
    out.writeVarint32(scopeLogsSize);
    if (named) {
      out.writeByte(SCOPE_LOGS_SCOPE);
      out.writeVarint32(scopeSize);
      out.writeByte(SCOPE_NAME);
      out.writeVarint32(EncodeBuffer.markedLength(nameMarked));
      out.writeUtf8Marked(name, nameMarked);
    } else {
      out.writeBytes(defaultScopeField);
    }
    ProtobufRecordEncoder.writeField(record, recordSize, out, sizes);
  }
}
