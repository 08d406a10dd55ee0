package io.logproducer.otlp.encoding.internal;

import static io.logproducer.otlp.encoding.internal.ProtoFields.LEN;
import static io.logproducer.otlp.encoding.internal.ProtoFields.tag;

import io.logproducer.AnyValue;
import io.logproducer.spi.Batch;
import io.logproducer.spi.EncodeBuffer;
import io.logproducer.spi.RecordEncoder;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Map;

/**
 * OTLP/HTTP with {@code Content-Type: application/x-protobuf}. A request is {@code
 * ExportLogsServiceRequest{ resource_logs(1){ resource(1), scope_logs(2){ scope(1),
 * log_records(2)... } } }} ({@code opentelemetry/proto/collector/logs/v1/logs_service.proto}); the
 * resource and scope fields are encoded once here, and the three enclosing lengths are computed in
 * O(1) from {@link Batch#sizeInBytes()} because every encoded record already carries its own {@code
 * log_records} tag and length ({@link ProtobufRecordEncoder}).
 *
 * <p>With the scope taken from the records, each record is a {@code ScopeLogs} of its own, tag and
 * length included ({@link ProtobufScopeLogsEncoder}), and a request is {@code
 * ExportLogsServiceRequest{ resource_logs(1){ resource(1), scope_logs(2)... } }}: two enclosing
 * lengths. Immutable, thread-safe.
 */
public final class ProtobufWireFormat implements WireFormat {

  /** Content type of protobuf requests and responses. */
  public static final String CONTENT_TYPE = "application/x-protobuf";

  private static final int REQUEST_RESOURCE_LOGS = tag(1, LEN);
  private static final int RESOURCE_LOGS_RESOURCE = tag(1, LEN);
  private static final int RESOURCE_LOGS_SCOPE_LOGS = tag(2, LEN);
  private static final int RESOURCE_ATTRIBUTES = tag(1, LEN);
  private static final int SCOPE_LOGS_SCOPE = tag(1, LEN);
  private static final int SCOPE_NAME = tag(1, LEN);
  private static final int SCOPE_VERSION = tag(2, LEN);

  /** A one-byte tag and a varint length of at most 5 bytes. */
  private static final int MAX_HEAD_BYTES = 1 + 5;

  private final RecordEncoder encoder;

  /**
   * Whether each record is a {@code ScopeLogs} of its own (else records are the {@code log_records}
   * of one).
   */
  private final boolean scopeFromRecords;

  /** {@code ResourceLogs.resource}: tag, length, {@code Resource}. */
  private final byte[] resourceField;

  /** {@code ScopeLogs.scope}: tag, length, {@code InstrumentationScope}: the exporter's scope. */
  private final byte[] scopeField;

  /**
   * One {@code ScopeLogs} with the exporter's scope for all records (records' scope names are
   * ignored).
   *
   * @param resourceAttributes the {@code Resource} attributes, in order
   * @param scopeName {@code InstrumentationScope.name}
   * @param scopeVersion {@code InstrumentationScope.version}, or null
   */
  public ProtobufWireFormat(
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
  public ProtobufWireFormat(
      Map<String, AnyValue> resourceAttributes,
      String scopeName,
      String scopeVersion,
      boolean scopeFromRecords) {
    this.resourceField = resourceField(resourceAttributes);
    this.scopeField = scopeField(scopeName, scopeVersion);
    this.scopeFromRecords = scopeFromRecords;
    this.encoder =
        scopeFromRecords ? new ProtobufScopeLogsEncoder(scopeField) : new ProtobufRecordEncoder();
  }

  private static byte[] resourceField(Map<String, AnyValue> attributes) {
    EncodeBuffer out = new EncodeBuffer(256);
    out.writeByte(RESOURCE_LOGS_RESOURCE);
    int index = ProtoWriter.reserveVarint32(out, 1);
    for (Map.Entry<String, AnyValue> e : attributes.entrySet()) {
      ProtoFields.writeKeyValueField(RESOURCE_ATTRIBUTES, e.getKey(), e.getValue(), out);
    }
    ProtoWriter.fillVarint32(out, index, 1);
    return Arrays.copyOf(out.array(), out.size());
  }

  private static byte[] scopeField(String name, String version) {
    EncodeBuffer out = new EncodeBuffer(64);
    out.writeByte(SCOPE_LOGS_SCOPE);
    int index = ProtoWriter.reserveVarint32(out, 1);
    if (!name.isEmpty()) {
      ProtoFields.writeString(SCOPE_NAME, name, out);
    }
    if (version != null && !version.isEmpty()) {
      ProtoFields.writeString(SCOPE_VERSION, version, out);
    }
    ProtoWriter.fillVarint32(out, index, 1);
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
    return false;
  }

  @Override
  public void writeRequest(Batch batch, OutputStream out) throws IOException {
    EncodeBuffer head = new EncodeBuffer(MAX_HEAD_BYTES);
    if (scopeFromRecords) {
      head.writeByte(REQUEST_RESOURCE_LOGS);
      head.writeVarint32(resourceField.length + batch.sizeInBytes());
      out.write(head.array(), 0, head.size());
      out.write(resourceField);
      batch.writeTo(out);
      return;
    }
    int scopeLogsSize = scopeField.length + batch.sizeInBytes();
    int resourceLogsSize = resourceField.length + ProtoFields.lenField(scopeLogsSize);
    head.writeByte(REQUEST_RESOURCE_LOGS);
    head.writeVarint32(resourceLogsSize);
    out.write(head.array(), 0, head.size());
    out.write(resourceField);
    head.reset();
    head.writeByte(RESOURCE_LOGS_SCOPE_LOGS);
    head.writeVarint32(scopeLogsSize);
    out.write(head.array(), 0, head.size());
    out.write(scopeField);
    batch.writeTo(out);
  }

  @Override
  public int maxBatchSizeInBytes(int maxRequestSizeInBytes) {
    return maxRequestSizeInBytes - framingOverheadInBytes();
  }

  /**
   * The worst-case bytes a request holds besides its records: the {@code resource_logs} head and
   * resource, and unless each record carries its own {@code ScopeLogs}, the {@code scope_logs} head
   * and the exporter's scope.
   */
  int framingOverheadInBytes() {
    int resourceLogs = MAX_HEAD_BYTES + resourceField.length;
    return scopeFromRecords ? resourceLogs : resourceLogs + MAX_HEAD_BYTES + scopeField.length;
  }
}
