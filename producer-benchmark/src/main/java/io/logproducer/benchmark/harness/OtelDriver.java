package io.logproducer.benchmark.harness;

import io.logproducer.Compression;
import io.logproducer.LogRecord;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.LogRecordBuilder;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.logs.OtlpGrpcLogRecordExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessorBuilder;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.resources.Resource;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Drives the OpenTelemetry Java SDK the way an application using it would: an {@link
 * SdkLoggerProvider} with a {@link BatchLogRecordProcessor} and an {@link
 * OtlpHttpLogRecordExporter} (protobuf over the JDK HttpClient sender), emitting the same records
 * (body, three string attributes, timestamp, severity INFO).
 *
 * <ul>
 *   <li><b>Defaults</b>: the processor's and exporter's defaults (queue 2048, batch 512, delay 1 s,
 *       no compression). When the queue is full the SDK drops the record and {@code emit} returns:
 *       the loss is measured as emitted − delivered.
 *   <li><b>Tuned</b>: a larger queue and export batch, and — because the SDK offers no blocking
 *       mode — the application waits for queue space itself: a semaphore of {@code maxQueueSize}
 *       permits, taken before each {@code emit} and returned as the processor hands records to the
 *       exporter. The queue can then never overflow, so nothing is dropped.
 * </ul>
 */
final class OtelDriver implements Driver {

  private static final AttributeKey<String> LEVEL = AttributeKey.stringKey("level");
  private static final AttributeKey<String> THREAD = AttributeKey.stringKey("thread");
  private static final AttributeKey<String> LOCATION = AttributeKey.stringKey("location");

  /** The SDK's switch between several HTTP senders on the class path. */
  private static final String HTTP_SENDER_PROPERTY =
      "io.opentelemetry.sdk.common.export.HttpSenderProvider";

  private static final String JDK_HTTP_SENDER =
      "io.opentelemetry.exporter.sender.jdk.internal.JdkHttpSenderProvider";

  private final SdkLoggerProvider provider;
  private final Logger logger;
  private final Semaphore permits;
  private final LongAdder accepted = new LongAdder();
  private final LongAdder delivered = new LongAdder();
  private final LongAdder failed = new LongAdder();
  private final AtomicLong exports = new AtomicLong();
  private final AtomicLong exportNanos = new AtomicLong();
  private final LongAdder blockedNanos = new LongAdder();

  OtelDriver(RunSpec spec, String endpoint) {
    if (spec.compression() != Compression.GZIP && spec.compression() != Compression.NONE) {
      throw new IllegalArgumentException(
          "the OpenTelemetry SDK exporter supports none and gzip, not " + spec.compression());
    }
    LogRecordExporter exporter = exporter(spec, endpoint);
    BatchLogRecordProcessorBuilder pb;
    if (spec.otelTuned()) {
      permits = new Semaphore(spec.otelQueueSize());
      pb =
          BatchLogRecordProcessor.builder(new CountingExporter(exporter))
              .setMaxQueueSize(spec.otelQueueSize())
              .setMaxExportBatchSize(spec.otelBatchSize())
              .setScheduleDelay(Duration.ofMillis(200));
    } else {
      permits = null;
      pb = BatchLogRecordProcessor.builder(new CountingExporter(exporter));
    }
    provider =
        SdkLoggerProvider.builder()
            .setResource(
                Resource.getDefault()
                    .merge(
                        Resource.create(
                            Attributes.of(
                                AttributeKey.stringKey("service.name"), "otel-benchmark"))))
            .addLogRecordProcessor(pb.build())
            .build();
    logger = provider.get("io.logproducer.benchmark");
  }

