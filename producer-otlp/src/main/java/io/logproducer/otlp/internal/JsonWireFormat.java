package io.logproducer.otlp.internal;

import io.logproducer.AnyValue;
import io.logproducer.spi.Batch;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Map;

/**
 * OTLP/HTTP with {@code Content-Type: application/json}: a request is
 * {@code {"resourceLogs":[{"resource":{...},"scopeLogs":[{"scope":{...},"logRecords":[r1,r2,...]}]}]}}. The text
 * before and after the records is encoded once here; a request adds one comma between records, which is why
 * {@link #maxBatchSizeInBytes} keeps room for one comma per {@link JsonRecordEncoder#MIN_RECORD_BYTES} record
 * bytes. Immutable, thread-safe.
 */
public final class JsonWireFormat implements WireFormat {

  /** Content type of JSON requests and responses. */
  public static final String CONTENT_TYPE = "application/json";

  private final RecordEncoder encoder = new JsonRecordEncoder();
  private final byte[] prefix;
  private final byte[] suffix = JsonOutput.ascii("]}]}]}");

  /**
   * @param resourceAttributes the {@code Resource} attributes, in order
   * @param scopeName {@code InstrumentationScope.name}
   * @param scopeVersion {@code InstrumentationScope.version}, or null
   */
  public JsonWireFormat(Map<String, AnyValue> resourceAttributes, String scopeName, String scopeVersion) {
    EncodeBuffer out = new EncodeBuffer(256);
    out.writeAscii("{\"resourceLogs\":[{\"resource\":{");
    JsonValues.writeAttributes(out, resourceAttributes);
    out.writeAscii("},\"scopeLogs\":[{\"scope\":{");
    boolean named = !scopeName.isEmpty();
    if (named) {
      out.writeAscii("\"name\":");
      JsonOutput.writeString(out, scopeName);
    }
    if (scopeVersion != null && !scopeVersion.isEmpty()) {
      out.writeAscii(named ? ",\"version\":" : "\"version\":");
      JsonOutput.writeString(out, scopeVersion);
    }
    out.writeAscii("},\"logRecords\":[");
    this.prefix = Arrays.copyOf(out.array(), out.size());
  }

  @Override
  public RecordEncoder encoder() {
    return encoder;
  }

  @Override
  public String contentType() {
    return CONTENT_TYPE;
  }

  @Override
  public boolean isJson() {
    return true;
  }

  @Override
  public void writeRequest(Batch batch, OutputStream out) throws IOException {
    out.write(prefix);
    for (int i = 0, n = batch.recordCount(); i < n; i++) {
      if (i > 0) {
        out.write(',');
      }
      batch.writeRecord(i, out);
    }
    out.write(suffix);
  }

  @Override
  public int maxBatchSizeInBytes(int maxRequestSizeInBytes) {
    // records S + commas (fewer than S / MIN_RECORD_BYTES) + framing F <= max  <=  S <= (max - F) * m / (m + 1)
    long room = (long) maxRequestSizeInBytes - prefix.length - suffix.length;
    int m = JsonRecordEncoder.MIN_RECORD_BYTES;
    return (int) (room * m / (m + 1));
  }
}
