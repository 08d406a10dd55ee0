/**
 * The test kit's OTLP logs receivers, on 127.0.0.1: {@link
 * io.logproducer.testing.otlp.OtlpReceiver} for OTLP/HTTP and {@link
 * io.logproducer.testing.otlp.OtlpGrpcReceiver} for OTLP/gRPC (HTTP/2, h2c or TLS), each in strict
 * mode (every request checked as the Collector does, decoded to {@link
 * io.logproducer.testing.otlp.ReceivedLogRecord}s and kept) or counting mode (counters only, fast
 * enough for benchmarks), answering as scripted with {@link io.logproducer.testing.otlp.Reply}
 * (HTTP) or {@link io.logproducer.testing.otlp.GrpcReply} (gRPC statuses, RetryInfo, GOAWAY,
 * RST_STREAM, dropped connections). No protobuf-java: requests are read with the core's own
 * protobuf and JSON readers, and {@link io.logproducer.testing.otlp.ReceivedRequest#body()} gives
 * the raw bytes (for gRPC, the decompressed message without its 5-byte prefix) to tests that want
 * to parse them with generated classes.
 */
package io.logproducer.testing.otlp;