  /**
   * The SDK's OTLP/HTTP exporter (the JDK HttpClient sender) or, for protocol {@code grpc}, its
   * OTLP/gRPC exporter (the OkHttp sender: the JDK sender does not speak gRPC); tuned runs reuse
   * their export data ({@link MemoryMode#REUSABLE_DATA}).
   */
  private static LogRecordExporter exporter(RunSpec spec, String endpoint) {
    // Two HTTP senders are on the class path (JDK and OkHttp): OTLP/HTTP keeps the JDK one.
    System.setProperty(HTTP_SENDER_PROPERTY, JDK_HTTP_SENDER);
    String compression = spec.compression() == Compression.GZIP ? "gzip" : "none";
    MemoryMode memory = spec.otelTuned() ? MemoryMode.REUSABLE_DATA : MemoryMode.IMMUTABLE_DATA;
    if (spec.grpc()) {
      return OtlpGrpcLogRecordExporter.builder()
          .setEndpoint(endpoint)
          .setCompression(compression)
          .setMemoryMode(memory)
          .build();
    }
    return OtlpHttpLogRecordExporter.builder()
        .setEndpoint(endpoint + "/v1/logs")
        .setCompression(compression)
        .setMemoryMode(memory)
        .build();
  }

  @Override
  public void send(LogRecord r) {
    if (permits != null && !permits.tryAcquire()) {
      long t0 = System.nanoTime();
      permits.acquireUninterruptibly();
      blockedNanos.add(System.nanoTime() - t0);
    }
    LogRecordBuilder b =
        logger
            .logRecordBuilder()
            .setTimestamp(r.getTimeUnixNano(), TimeUnit.NANOSECONDS)
            .setSeverity(Severity.INFO)
            .setBody(r.getBody().asString());
    for (int i = 0, n = r.getAttributeCount(); i < n; i++) {
      b.setAttribute(key(r.getAttributeKey(i)), r.getAttributeValue(i).asString());
    }
    b.emit();
    accepted.increment();
  }

  private static AttributeKey<String> key(String name) {
    return switch (name) {
      case "level" -> LEVEL;
      case "thread" -> THREAD;
      case "location" -> LOCATION;
      default -> AttributeKey.stringKey(name);
    };
  }

  @Override
  public void flush() {
    provider.forceFlush().join(120, TimeUnit.SECONDS);
  }

  @Override
  public Counters counters() {
    long acc = accepted.sum();
    long del = delivered.sum();
    long fail = failed.sum();
    long n = exports.get();
    // Records the SDK did not deliver or fail were dropped from its full queue (or are still
    // queued).
    return new Counters(
        acc,
        del,
        fail,
        Math.max(0, acc - del - fail),
        -1,
        -1,
        -1,
        -1,
        blockedNanos.sum(),
        n,
        n == 0 ? 0 : exportNanos.get() / 1e6 / n,
        -1);
  }

  @Override
  public String threadGroup(String name) {
    if (name.startsWith("BatchLogRecordProcessor")) {
      return "otel-worker";
    }
    if (name.startsWith("HttpClient") || name.contains("http") || name.startsWith("OkHttp")) {
      return "http";
    }
    return null;
  }

  @Override
  public void close() {
    provider.shutdown().join(30, TimeUnit.SECONDS);
  }

  /** Counts what the SDK exports and returns queue permits as records leave the queue. */
  private final class CountingExporter implements LogRecordExporter {
    private final LogRecordExporter delegate;

    CountingExporter(LogRecordExporter delegate) {
      this.delegate = delegate;
    }

    @Override
    public CompletableResultCode export(Collection<LogRecordData> logs) {
      int n = logs.size();
      if (permits != null) {
        permits.release(n);
      }
      long t0 = System.nanoTime();
      CompletableResultCode rc = delegate.export(logs);
      rc.whenComplete(
          () -> {
            exportNanos.addAndGet(System.nanoTime() - t0);
            exports.incrementAndGet();
            if (rc.isSuccess()) {
              delivered.add(n);
            } else {
              failed.add(n);
            }
          });
      return rc;
    }

    @Override
    public CompletableResultCode flush() {
      return delegate.flush();
    }

    @Override
    public CompletableResultCode shutdown() {
      return delegate.shutdown();
    }
  }
}
