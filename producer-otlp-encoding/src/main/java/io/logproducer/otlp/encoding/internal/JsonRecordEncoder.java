package io.logproducer.otlp.encoding.internal;

import io.logproducer.AnyValue;
import io.logproducer.LogRecord;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;

/**
 * Encodes a {@link LogRecord} as one OTLP/JSON {@code LogRecord} object: camelCase keys, {@code
 * timeUnixNano} and {@code observedTimeUnixNano} as decimal strings, {@code severityNumber} as an
 * integer, {@code droppedAttributesCount} as a number, {@code traceId} and {@code spanId} as hex,
 * {@code flags} as an unsigned number; absent and default fields are left out, except {@code
 * observedTimeUnixNano}, which is always written so that every record is at least {@link
 * #MIN_RECORD_BYTES} long (this bounds the commas a request adds, see {@link JsonWireFormat}).
 * Thread-safe; allocates only to format doubles.
 */
public final class JsonRecordEncoder implements RecordEncoder {

  /** The shortest encoded record, {@code {"observedTimeUnixNano":"0"}}: {@value} bytes. */
  public static final int MIN_RECORD_BYTES = 28;

  private static final byte[] OBSERVED = JsonOutput.ascii("{\"observedTimeUnixNano\":");
  private static final byte[] TIME = JsonOutput.ascii(",\"timeUnixNano\":");
  private static final byte[] SEVERITY_NUMBER = JsonOutput.ascii(",\"severityNumber\":");
  private static final byte[] SEVERITY_TEXT = JsonOutput.ascii(",\"severityText\":");
  private static final byte[] BODY = JsonOutput.ascii(",\"body\":");
  private static final byte[] ATTRIBUTES = JsonOutput.ascii(",\"attributes\":[");
  private static final byte[] DROPPED_ATTRIBUTES_COUNT =
      JsonOutput.ascii(",\"droppedAttributesCount\":");
  private static final byte[] FLAGS = JsonOutput.ascii(",\"flags\":");
  private static final byte[] TRACE_ID = JsonOutput.ascii(",\"traceId\":");
  private static final byte[] SPAN_ID = JsonOutput.ascii(",\"spanId\":");
  private static final byte[] EVENT_NAME = JsonOutput.ascii(",\"eventName\":");

  @Override
  public void encode(LogRecord r, EncodeBuffer out) {
    out.writeBytes(OBSERVED);
    JsonOutput.writeQuotedUnsignedLong(out, r.getObservedTimeUnixNano());
    if (r.getTimeUnixNano() != 0) {
      out.writeBytes(TIME);
      JsonOutput.writeQuotedUnsignedLong(out, r.getTimeUnixNano());
    }
    if (r.getSeverityNumber() != 0) {
      out.writeBytes(SEVERITY_NUMBER);
      JsonOutput.writeLong(out, r.getSeverityNumber());
    }
    if (notEmpty(r.getSeverityText())) {
      out.writeBytes(SEVERITY_TEXT);
      JsonOutput.writeString(out, r.getSeverityText());
    }
    AnyValue body = r.getBody();
    if (body != null) {
      out.writeBytes(BODY);
      JsonValues.writeAnyValue(out, body);
    }
    int attributes = r.getAttributeCount();
    if (attributes > 0) {
      out.writeBytes(ATTRIBUTES);
      for (int i = 0; i < attributes; i++) {
        if (i > 0) {
          out.writeByte(',');
        }
        JsonValues.writeKeyValue(out, r.getAttributeKey(i), r.getAttributeValue(i));
      }
      out.writeByte(']');
    }
    if (r.getDroppedAttributesCount() != 0) { // uint32: a JSON number
      out.writeBytes(DROPPED_ATTRIBUTES_COUNT);
      JsonOutput.writeLong(out, r.getDroppedAttributesCount());
    }
    if (r.getFlags() != 0) {
      out.writeBytes(FLAGS);
      JsonOutput.writeUnsignedLong(out, r.getFlags() & 0xFFFFFFFFL);
    }
    if (r.getTraceId() != null) {
      out.writeBytes(TRACE_ID);
      JsonOutput.writeHex(out, r.getTraceId());
    }
    if (r.getSpanId() != null) {
      out.writeBytes(SPAN_ID);
      JsonOutput.writeHex(out, r.getSpanId());
    }
    if (notEmpty(r.getEventName())) {
      out.writeBytes(EVENT_NAME);
      JsonOutput.writeString(out, r.getEventName());
    }
    out.writeByte('}');
  }

  private static boolean notEmpty(String s) {
    return s != null && !s.isEmpty();
  }
}
