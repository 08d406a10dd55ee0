package io.logproducer.otlp.encoding.internal;

import io.logproducer.AnyValue;
import io.logproducer.spi.Batch;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Map;

/**
 * OTLP/HTTP with {@code Content-Type: application/json}: a request is {@code
 * {"resourceLogs":[{"resource":{...},"scopeLogs":[{"scope":{...},"logRecords":[r1,r2,...]}]}]}},
 * or, with the scope taken from the records (each record a {@code ScopeLogs} object of its own, see
 * {@link JsonScopeLogsEncoder}), {@code
 * {"resourceLogs":[{"resource":{...},"scopeLogs":[r1,r2,...]}]}}. The text before and after the
 * records is encoded once here; a request adds one comma between records, which is why {@link
 * #maxBatchSizeInBytes} keeps room for one comma per shortest record's bytes ({@link
 * JsonRecordEncoder#MIN_RECORD_BYTES} or {@link JsonScopeLogsEncoder#MIN_RECORD_BYTES}). Immutable,
 * thread-safe.
 */
public final class JsonWireFormat implements WireFormat {

  /** Content type of JSON requests and responses. */
  public static final String CONTENT_TYPE = "application/json";

  private final RecordEncoder encoder;
  private final int minRecordBytes;
  private final byte[] prefix;
  private final byte[] suffix;

  /**
   * One {@code ScopeLogs} with the exporter's scope for all records (records' scope names are
   * ignored).
   *
   * @param resourceAttributes the {@code Resource} attributes, in order
   * @param scopeName {@code InstrumentationScope.name}
   * @param scopeVersion {@code InstrumentationScope.version}, or null
   */
  public JsonWireFormat(
      Map<String, AnyValue> resourceAttributes, String scopeName, String scopeVersion) {
    this(resourceAttributes, scopeName, scopeVersion, false);
  }

  /**
   * @param resourceAttributes the {@code Resource} attributes, in order
   * @param scopeName {@code InstrumentationScope.name}: of every record, or of records without a
   *     scope name
   * @param scopeVersion {@code InstrumentationScope.version} going with {@code scopeName}, or null
   * @param scopeFromRecords whether each record is a {@code ScopeLogs} of its own, scoped by its
   *     {@link io.logproducer.LogRecord#getInstrumentationScopeName() scope name}
   */
  public JsonWireFormat(
      Map<String, AnyValue> resourceAttributes,
      String scopeName,
      String scopeVersion,
      boolean scopeFromRecords) {
    byte[] scope = scope(scopeName, scopeVersion);
    EncodeBuffer out = new EncodeBuffer(256);
    out.writeAscii("{\"resourceLogs\":[{\"resource\":{");
    JsonValues.writeAttributes(out, resourceAttributes);
    out.writeAscii("},\"scopeLogs\":[");
    if (scopeFromRecords) {
      this.encoder = new JsonScopeLogsEncoder(scope);
      this.minRecordBytes = JsonScopeLogsEncoder.MIN_RECORD_BYTES;
      this.suffix = JsonOutput.ascii("]}]}");
    } else {
      out.writeAscii("{\"scope\":");
      out.writeBytes(scope);
      out.writeAscii(",\"logRecords\":[");
      this.encoder = new JsonRecordEncoder();
      this.minRecordBytes = JsonRecordEncoder.MIN_RECORD_BYTES;
      this.suffix = JsonOutput.ascii("]}]}]}");
    }
    this.prefix = Arrays.copyOf(out.array(), out.size());
  }

  /**
   * The {@code InstrumentationScope} object, e.g. {@code
   * {"name":"io.logproducer","version":"1.0"}}.
   */
  private static byte[] scope(String name, String version) {
    EncodeBuffer out = new EncodeBuffer(64);
    out.writeByte('{');
    boolean named = !name.isEmpty();
    if (named) {
      out.writeAscii("\"name\":");
      JsonOutput.writeString(out, name);
    }
    if (version != null && !version.isEmpty()) {
      out.writeAscii(named ? ",\"version\":" : "\"version\":");
      JsonOutput.writeString(out, version);
    }
    out.writeByte('}');
    return Arrays.copyOf(out.array(), out.size());
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
    // records S + commas (fewer than S / m, m the shortest record) + framing F <= max <= S <= (max
    // - F) * m / (m + 1)
    long room = (long) maxRequestSizeInBytes - prefix.length - suffix.length;
    int m = minRecordBytes;
    return (int) (room * m / (m + 1));
  }
}
