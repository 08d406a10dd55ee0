/**
 * The test kit's OTLP/HTTP logs receiver: {@link io.logproducer.testing.otlp.OtlpReceiver} on
 * 127.0.0.1, in strict mode (every request checked as the Collector does, decoded to {@link
 * io.logproducer.testing.otlp.ReceivedLogRecord}s and kept) or counting mode (counters only, fast
 * enough for benchmarks), answering as scripted with {@link io.logproducer.testing.otlp.Reply}. No
 * protobuf-java: requests are read with the core's own protobuf and JSON readers, and {@link
 * io.logproducer.testing.otlp.ReceivedRequest#body()} gives the raw bytes to tests that want to
 * parse them with generated classes.
 */
package io.logproducer.testing.otlp;
