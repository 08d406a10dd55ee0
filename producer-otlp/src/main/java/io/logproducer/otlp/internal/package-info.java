/**
 * Internals of the OTLP exporter; not API, may change without notice. Encoding: {@code ProtoFields},
 * {@code ProtobufRecordEncoder}, {@code ProtobufScopeLogsEncoder}, {@code ProtobufWireFormat} (size-first protobuf,
 * no protobuf-java at runtime) and {@code JsonOutput}, {@code JsonValues}, {@code JsonRecordEncoder},
 * {@code JsonScopeLogsEncoder}, {@code JsonWireFormat} (OTLP/JSON); the {@code *ScopeLogsEncoder}s put each record
 * in a {@code ScopeLogs} of its own, for the scope taken from the records. Transport
 * and answers: {@code HttpTransport} (Apache HttpClient 5), {@code ExportResponses}, {@code ResponseBodies},
 * {@code RetryAfter}, {@code ProtoReader}, {@code JsonReader}. Configuration: {@code OtlpEnvironment},
 * {@code Endpoints}, {@code Stripes}.
 */
package io.logproducer.otlp.internal;
