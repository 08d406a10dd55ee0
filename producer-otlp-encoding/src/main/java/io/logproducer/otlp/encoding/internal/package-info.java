/**
 * The OTLP logs encoding shared by the OTLP/HTTP and Kafka exporters; not API, may change without
 * notice. Protobuf: {@code ProtoFields}, {@code ProtobufRecordEncoder}, {@code
 * ProtobufScopeLogsEncoder}, {@code ProtobufWireFormat} (size-first protobuf, no protobuf-java at
 * runtime). JSON: {@code JsonOutput}, {@code JsonValues}, {@code JsonRecordEncoder}, {@code
 * JsonScopeLogsEncoder}, {@code JsonWireFormat} (OTLP/JSON). The {@code *ScopeLogsEncoder}s put
 * each record in a {@code ScopeLogs} of its own, for the scope taken from the records. A {@link
 * io.logproducer.otlp.encoding.internal.WireFormat} frames a batch of encoded records into one
 * {@code ExportLogsServiceRequest}. Facts from {@code open-telemetry/opentelemetry-proto} ({@code
 * logs/v1/logs.proto}, {@code collector/logs/v1/logs_service.proto}, {@code
 * docs/specification.md}).
 */
package io.logproducer.otlp.encoding.internal;
