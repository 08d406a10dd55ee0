package io.logproducer.benchmark.appenders;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.resources.Resource;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The OpenTelemetry SDK under the OTel variants: a {@link BatchLogRecordProcessor} tuned not to
 * drop where it can ({@link #MAX_QUEUE_SIZE} records queued, batches of {@link #BATCH_SIZE}, a
 * {@link #DELAY_MILLIS} ms schedule; the SDK's defaults are 2048 / 512 / 1000 ms), the OTLP/HTTP
 * protobuf exporter (JDK HttpClient sender, no compression: the SDK's default) to the sink, and
 * service name {@code checkout} as in our appenders' configuration.
 */
final class OtelSdk {

  static final int MAX_QUEUE_SIZE = 262_144;
  static final int BATCH_SIZE = 512;
  static final long DELAY_MILLIS = 200;

  private OtelSdk() {}

  /** {@return a started SDK exporting to {@code endpoint}/v1/logs} */
  static OpenTelemetrySdk build(String endpoint) {
    OtlpHttpLogRecordExporter exporter =
        OtlpHttpLogRecordExporter.builder().setEndpoint(endpoint + "/v1/logs").build();
    BatchLogRecordProcessor processor =
        BatchLogRecordProcessor.builder(exporter)
            .setMaxQueueSize(MAX_QUEUE_SIZE)
            .setMaxExportBatchSize(BATCH_SIZE)
            .setScheduleDelay(Duration.ofMillis(DELAY_MILLIS))
            .build();
    Resource resource =
        Resource.getDefault()
            .merge(
                Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "checkout")));
    return OpenTelemetrySdk.builder()
        .setLoggerProvider(
            SdkLoggerProvider.builder()
                .setResource(resource)
                .addLogRecordProcessor(processor)
                .build())
        .build();
  }

  /** Shuts {@code sdk} down (its processor exports what it queued), waiting up to 60 s. */
  static void shutdown(OpenTelemetrySdk sdk) {
    sdk.shutdown().join(60, TimeUnit.SECONDS);
  }
}
