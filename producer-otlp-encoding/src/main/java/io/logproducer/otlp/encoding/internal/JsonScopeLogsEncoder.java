package io.logproducer.otlp.encoding.internal;

import io.logproducer.LogRecord;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;
import java.util.Arrays;

/**
 * Encodes a {@link LogRecord} as one OTLP/JSON {@code ScopeLogs} object of its own, {@code
 * {"scope":{"name":"…"},"logRecords":[{…}]}}, so that a batch's records joined by commas are the
 * {@code scopeLogs} of one {@code ResourceLogs}. The scope is the record's {@link
 * LogRecord#getInstrumentationScopeName() scope name}, or, for a record without one, the exporter's
 * scope (name and version) as the wire format encoded it once; the {@code LogRecord} object is
 * written by {@link JsonRecordEncoder}. Every record is at least {@link #MIN_RECORD_BYTES} long.
 * Thread-safe; allocates only where {@link JsonRecordEncoder} does.
 */
public final class JsonScopeLogsEncoder implements RecordEncoder {

  private static final byte[] SCOPE = JsonOutput.ascii("{\"scope\":");
  private static final byte[] NAMED_SCOPE = JsonOutput.ascii("{\"scope\":{\"name\":");
  private static final byte[] LOG_RECORDS = JsonOutput.ascii(",\"logRecords\":[");
  private static final byte[] END = JsonOutput.ascii("]}");

  /**
   * The shortest encoded record, {@code {"scope":{},"logRecords":[{"observedTimeUnixNano":"0"}]}}
   * (an exporter scope without a name or version): {@value} bytes.
   */
  public static final int MIN_RECORD_BYTES = 28 + JsonRecordEncoder.MIN_RECORD_BYTES;

  private final JsonRecordEncoder records = new JsonRecordEncoder();

  /** {@code {"scope":<the exporter's scope>,"logRecords":[}, written before records without a scope name. */
  private final byte[] defaultHead;

  /**
   * @param defaultScope the exporter's {@code InstrumentationScope} as a JSON object, e.g. {@code
   *     {"name":"io.logproducer"}}, for records without a scope name
   */
  JsonScopeLogsEncoder(byte[] defaultScope) {
    EncodeBuffer head = new EncodeBuffer(SCOPE.length + defaultScope.length + LOG_RECORDS.length);
    head.writeBytes(SCOPE);
    head.writeBytes(defaultScope);
    head.writeBytes(LOG_RECORDS);
    this.defaultHead = Arrays.copyOf(head.array(), head.size());
  }

  @Override
  public void encode(LogRecord record, EncodeBuffer out) {
    String name = record.getInstrumentationScopeName();
    if (name != null && !name.isEmpty()) {
      out.writeBytes(NAMED_SCOPE);
      JsonOutput.writeString(out, name);
      out.writeByte('}');
      out.writeBytes(LOG_RECORDS);
    } else {
      out.writeBytes(defaultHead);
    }
    records.encode(record, out);
    out.writeBytes(END);
  }
}
